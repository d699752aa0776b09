#!/usr/bin/env bash
# Writes the section "## Deadlines (issue 18)" of BENCHMARKS.md: the wall time of every algorithm
# and chain against its time budget, at 1,024 and 16,384 tasks, next to the time of one objective
# evaluation measured in the same run (bench/deadline_bench.cpp). The raw CSV is kept under
# bench/results/<date>/, and bench/deadline_table.py makes the section from it alone.
#
#   bench/run_deadline_bench.sh BUILD_DIR [THREADS]     (THREADS: default 2, what `rankmap map` uses here)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath "${1:?usage: $0 BUILD_DIR [THREADS]}")
threads=${2:-2}
cmake --build "$build" --target deadline_bench >/dev/null
day=$(date -u +%Y-%m-%d)
mkdir -p "$root/bench/results/$day"
csv="$root/bench/results/$day/deadline_bench.csv"
{
  echo "# command=bench/run_deadline_bench.sh BUILD_DIR $threads"
  echo "# commit=$(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD -- src include bench ":!bench/results" || echo '+changes')"
  echo "# date=$(date -u '+%Y-%m-%d %H:%M') UTC"
  echo "# cores=$(nproc) load_at_start=$(cut -d' ' -f1-3 /proc/loadavg | tr ' ' '/')"
  "$build/bench/deadline_bench" --threads "$threads" --budgets 200,1000
  echo "# load_at_end=$(cut -d' ' -f1-3 /proc/loadavg | tr ' ' '/')"
} > "$csv"
section=$(mktemp)
trap 'rm -f "$section"' EXIT
(cd "$root" && python3 bench/deadline_table.py "bench/results/$day/deadline_bench.csv") > "$section"
python3 "$root/bench/replace_section.py" "$root/BENCHMARKS.md" "$section"
echo "run_deadline_bench: BENCHMARKS.md updated from $csv"
