#!/usr/bin/env bash
# Regenerates "## Simulated network: fat-trees and dragonflies (issue 17)" of BENCHMARKS.md from one run:
# builds the SMPI programs and the helpers, checks SimGrid's FAT_TREE and DRAGONFLY routes and contention
# against rankmap's models (verify_networks.py), runs the matrix (network_experiment.py: six programs,
# identity, auto@200ms, scotch and two extra rows, on a 1,024-node tapered fat-tree and a 1,024-node
# dragonfly, whole and fragmented), keeps the raw results under bench/smpi/results/networks-<date>/ and
# writes the section (network_report.py). Reruns with the same OUT skip the simulations already recorded.
#
#   bench/smpi/run_networks.sh BUILD_DIR [OUT]   BUILD_DIR: a CMake build of this tree (rankmap_cli,
#                                               smpi_fragmented_nodes, simgrid_routes); OUT defaults to
#                                               build-smpi-networks/ in the source tree
#   SMPI_STOP_AT=HH:MM                          start no simulation after this UTC time (partial results
#                                               are reported as partial)
#   SMPI_ONLY="fattree-frag/cg ..."             restrict the matrix (network_experiment.py --only)
#   SMPI_TIERS=N                                run only the first N tiers of the matrix
#   NICE="nice -n 19"                           how every heavy step runs (default: nice -n 19)
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
here="$src/bench/smpi"
build=$(cd "${1:?usage: $0 BUILD_DIR [OUT]}" && pwd)
out=$(mkdir -p "${2:-$src/build-smpi-networks}" && cd "${2:-$src/build-smpi-networks}" && pwd)
nice=${NICE-nice -n 19}
bin="$out/bin"
mkdir -p "$bin"

echo "== building the tool and helpers in $build"
$nice cmake --build "$build" -j2 --target rankmap_cli smpi_fragmented_nodes simgrid_routes >/dev/null
rankmap="$build/tools/rankmap"
helper="$build/bench/smpi/smpi_fragmented_nodes"
routes="$build/tests/topology/simgrid_routes"

echo "== building the SMPI programs into $bin"
for prog in halo3d cg sweep allgather fft2d; do
  $nice smpicc -O2 -o "$bin/$prog" "$here/programs/$prog.c" "$here/programs/bench_common.c" -lm
done
$nice smpicc -O2 -o "$bin/verify_torus" "$here/verify_torus.c"

day=$(date -u +%Y-%m-%d)
commit=$(git -C "$src" rev-parse --short HEAD)$(git -C "$src" diff --quiet HEAD -- src include tools bench/smpi || echo '+changes')
start=$(date -u +%H:%M)
load_start=$(cut -d' ' -f1-3 /proc/loadavg)

echo "== checking SimGrid's routes and contention against rankmap's models"
platforms=()
for name in fattree-full dragonfly-full; do
  spec=$(python3 -c "import sys; sys.path.insert(0, '$here'); from network_experiment import CONFIGS; print(CONFIGS['$name']['network'])")
  python3 "$here/network_platform.py" full "$spec" "$out/platforms/$name"
  platforms+=(--platform "$name=$spec=$out/platforms/$name/platform.xml")
done
if ! $nice python3 "$here/verify_networks.py" --transfer "$bin/verify_torus" --rankmap "$rankmap" --routes "$routes" \
    --workdir "$out/verify" "${platforms[@]}" > "$out/verify.md"; then
  echo "verify_networks: a check FAILED (see the table)"
fi
cat "$out/verify.md"

echo "== running the experiment matrix (resumable)"
extra=()
for o in ${SMPI_ONLY:-}; do extra+=(--only "$o"); done
[ -n "${SMPI_STOP_AT:-}" ] && extra+=(--stop-at "$SMPI_STOP_AT")
[ -n "${SMPI_TIERS:-}" ] && extra+=(--tiers "$SMPI_TIERS")
$nice python3 "$here/network_experiment.py" --out "$out" --bin "$bin" --rankmap "$rankmap" --helper "$helper" "${extra[@]}"

echo "== keeping the raw results and writing BENCHMARKS.md"
keep="bench/smpi/results/networks-$day-${commit%+changes}"
mkdir -p "$src/$keep/platforms"
for f in results.jsonl metrics.jsonl mappings.jsonl verify.md emit-check.json experiment.json; do
  [ -f "$out/$f" ] && cp "$out/$f" "$src/$keep/"
done
for d in "$out"/platforms/*/; do
  mkdir -p "$src/$keep/platforms/$(basename "$d")"
  cp "$d/alloc.txt" "$d/platform.xml" "$src/$keep/platforms/$(basename "$d")/"
done
python3 - "$src/$keep/run.json" <<PY
import json, os, sys
state = {}
if os.path.exists("$out/experiment.json"):
    state = json.load(open("$out/experiment.json"))
json.dump({"commit": "$commit", "date": "$day", "start": "$start", "end": "$(date -u +%H:%M)",
           "load_start": "$load_start", "load_end": "$(cut -d' ' -f1-3 /proc/loadavg)", "cores": $(nproc),
           "stopped": state.get("stopped", False), "results_dir": "$keep"}, open(sys.argv[1], "w"), indent=1)
PY
(cd "$src" && python3 "$here/network_report.py" --out "$keep" --benchmarks "$src/BENCHMARKS.md")
