#!/usr/bin/python3
"""Exports torchvision classification models to ONNX, with a reference input and PyTorch's output.

    /usr/bin/python3 scripts/onnx-export.py --out DIR resnet18 mobilenet_v2 ...

For each MODEL it writes, in DIR:
  MODEL.onnx         torch.onnx.export at --opset (13), batch 1, static shapes, random weights
                     (torch.manual_seed(--seed); batch-norm statistics drawn too, and every
                     all-zero parameter (biases, ViT's head) from N(0, 0.02^2), so they matter)
  MODEL.input.npy    a seeded N(0, 1) input, [1, 3, H, W]
  MODEL.output.npy   PyTorch's output for it (eval mode)
  MODEL.json         {"params": sum of p.numel() over model.parameters(), "input": [...], ...}
With --keep-bn (default) BatchNormalization stays a node, as in the model, so the parameter counts
match PyTorch's; --fold-bn lets the exporter fold it into the convolutions (torch's default).
A model whose four files exist with the same settings is skipped (the cache the tests share).
No download: the weights are random (weights=None).
"""
import argparse
import json
import os
import sys
import time

import numpy as np
import torch
import torchvision

SIZES = {"inception_v3": 299}
NO_AUX = {"googlenet", "inception_v3"}  # their auxiliary classifiers run in training only


def build(name):
    kwargs = dict(weights=None)
    if name in NO_AUX:
        kwargs.update(aux_logits=False, init_weights=False)
    model = getattr(torchvision.models, name)(**kwargs)
    for m in model.modules():  # give batch norm non-trivial statistics and affine terms
        if isinstance(m, torch.nn.BatchNorm2d):
            with torch.no_grad():
                m.running_mean.normal_(0.0, 0.1)
                m.running_var.uniform_(0.5, 1.5)
                m.weight.uniform_(0.5, 1.5)
                m.bias.normal_(0.0, 0.1)
    with torch.no_grad():  # zero-initialised tensors (biases, ViT's head and class token) would hide mistakes
        for p in model.parameters():
            if p.numel() > 1 and not torch.count_nonzero(p):
                p.normal_(0.0, 0.02)
    return model.eval()


def export(name, out, opset, seed, keep_bn):
    settings = dict(opset=opset, seed=seed, keep_bn=keep_bn, zeros="normal(0, 0.02)", torch=torch.__version__,
                    torchvision=torchvision.__version__)
    meta_path = os.path.join(out, f"{name}.json")
    paths = [os.path.join(out, f"{name}.{ext}") for ext in ("onnx", "input.npy", "output.npy")]
    if os.path.exists(meta_path) and all(os.path.exists(p) for p in paths):
        with open(meta_path) as f:
            if json.load(f).get("settings") == settings:
                return False
    torch.manual_seed(seed)
    model = build(name)
    size = SIZES.get(name, 224)
    x = torch.randn(1, 3, size, size)
    with torch.no_grad():
        y = model(x)
    training = torch.onnx.TrainingMode.PRESERVE if keep_bn else torch.onnx.TrainingMode.EVAL
    tmp = paths[0] + ".tmp"
    torch.onnx.export(model, x, tmp, opset_version=opset, training=training,
                      input_names=["input"], output_names=["output"])
    os.replace(tmp, paths[0])
    np.save(paths[1], x.numpy())
    np.save(paths[2], y.numpy())
    meta = dict(settings=settings, params=sum(p.numel() for p in model.parameters()),
                input=list(x.shape), output=list(y.shape))
    with open(meta_path + ".tmp", "w") as f:
        json.dump(meta, f, indent=1)
    os.replace(meta_path + ".tmp", meta_path)
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("models", nargs="+")
    ap.add_argument("--out", required=True)
    ap.add_argument("--opset", type=int, default=13)
    ap.add_argument("--seed", type=int, default=0)
    bn = ap.add_mutually_exclusive_group()
    bn.add_argument("--keep-bn", dest="keep_bn", action="store_true", default=True)
    bn.add_argument("--fold-bn", dest="keep_bn", action="store_false")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    torch.set_num_threads(1)
    for name in a.models:
        if not hasattr(torchvision.models, name):
            sys.exit(f"onnx-export.py: torchvision {torchvision.__version__} has no model '{name}'")
        start = time.time()
        made = export(name, a.out, a.opset, a.seed, a.keep_bn)
        print(f"{name}: {'exported' if made else 'cached'} ({time.time() - start:.1f} s)", flush=True)


if __name__ == "__main__":
    main()
