#!/usr/bin/env bash
# Time and peak memory of `virrey event` in every format as a tournament
# grows in players and rounds together: N games of one Event, each in a
# round of its own between two players met nowhere else (2N players, N
# rounds, a crosstable of 2N x N results). A report should grow with that
# crosstable, not faster. One run each, pinned to one core.
#   bench/event_scale.sh [path/to/virrey] [N...]   (N: 250 500 1000 2000)
set -euo pipefail
virrey=${1:-build/cli/virrey}
shift || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(250 500 1000 2000)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for n in "${sizes[@]}"; do
  /usr/bin/python3 -c "
import sys
n = int(sys.argv[1])
print('\n'.join(f'[Event \"R\"]\n[Site \"x\"]\n[Date \"2020.01.01\"]\n[Round \"{i+1}\"]\n'
                f'[White \"A{i}\"]\n[Black \"B{i}\"]\n[Result \"1-0\"]\n\n1-0\n' for i in range(n)))" \
    "$n" >"$work/event_$n.pgn"
  for format in text json csv trf html; do
    /usr/bin/time -f '%e %M' -o "$work/time" taskset -c 1 "$virrey" -q event "$work/event_$n.pgn" \
      --format "$format" >"$work/out" || true
    read -r seconds kb <"$work/time"
    printf 'N=%-5s %-5s %6.2f s  %6d MB peak  %8d KB output\n' "$n" "$format" "$seconds" $((kb / 1024)) \
      $(($(stat -c %s "$work/out") / 1024))
  done
done
