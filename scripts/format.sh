#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The C++ style (.clang-format: Google's at 120 columns) on every C++ file under tb/ but the
# generated register header (scripts/regtool.py writes it).
#   scripts/format.sh          check: one line per file that differs from the style, exit 1 if any
#   scripts/format.sh --fix    rewrite the files that differ
set -euo pipefail
cd "$(dirname "$0")/.."
fix=0
[ "${1:-}" = "--fix" ] && fix=1
command -v clang-format >/dev/null || { echo "format: clang-format is missing (scripts/install-deps.sh)" >&2; exit 2; }
mapfile -t files < <(find tb \( -name '*.cc' -o -name '*.h' \) -not -path tb/regs/ane_regs.h | sort)
bad=0
for f in "${files[@]}"; do
  if ! clang-format --style=file "$f" | cmp -s - "$f"; then
    if [ $fix -eq 1 ]; then
      clang-format --style=file -i "$f"
      echo "format: rewrote $f"
    else
      echo "format: $f differs from .clang-format (scripts/format.sh --fix)"
      bad=1
    fi
  fi
done
[ $fix -eq 1 ] || [ $bad -eq 1 ] || echo "format: ${#files[@]} C++ files follow .clang-format"
exit $bad
