#!/usr/bin/env bash
# Measures the overhead of RANKMAP_PROFILE (issue 15, target: at most 3%) and prints a markdown
# section for BENCHMARKS.md: the message rate of 64-byte messages between pairs of processes
# (bench/message_rate.c) plain, under the preload layer without a profile, and under the preload
# layer recording a profile. The three runs alternate in rounds, and each ratio is the median over
# the rounds of the ratio to the plain run of the same round, so that every ratio compares runs taken
# under the same load. It runs with one pair per core (RANKS defaults to nproc) and with the issue's 8
# ranks (RANKS_OVERSUBSCRIBED), where on a small machine the scheduler, not the send path, sets the
# rate. Each ratio comes with a 95% confidence interval for its median (distribution-free, from the
# order statistics of the rounds' ratios), so that a table can say whether the target is met or the
# noise is too large to tell. A second table interleaves the plain and the interposed path within
# one run (message_rate -i), block by block, which cancels the load that the rounds cannot: on 2
# cores it is the table that can decide the 8-rank target. A third table counts instructions with callgrind (2 ranks, 2000 windows), which does not
# depend on the load: the interposed MPI_Isend's own instructions per message, with and without a
# profile, against those of PMPI_Isend. The interleaved and callgrind tables also have RANKMAP_PROFILE_PHASES=steps, which also
# interposes the completions that end steps.
# usage: [REPS=15] [INTERLEAVED_SECONDS=20] [BLOCK_WINDOWS=50] [RANKS_LIST="2 8"] bench/run_profiler_bench.sh BUILD_DIR...   (trees configured with -DRANKMAP_MPI=openmpi|mpich,
#        with targets rankmap_preload and message_rate built; REPS=0 or INTERLEAVED_SECONDS=0 skips that table)
set -euo pipefail
reps=${REPS:-15}
seconds=${SECONDS_PER_RUN:-2}
# A run that has not finished by then is stopped and its round left out (named under the table):
# one plain MPICH run of 8 ranks on 2 cores once stalled for over 5 minutes, at 0.5% CPU.
run_timeout=${RUN_TIMEOUT:-60}
ranks_list=${RANKS_LIST:-"$(nproc) 8"}
# Seconds of each interleaved run (0 skips that table); it is stopped after twice that plus a minute.
interleaved_seconds=${INTERLEAVED_SECONDS:-20}
interleaved_timeout=$((2 * interleaved_seconds + 60))
# Windows per interleaved block: fewer give more pairs where a window is slow (MPICH oversubscribed).
block_windows=${BLOCK_WINDOWS:-50}
[ $# -ge 1 ] || { echo "usage: $0 BUILD_DIR..." >&2; exit 2; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

. "$(dirname "$0")/lib.sh"
LAUNCH_TIMEOUT=$run_timeout
# MPICH 4.0 (ch4:ucx) polls without yielding, so 8 processes on 2 cores take minutes per run
# unless it yields after a few polls.
MPICH_LAUNCH_FLAGS=(-genv MPIR_CVAR_POLLS_BEFORE_YIELD 10)
# A 95% confidence interval for the median of the values on stdin, "[low, high]": the order
# statistics k and n+1-k, with k the largest such that P(Binomial(n, 1/2) < k) <= 0.025.
median_interval() {
  sort -g | awk '{v[NR] = $1} END {
    n = NR; k = 0; below = 0; term = 0.5 ^ n
    if (n > 1000) k = int(n / 2 - 1.96 * sqrt(n) / 2)  # 0.5^n underflows; the normal approximation
    else for (j = 0; j < n && below + term <= 0.025; ++j) {below += term; term *= (n - j) / (j + 1); k = j + 1}
    if (k < 1) {print "[n too small]"; exit}
    printf "[%.3f, %.3f]", v[k], v[n + 1 - k]}'
}

rate() { awk '/messages_per_second/ {print $2}'; }

