#!/usr/bin/env bash
# The cost of the tournament checks and of --export-notation in `virrey
# validate`: CPU time (user + system) of one pinned thread (taskset -c 0) on
# the same decompressed file, runs alternating between pgn-extract -r, a
# virrey built without them (VIRREY_BASE, optional), and this virrey with
# --no-event-checks, by default and with --export-notation. Prints median and
# spread (min-max) of each and the ratios to pgn-extract.
#   VIRREY_BASE=/path/to/old/virrey bench/validate_checks_cost.sh [RUNS] [FILE.pgn.zst]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
virrey=${VIRREY:-$root/build/cli/virrey}
base=${VIRREY_BASE:-}
pgn_extract=${PGN_EXTRACT:-$(command -v pgn-extract || echo /usr/games/pgn-extract)}
runs=${1:-5}
input=${2:-$root/../shared/corpora/real/pgnmentor-players-01.pgn.zst}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
zstd -dcq "$input" > "$work/in.pgn"

declare -A cmd=(
  [pgn-extract]="$pgn_extract -r -s $work/in.pgn"
  [no-event-checks]="$virrey validate --no-event-checks $work/in.pgn"
  [default]="$virrey validate $work/in.pgn"
  [export-notation]="$virrey validate --export-notation $work/in.pgn"
)
order=(pgn-extract no-event-checks default export-notation)
if [[ -n "$base" ]]; then
  cmd[before]="$base validate $work/in.pgn"
  order=(pgn-extract before no-event-checks default export-notation)
fi
for _ in $(seq "$runs"); do
  for name in "${order[@]}"; do
    /usr/bin/time -f "%U %S %M" -o "$work/t" taskset -c 0 ${cmd[$name]} >/dev/null 2>&1 || true
    read -r u s m < <(tail -n 1 "$work/t")
    echo "$name $u $s $m" >> "$work/times"
  done
done
python3 - "$work/times" "${order[@]}" <<'PY'
import sys, statistics
rows = [l.split() for l in open(sys.argv[1])]
order = sys.argv[2:]
cpu = {n: [float(r[1]) + float(r[2]) for r in rows if r[0] == n] for n in order}
rss = {n: max(int(r[3]) for r in rows if r[0] == n) for n in order}
pe = statistics.median(cpu["pgn-extract"])
ref = statistics.median(cpu["before"]) if "before" in cpu else statistics.median(cpu["no-event-checks"])
for n in order:
    m = statistics.median(cpu[n])
    print(f"{n:16} CPU median {m:6.2f} s  (min {min(cpu[n]):.2f}, max {max(cpu[n]):.2f})  "
          f"peak {rss[n]/1024:6.1f} MiB  pgn-extract/this {pe/m:4.2f}x  this/reference {m/ref:5.3f}")
PY
