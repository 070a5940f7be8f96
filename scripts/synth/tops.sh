# SPDX-License-Identifier: Apache-2.0
# Sourced by scripts/lint.sh and scripts/synth.sh: reads the list of RTL tops.
#   ane_read_tops FILE RTL_DIR
# fills the parallel arrays
#   TOP_MODULES[i]  module name
#   TOP_LABELS[i]   module name, or <module>__<NAME><VALUE>... when it has overrides (out dir name)
#   TOP_SRCS[i]     space-separated absolute source paths: the module and everything it uses,
#                   from RTL_DIR/modules.txt (scripts/rtl_sources.py), packages first
#   TOP_PARAMS[i]   space-separated NAME=VALUE overrides (may be empty)
#   TOP_FULLONLY[i] 1 when the line carries the word full-only: synth.sh --smoke skips the top
#                   (too slow for make test); make synth and make lint still cover it
#   TOP_LINTONLY[i] 1 when the line carries the word lint-only: make lint covers the top and
#                   synth.sh skips it (too big to synthesize and check in make synth)
#   TOP_NOSHARE[i]  1 when the line carries the word noshare: Yosys synthesizes the top with
#                   `synth -noshare` (no SAT-based resource sharing; Yosys 0.23's share pass ran
#                   for more than 17 minutes on the planar reduction tree's 63 fp32 adders, which
#                   have nothing to share)
# and stops with a message naming the line on anything it cannot parse.

ane_read_tops() {
  local file="$1" rtl="$2" line lineno=0 word top label params
  TOP_MODULES=() TOP_LABELS=() TOP_SRCS=() TOP_PARAMS=() TOP_FULLONLY=() TOP_LINTONLY=() TOP_NOSHARE=()
  local fullonly lintonly noshare
  [ -f "$file" ] || { echo "tops: no list at $file" >&2; return 1; }
  rtl="$(cd "$rtl" && pwd)"
  while IFS= read -r line || [ -n "$line" ]; do
    lineno=$((lineno + 1))
    line="${line%%#*}"
    read -r -a words <<< "$line" || true
    [ ${#words[@]} -gt 0 ] || continue
    top="${words[0]}" label="${words[0]}" params="" fullonly=0 lintonly=0 noshare=0
    if ! [[ "$top" =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]]; then
      echo "tops: $file:$lineno: '$top' is not a module name" >&2; return 1
    fi
    for word in "${words[@]:1}"; do
      case "$word" in
        *=*)
          params="${params:+$params }$word"
          label="${label}__$(printf '%s' "$word" | tr -c 'A-Za-z0-9_' '_')"
          ;;
        full-only) fullonly=1 ;;
        lint-only) lintonly=1 ;;
        noshare) noshare=1 ;;
        *.sv|*.v)
          echo "tops: $file:$lineno: '$word': name modules only (their sources come from $rtl/modules.txt)" >&2
          return 1
          ;;
        *) echo "tops: $file:$lineno: cannot read '$word' (NAME=VALUE, full-only, lint-only or noshare)" >&2; return 1 ;;
      esac
    done
    local l
    for l in "${TOP_LABELS[@]+"${TOP_LABELS[@]}"}"; do
      [ "$l" != "$label" ] || { echo "tops: $file:$lineno: $label is listed twice" >&2; return 1; }
    done
    TOP_MODULES+=("$top") TOP_LABELS+=("$label") TOP_PARAMS+=("$params")
    TOP_FULLONLY+=("$fullonly") TOP_LINTONLY+=("$lintonly") TOP_NOSHARE+=("$noshare")
  done < "$file"
  [ ${#TOP_MODULES[@]} -gt 0 ] || { echo "tops: $file lists no tops" >&2; return 1; }
  # every top's sources in one call (one line per top, in order)
  local lists
  lists="$(python3 "$(dirname "${BASH_SOURCE[0]}")/../rtl_sources.py" --rtl "$rtl" "${TOP_MODULES[@]}")" ||
    { echo "tops: $file: cannot list the tops' sources (above)" >&2; return 1; }
  mapfile -t TOP_SRCS <<< "$lists"
  [ ${#TOP_SRCS[@]} -eq ${#TOP_MODULES[@]} ] || { echo "tops: $file: source lists do not match the tops" >&2; return 1; }
}
