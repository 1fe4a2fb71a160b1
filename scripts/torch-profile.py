#!/usr/bin/python3
"""Per-layer latency of torchvision models on PyTorch (CPU, or a CUDA GPU), named with coinfer's layer names.

    scripts/torch-profile.py (--coinfer build/coinfer | --layers DIR) --out DIR [--steps 30] [--rounds 3]
                             [--warmup 5] [--threads 1] [--device cpu|cuda] [--trace resnet18]
                             [--trace-steps 1] [MODEL...]

For every MODEL (default: all of MODELS below) the torchvision model of the same architecture is
built with random weights (nothing is downloaded), put in eval mode and run at batch 1 on
`--threads` CPU threads. torch.fx gives its execution order (every module call, the re-used relu
and the residual `add` included); each node is mapped, in order, to our layers with work
(`coinfer model show --json MODEL`, all but the input; with --layers, the file DIR/MODEL.json that
command wrote, for a machine without coinfer) and run inside
`torch.profiler.record_function(<our layer name>)`. The mapping is verified and the script fails
loudly unless the counts agree and every pair has a matching op type, output shape and parameter
count. Torch nodes that do no work of their own (`flatten`, an adaptive average pool whose output
equals its input) are not layers of ours and run unnamed; a trailing `softmax` of ours that the
torchvision model leaves out is run after it.

The --steps profiled steps of a model are taken in --rounds rounds, each round going over every
model in turn, so that a burst of load from other processes falls on all models alike.
Writes DIR/MODEL.csv (`layer,ms`: the median over the profiled steps of each layer's annotated
range, milliseconds), DIR/MODEL.trace.json for the models named by --trace (the Chrome trace of
--trace-steps further steps, profiled apart), DIR/end_to_end.csv (`model,layer_sum_ms,plain_step_ms`:
the sum of a model's layer medians, and the median over --steps steps of the model run as torch runs
it, with no named ranges and no synchronisation between layers: what the per-layer measurement adds)
and DIR/provenance.txt (CPU, versions, threads, steps, date, load average). With --device cuda,
also DIR/MODEL.kernels.csv: per layer the median time its GPU kernels ran (the profiler's CUDA
activity under the layer's range; a layer that launched none, such as dropout in eval mode, is left
out), what the layer costs once the host's launch overhead is hidden (CUDA graphs, a serving
runtime); end_to_end.csv then has their sum as `kernel_sum_ms`.
With --device cuda the model and input live on the GPU and every named range ends with
torch.cuda.synchronize() (and starts after one), so that it covers the layer's kernels, not only
their launch; provenance.txt then names the GPU, the CUDA and cuDNN versions and whether TF32 was
allowed. Fit a device from the CSVs with `coinfer calibrate --from-profile`
(docs/guide/prediction-error.md).
Exit status 2 on a mapping mismatch, a bad argument or --device cuda without a CUDA GPU.
"""
import argparse
import contextlib
import dataclasses
import datetime
import functools
import json
import operator
import os
import platform
import statistics
import subprocess
import sys

import torch
import torch.fx
import torchvision
from torch.fx.passes.shape_prop import ShapeProp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch_timing  # noqa: E402 (scripts/torch_timing.py, next to this script)

# Zoo models whose torchvision counterpart has the same architecture (layers, shapes, params).
# Left out: alexnet (ours is the two-group Caffe AlexNet with LRN; torchvision's is the one-tower
# variant without LRN), and zoo models torchvision does not have (inception_bn is BN-Inception,
# not GoogLeNet / Inception-v3; the rest are small or non-ImageNet models).
MODELS = ["vgg16", "resnet18", "resnet50", "resnet101", "resnet152", "mobilenet_v2"]


fail = functools.partial(torch_timing.fail, "torch-profile.py")


