#!/usr/bin/env bash
# Writes the section "## Mapping quality: the real family (issue 16)" of BENCHMARKS.md from one run:
# the quality table's real family alone (MapLib's matrices and the profiles of bench/data/profiles,
# every row, the default first), then MapLib's 12 peer mappings against the default at the runtime's
# budget and at the tool's (bench/maplib_peers.py). The raw CSV is kept in bench/results/<date>/.
#   bench/run_real_family.sh [BUILD_DIR]      default build-openmpi/; needs python3
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-openmpi}
cmake --build "$build" --target quality_table rankmap_cli >/dev/null || exit 2
out=$root/bench/results/$(date -u +%Y-%m-%d)
mkdir -p "$out"
csv=$out/real_family.csv
section=$(mktemp)
trap 'rm -f "$section" "$section.peers"' EXIT
load=$(cut -d' ' -f1-3 /proc/loadavg)
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
commit=$(git -C "$root" rev-parse --short HEAD)
driver=(--set table --family real --workers 2 --refine-budget-ms 200 --search-budget-ms 200)

start=$(date +%s)
"$build/bench/quality/quality_table" --out "$csv" "${driver[@]}"
status=$?
python3 "$root/bench/maplib_peers.py" "$build/tools/rankmap" --rows auto@200,auto@10000 --out "$section.peers" >/dev/null || status=2
elapsed=$(( $(date +%s) - start ))
end_load=$(cut -d' ' -f1-3 /proc/loadavg)
[ -s "$csv" ] || exit 2

python3 "$root/bench/quality/format_quality_table.py" "$csv" "$section" \
  --title "Mapping quality: the real family (issue 16)" \
  --preface "The quality table's *real* family alone, from one run of \`bench/run_real_family.sh\` at commit $commit ($(date -u +%Y-%m-%d); raw CSV \`bench/results/$(basename "$out")/real_family.csv\`), the default path first. Every graph here is held out: no constant of any mapper was tuned on it. The verdict columns compare each auto row per instance with the identity and with the best of the single rows, chosen afterwards per instance (a best-of-N, not a mapper)." \
  --command "bench/quality/quality_table ${driver[*]}" --commit "$commit" --elapsed "$((elapsed / 60)) min $((elapsed % 60)) s" \
  --machine "Machine: $(nproc) cores of $cpu, shared (load average at the start $load, at the end $end_load; this run at niceness $(nice)); $(grep -m1 '^CMAKE_BUILD_TYPE:' "$build/CMakeCache.txt" | cut -d= -f2) build." || exit 2
{ echo; echo "### The real family against MapLib's 12 peer mappings (\`bench/maplib_peers.py\`, the same run)"; echo
  cat "$section.peers"; } >>"$section"
python3 "$root/bench/replace_section.py" "$root/BENCHMARKS.md" "$section"
exit $status
