#!/usr/bin/env bash
# Installs every Debian package coinfer needs to build, test, benchmark, sanitize, fuzz and draw
# its notebooks, and PyTorch/torchvision to measure reference profiles on this CPU
# (scripts/torch-profile.py; only its own test, tests/scripts/torch_profile_test.py, needs them,
# and it is skipped where they are missing). FFmpeg's libraries and x264 build the video traces
# (sim/video); opencv-doc (about 96 MB) ships vtest.avi, the clip docs/guide/video-traces.md measures.
# libonnx-dev + libprotobuf-dev: the ONNX importer (sim/onnx); python3-onnx and torch export its test models.
# libns3-dev: ns-3's headers, for the packet-level wifi cell of docs/guide/flow-vs-packet.md (its
# libraries already come with SimGrid).
# valgrind: bench/population_instructions.sh counts a population's instructions per frame with
# callgrind (a regression check; its header labels the counts).
# Idempotent: packages already present are left alone. Works as root or through sudo.
set -euo pipefail

packages=(
  build-essential cmake pkg-config clang-format
  libsimgrid-dev libns3-dev libeigen3-dev libspectra-dev nlohmann-json3-dev libfmt-dev
  catch2 libyaml-cpp-dev libcli11-dev libglpk-dev libpng-dev zlib1g-dev
  libbenchmark-dev libopenblas-dev
  libavcodec-dev libavformat-dev libavutil-dev libswscale-dev libx264-dev
  python3 python3-matplotlib python3-pandas python3-nbconvert python3-ipykernel python3-nbformat
  python3-sklearn dataset-fashion-mnist python3-torch python3-torchvision
  libonnx-dev libprotobuf-dev python3-onnx
  opencv-doc
  parallel slurmctld slurmd slurm-client munge
  clang libclang-rt-14-dev lld llvm-14
  valgrind
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages already installed"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
