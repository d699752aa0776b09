#!/usr/bin/env bash
# Measures the overhead of RANKMAP_PROFILE (issue 15, target: at most 3%) and prints a markdown
# section for BENCHMARKS.md: the message rate of 64-byte messages between 4 pairs of processes
# (bench/message_rate.c, RANKS ranks, default one per core) plain, under the preload layer without a profile, and under the
# preload layer recording a profile. The three runs alternate and each figure is the median of REPS
# runs, so that the ratios compare measurements taken under the same load. A second table counts
# instructions with callgrind (2 ranks, 2000 windows), which does not depend on the load: those of
# the interposed MPI_Isend against those of PMPI_Isend, per message.
# usage: bench/run_profiler_bench.sh BUILD_DIR...   (trees configured with -DRANKMAP_MPI=openmpi|mpich,
#        with targets rankmap_preload and message_rate built)
set -euo pipefail
reps=${REPS:-15}
seconds=${SECONDS_PER_RUN:-2}
# One pair per core by default: oversubscribed ranks make the scheduler, not the send path, set the rate.
ranks=${RANKS:-$(nproc)}
[ $# -ge 1 ] || { echo "usage: $0 BUILD_DIR..." >&2; exit 2; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
best() { sort -g | tail -n 1; }

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
    # MPICH 4.0 (ch4:ucx) polls without yielding, so 8 processes on 2 cores take minutes per run
    # unless it yields after a few polls.
    mpiexec.mpich -n "$np" -genv MPIR_CVAR_POLLS_BEFORE_YIELD 10 "${flags[@]}" "$@"
  fi
}

rate() { awk '/messages_per_second/ {print $2}'; }

echo "## Profiler overhead (issue 15)"
echo
echo "Measured with \`bench/run_profiler_bench.sh $*\` at commit $(git rev-parse --short HEAD) on $(nproc) cores"
echo "($ranks ranks, shared with other jobs), $(date -u +%Y-%m-%d). Message rate of 64-byte"
echo "\`MPI_Isend\`s in windows of 64 between $((ranks / 2)) pair(s) (\`bench/message_rate.c\`, ${seconds} s per run), $reps runs of each"
echo "variant, alternating; the median, and the best run (the least disturbed by other jobs)."
echo
echo "| MPI | statistic | plain (msg/s) | preload, no profile | ratio | preload + RANKMAP_PROFILE | ratio (target ≥ 0.97) |"
echo "|---|---|---|---|---|---|---|"
for build in "$@"; do
  mpi=$(sed -n 's/^RANKMAP_MPI:STRING=//p' "$build/CMakeCache.txt")
  preload=$(realpath "$build/src/pmpi/librankmap_preload.so")
  program="$build/bench/message_rate"
  plain=() idle=() profiled=()
  for _ in $(seq "$reps"); do
    plain+=("$(launch "$mpi" "$ranks" -- "$program" "$seconds" | rate)")
    idle+=("$(launch "$mpi" "$ranks" LD_PRELOAD="$preload" RANKMAP_COORDS="emulate:torus:$ranks" -- "$program" "$seconds" | rate)")
    profiled+=("$(launch "$mpi" "$ranks" LD_PRELOAD="$preload" RANKMAP_COORDS="emulate:torus:$ranks" \
      RANKMAP_PROFILE="$scratch/rate" -- "$program" "$seconds" 2>/dev/null | rate)")
  done
  for stat in median best; do
    p=$(printf '%s\n' "${plain[@]}" | $stat)
    i=$(printf '%s\n' "${idle[@]}" | $stat)
    q=$(printf '%s\n' "${profiled[@]}" | $stat)
    awk -v m="$mpi" -v s="$stat" -v p="$p" -v i="$i" -v q="$q" \
      'BEGIN {printf "| %s | %s | %.3g | %.3g | %.3f | %.3g | %.3f |\n", m, s, p, i, i / p, q, q / p}'
  done
done

echo
echo "Instructions per \`MPI_Isend\` (callgrind, rank 0 of 2, 2000 windows of 64 messages, with RANKMAP_PROFILE):"
echo
echo "| MPI | PMPI_Isend | interposed MPI_Isend | overhead (of PMPI_Isend alone) |"
echo "|---|---|---|---|"
for build in "$@"; do
  mpi=$(sed -n 's/^RANKMAP_MPI:STRING=//p' "$build/CMakeCache.txt")
  preload=$(realpath "$build/src/pmpi/librankmap_preload.so")
  rm -f "$scratch"/cg.*
  if [ "$mpi" = openmpi ]; then rank_var=OMPI_COMM_WORLD_RANK; else rank_var=PMI_RANK; fi
  launch "$mpi" 2 LD_PRELOAD="$preload" RANKMAP_COORDS=emulate:torus:2 RANKMAP_PROFILE="$scratch/cg_profile" -- \
    valgrind --tool=callgrind --callgrind-out-file="$scratch/cg.%q{$rank_var}" "$build/bench/message_rate" -w 2000 \
    >/dev/null 2>&1
  callgrind_annotate --inclusive=yes "$scratch/cg.0" 2>/dev/null | awk -v m="$mpi" '
    / \?\?\?:PMPI_Isend / {gsub(",", "", $1); inner = $1}
    /p2p_profiling.cpp:MPI_Isend / {gsub(",", "", $1); outer = $1}
    END {n = (2000 + 10) * 64; printf "| %s | %.0f | %.0f | %.0f (%.1f%%) |\n", m, inner / n, outer / n, (outer - inner) / n,
         100 * (outer - inner) / inner}'
done
