#!/usr/bin/env bash
# The main job: sets everything up on Debian 12, then preloads rankmap into the unmodified stencil
# example (a real MPI program that calls MPI_Dist_graph_create_adjacent with reorder) on an emulated
# 2x4x4 torus with 2 processes per node, under Open MPI and MPICH, and prints the quality of the
# launcher's order (before) and of rankmap's order (after).
#
#   scripts/demo.sh            RANKS and COORDS override the job size and the emulated machine
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
jobs=$(nproc)

for mpi in openmpi mpich; do
  cmake -S . -B "build-$mpi" -DRANKMAP_MPI="$mpi" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  cmake --build "build-$mpi" -j"$jobs" --target stencil rankmap_preload
done
cmake --build build-openmpi -j"$jobs" --target rankmap_cli

# The preload's report line gives the objective (MCL under adaptive routing) before and after;
# RANKMAP_DUMP keeps the graph, the allocation and the chosen mapping, so that `rankmap eval` can
# show every metric of both orders.
dump=$(mktemp -d)
trap 'rm -rf "$dump"' EXIT
RANKMAP_DUMP="$dump" examples/run_stencil_demo.sh build-openmpi
examples/run_stencil_demo.sh build-mpich

rankmap=build-openmpi/tools/rankmap
inputs=(--graph "$dump/reorder-001.mtx" --alloc-file "$dump/reorder-001.coords")
"$rankmap" eval "${inputs[@]}" > "$dump/before.txt"
"$rankmap" eval "${inputs[@]}" --mapping "$dump/reorder-001.map" > "$dump/after.txt"
echo
echo "== the dumped graph and allocation, launcher order (before) and rankmap order (after): rankmap eval"
awk 'NR == FNR { before[$1] = $2; next }
     FNR == 1 { printf "%-18s %14s %14s\n", "metric", "before", "after" }
     $1 ~ /^(mcl_adaptive|mcl_adaptive_hop|mcl_dor|hop_bytes|dilation_avg|dilation_max|mcl_lower_bound|algorithm)$/ {
       printf "%-18s %14s %14s\n", $1, before[$1], $2 }' "$dump/before.txt" "$dump/after.txt"
