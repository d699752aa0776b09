#!/usr/bin/env bash
# Builds and runs bench/quality/quality_table (every mapping algorithm on every instance of
# issue 3) and writes the section "## Mapping quality (issue 3)" of BENCHMARKS.md, replacing an
# earlier one. Exits non-zero if any algorithm failed or returned an invalid mapping (the
# section is still written, with the failed cells listed).
#
#   bench/run_quality_table.sh [BUILD_DIR] [-- DRIVER_OPTIONS...]     default build/; needs python3
#   e.g. bench/run_quality_table.sh build -- --workers 2 --refine-budget-ms 1000
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
if [ $# -gt 0 ] && [ "$1" != "--" ]; then build=$1; shift; fi
[ "${1:-}" = "--" ] && shift
cmake --build "$build" --target quality_table >/dev/null || exit 2
mkdir -p "$root/bench/results"
csv=$root/bench/results/quality_table.csv
section=$root/bench/results/quality_table.md
load=$(cut -d' ' -f1-3 /proc/loadavg)
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
build_type=$(grep -m1 '^CMAKE_BUILD_TYPE:' "$build/CMakeCache.txt" | cut -d= -f2)

start=$(date +%s)
"$build/bench/quality/quality_table" --out "$csv" "$@"
status=$?
elapsed=$(( $(date +%s) - start ))
[ -s "$csv" ] || exit 2

python3 "$root/bench/quality/format_quality_table.py" "$csv" "$section" \
  --command "bench/run_quality_table.sh${*:+ -- $*}" --commit "$(git -C "$root" rev-parse --short HEAD)" --elapsed "$((elapsed / 60)) min $((elapsed % 60)) s" \
  --machine "Machine: $(nproc) cores of $cpu, shared (load average at the start $load); $build_type build." || exit 2

python3 "$root/bench/replace_section.py" "$root/BENCHMARKS.md" "$section"
awk '/^### Targets/ {on = 1; print; next} on && /^(### |<details>)/ {exit} on' "$section"
exit $status
