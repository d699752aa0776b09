#!/usr/bin/env bash
# Measures the runtime overhead of issue 4 and prints a markdown section for BENCHMARKS.md:
#   - MPI_Init under the preload layer against plain MPI_Init, 16 ranks (target: < 20% extra);
#   - MPI_Dist_graph_create_adjacent with reorder, 64 ranks on an emulated torus (target: < 0.5 s);
#   - the runtime's mapping step alone, 16,384 ranks, in process (target: < 1.5 s).
# Plain and preloaded runs alternate, and each figure is the median of REPS runs, so that the
# ratios compare measurements taken under the same load.
# usage: bench/run_runtime_bench.sh BUILD_DIR...   (trees configured with -DRANKMAP_MPI=openmpi|mpich,
#        with targets rankmap_preload init_time reorder_time runtime_mapping_bench built)
set -euo pipefail
reps=${REPS:-5}
[ $# -ge 1 ] || { echo "usage: $0 BUILD_DIR..." >&2; exit 2; }

median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# launch MPI NP VAR=value... -- command...
launch() {
  local mpi=$1 np=$2; shift 2
  local flags=()
  while [ "$1" != "--" ]; do
    if [ "$mpi" = openmpi ]; then flags+=(-x "$1"); else flags+=(-genv "${1%%=*}" "${1#*=}"); fi
    shift
  done
  shift
  if [ "$mpi" = openmpi ]; then
    mpiexec.openmpi --oversubscribe --allow-run-as-root --mca btl self,vader --bind-to none -n "$np" "${flags[@]}" "$@"
  else
    mpiexec.mpich -n "$np" "${flags[@]}" "$@"
  fi
}

echo "## Runtime overhead (issue 4)"
echo
echo "Measured with \`bench/run_runtime_bench.sh $*\` on $(nproc) cores (oversubscribed, shared with other"
echo "jobs), $(date -u +%Y-%m-%d). Each figure is the median of $reps runs; plain and preloaded runs alternate."
echo
echo "| MPI | measurement | baseline | with rankmap | result (target) |"
echo "|---|---|---|---|---|"
for build in "$@"; do
  mpi=$(sed -n 's/^RANKMAP_MPI:STRING=//p' "$build/CMakeCache.txt")
  preload=$(realpath "$build/src/pmpi/librankmap_preload.so")
  plain_init=() preload_init=() plain_create=() reorder_create=()
  for _ in $(seq "$reps"); do
    plain_init+=("$(launch "$mpi" 16 -- "$build/bench/init_time" | awk '/init_seconds/ {print $2}')")
    preload_init+=("$(launch "$mpi" 16 LD_PRELOAD="$preload" RANKMAP_COORDS=emulate:torus:4x4 -- \
      "$build/bench/init_time" | awk '/init_seconds/ {print $2}')")
    read -r a b < <(launch "$mpi" 64 LD_PRELOAD="$preload" RANKMAP_COORDS=emulate:torus:2x4x4,ppn=2 -- \
      "$build/bench/reorder_time" | awk '/create_seconds/ {print $3, $5}')
    plain_create+=("$a") reorder_create+=("$b")
  done
  pi=$(printf '%s\n' "${plain_init[@]}" | median)
  ri=$(printf '%s\n' "${preload_init[@]}" | median)
  pc=$(printf '%s\n' "${plain_create[@]}" | median)
  rc=$(printf '%s\n' "${reorder_create[@]}" | median)
  awk -v m="$mpi" -v p="$pi" -v r="$ri" 'BEGIN {
    printf "| %s | MPI_Init, 16 ranks, slowest rank | plain %.3f s | preload %.3f s | %+.1f%% (< 20%%) |\n", m, p, r, 100 * (r - p) / p }'
  awk -v m="$mpi" -v p="$pc" -v r="$rc" 'BEGIN {
    printf "| %s | MPI_Dist_graph_create_adjacent, 64 ranks, emulated torus 2x4x4 ppn 2 | reorder=0 %.3f s | reorder=1 %.3f s | %.2f of 0.5 s |\n", m, p, r, r / 0.5 }'
done
first=$1
mapping=$("$first/bench/runtime_mapping_bench" "$reps" | awk '/mapping_seconds/ {print $2}' | median)
line=$("$first/bench/runtime_mapping_bench" 1 | tail -1)
awk -v s="$mapping" -v l="$line" 'BEGIN {
  printf "| (none) | mapping step in process, 16,384 ranks (32x32x16 stencil on torus 16x16x16 ppn 4, mahd+refine, 200 ms budget) | | %.3f s | %.2f of 1.5 s |\n", s, s / 1.5
  printf "\nThe mapping step: `%s`.\n", l }'
