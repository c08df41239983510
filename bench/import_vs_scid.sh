#!/usr/bin/env bash
# Times `virrey import` into an empty database beside Scid's import of the same
# file (Debian's scid: its tkscid runs a small Tcl script headless with
# `sc_base create` and `sc_base import`), in the same run: N rounds of one
# Scid import then one virrey import. Reports games/s by wall and CPU time,
# the median of the rounds' ratios to Scid, and database bytes per game and
# per byte of PGN. With --generated N it also imports N generated Virrey games.
# Both sides run on the same cores, core 0 by default (`taskset`): this
# machine's cores may run at different speeds, and unpinned, Scid's import
# takes a second thread whose share varies from run to run. virrey runs with
# its default --threads 0, the cores it may run on (one when pinned to core 0).
#   bench/import_vs_scid.sh [--runs N] [--threads N] [--cpus LIST|all]
#                           [--generated N] [--pgn FILE]
#     --cpus LIST  the cores both imports run on (taskset; default 0); all: not pinned
# Default input: ../shared/corpora/real/pgnmentor-players-01.pgn.zst, decompressed.
# Environment: VIRREY (the binary; default build/cli/virrey), TKSCID.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
virrey=${VIRREY:-$root/build/cli/virrey}
tkscid=${TKSCID:-$(command -v tkscid || echo /usr/games/tkscid)}
runs=3 threads=0 generated=0 pgn= cpus=0
while (( $# )); do
  case $1 in
    --runs) runs=$2; (( runs > 0 )) || { echo "--runs must be at least 1" >&2; exit 2; }; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --cpus) cpus=$2; shift 2 ;;
    --generated) generated=$2; shift 2 ;;
    --pgn) pgn=$2; shift 2 ;;
    *) echo "usage: $0 [--runs N] [--threads N] [--cpus LIST|all] [--generated N] [--pgn FILE]" >&2; exit 2 ;;
  esac
done
pin=()
[[ $cpus == all ]] || pin=(taskset -c "$cpus")
[[ -x "$virrey" ]] || "$root/scripts/build.sh" >/dev/null
[[ -x "$tkscid" ]] || { echo "tkscid is missing (scripts/install-deps.sh --bench)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [[ -z $pgn ]]; then
  pgn=$work/pgnmentor-players-01.pgn
  zstd -dcq "$root/../shared/corpora/real/pgnmentor-players-01.pgn.zst" > "$pgn"
fi

cat > "$work/scid-import.tcl" <<'TCL'
set base [sc_base create SCID4 [lindex $argv 0]]
set result [sc_base import $base [lindex $argv 1]]
puts "imported [lindex $result 0]"
sc_base close $base
exit
TCL

# One timed run: "wall cpu" seconds of the command. Exit 1 (some games
# rejected, as two of pgnmentor-players-01 are) is a completed import.
timed() {
  local code=0
  /usr/bin/time -f "%e %U %S" -o "$work/time" "${pin[@]}" "$@" > "$work/out" 2> "$work/err" || code=$?
  (( code <= 1 )) || { echo "failed ($code): $*" >&2; tail -n 5 "$work/err" >&2; exit 3; }
  read -r wall user sys < <(tail -n 1 "$work/time")
  python3 -c "print($wall, $user + $sys)"
}

# One run into a fresh database; prints "kind wall cpu bytes games".
once() {
  local kind=$1 input=$2 wall cpu bytes games
  rm -rf "$work/db" "$work"/scid.*
  if [[ $kind == virrey ]]; then
    read -r wall cpu < <(timed "$virrey" import "$input" --db "$work/db" --threads "$threads" --format json)
    [[ -n ${wall:-} ]] || exit 3  # timed failed and said why
    games=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["stored"])' "$work/out")
    bytes=$(du -sb "$work/db" | cut -f1)
  else
    read -r wall cpu < <(timed "$tkscid" "$work/scid-import.tcl" "$work/scid" "$input")
    [[ -n ${wall:-} ]] || exit 3
    games=$(sed -n 's/^imported //p' "$work/out")
    bytes=$(cat "$work"/scid.* | wc -c)
  fi
  echo "$kind $wall $cpu $bytes $games"
}

# Rounds of one Scid run then one virrey run, so that both meet the machine
# in the same state (a shared machine's speed drifts by 15% over minutes).
pgn_bytes=$(stat -c %s "$pgn")
: > "$work/rounds"
for _ in $(seq "$runs"); do
  once scid "$pgn" >> "$work/rounds"
  once virrey "$pgn" >> "$work/rounds"
done
python3 - "$pgn" "$pgn_bytes" "$threads" "$work/rounds" "$cpus" <<'PY'
import statistics, sys
pgn, pgn_bytes, threads, cpus = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[5]
runs = {"scid": [], "virrey": []}
for line in open(sys.argv[4]):
    kind, wall, cpu, size, games = line.split()
    runs[kind].append((float(wall), float(cpu), int(size), int(games)))
pinned = ("not pinned" if cpus == "all" else
          f"both pinned to core{'s' if ',' in cpus or '-' in cpus else ''} {cpus}")
print(f"{pgn}: {pgn_bytes / 1e6:.1f} MB of PGN, {len(runs['scid'])} rounds, {pinned}")
def row(name, rs):
    walls = [r[0] for r in rs]
    wall, cpu = statistics.median(walls), statistics.median(r[1] for r in rs)
    size, games = rs[-1][2], rs[-1][3]
    print(f"  {name:28s} {games:8d} games  {wall:6.2f} s wall ({min(walls):.2f}-{max(walls):.2f})"
          f"  {games / wall:9.0f} games/s wall  {games / cpu:9.0f} games/s CPU"
          f"  {size / max(games, 1):6.0f} B/game  {size / pgn_bytes:5.2f}x PGN   (medians of the rounds)")
row("scid (sc_base import)", runs["scid"])
row(f"virrey import --threads {threads}", runs["virrey"])
def ratios(i):
    return [(v[3] / v[i]) / (s[3] / s[i]) for s, v in zip(runs["scid"], runs["virrey"])]
wall, cpu = ratios(0), ratios(1)
print(f"  ratio virrey/scid games/s, median of the rounds: {statistics.median(wall):.2f}x wall"
      f" ({min(wall):.2f}-{max(wall):.2f}; rounds {' '.join(f'{r:.2f}' for r in wall)}),"
      f" {statistics.median(cpu):.2f}x CPU;"
      f" virrey builds the full position index, opening tree and tag/promotion/material indexes")
PY

if (( generated > 0 )); then
  "$virrey" generate --variant virrey --games "$generated" --seed 7 > "$work/generated.pgn"
  read -r _ g_wall g_cpu g_bytes g_games < <(once virrey "$work/generated.pgn")
  python3 -c "
g, w, c, b, p = $g_games, $g_wall, $g_cpu, $g_bytes, $(stat -c %s "$work/generated.pgn")
print(f'generated Virrey collection: {g} games, {p / 1e6:.0f} MB of PGN')
print(f'  virrey import --threads $threads  {w:.1f} s wall, {g / w:.0f} games/s wall, {g / c:.0f} games/s CPU,'
      f' {b / g:.0f} B/game, {b / p:.2f}x PGN')"
fi
