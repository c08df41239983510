#!/usr/bin/env bash
# Times `virrey event` as a whole process on a 500-player, 11-round Swiss
# (generated first): median and spread of 5 runs, pinned to one core.
#   bench/event_swiss_500.sh [path/to/virrey]
set -euo pipefail
virrey=${1:-build/cli/virrey}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$virrey" -q generate --system swiss --players 500 --rounds 11 --seed 1 --output "$work/swiss.pgn"
echo "input: $(grep -c '^\[Event ' "$work/swiss.pgn") games, $(du -h "$work/swiss.pgn" | cut -f1)"
for format in text json trf html; do
  times=()
  for _ in 1 2 3 4 5; do
    start=$(date +%s%N)
    taskset -c 0 "$virrey" -q event "$work/swiss.pgn" --format "$format" >/dev/null
    end=$(date +%s%N)
    times+=("$(( (end - start) / 1000000 ))")
  done
  sorted=$(printf '%s\n' "${times[@]}" | sort -n)
  echo "$format: median $(echo "$sorted" | sed -n 3p) ms (min $(echo "$sorted" | head -1), max $(echo "$sorted" | tail -1))"
done
