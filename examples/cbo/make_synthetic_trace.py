#!/usr/bin/env python3
"""Writes synthetic_trace.csv: a small, seeded, *synthetic* per-frame trace in coinfer's trace
format (README "Per-frame traces", schedulers/cbo/frame_trace.hpp), for examples and tests.

Nothing here is measured. The local model is overconfident by construction: its confidence is
s = sigmoid(z) with z ~ U(-1, 6), but its answer is right with probability sigmoid(0.45 z - 0.3),
so calibration has work to do. Per resolution r the frame's size is about 0.2 bytes per pixel
(x U(0.7, 1.3)) and the server is right with a probability that grows with the resolution.

    python3 examples/cbo/make_synthetic_trace.py > examples/cbo/synthetic_trace.csv
"""
import math
import random

SEED = 12
VIDEOS = 4
FRAMES_PER_VIDEO = 60
RESOLUTIONS_PX = [45, 90, 134, 179, 224]
SERVER_RIGHT = {45: 0.40, 90: 0.62, 134: 0.74, 179: 0.80, 224: 0.84}  # generator parameters


def sigmoid(x):
    return 1 / (1 + math.exp(-x))


def main():
    rng = random.Random(SEED)
    header = ["video", "frame", "confidence", "correct"]
    for px in RESOLUTIONS_PX:
        header += [f"size_bytes_{px}", f"server_correct_{px}"]
    print(",".join(header))
    for v in range(VIDEOS):
        for f in range(FRAMES_PER_VIDEO):
            z = rng.uniform(-1, 6)
            row = [f"v{v:02d}", str(f), f"{sigmoid(z):.4f}", str(int(rng.random() < sigmoid(0.45 * z - 0.3)))]
            for px in RESOLUTIONS_PX:
                size = round(0.2 * px * px * rng.uniform(0.7, 1.3))
                row += [str(size), str(int(rng.random() < SERVER_RIGHT[px]))]
            print(",".join(row))


if __name__ == "__main__":
    main()
