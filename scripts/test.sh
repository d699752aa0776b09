#!/usr/bin/env bash
# Sets everything up on Debian 12 and runs every test: unit, tool and SMPI smoke tests once, MPI tests
# under both Open MPI and MPICH, and each fuzz target for a bounded time.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
jobs=$(nproc)
took() { echo "test.sh: $1 done after $((SECONDS / 60)) min $((SECONDS % 60)) s"; }
took "installing"

# The core and the tool are MPI-independent, so their tests are built and run in the Open MPI
# tree only; the MPICH tree builds what depends on MPI.
source scripts/build-flags.sh
configure_and_build() {
  local mpi=$1; shift
  cmake -S . -B "build-$mpi" -DRANKMAP_MPI="$mpi" "${build_flags[@]}" "$@"
  cmake --build "build-$mpi" -j"$jobs"
  took "building with $mpi"
}
configure_and_build openmpi
configure_and_build mpich -DRANKMAP_BUILD_UNIT_TESTS=OFF -DRANKMAP_BUILD_TOOLS=OFF -DRANKMAP_BUILD_BENCH=OFF \
  -DRANKMAP_TOOL_EXECUTABLE="$PWD/build-openmpi/tools/rankmap"

ctest --test-dir build-openmpi -L 'unit|tool|smpi' -j"$jobs" --output-on-failure
took "unit, tool and SMPI tests"
for mpi in openmpi mpich; do
  if ctest --test-dir "build-$mpi" -L mpi -N | grep -q 'Total Tests: [1-9]'; then
    ctest --test-dir "build-$mpi" -L mpi -j"$jobs" --output-on-failure
    took "MPI tests under $mpi"
  fi
done

if [ -x scripts/run-fuzzers.sh ]; then
  scripts/run-fuzzers.sh "${RANKMAP_FUZZ_SECONDS:-20}"
  took "fuzzing"
fi
echo "test.sh: all tests passed"
