#!/usr/bin/env bash
# Installs missing packages, builds virrey, and runs it on sample-data/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh" -DVIRREY_BUILD_TESTS=OFF -DVIRREY_BUILD_BENCH=OFF
virrey="${VIRREY_BUILD_DIR:-$root/build}/cli/virrey"
cd "$root/sample-data"
echo "== perft: start position, standard and Virrey chess"
"$virrey" perft --variant standard --depth 5
"$virrey" perft --variant virrey --depth 5
echo "== perft: every position of sample-data/positions.epd"
while IFS=';' read -r variant fen; do
  [[ -z "$variant" || "$variant" == \#* ]] && continue
  echo "-- $variant: $fen"
  "$virrey" perft --variant "$variant" --fen "$fen" --depth 3
done < positions.epd