echo "## Profiler overhead (issue 15)"
echo
echo "Measured with \`bench/run_profiler_bench.sh $*\` at commit $(git rev-parse --short HEAD) on $(nproc) cores"
echo "(shared with other jobs; load average at the start $(cut -d' ' -f1-3 /proc/loadavg)), $(date -u +%Y-%m-%d)."
if [ "$reps" != 0 ]; then
  echo "Message rate of 64-byte \`MPI_Isend\`s in windows of 64 between pairs of processes"
  echo "(\`bench/message_rate.c\`, ${seconds} s per run), $reps rounds of the three variants, alternating. Each"
  echo "ratio is the median over the rounds of the variant's rate over the plain rate of the same round,"
  echo "with a 95% confidence interval for that median (order statistics of the rounds' ratios; the"
  echo "target is met when the whole interval is at least 0.97); the rates are medians. With more ranks"
  echo "than cores the scheduler, not the send path, sets the rate."
  echo
  echo "| MPI | ranks | plain (msg/s) | preload, no profile (msg/s) | ratio | 95% interval | preload + RANKMAP_PROFILE, PHASES=none (msg/s) | ratio (target ≥ 0.97) | 95% interval |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
  skipped=()
  for build in "$@"; do
    mpi=$(build_mpi "$build")
    preload=$(build_preload "$build")
    program="$build/bench/message_rate"
    for ranks in $ranks_list; do
      plain=() idle=() profiled=() idle_ratio=() profiled_ratio=()
      for round in $(seq "$reps"); do
        p=$(launch "$mpi" "$ranks" -- "$program" "$seconds" | rate) || p=
        i=$(launch "$mpi" "$ranks" LD_PRELOAD="$preload" RANKMAP_COORDS="emulate:torus:$ranks" -- "$program" "$seconds" | rate) || i=
        q=$(launch "$mpi" "$ranks" LD_PRELOAD="$preload" RANKMAP_COORDS="emulate:torus:$ranks" \
          RANKMAP_PROFILE="$scratch/rate" RANKMAP_PROFILE_PHASES=none -- "$program" "$seconds" 2>/dev/null | rate) || q=
        if [ -z "$p" ] || [ -z "$i" ] || [ -z "$q" ]; then
          skipped+=("$mpi, $ranks ranks, round $round: plain '${p:-none}', no profile '${i:-none}', profile '${q:-none}'")
          continue
        fi
        plain+=("$p") idle+=("$i") profiled+=("$q")
        idle_ratio+=("$(awk -v a="$i" -v b="$p" 'BEGIN {print a / b}')")
        profiled_ratio+=("$(awk -v a="$q" -v b="$p" 'BEGIN {print a / b}')")
      done
      awk -v m="$mpi" -v n="$ranks" -v p="$(printf '%s\n' "${plain[@]}" | median)" \
        -v i="$(printf '%s\n' "${idle[@]}" | median)" -v ir="$(printf '%s\n' "${idle_ratio[@]}" | median)" \
        -v ii="$(printf '%s\n' "${idle_ratio[@]}" | median_interval)" \
        -v q="$(printf '%s\n' "${profiled[@]}" | median)" -v qr="$(printf '%s\n' "${profiled_ratio[@]}" | median)" \
        -v qi="$(printf '%s\n' "${profiled_ratio[@]}" | median_interval)" \
        'BEGIN {printf "| %s | %d | %.3g | %.3g | %.3f | %s | %.3g | %.3f | %s |\n", m, n, p, i, ir, ii, q, qr, qi}'
    done
  done
  if [ ${#skipped[@]} -gt 0 ]; then
    echo
    echo "Rounds left out, because a run did not finish within ${run_timeout} s or printed no rate:"
    printf -- '- %s\n' "${skipped[@]}"
  fi
fi

# The interleaved table: one run per variant, in which blocks of PMPI_ calls (the plain path) and of
# MPI_ calls alternate, so that every pair of blocks runs under the same load (message_rate -i).
if [ "$interleaved_seconds" != 0 ]; then
  echo
  echo "Interleaved within one run (\`message_rate -i $interleaved_seconds $block_windows\`): blocks of $block_windows windows made of"
  echo "\`PMPI_\` calls, which no tool interposes, alternate with blocks of \`MPI_\` calls, in pairs ordered AB,"
  echo "BA, AB, ...; each pair's ratio is the \`MPI_\` block's rate over the \`PMPI_\` block's. The ratio is"
  echo "the median over the run's pairs, with its 95% confidence interval. Without a preload both blocks"
  echo "run the same code, so that row is the method's own control and should include 1."
  echo
  echo "| MPI | ranks | variant | pairs | ratio (target ≥ 0.97 with a profile) | 95% interval |"
  echo "|---|---:|---|---:|---:|---:|"
  for build in "$@"; do
    mpi=$(build_mpi "$build")
    preload=$(build_preload "$build")
    for ranks in $ranks_list; do
      for variant in "no preload (control)" "preload, no profile" "preload + RANKMAP_PROFILE, PHASES=none" \
                     "preload + RANKMAP_PROFILE, PHASES=steps"; do
        env=()
        case $variant in
          preload,*) env=(LD_PRELOAD="$preload" RANKMAP_COORDS="emulate:torus:$ranks") ;;
          preload\ +*) env=(LD_PRELOAD="$preload" RANKMAP_COORDS="emulate:torus:$ranks" RANKMAP_PROFILE="$scratch/interleaved"
                        RANKMAP_PROFILE_PHASES="$(sed 's/.*PHASES=\([a-z]*\).*/\1/' <<<"$variant")") ;;
        esac
        ratios=$(LAUNCH_TIMEOUT=$interleaved_timeout launch "$mpi" "$ranks" "${env[@]}" -- "$build/bench/message_rate" -i "$interleaved_seconds" "$block_windows" \
          2>/dev/null | awk '/pair_ratio/ {print $2}') || true
        if [ -z "$ratios" ]; then
          echo "| $mpi | $ranks | $variant | 0 | did not finish within $interleaved_timeout s | |"
          continue
        fi
        printf '| %s | %d | %s | %d | %.3f | %s |\n' "$mpi" "$ranks" "$variant" "$(wc -l <<<"$ratios")" \
          "$(median <<<"$ratios")" "$(median_interval <<<"$ratios")"
      done
    done
  done
