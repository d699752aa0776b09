#!/usr/bin/env bash
# Writes the section "## The default mapper: auto (issue 16)" of BENCHMARKS.md: auto against every
# single algorithm on the quality table (synthetic instances, the training set its members were
# chosen on), against MapLib's peer mappings on MapLib's real matrices (held out), and the runtime's
# mapping step at 16,384 ranks. The simulated rows are written by bench/smpi/run_all.sh (auto@200ms,
# auto@10s) and summarised by bench/smpi/auto_targets.py.
#
#   bench/run_auto_bench.sh BUILD_DIR [QUALITY_CSV]
#     QUALITY_CSV: a CSV of bench/quality/quality_table with the rows identity, auto@runtime and auto@tool
#     (default: bench/results/quality_table.csv, which bench/run_quality_table.sh writes)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath "${1:?usage: $0 BUILD_DIR [QUALITY_CSV]}")
csv=${2:-$root/bench/results/quality_table.csv}
[ -s "$csv" ] || { echo "run_auto_bench: no quality CSV at $csv; run bench/run_quality_table.sh first" >&2; exit 2; }
cmake --build "$build" --target rankmap_cli runtime_mapping_bench >/dev/null
section=$(mktemp)
trap 'rm -f "$section"' EXIT
settings=$(head -1 "$csv")
{
  echo "## The default mapper: auto (issue 16)"
  echo
  echo "Made with \`bench/run_auto_bench.sh\` at commit $(git -C "$root" rev-parse --short HEAD), $(date -u +%Y-%m-%d), on"
  echo "$(nproc) shared cores (load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)). Every figure is from one run of the"
  echo "default path: \`auto\` with the runtime's budget (200 ms, \`auto@runtime\`) and with the tool's"
  echo "(10 s, \`auto@tool\`), seed 1, one thread. The first members of \`auto\` were chosen on the quality"
  echo "table's synthetic instances, before the table had a training set of its own (bench/quality/README.md);"
  echo "every later choice (emahd instead of mahd, bisect, the time split, the order of the members) was measured"
  echo "on the training set only. MapLib's matrices and the SMPI programs were never used to choose anything."
  echo
  echo "### Against every single algorithm, quality table (CSV: \`$settings\`)"
  echo
  python3 "$root/bench/quality/auto_targets.py" "$csv"
  echo "### Against MapLib's peer mappings (held out)"
  echo
  echo "MapLib's four real 64-rank matrices on a 4x4x4 mesh and torus (bench/data/maplib, MIT), against the"
  echo "best of MapLib's 12 mappings of each (\`bench/maplib_peers.py\`)."
  echo
  python3 "$root/bench/maplib_peers.py" "$build/tools/rankmap" --rows auto@200,auto@10000,mahd+refine@200,rahtm
  echo "### The runtime's mapping step at 16,384 ranks"
  echo
  echo "\`runtime_mapping_bench\` (in process: a periodic 32x32x16 stencil on an emulated torus:16x16x16 with 4"
  echo "processes per node, decided by the code rank 0 runs in a reorder, defaults: auto, 200 ms):"
  echo
  echo '```'
  "$build/bench/runtime_mapping_bench" 3
  echo '```'
} >"$section"
python3 "$root/bench/replace_section.py" "$root/BENCHMARKS.md" "$section"
cat "$section"
