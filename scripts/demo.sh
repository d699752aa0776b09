#!/usr/bin/env bash
# The main job: sets everything up on Debian 12, then, under Open MPI and MPICH, with 64 ranks on
# an emulated torus with 2 processes per node:
#  1. the path safe for every program: the unmodified halo example (no topology call) is profiled
#     on torus:4x4x2 under the preload layer, `rankmap place` writes a launcher file and prints the
#     quality of the launcher's order (before) and of the placed order (after), and a relaunch from
#     the file gives the same result;
#  2. live renumbering, for programs that ask for it: the unmodified stencil example (which calls
#     MPI_Dist_graph_create_adjacent with reorder) under the preload layer with
#     RANKMAP_REORDER=dist_graph on torus:2x4x4, with the quality before and after.
#
#   scripts/demo.sh            RANKS and COORDS override the job size and the emulated machine of both
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
jobs=$(nproc)
source scripts/build-flags.sh

for mpi in openmpi mpich; do
  cmake -S . -B "build-$mpi" -DRANKMAP_MPI="$mpi" "${build_flags[@]}" >/dev/null
  cmake --build "build-$mpi" -j"$jobs" --target stencil halo_sendrecv rankmap_preload
done
cmake --build build-openmpi -j"$jobs" --target rankmap_cli

echo "######## 1. profile, place, relaunch (any program)"
examples/run_profile_place_demo.sh build-openmpi/tools/rankmap build-openmpi build-mpich

echo
echo "######## 2. live renumbering (programs that take their work from the new rank)"
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