fi

echo
echo "Instructions per \`MPI_Isend\` (callgrind, rank 0 of 2, 2000 windows of 64 messages): the"
echo "interposed code's own (every function of the preload library that the call runs), against"
echo "\`PMPI_Isend\`'s inclusive count in the same run. With PHASES=steps, every function of the preload"
echo "library that the run executes, per message (the waits that end steps and the agreement at MPI_Finalize too)."
echo
echo "| MPI | PMPI_Isend | interposed code, no profile | interposed code, RANKMAP_PROFILE, PHASES=none | profile's share of PMPI_Isend | RANKMAP_PROFILE, PHASES=steps |"
echo "|---|---:|---:|---:|---:|---:|"
# per_message FILE PATTERN: the summed self cost of the preload's functions whose name matches
# PATTERN, per message. They are told apart by their object file, which callgrind names with or
# without debug information (a build without -g lists them as ???:name, as it does MPI's own).
per_message() {
  callgrind_annotate --auto=no --threshold=100 "$1" 2>/dev/null | awk -v n=$(((2000 + 10) * 64)) -v pat="$2" '
    /librankmap_preload/ && $4 ~ pat {gsub(",", "", $1); s += $1} END {printf "%.0f", s / n}'
}
for build in "$@"; do
  mpi=$(build_mpi "$build")
  preload=$(build_preload "$build")
  if [ "$mpi" = openmpi ]; then rank_var=OMPI_COMM_WORLD_RANK; else rank_var=PMI_RANK; fi
  for variant in idle profiled steps; do
    profile=()
    [ "$variant" = profiled ] && profile=(RANKMAP_PROFILE="$scratch/cg_profile" RANKMAP_PROFILE_PHASES=none)
    [ "$variant" = steps ] && profile=(RANKMAP_PROFILE="$scratch/cg_profile" RANKMAP_PROFILE_PHASES=steps)
    launch "$mpi" 2 LD_PRELOAD="$preload" RANKMAP_COORDS=emulate:torus:2 "${profile[@]}" -- \
      valgrind --tool=callgrind --callgrind-out-file="$scratch/cg.$variant.%q{$rank_var}" "$build/bench/message_rate" \
      -w 2000 >/dev/null 2>&1
  done
  inner=$(callgrind_annotate --inclusive=yes "$scratch/cg.idle.0" 2>/dev/null |
    awk -v n=$(((2000 + 10) * 64)) '/ \?\?\?:PMPI_Isend / && !seen {gsub(",", "", $1); printf "%.0f", $1 / n; seen = 1}')
  idle=$(per_message "$scratch/cg.idle.0" 'Isend')
  counted=$(per_message "$scratch/cg.profiled.0" 'Isend')
  steps=$(per_message "$scratch/cg.steps.0" '.')
  awk -v m="$mpi" -v p="$inner" -v i="$idle" -v c="$counted" -v s="$steps" \
    'BEGIN {printf "| %s | %d | %d | %d | %.1f%% | %d |\n", m, p, i, c, 100 * c / p, s}'
done
