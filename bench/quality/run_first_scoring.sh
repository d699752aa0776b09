#!/usr/bin/env bash
# The first scoring of the launcher's order in a fresh process per instance (first_scoring.cpp),
# as a Markdown table: the median over RUNS processes of the first scoring's wall time and minor
# page faults, and of a second scoring's time on the same routing model (the baseline).
#
#   bench/quality/run_first_scoring.sh BUILD_DIR [FILTER] [RUNS]
#
# FILTER (default `frag-`) picks instances of the training set by '<pattern> on <allocation>'.
set -euo pipefail
build=$1
filter=${2:-frag-}
runs=${3:-3}
bin=$build/bench/quality/first_scoring
cmake --build "$build" --target first_scoring >/dev/null
rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
while IFS= read -r label; do
  for _ in $(seq "$runs"); do "$bin" --filter "$label"; done >>"$rows"
done < <("$bin" --filter "$filter" --list)
python3 - "$rows" <<'PY'
import csv, statistics, sys
by = {}
for label, tasks, flows, first_ms, faults, second_ms, mcl in csv.reader(open(sys.argv[1])):
    by.setdefault((label, tasks, flows), []).append((float(first_ms), int(faults), float(second_ms)))
print("| instance | tasks | node flows | first scoring, ms | minor page faults | second scoring, ms | first / second |")
print("|---|---:|---:|---:|---:|---:|---:|")
for (label, tasks, flows), runs in by.items():
    first, faults, second = (statistics.median(r[i] for r in runs) for i in range(3))
    print(f"| {label} | {tasks} | {flows} | {first:.1f} | {faults:.0f} | {second:.1f} | {first / second:.2f} |")
PY
