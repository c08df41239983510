#!/usr/bin/env bash
# Times `virrey import` into an empty database beside Scid's import of the same
# file (Debian's scid: its tkscid runs a small Tcl script headless with
# `sc_base create` and `sc_base import`), in the same run. Reports games/s by
# wall and CPU time, the ratio to Scid, and database bytes per game and per
# byte of PGN. With --generated N it also imports N generated Virrey games.
#   bench/import_vs_scid.sh [--runs N] [--threads N] [--generated N] [--pgn FILE]
# Default input: ../shared/corpora/real/pgnmentor-players-01.pgn.zst, decompressed.
# Environment: VIRREY (the binary; default build/cli/virrey), TKSCID.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
virrey=${VIRREY:-$root/build/cli/virrey}
tkscid=${TKSCID:-$(command -v tkscid || echo /usr/games/tkscid)}
runs=3 threads=2 generated=0 pgn=
while (( $# )); do
  case $1 in
    --runs) runs=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --generated) generated=$2; shift 2 ;;
    --pgn) pgn=$2; shift 2 ;;
    *) echo "usage: $0 [--runs N] [--threads N] [--generated N] [--pgn FILE]" >&2; exit 2 ;;
  esac
done
[[ -x "$virrey" ]] || "$root/scripts/build.sh" >/dev/null
[[ -x "$tkscid" ]] || { echo "tkscid is missing (apt-get install scid)" >&2; exit 2; }
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
  /usr/bin/time -f "%e %U %S" -o "$work/time" "$@" > "$work/out" 2> "$work/err" || code=$?
  (( code <= 1 )) || { echo "failed ($code): $*" >&2; tail -n 5 "$work/err" >&2; exit 3; }
  read -r wall user sys < <(tail -n 1 "$work/time")
  python3 -c "print($wall, $user + $sys)"
}

# Best of N runs, each into a fresh database; prints "wall cpu bytes games".
best() {
  local kind=$1 input=$2 best_wall=999999 best_cpu=999999 bytes=0 games=0
  for _ in $(seq "$runs"); do
    rm -rf "$work/db" "$work"/scid.*
    if [[ $kind == virrey ]]; then
      read -r wall cpu < <(timed "$virrey" import "$input" --db "$work/db" --threads "$threads" --format json)
      games=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["stored"])' "$work/out")
      bytes=$(du -sb "$work/db" | cut -f1)
    else
      read -r wall cpu < <(timed "$tkscid" "$work/scid-import.tcl" "$work/scid" "$input")
      games=$(sed -n 's/^imported //p' "$work/out")
      bytes=$(cat "$work"/scid.* | wc -c)
    fi
    best_wall=$(python3 -c "print(min($wall, $best_wall))")
    best_cpu=$(python3 -c "print(min($cpu, $best_cpu))")
  done
  echo "$best_wall $best_cpu $bytes $games"
}

pgn_bytes=$(stat -c %s "$pgn")
read -r s_wall s_cpu s_bytes s_games < <(best scid "$pgn")
read -r v_wall v_cpu v_bytes v_games < <(best virrey "$pgn")
python3 - "$pgn" "$pgn_bytes" "$threads" "$s_wall" "$s_cpu" "$s_bytes" "$s_games" \
  "$v_wall" "$v_cpu" "$v_bytes" "$v_games" <<'PY'
import sys
pgn, pgn_bytes, threads = sys.argv[1], int(sys.argv[2]), sys.argv[3]
s_wall, s_cpu, s_bytes, s_games = float(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6]), int(sys.argv[7])
v_wall, v_cpu, v_bytes, v_games = float(sys.argv[8]), float(sys.argv[9]), int(sys.argv[10]), int(sys.argv[11])
print(f"{pgn}: {pgn_bytes / 1e6:.1f} MB of PGN")
def row(name, wall, cpu, games, size):
    print(f"  {name:28s} {games:8d} games  {games / wall:9.0f} games/s wall  {games / cpu:9.0f} games/s CPU"
          f"  {size / max(games, 1):6.0f} B/game  {size / pgn_bytes:5.2f}x PGN")
row("scid (sc_base import)", s_wall, s_cpu, s_games, s_bytes)
row(f"virrey import --threads {threads}", v_wall, v_cpu, v_games, v_bytes)
print(f"  ratio virrey/scid: {(v_games / v_wall) / (s_games / s_wall):.2f}x wall,"
      f" {(v_games / v_cpu) / (s_games / s_cpu):.2f}x CPU;"
      f" virrey builds the full position index, opening tree and tag/promotion indexes")
PY

if (( generated > 0 )); then
  "$virrey" generate --variant virrey --games "$generated" --seed 7 > "$work/generated.pgn"
  runs=1
  read -r g_wall g_cpu g_bytes g_games < <(best virrey "$work/generated.pgn")
  python3 -c "
g, w, c, b, p = $g_games, $g_wall, $g_cpu, $g_bytes, $(stat -c %s "$work/generated.pgn")
print(f'generated Virrey collection: {g} games, {p / 1e6:.0f} MB of PGN')
print(f'  virrey import --threads $threads  {w:.1f} s wall, {g / w:.0f} games/s wall, {g / c:.0f} games/s CPU,'
      f' {b / g:.0f} B/game, {b / p:.2f}x PGN')"
fi
