#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs the Debian 12 packages the project needs, when they are missing.
# As root it runs apt-get; otherwise it prints the exact command to run and exits 1.
set -euo pipefail

packages=(
  build-essential cmake make ninja-build pkg-config python3
  python3-yaml  # scripts/regtool.py (the register map generator, flow.regs)
  verilator yosys opensta qflow qflow-tech-osu018 nextpnr-ice40 fpga-icestorm
  gtkwave xvfb xauth imagemagick
  libfmt-dev libyaml-cpp-dev libgtest-dev libgmock-dev libbenchmark-dev libgmp-dev
  z3
  clang-format  # make lint and flow.format: the C++ style (.clang-format)
  graphviz  # make diagram: docs/architecture.svg from docs/architecture.dot
  lcov  # make coverage: the HTML report (genhtml)
  libonnx-dev libprotobuf-dev protobuf-compiler  # ane run MODEL.onnx: the ONNX reader, checker and shape inference
  libonnx-testdata  # the ONNX backend tests as conformance (docs/onnx.md)
  clang-14 libclang-rt-14-dev llvm-14  # make fuzz and the fuzz.* tests: libFuzzer, sanitizers, llvm-symbolizer
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

cmd="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: missing packages: ${missing[*]}" >&2
  echo "install-deps: run as root:  apt-get update && $cmd" >&2
  exit 1
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends "${missing[@]}"
