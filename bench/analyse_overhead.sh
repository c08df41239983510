#!/usr/bin/env bash
# `virrey analyse` against the bare engine it drives, in the same run:
#  1. positions per second of `virrey analyse --jobs 2` (no cache) and of
#     bench/bare_engine_driver.py driving two Stockfish processes directly,
#     at the same node count on the same positions (the unique main-line
#     positions of the first G games of sample-data/standard-games.pgn), runs
#     alternating, both pinned to cores 0 and 1 (`taskset -c 0,1`: two
#     engines need two cores). Prints median and spread; target: virrey's
#     overhead <= 5 %.
#  2. the share of positions the cache and this run's reuse save on a
#     collection of 1,000 real games (the first 1,000 of the shared TWIC
#     corpus; --nodes 1, as the share does not depend on the search), one
#     engine pinned to core 0 (`taskset -c 0`); then the same collection
#     again on the filled cache: the positions searched (0 expected) and
#     the wall time of the rerun against the first run's.
#
#   bench/analyse_overhead.sh [--games G] [--nodes N] [--runs R] [--share-games N] [--share-only]
# Environment: VIRREY (default build/cli/virrey), STOCKFISH, CORPUS.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
virrey=${VIRREY:-$root/build/cli/virrey}
stockfish=${STOCKFISH:-$(command -v stockfish || echo /usr/games/stockfish)}
corpus=${CORPUS:-$root/../shared/corpora/real/shakmaty-bench-twic1599_1000k.pgn.zst}
games=20 nodes=20000 runs=5 share_games=1000 share_only=0
while (($#)); do
  case $1 in
    --games) games=$2; shift 2 ;;
    --nodes) nodes=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --share-games) share_games=$2; shift 2 ;;
    --share-only) share_only=1; shift ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
[[ -x "$virrey" ]] || { echo "build virrey first (scripts/build.sh)" >&2; exit 2; }
[[ -x "$stockfish" ]] || { echo "stockfish is missing (scripts/install-deps.sh)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# 1. The overhead against the bare engines (not with --share-only).
if ((!share_only)); then
# The games, and the positions virrey will search (every main-line position,
# unique by board, side, castling and en passant).
awk -v n="$games" '/^\[Event /{g++} g<=n' "$root/sample-data/standard-games.pgn" >"$work/games.pgn"
"$virrey" -q analyse "$work/games.pgn" --nodes 1 --format jsonl --output "$work/moves.jsonl"
python3 - "$work/moves.jsonl" >"$work/fens.txt" <<'PY'
import json, sys
seen, out = set(), []
for line in open(sys.argv[1]):
    m = json.loads(line)
    for fen in (m["fen"], m["fen_after"]):
        key = " ".join(fen.split()[:4])
        if key not in seen:
            seen.add(key)
            out.append(fen)
print("\n".join(out))
PY
positions=$(wc -l <"$work/fens.txt")

v_rates=() b_rates=()
for ((i = 0; i < runs; i++)); do
  t0=$(date +%s.%N)
  taskset -c 0,1 "$virrey" -q analyse "$work/games.pgn" --engine "$stockfish" --nodes "$nodes" --jobs 2 \
    --format json --output "$work/summary.json"
  t1=$(date +%s.%N)
  searched=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["positions"]["searched"])' "$work/summary.json")
  v_rates+=("$(python3 -c "print($searched / ($t1 - $t0))")")
  # The driver's own clock starts once its engines are up; its start-up
  # (python, two engines) is timed as virrey's is: the whole process.
  t0=$(date +%s.%N)
  taskset -c 0,1 python3 "$root/bench/bare_engine_driver.py" "$stockfish" "$nodes" 2 <"$work/fens.txt" >/dev/null
  t1=$(date +%s.%N)
  b_rates+=("$(python3 -c "print($positions / ($t1 - $t0))")")
done
python3 - "$positions" "$nodes" "${v_rates[*]}" "${b_rates[*]}" <<'PY'
import statistics, sys
positions, nodes = sys.argv[1], sys.argv[2]
v = [float(x) for x in sys.argv[3].split()]
b = [float(x) for x in sys.argv[4].split()]
mv, mb = statistics.median(v), statistics.median(b)
print(f"positions: {positions} unique, --nodes {nodes}, 2 engines, {len(v)} alternating runs each")
print(f"virrey analyse --jobs 2: median {mv:.1f} positions/s (spread {min(v):.1f}-{max(v):.1f})")
print(f"bare engine driver:     median {mb:.1f} positions/s (spread {min(b):.1f}-{max(b):.1f})")
print(f"overhead: {100 * (mb - mv) / mb:.1f} % (target <= 5 %)")
PY
fi

# The cache's share on a collection, and a rerun on the filled cache.
if [[ -f "$corpus" ]]; then
  zstd -dc "$corpus" | awk -v n="$share_games" '/^\[Event /{g++} g<=n' >"$work/share.pgn"
  share_run() { # $1: the summary written; the wall time is appended to $work/time
    local t0 t1
    t0=$(date +%s.%N)
    taskset -c 0 "$virrey" -q analyse "$work/share.pgn" --db "$work/db" --engine "$stockfish" --nodes 1 \
      --format json --output "$1"
    t1=$(date +%s.%N)
    python3 -c "print($t1 - $t0)" >>"$work/time"
  }
  share_run "$work/share.json"
  share_run "$work/share2.json"
  python3 - "$work/share.json" "$work/share2.json" "$work/time" "$share_games" <<'PY'
import json, sys
first = json.load(open(sys.argv[1]))["positions"]
again = json.load(open(sys.argv[2]))["positions"]
t1, t2 = (float(x) for x in open(sys.argv[3]).read().split())
saved = first["from_run"] + first["from_cache"]
print(f"cache on {sys.argv[4]} games: {first['positions']} positions needed, {first['searched']} searched, "
      f"{saved} reused ({100 * saved / first['positions']:.1f} % saved); {t1:.1f} s")
print(f"rerun: {again['searched']} searched, {again['from_cache']} from the cache, "
      f"{again['from_run']} from the run; {t2:.1f} s ({100 * t2 / t1:.1f} % of the first run's time)")
PY
fi
