#!/usr/bin/env bash
# The accuracy table of README's AdaLearner section (the shape of the dissertation's Fig. 3.13):
# test accuracy after E epochs of `coinfer train` for 2, 3 and 4 workers and each gradient codec, next
# to local training, on the 8x8 digits upscaled to 28x28 for MXNet's example networks.
# Usage: scripts/adalearner_accuracy.sh [COINFER] [EPOCHS] [MODELS...]
set -euo pipefail
coinfer=${1:-build/coinfer}
epochs=${2:-15}
shift 2 || true
models=("$@")
[ ${#models[@]} -gt 0 ] || models=(mxnet_mlp mxnet_lenet)
common=(--resize 28 --epochs "$epochs" --batch 128 --lr 0.1 --momentum 0 --seed 1)
last_accuracy() { tail -1 | awk '{print $4}'; }
for model in "${models[@]}"; do
  echo "### $model ($epochs epochs, total minibatch 128, lr 0.1, momentum 0, seed 1)"
  echo
  echo "| workers | fp32 | onebit | terngrad | onebit-noef |"
  echo "|---|---|---|---|---|"
  echo "| local | $("$coinfer" train "$model" "${common[@]}" | last_accuracy) | | | |"
  for k in 2 3 4; do
    row="| $k |"
    for q in fp32 onebit terngrad onebit-noef; do
      row+=" $("$coinfer" train "$model" "${common[@]}" --workers "$k" --quantizer "$q" | last_accuracy) |"
    done
    echo "$row"
  done
  echo
done
