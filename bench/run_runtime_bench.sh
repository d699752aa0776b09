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

. "$(dirname "$0")/lib.sh"

echo "## Runtime overhead (issue 4)"
echo
echo "Measured with \`bench/run_runtime_bench.sh $*\` on $(nproc) cores (oversubscribed, shared with other"
echo "jobs), $(date -u +%Y-%m-%d). Each figure is the median of $reps runs; plain and preloaded runs alternate."
echo
echo "| MPI | measurement | baseline | with rankmap | result (target) |"
echo "|---|---|---|---|---|"
for build in "$@"; do
  mpi=$(build_mpi "$build")
  preload=$(build_preload "$build")
  plain_init=() preload_init=() plain_create=() reorder_create=() root_mapping=()
  for _ in $(seq "$reps"); do
    plain_init+=("$(launch "$mpi" 16 -- "$build/bench/init_time" | awk '/init_seconds/ {print $2}')")
    preload_init+=("$(launch "$mpi" 16 LD_PRELOAD="$preload" RANKMAP_COORDS=emulate:torus:4x4 -- \
      "$build/bench/init_time" | awk '/init_seconds/ {print $2}')")
    read -r a b c < <(launch "$mpi" 64 LD_PRELOAD="$preload" RANKMAP_COORDS=emulate:torus:2x4x4,ppn=2 \
      RANKMAP_REORDER=dist_graph RANKMAP_REPORT=stderr -- "$build/bench/reorder_time" 2>&1 |
      awk '/create_seconds/ {a = $3; b = $5} /^rankmap:/ {for (i = 1; i <= NF; ++i) if ($i ~ /^time_ms=/) c = substr($i, 9)}
           END {print a, b, c / 1000}')
    plain_create+=("$a") reorder_create+=("$b") root_mapping+=("$c")
  done
  pi=$(printf '%s\n' "${plain_init[@]}" | median)
  ri=$(printf '%s\n' "${preload_init[@]}" | median)
  pc=$(printf '%s\n' "${plain_create[@]}" | median)
  rc=$(printf '%s\n' "${reorder_create[@]}" | median)
  rm=$(printf '%s\n' "${root_mapping[@]}" | median)
  awk -v m="$mpi" -v p="$pi" -v r="$ri" 'BEGIN {
    printf "| %s | MPI_Init, 16 ranks, slowest rank | plain %.3f s | preload %.3f s | %+.1f%% (< 20%%) |\n", m, p, r, 100 * (r - p) / p }'
  awk -v m="$mpi" -v p="$pc" -v r="$rc" -v d="$rm" 'BEGIN {
    printf "| %s | MPI_Dist_graph_create_adjacent, 64 ranks, emulated torus 2x4x4 ppn 2 | reorder=0 %.3f s | reorder=1 %.3f s (mapping on rank 0: %.3f s) | %.2f of 0.5 s; %.2f x the plain call |\n", m, p, r, d, r / 0.5, r / p }'
done
first=$1
mapping=$("$first/bench/runtime_mapping_bench" "$reps" | awk '/mapping_seconds/ {print $2}' | median)
line=$("$first/bench/runtime_mapping_bench" 1 | tail -1)
awk -v s="$mapping" -v l="$line" 'BEGIN {
  printf "| (none) | mapping step in process, 16,384 ranks (32x32x16 stencil on torus 16x16x16 ppn 4, auto, 200 ms budget) | | %.3f s | %.2f of 1.5 s |\n", s, s / 1.5
  printf "\nThe mapping step: `%s`.\n", l }'
echo
echo "Here 64 processes share 2 cores, so every collective waits for descheduled processes: the plain"
echo "call with reorder=0 alone takes the time shown, and rankmap's protocol adds an allreduce, a gather,"
echo "a broadcast, a communicator creation and a point-to-point exchange of the same kind. The part"
echo "under rankmap's control is the mapping on rank 0 (auto, the default, which runs within the 200 ms"
echo "of RANKMAP_TIME_BUDGET_MS), during which the other ranks sleep instead of polling."
