#!/usr/bin/python3
"""How a model's time grows with the batch size on a CUDA GPU: batch 1 to 32, measured with PyTorch.

    scripts/gpu-batch.py --out FILE [--batches 1,2,4,8,16,32] [--reps 20] [--warmup 5] [--device cuda|cpu]
                         [MODEL...]

For every torchvision MODEL (default: alexnet, vgg16, resnet50; random weights, eval mode,
torch.no_grad(), fp32 with PyTorch's default TF32 settings) and batch size, two times, each the
median over --reps steps after --warmup:
- `graph_ms`: the forward pass captured once in a CUDA graph and replayed, timed with CUDA events:
  the GPU's own time for the batch, the host's kernel launches taken out;
- `eager_ms`: the forward pass as PyTorch runs it, wall time to a synchronisation.
Writes FILE (`model,batch,graph_ms,eager_ms`; graph_ms is empty on --device cpu) and prints it,
with each time over the batch-1 time of the same model. Exit status 2 on a bad argument or
--device cuda without a CUDA GPU.
"""
import argparse
import functools
import os
import statistics
import sys

import torch
import torchvision

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch_timing  # noqa: E402 (scripts/torch_timing.py, next to this script)


fail = functools.partial(torch_timing.fail, "gpu-batch.py")


def graph_ms(net, x, reps, warmup):
    """Median ms of a CUDA-graph replay of net(x), timed with CUDA events."""
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):  # warm-up on a side stream before capture, as PyTorch asks
        for _ in range(warmup):
            net(x)
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        net(x)
    times = []
    for _ in range(warmup + reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        graph.replay()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times[warmup:])


def eager_ms(net, x, reps, warmup, cuda):
    """Median wall ms of net(x) as PyTorch runs it, to a synchronisation on CUDA."""
    times = torch_timing.wall_ms(lambda: net(x), warmup + reps, torch.cuda.synchronize if cuda else None)
    return statistics.median(times[warmup:])


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("models", nargs="*", default=["alexnet", "vgg16", "resnet50"])
    p.add_argument("--out", required=True)
    p.add_argument("--batches", default="1,2,4,8,16,32")
    p.add_argument("--reps", type=int, default=20)
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--device", choices=["cpu", "cuda"], default="cuda")
    args = p.parse_args()
    try:
        batches = [int(b) for b in args.batches.split(",")]
    except ValueError:
        fail(f"--batches {args.batches}: expected comma-separated integers")
    if not batches or batches[0] != 1 or any(b < 1 for b in batches):
        fail(f"--batches {args.batches}: expected sizes >= 1, starting with 1 (the reference)")
    if args.reps < 1 or args.warmup < 1:
        fail("expected --reps >= 1 and --warmup >= 1")
    for model in args.models:
        if not hasattr(torchvision.models, model):
            fail(f"unknown torchvision model '{model}'")
    cuda = args.device == "cuda"
    if cuda and not torch.cuda.is_available():
        fail("--device cuda: this PyTorch sees no CUDA GPU (torch.cuda.is_available() is False)")
    rows = ["model,batch,graph_ms,eager_ms"]
    with torch.no_grad():
        for model in args.models:
            torch.manual_seed(0)
            net = getattr(torchvision.models, model)(weights=None).eval().to(args.device)
            first = None
            for batch in batches:
                x = torch.randn(batch, 3, 224, 224, device=args.device)
                g = graph_ms(net, x, args.reps, args.warmup) if cuda else None
                e = eager_ms(net, x, args.reps, args.warmup, cuda)
                first = first or (g, e)
                rows.append(f"{model},{batch},{'' if g is None else f'{g:.6g}'},{e:.6g}")
                ratio = f"graph {g / first[0]:.2f}x, " if cuda else ""
                print(f"{model} batch {batch}: {ratio}eager {e / first[1]:.2f}x batch 1", flush=True)
    with open(args.out, "w") as f:
        f.write("\n".join(rows) + "\n")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
