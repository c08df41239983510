#!/usr/bin/env bash
# Builds virrey with its tests and runs every test (the README's test command),
# in three stages:
#   1. the Release build (g++) in build/ and its whole ctest suite;
#   2. the same suite on libraries built with AddressSanitizer and
#      UndefinedBehaviorSanitizer (clang-14, -O1, line tables) in build-asan/,
#      the tree scripts/fuzz.sh builds, so the fuzz targets come with it;
#   3. every fuzz target (scripts/fuzz.sh) for VIRREY_FUZZ_SECONDS seconds
#      each (default 30), on that tree.
# VIRREY_QUICK=1 runs stage 1 only. Each stage's time is printed at the end.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${VIRREY_BUILD_DIR:-$root/build}
asan_build=${VIRREY_ASAN_BUILD_DIR:-$root/build-asan}
jobs=$(nproc)
timings=()

stage() { # name command...
  local name=$1 start=$SECONDS
  shift
  echo "== $name" >&2
  "$@"
  timings+=("$(printf '%-22s %5d s' "$name" $((SECONDS - start)))")
}

release_tests() {
  # Tests on whatever an earlier quick start configured; no test found is a failure.
  "$root/scripts/build.sh" -DVIRREY_BUILD_TESTS=ON -DVIRREY_BUILD_BENCH=ON
  (cd "$build" && ctest --output-on-failure --no-tests=error -j"$jobs")
}

asan_tests() {
  VIRREY_FUZZ_BUILD_DIR="$asan_build" "$root/scripts/fuzz.sh" --tests --build-only
  # Any sanitizer report fails the test that caused it.
  (cd "$asan_build" &&
     ASAN_OPTIONS=halt_on_error=1:detect_leaks=1 \
     UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
     ctest --output-on-failure --no-tests=error -j"$jobs")
}

fuzz_smoke() {
  VIRREY_FUZZ_BUILD_DIR="$asan_build" "$root/scripts/fuzz.sh" --tests --seconds "${VIRREY_FUZZ_SECONDS:-30}" \
    --jobs "$jobs"
}

trap '((${#timings[@]})) && printf "%s\n" "${timings[@]}" >&2' EXIT
stage "release build+tests" release_tests
if [[ "${VIRREY_QUICK:-0}" != 1 ]]; then
  stage "asan build+tests" asan_tests
  stage "fuzz smoke" fuzz_smoke
fi
