# Shell functions the benchmark scripts share: what a build tree holds, launching an MPI job on this
# host, and medians. Source it: . "$(dirname "$0")/lib.sh"

# build_mpi BUILD_DIR: the MPI the tree was configured for (openmpi or mpich).
build_mpi() { sed -n 's/^RANKMAP_MPI:STRING=//p' "$1/CMakeCache.txt"; }

# build_preload BUILD_DIR: the tree's preload library, as an absolute path.
build_preload() { realpath "$1/src/pmpi/librankmap_preload.so"; }

# The median of the numbers on stdin.
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# launch MPI NP VAR=value... -- command...: NP processes, oversubscribed on this host, with the
# variables set in every one. With LAUNCH_TIMEOUT set, a job still running after that many seconds
# is stopped. MPICH_LAUNCH_FLAGS (an array) adds mpiexec.mpich options.
launch() {
  local mpi=$1 np=$2; shift 2
  local flags=()
  while [ "$1" != "--" ]; do
    if [ "$mpi" = openmpi ]; then flags+=(-x "$1"); else flags+=(-genv "${1%%=*}" "${1#*=}"); fi
    shift
  done
  shift
  local guard=()
  [ -n "${LAUNCH_TIMEOUT:-}" ] && guard=(timeout "$LAUNCH_TIMEOUT")
  if [ "$mpi" = openmpi ]; then
    "${guard[@]}" mpiexec.openmpi --oversubscribe --allow-run-as-root --mca btl self,vader --bind-to none -n "$np" \
      "${flags[@]}" "$@"
  else
    "${guard[@]}" mpiexec.mpich -n "$np" ${MPICH_LAUNCH_FLAGS[@]+"${MPICH_LAUNCH_FLAGS[@]}"} "${flags[@]}" "$@"
  fi
}
