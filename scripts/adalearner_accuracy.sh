#!/usr/bin/env bash
# The accuracy table of README's AdaLearner section (the shape of the dissertation's Fig. 3.13):
# test accuracy after E epochs of `coinfer train` for 2, 3 and 4 workers and each gradient codec, next
# to local training, on the 8x8 digits upscaled to 28x28 for MXNet's example networks. Each cell is
# the mean over the seeds in SEEDS (default "1 2 3") with the lowest and highest in brackets.
# DATA=fashion-mnist (or a directory of MNIST-layout IDX files) trains on that instead, 28x28 as it is,
# with its official test set; TRAIN_SAMPLES=N keeps its first N training images. QUANTIZERS picks the
# columns (default "fp32 onebit terngrad onebit-noef"). TAIL=keep|drop|merge is passed as --tail (what an
# epoch does with its last, short step; default: the trainer's, keep).
# Usage: [SEEDS="1 2"] [DATA=fashion-mnist [TRAIN_SAMPLES=N]] [QUANTIZERS="fp32 onebit"] [TAIL=drop]
#        scripts/adalearner_accuracy.sh [COINFER] [EPOCHS] [MODELS...]
set -euo pipefail
coinfer=${1:-build/coinfer}
epochs=${2:-15}
shift 2 || true
models=("$@")
[ ${#models[@]} -gt 0 ] || models=(mxnet_mlp mxnet_lenet)
read -r -a seeds <<< "${SEEDS:-1 2 3}"
read -r -a quantizers <<< "${QUANTIZERS:-fp32 onebit terngrad onebit-noef}"
common=(--epochs "$epochs" --batch 128 --lr 0.1 --momentum 0)
[ -z "${TAIL:-}" ] || common+=(--tail "$TAIL")
if [ -n "${DATA:-}" ]; then
  common+=(--data "$DATA")
  [ -z "${TRAIN_SAMPLES:-}" ] || common+=(--train-samples "$TRAIN_SAMPLES")
  data="$DATA${TRAIN_SAMPLES:+, first $TRAIN_SAMPLES training samples}, official test set"
else
  common+=(--resize 28)
  data="8x8 digits upscaled to 28x28"
fi
# mean (min-max) of the last epoch's test accuracy over the seeds, for `coinfer train MODEL ARGS...`
cell() {
  for s in "${seeds[@]}"; do "$coinfer" train "$@" "${common[@]}" --seed "$s" | tail -1 | awk '{print $4}'; done |
    tr -d '%' | awk '{s += $1; if (NR == 1 || $1 < lo) lo = $1; if (NR == 1 || $1 > hi) hi = $1}
                     END {printf "%.1f%% (%.1f-%.1f)", s / NR, lo, hi}'
}
for model in "${models[@]}"; do
  echo "### $model on $data ($epochs epochs, total minibatch 128, lr 0.1, momentum 0${TAIL:+, --tail $TAIL}, seeds ${seeds[*]})"
  echo
  header="| workers |" rule="|---|" first="| local | $(cell "$model") |"
  for q in "${quantizers[@]}"; do header+=" $q |" rule+="---|"; done
  for _ in "${quantizers[@]:1}"; do first+=" |"; done
  printf '%s\n%s\n%s\n' "$header" "$rule" "$first"
  for k in 2 3 4; do
    row="| $k |"
    for q in "${quantizers[@]}"; do row+=" $(cell "$model" --workers "$k" --quantizer "$q") |"; done
    echo "$row"
  done
  echo
done
