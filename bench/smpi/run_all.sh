#!/usr/bin/env bash
# Regenerates the simulated-network benchmark (issue 7): builds the SMPI programs, verifies SimGrid's
# torus, runs every program under every mapping, and writes the "Simulated network (issue 7)" section
# of BENCHMARKS.md with its link-load picture. Reruns skip the simulations already recorded in OUT.
#
#   bench/smpi/run_all.sh [OUT]          OUT defaults to build-smpi/ in the source tree
#   RANKMAP=path/to/rankmap              the tool (default build/tools/rankmap)
#   PRELOAD=path/to/librankmap_preload.so  Open MPI's, which records the phases of bt and sp (default next to
#                                        the tool: ../src/pmpi/librankmap_preload.so)
#   RECORDED_PHASES=DIR                  earlier recordings of bt/sp phases to reuse (default
#                                        bench/smpi/results/recorded-phases-1024, recorded with MPICH)
#   SMPI_ONLY="8x8x8/halo3d ..."         restrict the matrix (experiment.py --only)
#   SMPI_ALGOS="scotch,rahtm"            restrict the mappings (experiment.py --algos; identity always runs)
#   SMPI_STOP_AT=HH:MM                   start no simulation after this UTC time (experiment.py --stop-at)
#   SMPI_HEADING="title"                 write the results as their own BENCHMARKS.md section with this title
#                                        (a partial run's, kept apart from the full matrix's)
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
here="$src/bench/smpi"
out=$(mkdir -p "${1:-$src/build-smpi}" && cd "${1:-$src/build-smpi}" && pwd)
rankmap=${RANKMAP:-$src/build/tools/rankmap}
preload=${PRELOAD:-$(dirname "$rankmap")/../src/pmpi/librankmap_preload.so}
bin="$out/bin"
mkdir -p "$bin"

echo "== building the SMPI programs into $bin"
for prog in halo3d cg sweep allgather fft2d; do
  smpicc -O2 -o "$bin/$prog" "$here/programs/$prog.c" "$here/programs/bench_common.c" -lm
done
smpicc -O2 -o "$bin/verify_torus" "$here/verify_torus.c"
mpicc.openmpi -O2 -o "$bin/treematch_perm" "$here/treematch_perm.c"

echo "== verifying SimGrid's torus numbering, routing and contention"
python3 "$here/verify_torus.py" "$bin/verify_torus" "$out/verify" > "$out/verify.md"
cat "$out/verify.md"

echo "== running the experiment matrix (resumable)"
extra=()
for o in ${SMPI_ONLY:-}; do extra+=(--only "$o"); done
[ -n "${SMPI_ALGOS:-}" ] && extra+=(--algos "$SMPI_ALGOS")
[ -n "${SMPI_STOP_AT:-}" ] && extra+=(--stop-at "$SMPI_STOP_AT")
python3 "$here/experiment.py" --out "$out" --bin "$bin" --rankmap "$rankmap" --preload "$preload" \
  --recorded-phases "${RECORDED_PHASES:-$here/results/recorded-phases-1024}" "${extra[@]}"

echo "== writing BENCHMARKS.md"
heading=()
[ -n "${SMPI_HEADING:-}" ] && heading=(--heading "$SMPI_HEADING")
python3 "$here/report.py" --out "$out" --rankmap "$rankmap" --benchmarks "$src/BENCHMARKS.md" \
  --image-dir "$src/docs/img" "${heading[@]}"
