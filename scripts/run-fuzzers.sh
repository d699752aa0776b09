#!/usr/bin/env bash
# Builds every libFuzzer target with clang in a build tree of its own and runs each one for
# SECONDS seconds, starting from fuzz/corpus/<target>/ with fuzz/<target>.dict when they exist.
# Runs JOBS targets at once (2 by default), each logging to fuzz-logs/<target>.log in the build tree.
# Exits non-zero after the batch in which a target fails: a crash, a sanitizer error, a timeout (an
# input that takes over 25 s, generous because CI machines are shared) or more than 2 GB of memory.
#
#   scripts/run-fuzzers.sh SECONDS      build tree: build-fuzz/, or $RANKMAP_FUZZ_BUILD_DIR
set -euo pipefail

seconds=${1:?usage: scripts/run-fuzzers.sh SECONDS}
jobs=${JOBS:-2}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "run-fuzzers: JOBS='$jobs' is not a positive integer" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
build=${RANKMAP_FUZZ_BUILD_DIR:-$root/build-fuzz}

cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRANKMAP_BUILD_FUZZERS=ON -DRANKMAP_BUILD_TESTS=OFF \
  -DRANKMAP_BUILD_TOOLS=OFF -DRANKMAP_BUILD_BENCH=OFF -DRANKMAP_BUILD_EXAMPLES=OFF -DRANKMAP_WITH_FORTRAN=OFF \
  >/dev/null
mapfile -t targets < "$build/fuzz/targets.txt"
cmake --build "$build" -j "$jobs" --target "${targets[@]}"

artifacts=$build/fuzz-artifacts
logs=$build/fuzz-logs
mkdir -p "$artifacts" "$logs"

# One target's run, in place of the background subshell that calls it (so that killing its pid
# stops the fuzzer); its output goes to its own log, so that targets can run side by side.
fuzz_one() {
  local target=$1 corpus=$build/fuzz-corpus/$1
  mkdir -p "$corpus"
  local args=(-max_total_time="$seconds" -rss_limit_mb=2048 -timeout=25 -print_final_stats=1
              -artifact_prefix="$artifacts/$target-")
  [ -f "$root/fuzz/$target.dict" ] && args+=(-dict="$root/fuzz/$target.dict")
  local seeds=()
  [ -d "$root/fuzz/corpus/$target" ] && seeds+=("$root/fuzz/corpus/$target")
  exec "$build/fuzz/$target" "${args[@]}" "$corpus" "${seeds[@]}" >"$logs/$target.log" 2>&1
}

# As many targets at once as there are jobs: each is single-threaded, and one after another they
# took SECONDS each of CI's time on its 2 cores. An interrupted run stops the batch's targets too.
failed=()
pids=()
trap '[ ${#pids[@]} -eq 0 ] || kill "${pids[@]}" 2>/dev/null || true' EXIT
trap 'exit 130' INT TERM
for ((first = 0; first < ${#targets[@]}; first += jobs)); do
  batch=("${targets[@]:first:jobs}")
  pids=()
  for target in "${batch[@]}"; do
    echo "== $target: ${seconds}s"
    fuzz_one "$target" & pids+=($!)
  done
  for k in "${!batch[@]}"; do
    if wait "${pids[$k]}"; then
      echo "== ${batch[$k]}: $(grep -m1 '^Done' "$logs/${batch[$k]}.log" || echo 'no summary')"
    else
      failed+=("${batch[$k]}")
      echo "== ${batch[$k]} FAILED; the end of its log ($logs/${batch[$k]}.log):"
      tail -n 60 "$logs/${batch[$k]}.log" || true
    fi
  done
  pids=()
  [ ${#failed[@]} -eq 0 ] || { echo "run-fuzzers: ${failed[*]} failed; a crashing input is in $artifacts"; exit 1; }
done
echo "run-fuzzers: ${#targets[@]} targets ran ${seconds}s each without a finding (${jobs} at a time)"
