#!/usr/bin/env bash
# Builds virrey's libFuzzer targets (tests/fuzz) with clang-14 in build-fuzz/
# and runs each of them for a while. Exits non-zero when any target finds a
# crash, a leak, a timeout or a broken property; the input is then kept under
# build-fuzz/artifacts/TARGET/ (copy it into tests/fuzz/regressions/TARGET/
# once fixed, so every test run replays it).
#
# Usage: scripts/fuzz.sh [--seconds N] [--jobs J] [--build-only] [--tests] [TARGET...]
#   --seconds N   how long each target runs (default 60)
#   --jobs J      targets run at once (default 2)
#   --build-only  build, run nothing
#   --tests       build the test suite in the same tree too: the tests then
#                 run on the same sanitized libraries (scripts/run-tests.sh)
#   TARGET        pgn_reader fen san import (default: all of them)
# The corpus each target grows is kept in build-fuzz/corpus/TARGET/ and seeded
# from tests/fuzz/corpus/TARGET/, tests/fuzz/regressions/TARGET/ and, for the
# PGN targets, ../shared/corpora/tricky when it is there.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${VIRREY_FUZZ_BUILD_DIR:-$root/build-fuzz}
seconds=60 jobs=2 build_only=0 tests=OFF targets=()
while (($#)); do
  case "$1" in
    --seconds) seconds=$2; shift ;;
    --jobs) jobs=$2; shift ;;
    --build-only) build_only=1 ;;
    --tests) tests=ON ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "unknown option: $1" >&2; exit 2 ;;
    *) targets+=("$1") ;;
  esac
  shift
done
# By default every target that tests/fuzz/CMakeLists.txt declares.
((${#targets[@]})) || read -ra targets <<<"$(sed -n 's/^set(VIRREY_FUZZ_TARGETS \(.*\))$/\1/p' "$root/tests/fuzz/CMakeLists.txt")"

max_len() {
  case "$1" in
    pgn_reader) echo 8192 ;;
    import|trf|event_checks|engine_lines) echo 4096 ;;
    *) echo 512 ;;
  esac
}

# A unit of the import target creates, fills and closes a database: on a
# loaded machine under the sanitizers one may take seconds, so it is given
# longer than the others before libFuzzer calls it a hang.
unit_timeout() {
  case "$1" in
    import) echo 30 ;;
    *) echo 10 ;;
  esac
}

"$root/scripts/install-deps.sh"
cmake -S "$root" -B "$build" -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DVIRREY_FUZZ=ON \
  -DVIRREY_BUILD_TESTS="$tests" -DVIRREY_BUILD_BENCH=OFF >/dev/null
if [[ "$tests" == ON ]]; then cmake --build "$build" -j"$(nproc)"
else cmake --build "$build" -j"$(nproc)" --target "${targets[@]/#/fuzz_}"; fi
((build_only)) && exit 0

shared_tricky="$root/../shared/corpora/tricky"
run_target() { # target
  local t=$1 corpus="$build/corpus/$1" art="$build/artifacts/$1/" tmp
  # Scratch space in memory when there is plenty (a container's /dev/shm may
  # hold only 64 MB): the database syncs cost less there.
  local shm_free_kb=0
  [[ -d /dev/shm && -w /dev/shm ]] && shm_free_kb=$(df -Pk /dev/shm | awk 'NR == 2 { print $4 }')
  if (( shm_free_kb > 1024 * 1024 )); then tmp=$(mktemp -d /dev/shm/virrey-fuzz-XXXXXX)
  else tmp="$build/tmp/$1"; fi
  local seeds=("$root/tests/fuzz/corpus/$t")
  [[ -d "$root/tests/fuzz/regressions/$t" ]] && seeds+=("$root/tests/fuzz/regressions/$t")
  [[ "$t" == pgn_reader || "$t" == import ]] && [[ -d "$shared_tricky" ]] && seeds+=("$shared_tricky")
  mkdir -p "$corpus" "$art" "$tmp"
  # The import target makes its scratch databases under TMPDIR.
  local rc=0
  TMPDIR="$tmp" "$build/tests/fuzz/fuzz_$t" "$corpus" "${seeds[@]}" \
    -max_total_time="$seconds" -timeout="$(unit_timeout "$t")" -rss_limit_mb=2048 -max_len="$(max_len "$t")" \
    -dict="$root/tests/fuzz/pgn.dict" -artifact_prefix="$art" -print_final_stats=1 \
    >"$build/logs/$t.log" 2>&1 || rc=$?
  rm -rf "$tmp"
  echo "$rc" >"$build/logs/$t.rc"
}

# One line per target: runs, speed, coverage, corpus size.
summary() { # target status
  local log="$build/logs/$1.log"
  local runs speed cov corpus
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
  corpus=$(find "$build/corpus/$1" -type f | wc -l)
  printf '%-11s %-6s runs=%s exec/s=%s cov=%s corpus=%s\n' "$1" "$2" "${runs:-?}" "${speed:-?}" \
    "${cov:-?}" "$corpus"
}

mkdir -p "$build/logs"
for t in "${targets[@]}"; do
  rm -f "$build/logs/$t.rc"
  while (($(jobs -rp | wc -l) >= jobs)); do wait -n || true; done
  run_target "$t" &
done
wait
failed=0
for t in "${targets[@]}"; do
  rc=$(cat "$build/logs/$t.rc" 2>/dev/null || echo missing)
  if [[ "$rc" == 0 ]]; then
    summary "$t" ok
  else
    failed=1
    summary "$t" "FAILED(exit $rc)"
    grep -m 1 -A 30 -E '^==[0-9]+==ERROR|runtime error|virrey fuzz check failed|ALARM|out-of-memory' \
      "$build/logs/$t.log" || tail -n 40 "$build/logs/$t.log"
    echo "inputs kept in $build/artifacts/$t/:"
    ls -l "$build/artifacts/$t/"
  fi
done
exit $failed
