#!/usr/bin/env bash
# Pattern search: whole `virrey search --fenpattern` processes (on a database
# with the square index, `virrey db squares`) beside Debian's
# `pgn-extract -Tf` (the same FEN patterns) scanning the same standard games
# as PGN, in the same run, both pinned to one core, runs alternating. Prints
# per pattern the games each tool finds, the median and spread (min..max) of
# the wall times, and the ratio of the medians. pgn-extract looks at the
# first 300 plies of a game only: the column `virrey<=300` (--pattern-plies
# -300) is its rule. It also reads the games virrey's import rejects (a
# result that contradicts a checkmate or stalemate on the board: 12 of the
# real corpora's games), so its count may exceed that column by those.
#
#   bench/pattern_vs_pgn_extract.sh [--runs N] [--work DIR] [--db DB --pgn PGN]
#     --runs N    alternating rounds (default 5)
#     --work DIR  where the database and the PGN are built (default
#                 /var/tmp/virrey-material-bench, shared with
#                 bench/material_vs_pgn_extract.sh): every standard file of
#                 the real corpora
#     --db, --pgn an existing database and the PGN of the same games
# Environment: VIRREY (default build/cli/virrey), PGN_EXTRACT, CORPUS.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
virrey=${VIRREY:-$root/build/cli/virrey}
pgn_extract=${PGN_EXTRACT:-$(command -v pgn-extract || echo /usr/games/pgn-extract)}
corpus=${CORPUS:-$root/../shared/corpora/real}
runs=5 work=/var/tmp/virrey-material-bench db= pgn=
while (($#)); do
  case $1 in
    --runs) runs=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --db) db=$2; shift 2 ;;
    --pgn) pgn=$2; shift 2 ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
[[ -x "$virrey" ]] || { echo "build virrey first (scripts/build.sh)" >&2; exit 2; }
[[ -x "$pgn_extract" ]] || { echo "pgn-extract is missing (scripts/install-deps.sh)" >&2; exit 2; }
source "$root/bench/standard_games_db.sh"
# The square index, built (or brought up to date) before the rounds: the
# time and size it costs, once.
squares_start=$(date +%s.%N)
"$virrey" db squares --db "$db"
echo "square index: $(awk -v a="$squares_start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s to build or bring up to date"

python3 - "$virrey" "$pgn_extract" "$db" "$pgn" "$work" "$runs" <<'PY'
import os, subprocess, sys, time, statistics
virrey, pgn_extract, db, pgn, work, runs = sys.argv[1:6] + [int(sys.argv[6])]

def once(cmd):
    t0 = time.perf_counter()
    p = subprocess.run(["taskset", "-c", "0", *cmd], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    if p.returncode not in (0, 1):
        sys.exit(f"{' '.join(cmd)}: exit {p.returncode}")
    return time.perf_counter() - t0, p.stdout

# (name, pattern): rare men the material index narrows to, then common structures
# that every game must be replayed for.
patterns = [
    ("two white queens", "*/*/*/*/*/*/*/*Q*Q*"),
    ("three knights", "*N*N*N*/*/*/*/*/*/*/*"),
    ("ranks 7 and 8 empty", "8/8/*/*/*/*/*/*"),
    ("pawns d4 e4", "*/*/*/*/???PP???/*/*/*"),
    ("black castled short", "?????rk?/?????ppp/*/*/*/*/*/*"),
]
games = int(once([virrey, "-q", "search", "--db", db, "--count"])[1])
print(f"database {db}: {games} games; pgn-extract input {pgn}: {os.path.getsize(pgn) / 1e6:.0f} MB; "
      f"{runs} alternating rounds, both pinned to core 0")
print(f"{'pattern':28} {'virrey':>7} {'virrey<=300':>11} {'p-e':>7}  {'virrey page of 50 ms':>22}"
      f"  {'virrey --count ms':>24}  {'pgn-extract -Tf ms':>24}  {'page':>6} {'count':>6}")
for name, pat in patterns:
    page = [virrey, "search", "--db", db, "--fenpattern", pat, "--format", "jsonl"]
    count = [virrey, "search", "--db", db, "--fenpattern", pat, "--count"]
    matched = os.path.join(work, "pattern-matched.pgn")
    extract = [pgn_extract, "-s", "-Tf" + pat, "-o" + matched, pgn]
    t_page, t_count, t_extract = [], [], []
    for _ in range(runs):
        t_page.append(once(page)[0])
        t_count.append(once(count)[0])
        t_extract.append(once(extract)[0])
    with open(matched, "rb") as f:
        out = f.read()
    n_extract = out.count(b"\n[Event ") + out.startswith(b"[Event ")
    n_virrey = int(once(count)[1])
    n_300 = int(once(count + ["--pattern-plies", "-300"])[1])
    fmt = lambda t: f"{statistics.median(t)*1e3:8.1f} ({min(t)*1e3:.1f}..{max(t)*1e3:.1f})"
    med = statistics.median
    print(f"{name:28} {n_virrey:7d} {n_300:11d} {n_extract:7d}  {fmt(t_page):>22}  {fmt(t_count):>24}"
          f"  {fmt(t_extract):>24}  {med(t_extract) / med(t_page):5.0f}x {med(t_extract) / med(t_count):5.0f}x")
print("\ntarget: >= 100x pgn-extract --fenpattern on the same games. `page`: a search as typed (the first 50"
      " games, what pgn-extract needs a whole scan for); `count`: every match confirmed")
PY
