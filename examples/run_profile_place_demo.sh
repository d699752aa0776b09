#!/usr/bin/env bash
# The path that is safe for every MPI program, on the unmodified halo example (examples/halo_sendrecv,
# which calls no topology function): run 1 under librankmap_preload.so with RANKMAP_PROFILE on an
# emulated torus, `rankmap place` turns the profile into a launcher file and predicts the change, and
# run 2 starts from that file without rankmap; both runs must print the same checksum.
#
#   examples/run_profile_place_demo.sh RANKMAP_TOOL BUILD_DIR...
#
# Each BUILD_DIR names its MPI in its CMake cache and has halo_sendrecv and rankmap_preload built.
# RANKS and COORDS override the job size and the emulated machine.
set -euo pipefail
cd "$(dirname "$0")/.."
ranks=${RANKS:-64}
coords=${COORDS:-emulate:torus:4x4x2,ppn=2}
[ $# -ge 2 ] || { echo "usage: $0 RANKMAP_TOOL BUILD_DIR..." >&2; exit 2; }
rankmap=$(realpath "$1")
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for dir in "$@"; do
  mpi=$(sed -n 's/^RANKMAP_MPI:STRING=//p' "$dir/CMakeCache.txt")
  preload=$(realpath "$dir/src/pmpi/librankmap_preload.so")
  halo=$(realpath "$dir/examples/halo_sendrecv/halo_sendrecv")
  prefix="$work/$mpi"
  echo "== $mpi ($dir): run 1, $ranks ranks under RANKMAP_PROFILE, RANKMAP_COORDS=$coords"
  if [ "$mpi" = openmpi ]; then
    launch=(mpiexec.openmpi --oversubscribe --allow-run-as-root --mca btl self,vader --bind-to none -n "$ranks")
    "${launch[@]}" -x LD_PRELOAD="$preload" -x RANKMAP_COORDS="$coords" -x RANKMAP_PROFILE="$prefix" "$halo" \
      | tee "$work/run1.txt"
    format=openmpi-rankfile
    relaunch=(--rankfile "$prefix.launch")
  else
    launch=(mpiexec.mpich -n "$ranks")
    "${launch[@]}" -genv LD_PRELOAD "$preload" -genv RANKMAP_COORDS "$coords" -genv RANKMAP_PROFILE "$prefix" "$halo" \
      | tee "$work/run1.txt"
    format=mpich-hostfile
    relaunch=(-f "$prefix.launch")
  fi
  echo "== rankmap place --profile ... --format $format"
  "$rankmap" place --profile "$prefix" --format "$format" -o "$prefix.launch" --time-budget-ms 2000
  echo "== run 2, started from the launcher file, without rankmap"
  "${launch[@]}" "${relaunch[@]}" "$halo" | tee "$work/run2.txt"
  if [ "$(grep checksum "$work/run1.txt")" != "$(grep checksum "$work/run2.txt")" ]; then
    echo "the relaunch changed the program's result" >&2
    exit 1
  fi
  echo "== same checksum in both runs: every rank kept its meaning"
done
