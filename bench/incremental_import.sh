#!/usr/bin/env bash
# Incremental import: N generated Virrey games imported into an empty
# database, then N more into the same database, in rounds. The first import
# of each round is the reference the second is measured against (target:
# the second within 10% of the first's games/s by wall time). Prints each
# round's rates and the median and spread of the ratios second/first. Every
# import runs pinned to the same cores (taskset), so both sides meet the
# same machine.
#   bench/incremental_import.sh [--games N] [--runs R] [--threads T] [--cpus LIST] [--work DIR] [--into DB]
#     --games N    games per import (default 1000000)
#     --runs R     rounds (default 3)
#     --threads T  import threads (default 1)
#     --cpus LIST  taskset's cores for every import (default 0)
#     --no-check   skip `virrey db check` of the last round's database
#     --work DIR   where the generated PGN is kept between runs and the
#                  database is built (default /var/tmp/virrey-incremental-bench)
#     --into DB    the second import of each round goes into a copy of DB
#                  (a large database, say) instead of the first's database;
#                  the copy hard-links DB's table files, which RocksDB never
#                  changes, so DB itself is left as it was
# Environment: VIRREY (default build/cli/virrey).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
virrey=${VIRREY:-$root/build/cli/virrey}
check=1 games=1000000 runs=3 threads=1 cpus=0 work=/var/tmp/virrey-incremental-bench into=
while (($#)); do
  case $1 in
    --games) games=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --cpus) cpus=$2; shift 2 ;;
    --no-check) check=0; shift ;;
    --work) work=$2; shift 2 ;;
    --into) into=$2; shift 2 ;;
    -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
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

[[ -z $into || -f $into/CURRENT ]] || { echo "--into: $into is no database" >&2; exit 2; }

# Seconds of wall time of one import of $1 into the database $2 (exit 1,
# some game rejected, is a completed import).
timed_import() {
  local start end code=0
  start=$(date +%s.%N)
  taskset -c "$cpus" "$virrey" -q import "$1" --db "$2" --threads "$threads" >/dev/null 2>"$work/err" || code=$?
  end=$(date +%s.%N)
  ((code <= 1)) || { echo "import failed ($code):" >&2; tail -n 5 "$work/err" >&2; exit 3; }
  python3 -c "print($end - $start)"
}

: >"$work/rounds"
# A copy of database $1 at $2: table files hard-linked, the rest copied.
copy_of() {
  rm -rf "$2" && mkdir -p "$2"
  local f
  for f in "$1"/*; do
    if [[ $f == *.sst ]]; then ln "$f" "$2/"; else cp -a "$f" "$2/"; fi
  done
}

for _ in $(seq "$runs"); do
  rm -rf "$work/db"
  first=$(timed_import "$work/part0-$games.pgn" "$work/db")
  if [[ -n $into ]]; then
    copy_of "$into" "$work/into"
    second=$(timed_import "$work/part1-$games.pgn" "$work/into")
  else
    second=$(timed_import "$work/part1-$games.pgn" "$work/db")
  fi
  echo "$first $second" >>"$work/rounds"
done
[[ -z $into ]] || rm -rf "$work/into"
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
