#!/usr/bin/env bash
# Writes the section "## Fat-trees and dragonflies: tree, the greedy mappers and Scotch (issue 17)"
# of BENCHMARKS.md from bench/network_quality (the table set), keeping the raw CSV under
# bench/results/<date>/network_quality.csv.
#
#   bench/run_network_quality.sh BUILD_DIR [BUDGET_MS]   (the budget of every row without its own @budget; default 1000)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath "${1:?usage: $0 BUILD_DIR [BUDGET_MS]}")
budget=${2:-1000}
cmake --build "$build" --target network_quality -j2 >/dev/null
day=$(date -u +%Y-%m-%d)
mkdir -p "$root/bench/results/$day"
csv="$root/bench/results/$day/network_quality.csv"
commit=$(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD -- src include bench || echo '+changes')
started=$(date -u '+%Y-%m-%d %H:%M')
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
table=$(mktemp)
section=$(mktemp)
trap 'rm -f "$table" "$section"' EXIT
# attempts=2000: 20,000 took 42 s on one fat-tree instance, too long for a table of 20.
rows="tree:start;tree;mahd+refine;emahd+refine;gge+refine;scotch;scotch+refine;auto@200ms;auto:attempts=2000;auto@10s"
"$build/bench/network_quality" --budget "$budget" --rows "$rows" --csv "$csv" >"$table"
load_end=$(cut -d' ' -f1-3 /proc/loadavg)
{
  echo "## Fat-trees and dragonflies: tree, the greedy mappers and Scotch (issue 17)"
  echo
  echo "\`bench/run_network_quality.sh BUILD_DIR $budget\` at commit $commit, $started UTC, on $(nproc) shared cores"
  echo "(load average $load_start at the start, $load_end at the end: other engineers were building and"
  echo "running tests, so wall-clock budgets bought less search than on a quiet machine, and times are"
  echo "indicative only); raw results in \`bench/results/$day/network_quality.csv\`."
  echo
  echo "Each row against the launcher's order on the same instance (ratios below 1 are better): hop-bytes,"
  echo "and MCL under SimGrid's own routing (dmodk, minimal), which is also the objective, and under adaptive."
  echo "Rows without \`@\` get ${budget} ms; \`auto@200ms\` is the runtime's default, \`auto:attempts=2000\`"
  echo "gives every refine of the portfolio 2,000 swap attempts and no clock (its figures do not depend on"
  echo "the machine's load), \`scotch\` is Scotch's tree-leaf mapping alone. auto's members on these networks"
  echo "were chosen on bench/network_quality's training set (other networks, other patterns), never on"
  echo "these instances; the last column names auto's winner."
  echo
  cat "$table"
} >"$section"
python3 "$root/bench/replace_section.py" "$root/BENCHMARKS.md" "$section"
echo "run_network_quality: BENCHMARKS.md updated from $csv"