def our_layers(coinfer, layers_dir, model):
    """Our layers with work (all but `input`), in the order `model show --json` lists them: from
    coinfer, or from layers_dir/MODEL.json (that command's output saved) when layers_dir is set."""
    if layers_dir:
        path = os.path.join(layers_dir, f"{model}.json")
        try:
            with open(path) as f:
                shown = json.load(f)
        except (OSError, ValueError) as e:
            fail(f"--layers: {path}: {e} (expected the output of `coinfer model show --json {model}`)")
        if not isinstance(shown, dict) or not isinstance(shown.get("layers"), list):
            fail(f"--layers: {path}: expected the output of `coinfer model show --json {model}` (no 'layers' list)")
    else:
        out = subprocess.run([coinfer, "model", "show", "--json", model], capture_output=True, text=True)
        if out.returncode != 0:
            fail(f"{coinfer} model show --json {model}: {out.stderr.strip()}")
        shown = json.loads(out.stdout)
    return [layer for layer in shown["layers"] if layer["op"] != "input"]


def squeeze_tail(shape):
    """[1280, 1, 1] and [1280] compare equal: trailing unit dimensions dropped."""
    shape = list(shape)
    while len(shape) > 1 and shape[-1] == 1:
        shape.pop()
    return shape


def node_op(gm, node):
    """Our op name for a torch.fx node, or None for a node that is not a layer of ours."""
    if node.op == "call_module":
        module = gm.get_submodule(node.target)
        if isinstance(module, torch.nn.Conv2d):
            depthwise = module.groups > 1 and module.groups == module.in_channels == module.out_channels
            return "depthwise_conv2d" if depthwise else "conv2d"
        if isinstance(module, torch.nn.AdaptiveAvgPool2d):
            return "global_avg_pool" if squeeze_tail(node.meta["tensor_meta"].shape[1:]) != squeeze_tail(
                node.args[0].meta["tensor_meta"].shape[1:]) else None
        kinds = [(torch.nn.BatchNorm2d, "batch_norm"), (torch.nn.ReLU6, "relu6"), (torch.nn.ReLU, "relu"),
                 (torch.nn.MaxPool2d, "max_pool"), (torch.nn.Linear, "fc"), (torch.nn.Dropout, "dropout")]
        for kind, name in kinds:
            if isinstance(module, kind):
                return name
        fail(f"no op of ours for module {node.target} ({type(module).__name__})")
    if node.op == "call_function":
        if node.target in (operator.add, operator.iadd, torch.add):
            return "add"
        if node.target is torch.flatten:
            return None
        if node.target is torch.nn.functional.adaptive_avg_pool2d:
            return "global_avg_pool"
        fail(f"no op of ours for function {node.target}")
    fail(f"no op of ours for node {node.name} ({node.op})")


def node_params(gm, node):
    if node.op != "call_module":
        return 0
    return sum(p.numel() for p in gm.get_submodule(node.target).parameters(recurse=False))


def map_layers(model, gm, ours):
    """{fx node name: our layer name}, verified; and our trailing layers run after the model."""
    nodes = [n for n in gm.graph.nodes if n.op not in ("placeholder", "output")]
    mapping, k = {}, 0
    for node in nodes:
        op = node_op(gm, node)
        if op is None:
            continue
        if k >= len(ours):
            fail(f"{model}: torch has more layers than ours (extra node {node.name}, {op})")
        layer = ours[k]
        shape = squeeze_tail(node.meta["tensor_meta"].shape[1:])
        checks = [("op", op, layer["op"]), ("output shape", shape, squeeze_tail(layer["output_shape"])),
                  ("params", node_params(gm, node), layer["params"])]
        for what, theirs, mine in checks:
            if theirs != mine:
                fail(f"{model}: torch node {node.name} -> our layer {layer['name']}: {what} {theirs} != {mine}")
        mapping[node.name] = layer["name"]
        k += 1
    tail = ours[k:]
    if [layer["op"] for layer in tail] not in ([], ["softmax"]):
        fail(f"{model}: our layers {[layer['name'] for layer in tail]} have no torch counterpart")
    return mapping, [layer["name"] for layer in tail]


@contextlib.contextmanager
def named_range(label, cuda):
    """record_function(label); on CUDA synchronized before and at the end, so that the range
    covers the kernels it launched, not only their launch."""
    if cuda:
        torch.cuda.synchronize()
    with torch.profiler.record_function(label):
        yield
        if cuda:
            torch.cuda.synchronize()


