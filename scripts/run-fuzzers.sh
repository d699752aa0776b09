#!/usr/bin/env bash
# Builds every libFuzzer target with clang in a build tree of its own and runs each one for
# SECONDS seconds, starting from fuzz/corpus/<target>/ with fuzz/<target>.dict when they exist.
# Exits non-zero as soon as a target finds a crash, a sanitizer error, a timeout (an input that
# takes over 25 s, generous because CI machines are shared) or more than 2 GB of memory.
#
#   scripts/run-fuzzers.sh SECONDS      build tree: build-fuzz/, or $RANKMAP_FUZZ_BUILD_DIR
set -euo pipefail

seconds=${1:?usage: scripts/run-fuzzers.sh SECONDS}
root=$(cd "$(dirname "$0")/.." && pwd)
build=${RANKMAP_FUZZ_BUILD_DIR:-$root/build-fuzz}

cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRANKMAP_BUILD_FUZZERS=ON -DRANKMAP_BUILD_TESTS=OFF \
  -DRANKMAP_BUILD_TOOLS=OFF -DRANKMAP_BUILD_BENCH=OFF -DRANKMAP_BUILD_EXAMPLES=OFF -DRANKMAP_WITH_FORTRAN=OFF \
  >/dev/null
mapfile -t targets < "$build/fuzz/targets.txt"
cmake --build "$build" -j "${JOBS:-2}" --target "${targets[@]}"

artifacts=$build/fuzz-artifacts
mkdir -p "$artifacts"
for target in "${targets[@]}"; do
  corpus=$build/fuzz-corpus/$target
  mkdir -p "$corpus"
  args=(-max_total_time="$seconds" -rss_limit_mb=2048 -timeout=25 -print_final_stats=1
        -artifact_prefix="$artifacts/$target-")
  [ -f "$root/fuzz/$target.dict" ] && args+=(-dict="$root/fuzz/$target.dict")
  seeds=()
  [ -d "$root/fuzz/corpus/$target" ] && seeds+=("$root/fuzz/corpus/$target")
  echo "== $target: ${seconds}s"
  "$build/fuzz/$target" "${args[@]}" "$corpus" "${seeds[@]}"
done
echo "run-fuzzers: ${#targets[@]} targets ran ${seconds}s each without a finding"
