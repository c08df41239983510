#!/usr/bin/env bash
# Incremental import: N generated Virrey games imported into an empty
# database, then N more into the same database, in rounds. The first import
# of each round is the reference the second is measured against (target:
# the second within 10% of the first's games/s by wall time). Prints each
# round's rates and the median and spread of the ratios second/first. Every
# import runs pinned to the same cores (taskset), so both sides meet the
# same machine.
#   bench/incremental_import.sh [--games N] [--runs R] [--threads T] [--cpus LIST] [--work DIR]
#     --games N    games per import (default 1000000)
#     --runs R     rounds (default 3)
#     --threads T  import threads (default 1)
#     --cpus LIST  taskset's cores for every import (default 0)
#     --no-check   skip `virrey db check` of the last round's database
#     --work DIR   where the generated PGN is kept between runs and the
#                  database is built (default /var/tmp/virrey-incremental-bench)
# Environment: VIRREY (default build/cli/virrey).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
virrey=${VIRREY:-$root/build/cli/virrey}
check=1 games=1000000 runs=3 threads=1 cpus=0 work=/var/tmp/virrey-incremental-bench
while (($#)); do
  case $1 in
    --games) games=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --cpus) cpus=$2; shift 2 ;;
    --no-check) check=0; shift ;;
    --work) work=$2; shift 2 ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
((runs > 0 && games > 0)) || { echo "--runs and --games must be at least 1" >&2; exit 2; }
[[ -x "$virrey" ]] || { echo "build virrey first (scripts/build.sh)" >&2; exit 2; }
mkdir -p "$work"
for part in 0 1; do
  pgn=$work/part$part-$games.pgn
  [[ -s $pgn ]] || "$virrey" -q generate --games "$games" --first $((part * games)) --threads 2 -o "$pgn"
done

# Seconds of wall time of one import (exit 1, some game rejected, is a
# completed import).
timed_import() {
  local start end code=0
  start=$(date +%s.%N)
  taskset -c "$cpus" "$virrey" -q import "$1" --db "$work/db" --threads "$threads" >/dev/null 2>"$work/err" || code=$?
  end=$(date +%s.%N)
  ((code <= 1)) || { echo "import failed ($code):" >&2; tail -n 5 "$work/err" >&2; exit 3; }
  python3 -c "print($end - $start)"
}

: >"$work/rounds"
for _ in $(seq "$runs"); do
  rm -rf "$work/db"
  first=$(timed_import "$work/part0-$games.pgn")
  second=$(timed_import "$work/part1-$games.pgn")
  echo "$first $second" >>"$work/rounds"
done
if ((check)); then
  "$virrey" -q db check --db "$work/db" >/dev/null || { echo "db check failed" >&2; exit 3; }
fi

python3 - "$games" "$threads" "$cpus" "$work/rounds" <<'PY'
import statistics, sys
games, threads, cpus, path = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
rounds = [tuple(map(float, line.split())) for line in open(path) if line.strip()]
print(f"{games} generated Virrey games per import, --threads {threads}, pinned to cores {cpus}, {len(rounds)} rounds")
print(f"{'round':>5} {'first s':>8} {'games/s':>8} {'second s':>9} {'games/s':>8} {'second/first':>13}")
ratios = []
for i, (a, b) in enumerate(rounds, 1):
    ratios.append(a / b)
    print(f"{i:5d} {a:8.1f} {games / a:8.0f} {b:9.1f} {games / b:8.0f} {a / b:13.2f}")
print(f"median second/first games/s: {statistics.median(ratios):.2f} "
      f"({min(ratios):.2f}..{max(ratios):.2f}); target >= 0.90")
PY
