#!/usr/bin/python3
"""A CUDA GPU's board power, idle and busy, read with nvidia-smi while PyTorch keeps it busy.

    scripts/gpu-power.py --out FILE [--seconds 10] [--model resnet50] [--batch 64] [--interval-ms 100]

Samples `nvidia-smi --query-gpu=power.draw` every --interval-ms: first for --seconds with the GPU
idle (after CUDA is initialised), then for --seconds while the torchvision --model (random weights,
eval mode, torch.no_grad(), fp32) runs inference at --batch back to back. The busy window starts
after 2 s of warm-up, so that the clocks have ramped. Writes FILE (`state,samples,median_w,min_w,max_w`,
one row per state) and prints it; the idle and busy medians are a calibration file's `power`
(`idle_w`, `busy_w`). Exit status 2 without a CUDA GPU or without nvidia-smi.
"""
import argparse
import functools
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time

import torch
import torchvision

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch_timing  # noqa: E402 (scripts/torch_timing.py, next to this script)


fail = functools.partial(torch_timing.fail, "gpu-power.py")


def sample(seconds, interval_ms):
    """Watts read every interval_ms for `seconds`, from nvidia-smi's looping query."""
    out = subprocess.run(["timeout", str(seconds), "nvidia-smi", "--query-gpu=power.draw",
                          "--format=csv,noheader,nounits", f"-lms={interval_ms}"],
                         capture_output=True, text=True)
    watts = []
    for line in out.stdout.splitlines():
        try:
            watts.append(float(line.split(",")[0]))
        except ValueError:
            continue
    if not watts:
        fail(f"nvidia-smi gave no power readings: {out.stderr.strip() or out.stdout.strip()}")
    return watts


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", required=True)
    p.add_argument("--seconds", type=int, default=10)
    p.add_argument("--model", default="resnet50")
    p.add_argument("--batch", type=int, default=64)
    p.add_argument("--interval-ms", type=int, default=100)
    args = p.parse_args()
    if not torch.cuda.is_available():
        fail("this PyTorch sees no CUDA GPU (torch.cuda.is_available() is False)")
    if shutil.which("nvidia-smi") is None:
        fail("nvidia-smi is not on the PATH")
    if args.seconds < 2 or args.batch < 1:
        fail("expected --seconds >= 2 and --batch >= 1")
    torch.cuda.init()
    idle = sample(args.seconds, args.interval_ms)

    net = getattr(torchvision.models, args.model)(weights=None).eval().cuda()
    x = torch.randn(args.batch, 3, 224, 224, device="cuda")
    stop = threading.Event()

    def work():
        with torch.no_grad():
            while not stop.is_set():
                net(x)
                torch.cuda.synchronize()

    worker = threading.Thread(target=work)
    worker.start()
    time.sleep(2)
    busy = sample(args.seconds, args.interval_ms)
    stop.set()
    worker.join()

    rows = ["state,samples,median_w,min_w,max_w"]
    for state, watts in (("idle", idle), (f"busy ({args.model} batch {args.batch} fp32)", busy)):
        rows.append(f"{state},{len(watts)},{statistics.median(watts):.1f},{min(watts):.1f},{max(watts):.1f}")
    with open(args.out, "w") as f:
        f.write("\n".join(rows) + "\n")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