class NamedInterpreter(torch.fx.Interpreter):
    """Runs each mapped node inside record_function(<our layer name>) (arguments fetched outside)."""

    def __init__(self, gm, names, cuda):
        super().__init__(gm)
        self.names = names
        self.cuda = cuda

    def run_node(self, node):
        label = self.names.get(node.name)
        if label is None:
            return super().run_node(node)
        args, kwargs = self.fetch_args_kwargs_from_env(node)
        with named_range(label, self.cuda):
            return getattr(self, node.op)(node.target, args, kwargs)


def build(model, coinfer, layers_dir=None, device="cpu"):
    net = getattr(torchvision.models, model)(weights=None).eval()
    gm = torch.fx.symbolic_trace(net)
    x = torch.randn(1, 3, 224, 224)
    ShapeProp(gm).propagate(x)
    mapping, tail = map_layers(model, gm, our_layers(coinfer, layers_dir, model))
    cuda = device == "cuda"
    gm, x = gm.to(device), x.to(device)
    interpreter = NamedInterpreter(gm, mapping, cuda)

    def step():
        out = interpreter.run(x)
        for name in tail:  # our trailing softmax
            with named_range(name, cuda):
                out = torch.softmax(out, dim=1)
        return out

    def plain_step():
        out = gm(x)
        for _ in tail:
            out = torch.softmax(out, dim=1)
        if cuda:
            torch.cuda.synchronize()
        return out

    return step, plain_step, list(mapping.values()) + tail


def kernel_us(event):
    """Microseconds of GPU kernels launched inside a CPU event, its children's included."""
    total = getattr(event, "device_time_total", None)  # torch 2; torch 1.13 names it cuda_time_total
    return total if total is not None else event.cuda_time_total


def profile_steps(step, names, steps, samples, kernels=None):
    """Runs `steps` profiled steps and appends each named range's milliseconds to samples[name];
    with `kernels` (a dict like samples: CUDA), also the milliseconds its GPU kernels ran."""
    activities = [torch.profiler.ProfilerActivity.CPU]
    if kernels is not None:
        activities.append(torch.profiler.ProfilerActivity.CUDA)
    with torch.profiler.profile(activities=activities) as prof:
        for _ in range(steps):
            step()
    wanted = set(names)
    for event in prof.events():
        if event.name in wanted and event.device_type == torch.autograd.DeviceType.CPU:
            samples[event.name].append(event.time_range.elapsed_us() / 1000.0)
            if kernels is not None:
                kernels[event.name].append(kernel_us(event) / 1000.0)


@dataclasses.dataclass
class Profiled:
    """One model under profile: its steps, its layer names and the samples gathered so far."""
    step: object  # the profiled forward step
    plain_step: object  # the same step without the profiler (end to end)
    names: list
    samples: dict = dataclasses.field(default_factory=dict)  # layer -> ms per step (wall)
    kernels: dict = None  # layer -> GPU kernel ms per step (CUDA only)
    plain: list = dataclasses.field(default_factory=list)  # plain step ms


