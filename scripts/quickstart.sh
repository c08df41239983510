#!/usr/bin/env bash
# Installs missing packages, builds virrey, and runs its main job on
# sample-data/: validate the games, import them into an embedded database
# (sample-data.db in the build folder), then search and count them, and show
# the standings of a Swiss tournament.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${VIRREY_BUILD_DIR:-$root/build}
"$root/scripts/build.sh" -DVIRREY_BUILD_TESTS=OFF -DVIRREY_BUILD_BENCH=OFF
virrey="$build/cli/virrey"
db="$build/sample-data.db"
cd "$root/sample-data"
games=(virrey-games.pgn standard-games.pgn modern-club.pgn)

echo "== validate"
"$virrey" validate --threads 2 "${games[@]}"
echo "== import into $db"
rm -rf "$db"
"$virrey" import --db "$db" "${games[@]}"
echo "== search: games where White made a viceroy"
"$virrey" search --db "$db" --promotion V --by white --limit 5
echo "== search: games that reached the position after 1. e4 (transpositions included)"
"$virrey" search --db "$db" --moves "e4" --limit 5
echo "== stats: opening moves of Virrey chess"
"$virrey" stats openings --db "$db" --variant virrey
echo "== stats: promotions"
"$virrey" stats promotions --db "$db" --variant virrey
echo "== search: Modern chess games where a pawn became a minister on the i-file"
"$virrey" search --db "$db" --variant modern --promotion M --file i --limit 5
echo "== stats: opening moves of Modern chess after 1. e4"
"$virrey" stats openings --db "$db" --variant modern --moves e4
echo "== event: standings and round-by-round table of a Virrey Swiss tournament"
"$virrey" event virrey-swiss.pgn
"$virrey" event virrey-swiss.pgn --format html --output "$build/virrey-swiss.html"
echo "(the same as one HTML page: $build/virrey-swiss.html)"
echo "== perft: start positions"
"$virrey" perft --variant virrey --depth 5
"$virrey" perft --variant modern --depth 4
