#!/usr/bin/python3
"""Every zoo model, written by `coinfer model export NAME --format onnx`, passes onnx.checker (full check:
ONNX's strict shape inference included), and ONNX's inferred shape of every layer's output tensor is
coinfer's with the batch dimension 1 in front.

    tests/onnx/zoo_export_check.py --coinfer build/coinfer [MODEL ...]     (default: the whole zoo)
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import onnx
from onnx import shape_inference


def run(cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def check(coinfer, model, folder):
    path = os.path.join(folder, model + ".onnx")
    run([coinfer, "model", "export", model, "--format", "onnx", "-o", path])
    try:
        with open(path, "rb") as f:
            data = f.read()
    finally:
        os.remove(path)
    # onnx.checker's full check is check_model and then this shape inference: run once, its result
    # is the shapes compared below.
    onnx.checker.check_model(data)
    inferred = shape_inference.infer_shapes(data, check_type=True, strict_mode=True).graph
    shapes = {}
    for v in list(inferred.value_info) + list(inferred.output) + list(inferred.input):
        shapes[v.name] = [d.dim_value for d in v.type.tensor_type.shape.dim]
    layers = json.loads(run([coinfer, "model", "show", model, "--json"]))["layers"]
    wrong = [(l["name"], [1] + l["output_shape"], shapes.get(l["name"])) for l in layers
             if shapes.get(l["name"]) != [1] + l["output_shape"]]
    for name, ours, theirs in wrong:
        print(f"{model}: layer {name}: coinfer {ours}, ONNX shape inference {theirs}")
    print(f"{model}: onnx.checker ok, {len(layers) - len(wrong)}/{len(layers)} layer shapes agree")
    return not wrong


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("models", nargs="*")
    p.add_argument("--coinfer", required=True)
    a = p.parse_args()
    models = a.models or [line.split()[0] for line in run([a.coinfer, "models"]).splitlines()[2:] if line.strip()]
    with tempfile.TemporaryDirectory(prefix="coinfer-zoo-onnx-") as folder:
        ok = [check(a.coinfer, m, folder) for m in models]
    sys.exit(0 if all(ok) else 1)


if __name__ == "__main__":
    main()