def profile_models(args, steps):
    """Every model profiled in --rounds interleaved rounds of steps / --rounds steps (a burst of
    load on the machine then touches every model alike, not the one that happened to run);
    medians over all rounds."""
    built = {}
    for model in args.models:
        torch.manual_seed(0)
        step, plain_step, names = build(model, args.coinfer, args.layers, args.device)
        for _ in range(args.warmup):
            step()
            plain_step()
        kernels = {name: [] for name in names} if args.device == "cuda" else None
        built[model] = Profiled(step, plain_step, names, {name: [] for name in names}, kernels)
    for _ in range(args.rounds):
        for m in built.values():
            profile_steps(m.step, m.names, steps // args.rounds, m.samples, m.kernels)
            m.plain += torch_timing.wall_ms(m.plain_step, steps // args.rounds)
    rows = []
    for model, m in built.items():
        row = [model, write_model(model, m.step, m.names, m.samples, steps, args, "")]
        if m.kernels is not None:
            row.append(write_model(model, None, m.names, m.kernels, steps, args, ".kernels"))
        rows.append(",".join(f"{x:.6g}" if isinstance(x, float) else x for x in row + [statistics.median(m.plain)]))
    header = "model,layer_sum_ms," + ("kernel_sum_ms," if args.device == "cuda" else "") + "plain_step_ms"
    with open(os.path.join(args.out, "end_to_end.csv"), "w") as f:
        f.write(header + "\n" + "\n".join(rows) + "\n")


def write_model(model, step, names, samples, steps, args, suffix):
    """Writes DIR/MODEL{suffix}.csv (the medians) and, with a step, the trace --trace asks for;
    returns the sum of the medians."""
    for name in names:
        if len(samples[name]) != steps:
            fail(f"{model}: layer {name} has {len(samples[name])} profiled ranges, expected {steps}")
    medians = {name: statistics.median(samples[name]) for name in names}
    if suffix:  # a layer that launched no kernel (dropout in eval mode) has no GPU time to fit
        names = [name for name in names if medians[name] > 0]
        if not names:
            fail(f"{model}: the profiler attributed no GPU kernel time to any layer")
    with open(os.path.join(args.out, f"{model}{suffix}.csv"), "w") as f:
        f.write("layer,ms\n")
        for name in names:
            f.write(f"{name},{medians[name]:.6g}\n")
    if step is not None and model in args.trace:  # a separate short profile: the trace of every step would be megabytes
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as short:
            for _ in range(args.trace_steps):
                step()
        short.export_chrome_trace(os.path.join(args.out, f"{model}.trace.json"))
    print(f"{model}{suffix}: {len(names)} layers, sum of medians {sum(medians.values()):.2f} ms")
    return sum(medians.values())


def cpu_model():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor()


def gpu_model():
    return (f"cuda: {torch.cuda.get_device_name(0)} (CUDA {torch.version.cuda}, cuDNN "
            f"{torch.backends.cudnn.version()}); TF32 allowed in convolutions: "
            f"{torch.backends.cudnn.allow_tf32}, in matmuls: {torch.backends.cuda.matmul.allow_tf32}")


def load_average():
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("models", nargs="*", default=MODELS)
    p.add_argument("--coinfer", default="build/coinfer")
    p.add_argument("--layers", help="read our layers from DIR/MODEL.json (`coinfer model show --json MODEL`) "
                                    "instead of running --coinfer")
    p.add_argument("--out", required=True)
    p.add_argument("--steps", type=int, default=30)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    p.add_argument("--trace", nargs="*", default=["resnet18"])
    p.add_argument("--trace-steps", type=int, default=1)
    args = p.parse_args()
    if args.steps < 20:
        fail(f"--steps {args.steps}: expected at least 20 profiled steps")
    if not 1 <= args.rounds <= args.steps:
        fail(f"--rounds {args.rounds}: expected 1 to --steps")
    for model in args.models:
        if model not in MODELS:
            fail(f"unknown model '{model}'; known: {', '.join(MODELS)}")
    if args.device == "cuda" and not torch.cuda.is_available():
        fail("--device cuda: this PyTorch sees no CUDA GPU (torch.cuda.is_available() is False)")
    os.makedirs(args.out, exist_ok=True)
    torch.set_num_threads(args.threads)
    before = load_average()
    started = datetime.datetime.now(datetime.timezone.utc)
    steps = -(-args.steps // args.rounds) * args.rounds  # --steps rounded up to whole rounds
    with torch.no_grad():
        profile_models(args, steps)
    provenance = [
        f"cpu: {cpu_model()} ({os.cpu_count()} logical CPUs)",
        f"torch: {torch.__version__}, torchvision: {torchvision.__version__}, python: {platform.python_version()}",
        f"device: {gpu_model() if args.device == 'cuda' else 'cpu'}",
        f"threads: {torch.get_num_threads()}, batch: 1, warmup steps: {args.warmup}, "
        f"profiled steps: {steps} in {args.rounds} rounds over the models",
        "weights: random (torch.manual_seed(0)), eval mode, torch.no_grad()",
        f"models: {' '.join(args.models)}",
        f"chrome traces: {' '.join(args.trace) or 'none'} ({args.trace_steps} step(s) each, after the profiled ones)",
        f"date: {started.strftime('%Y-%m-%dT%H:%M:%SZ')}",
        f"load average (1, 5, 15 min) before: {before}, after: {load_average()}",
    ]
    with open(os.path.join(args.out, "provenance.txt"), "w") as f:
        f.write("\n".join(provenance) + "\n")


if __name__ == "__main__":
    main()
