#!/usr/bin/python3
"""One torchvision model, exported by scripts/onnx-export.py, checked through coinfer end to end:

1. `coinfer model show M.onnx --json`: total parameters equal PyTorch's exactly;
2. `coinfer infer M.onnx --input M.input.npy --output y.npy`: y equals PyTorch's output to a max
   absolute difference of 1e-4 of the output's largest magnitude;
3. a scenario on the file runs the jointdnn (--jointdnn-solver picks its solver), neurosurgeon, local
   and remote partitioners on a TX2 + K40 over 4G, and a stream through the 4-stage pipeline partitioner;
4. with --modnn (chain models), a scenario runs MoDNN's bodp, modnn and grid2d with 4 workers on
   wlan4, and each must finish sooner than the GO alone.

    torchvision_check.py --coinfer build/coinfer --exports build/onnx-exports resnet18
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"FAILED ({r.returncode}): {' '.join(cmd)}\n{r.stdout}\n{r.stderr}")
    return r.stdout


def scenario(model, jointdnn_solver):
    tx2 = os.path.join(SOURCE, "platforms", "jointdnn_tx2_k40.yaml")
    offload = [
        "  - {label: local, set: {partitioner: {name: local}}}",
        "  - {label: remote, set: {partitioner: {name: remote, server: k40, network: 4g}}}",
        "  - {label: neurosurgeon, set: {partitioner: {name: neurosurgeon, cloud: k40, network: 4g}}}",
    ]
    solver = f", solver: {jointdnn_solver}" if jointdnn_solver else ""
    offload.append("  - {label: jointdnn, set: {partitioner: {name: jointdnn, cloud: k40, network: 4g"
                   + solver + "}}}")
    return "\n".join([
        f"name: onnx-{os.path.basename(model)}", f"model: {model}", f"platform: {tx2}", "source: tx2",
        "host_profile: {basis: estimate}", "partitioner: {name: local}", "workload: {kind: single}",
        "seed: 1", "compare:", *offload, ""])


def pipeline(model):
    rpi = os.path.join(SOURCE, "platforms", "rpi_pipeline4.yaml")
    return "\n".join([
        f"name: onnx-pipeline", f"model: {model}", f"platform: {rpi}", "host_profile: {basis: estimate}",
        "partitioner: {name: pipeline, devices: [d1, d2, d3, d4], splits: auto, units: layers, ops: macs}",
        "workload: {kind: stream, rate_fps: 2, frames: 8, policy: queue, queue_capacity: 1, max_in_flight: 4}",
        "seed: 1", ""])


def modnn(model):
    wlan4 = os.path.join(SOURCE, "platforms", "wlan4.yaml")
    return "\n".join([
        "name: onnx-modnn", f"model: {model}", f"platform: {wlan4}", "source: go",
        "host_profile: {basis: estimate}", "partitioner: {name: local}", "workload: {kind: single}",
        "seed: 1", "compare:", "  - {label: local, set: {partitioner: {name: local}}}",
        *[f"  - {{label: {p}, set: {{partitioner: {{name: {p}, workers: 4}}}}}}" for p in ("bodp", "modnn", "grid2d")],
        ""])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model")
    ap.add_argument("--coinfer", required=True)
    ap.add_argument("--exports", required=True)
    ap.add_argument("--jointdnn-solver",
                    help="jointdnn's solver (ilp where the model has too many open skips for the shortest path)")
    ap.add_argument("--modnn", action="store_true", help="also run MoDNN's partitioners (a chain model)")
    a = ap.parse_args()
    stem = os.path.join(os.path.abspath(a.exports), a.model)
    meta = json.load(open(stem + ".json"))
    shown = json.loads(run([a.coinfer, "model", "show", stem + ".onnx", "--json"]))
    if shown["total_params"] != meta["params"]:
        sys.exit(f"{a.model}: coinfer counts {shown['total_params']} parameters, PyTorch {meta['params']}")
    with tempfile.TemporaryDirectory(prefix=f"onnx-{a.model}-") as tmp:
        out = os.path.join(tmp, "y.npy")
        run([a.coinfer, "infer", stem + ".onnx", "--input", stem + ".input.npy", "--output", out])
        ours, torch = np.load(out), np.load(stem + ".output.npy")
        if ours.shape != torch.shape:
            sys.exit(f"{a.model}: coinfer's output is {ours.shape}, PyTorch's {torch.shape}")
        diff = float(np.abs(ours - torch).max() / np.abs(torch).max())
        if not diff <= 1e-4:
            sys.exit(f"{a.model}: max |coinfer - PyTorch| is {diff:.3g} of the output's largest magnitude")
        for name, text in (("offload.yaml", scenario(stem + ".onnx", a.jointdnn_solver)),
                           ("pipeline.yaml", pipeline(stem + ".onnx"))):
            path = os.path.join(tmp, name)
            with open(path, "w") as f:
                f.write(text)
            run([a.coinfer, "run", path, "--out", os.path.join(tmp, name + ".out")])
        if a.modnn:
            path = os.path.join(tmp, "modnn.yaml")
            with open(path, "w") as f:
                f.write(modnn(stem + ".onnx"))
            run([a.coinfer, "run", path, "--out", os.path.join(tmp, "modnn.out")])
            latency = {}
            for label in ("local", "bodp", "modnn", "grid2d"):
                with open(os.path.join(tmp, "modnn.out", label, "results.json")) as f:
                    latency[label] = round(json.load(f)["latency_ms"]["mean"], 1)
            slower = [p for p in ("bodp", "modnn", "grid2d") if not latency[p] < latency["local"]]
            if slower:
                sys.exit(f"{a.model}: {', '.join(slower)} on 4 workers not faster than the GO alone: {latency}")
            print(f"{a.model}: MoDNN on 4 workers, latency ms {latency}")
    print(f"{a.model}: {meta['params']} parameters as PyTorch's; output within {diff:.2g} of PyTorch's")


if __name__ == "__main__":
    main()
