#!/usr/bin/env bash
# Runs the unmodified stencil example under librankmap_preload.so with every MPI built in this
# checkout, on an emulated 2x4x4 torus with 2 processes per node (64 ranks), and prints rankmap's
# report line: the maximum channel load (MCL) of the launcher's order and of rankmap's order.
#
#   examples/run_stencil_demo.sh [BUILD_DIR...]
#
# Without arguments it uses every build*/ directory whose CMake cache names an MPI and that has
# the stencil and the preload library built (cmake --build <dir> --target stencil rankmap_preload).
# RANKS and COORDS override the job size and the emulated machine.
set -euo pipefail
cd "$(dirname "$0")/.."
ranks=${RANKS:-64}
coords=${COORDS:-emulate:torus:2x4x4,ppn=2}

dirs=("$@")
if [ ${#dirs[@]} -eq 0 ]; then
  for d in build*/; do
    [ -f "$d/CMakeCache.txt" ] && [ -x "$d/examples/stencil/stencil" ] && [ -f "$d/src/pmpi/librankmap_preload.so" ] &&
      dirs+=("${d%/}")
  done
fi
if [ ${#dirs[@]} -eq 0 ]; then
  echo "no build with the stencil and the preload library; build one with, for example:" >&2
  echo "  cmake -S . -B build -DRANKMAP_MPI=openmpi && cmake --build build --target stencil rankmap_preload" >&2
  exit 1
fi

for dir in "${dirs[@]}"; do
  mpi=$(sed -n 's/^RANKMAP_MPI:STRING=//p' "$dir/CMakeCache.txt")
  preload=$(realpath "$dir/src/pmpi/librankmap_preload.so")
  stencil=$(realpath "$dir/examples/stencil/stencil")
  echo "== $mpi ($dir): $ranks ranks, RANKMAP_COORDS=$coords"
  if [ "$mpi" = openmpi ]; then
    mpiexec.openmpi --oversubscribe --allow-run-as-root --mca btl self,vader --bind-to none -n "$ranks" \
      -x LD_PRELOAD="$preload" -x RANKMAP_REORDER=dist_graph -x RANKMAP_COORDS="$coords" -x RANKMAP_REPORT=stderr "$stencil"
  else
    mpiexec.mpich -n "$ranks" -genv LD_PRELOAD "$preload" -genv RANKMAP_REORDER dist_graph -genv RANKMAP_COORDS "$coords" \
      -genv RANKMAP_REPORT stderr "$stencil"
  fi
done
