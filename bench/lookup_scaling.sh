#!/usr/bin/env bash
# Lookups as a collection grows: the same position and promotion searches,
# as whole `virrey search` processes, on the bench database (the real corpora
# and 1,000,000 generated Virrey games, one import per file, compacted) and
# on a large one (the real corpora and N generated games, 20,000,000 by
# default, one import per million generated games, left as its imports
# left it).
# Runs alternate between the two databases, pinned to one core; prints per
# query the matches, p50 wall time with min..max on each side, the ratio
# large/small (target: at most 1.5), and what `--explain` reports: candidate
# games replayed and bytes read from table files.
#
#   bench/lookup_scaling.sh [--games N] [--runs N] [--cpu C] [--work DIR]
#                           [--gen DIR] [--per-import N] [--compact-large]
#                           [--build small|large|both]
#     --games N        generated games in the large database (default 20000000)
#     --runs N         processes per query and database (default 21)
#     --cpu C          the core every search runs on (default 0)
#     --work DIR       where both databases live (default /var/tmp/virrey-lookup-bench)
#     --gen DIR        the generated games, 50,000 a file, shared with
#                      bench/search_latency.sh (default /var/tmp/virrey-search-bench/gen)
#     --per-import N   generated files (50,000 games each) per import into the
#                      large database (default 20)
#     --compact-large  compact the large database too before timing
#     --build WHICH    build that database (or both), time nothing
# Every step is resumable: generated files and imported inputs are kept and
# skipped when present. Environment: VIRREY (default build/cli/virrey), CORPUS.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
virrey=${VIRREY:-$root/build/cli/virrey}
corpus=${CORPUS:-$root/../shared/corpora/real}
games=20000000 runs=21 cpu=0 compact_large=0 build_only='' per_import=20
work=/var/tmp/virrey-lookup-bench gen=/var/tmp/virrey-search-bench/gen
small_games=1000000 chunk=50000
while (($#)); do
  case $1 in
    --games) games=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --cpu) cpu=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --gen) gen=$2; shift 2 ;;
    --per-import) per_import=$2; shift 2 ;;
    --compact-large) compact_large=1; shift ;;
    --build) build_only=$2; shift 2 ;;
    -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
((games >= small_games && games % chunk == 0)) || { echo "--games: a multiple of $chunk, at least $small_games" >&2; exit 2; }
[[ -x "$virrey" ]] || { echo "build virrey first (scripts/build.sh)" >&2; exit 2; }
command -v zstd >/dev/null || { echo "zstd is missing (scripts/install-deps.sh)" >&2; exit 2; }
mkdir -p "$work/done" "$gen"
log() { printf '%s %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

real=()
for f in "$corpus"/*.pgn.zst "$corpus"/*.pgn; do [[ -e $f ]] && real+=("$f"); done
((${#real[@]})) || { echo "no PGN files in $corpus" >&2; exit 2; }
generated() {  # the generated files of the first $1 games, made when missing
  local first n f
  for ((first = 0; first < $1; first += chunk)); do
    f=$gen/virrey-seed7-$(printf %07d "$first")-$chunk.pgn.zst
    if [[ ! -s $f ]]; then
      log "generating Virrey games $first..$((first + chunk - 1))"
      "$virrey" -q generate --variant virrey --seed 7 --first "$first" --games "$chunk" --threads 2 |
        zstd -q -3 -o "$f.tmp" && mv "$f.tmp" "$f"
    fi
    echo "$f"
  done
}

import_once() {  # import_once NAME FILE...: one import of the files not imported yet
  local name=$1 marks=$work/done/$1 f status todo=0
  shift
  for f in "$@"; do [[ -e $marks/$(basename "$f") ]] || todo=1; done
  ((todo)) || return 0
  log "$name: importing $(basename "$1")${2:+ and $(($# - 1)) more}"
  status=0  # exit 1: some games were rejected (the real collections hold a few)
  "$virrey" -q import "$@" --db "$work/$name" --threads 2 >/dev/null 2>"$work/import.log" || status=$?
  ((status <= 1)) || { cat "$work/import.log" >&2; exit 3; }
  for f in "$@"; do touch "$marks/$(basename "$f")"; done
  rm -f "$marks/compacted"
}

build() {  # build NAME GAMES FILES_PER_IMPORT COMPACT
  local name=$1 f i
  mkdir -p "$work/done/$name"
  for f in "${real[@]}"; do import_once "$name" "$f"; done
  local files=()
  mapfile -t files < <(generated "$2")
  for ((i = 0; i < ${#files[@]}; i += $3)); do import_once "$name" "${files[@]:i:$3}"; done
  if (($4)) && [[ ! -e $work/done/$name/compacted ]]; then
    log "$name: compacting"
    "$virrey" -q import "${real[0]}" --db "$work/$name" --compact >/dev/null 2>&1 && touch "$work/done/$name/compacted"
  fi
}
case $build_only in
  '') build small "$small_games" 1 1; build large "$games" "$per_import" "$compact_large" ;;
  small) build small "$small_games" 1 1 ;;
  large) build large "$games" "$per_import" "$compact_large" ;;
  both) build small "$small_games" 1 1; build large "$games" "$per_import" "$compact_large" ;;
  *) echo "--build: small, large or both" >&2; exit 2 ;;
esac
[[ -n $build_only ]] && { log "built in $work"; exit 0; }

small=$work/small large=$work/large
# A rare standard endgame (the final position with the fewest men, at least
# five, among 400 real games from the middle), a rare Virrey position (the
# final position of a generated game in the middle of the first million), a
# position no game reaches, and a common opening of each variant.
final_fen() {  # final_fen VARIANT OFFSET LIMIT
  "$virrey" -q search --db "$small" --variant "$1" --offset "$2" --limit "$3" --show --format jsonl |
    python3 "$root/bench/fewest_men.py"
}
standard_games=$("$virrey" -q search --db "$small" --variant standard --count)
endgame=$(final_fen standard $((standard_games / 2)) 400)
virrey_games=$("$virrey" -q search --db "$small" --variant virrey --count)
virrey_rare=$(final_fen virrey $((virrey_games / 2)) 1)

python3 "$root/bench/lookup_scaling.py" "$virrey" "$small" "$large" "$runs" "$cpu" "$endgame" "$virrey_rare"
