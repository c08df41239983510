#!/usr/bin/env bash
# Material search: whole `virrey search --material` processes beside Debian's
# `pgn-extract -z` (material balances, both colours) scanning the same
# standard games as PGN, in the same run, both pinned to one core, runs
# alternating. Prints per balance the matches of each tool, the median and
# spread (min..max) of the wall times, and the ratio of the medians.
#
#   bench/material_vs_pgn_extract.sh [--runs N] [--work DIR] [--db DB --pgn PGN]
#     --runs N    alternating rounds (default 7)
#     --work DIR  where the database and the PGN are built (default
#                 /var/tmp/virrey-material-bench): every standard file of the
#                 real corpora
#     --db, --pgn an existing database and the PGN of the same games
# Environment: VIRREY (default build/cli/virrey), PGN_EXTRACT, CORPUS.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
virrey=${VIRREY:-$root/build/cli/virrey}
pgn_extract=${PGN_EXTRACT:-$(command -v pgn-extract || echo /usr/games/pgn-extract)}
corpus=${CORPUS:-$root/../shared/corpora/real}
runs=7 work=/var/tmp/virrey-material-bench db= pgn=
while (($#)); do
  case $1 in
    --runs) runs=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --db) db=$2; shift 2 ;;
    --pgn) pgn=$2; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
[[ -x "$virrey" ]] || { echo "build virrey first (scripts/build.sh)" >&2; exit 2; }
[[ -x "$pgn_extract" ]] || { echo "pgn-extract is missing (scripts/install-deps.sh --bench)" >&2; exit 2; }
source "$root/bench/standard_games_db.sh"

python3 - "$virrey" "$pgn_extract" "$db" "$pgn" "$work" "$runs" <<'PY'
import os, subprocess, sys, time, statistics
virrey, pgn_extract, db, pgn, work, runs = sys.argv[1:6] + [int(sys.argv[6])]

def once(cmd):
    t0 = time.perf_counter()
    p = subprocess.run(["taskset", "-c", "0", *cmd], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    if p.returncode not in (0, 1):
        sys.exit(f"{' '.join(cmd)}: exit {p.returncode}")
    return time.perf_counter() - t0, p.stdout

# (virrey spec, pgn-extract -z line): the same balance, either colour.
balances = [("KRP-KR", "rp r"), ("KQ-KR", "q r"), ("KRB-KR", "rb r"), ("KBN-K", "bn p0")]
games = int(once([virrey, "-q", "search", "--db", db, "--count"])[1])
print(f"database {db}: {games} games; pgn-extract input {pgn}: {os.path.getsize(pgn) / 1e6:.0f} MB; "
      f"{runs} alternating rounds, both pinned to core 0")
print(f"{'balance':10} {'virrey':>7} {'p-e':>7}  {'virrey --limit 50 ms':>22}  {'virrey --count ms':>20}"
      f"  {'pgn-extract -z ms':>22}  {'ratio':>7}")
for spec, z in balances:
    zfile = os.path.join(work, f"material-{spec}.txt")
    with open(zfile, "w") as f:
        f.write(z + "\n")
    page = [virrey, "search", "--db", db, "--material", spec, "--either-colour", "--format", "jsonl"]
    count = [virrey, "search", "--db", db, "--material", spec, "--either-colour", "--count"]
    matched = os.path.join(work, f"matched-{spec}.pgn")
    extract = [pgn_extract, "-s", "-z" + zfile, "-o" + matched, pgn]
    t_page, t_count, t_extract = [], [], []
    n_extract = 0
    for _ in range(runs):
        t_page.append(once(page)[0])
        t_count.append(once(count)[0])
        t_extract.append(once(extract)[0])
    with open(matched, "rb") as f:
        out = f.read()
    n_extract = out.count(b"\n[Event ") + out.startswith(b"[Event ")
    n_virrey = int(once(count)[1])
    fmt = lambda t: f"{statistics.median(t)*1e3:8.1f} ({min(t)*1e3:.1f}..{max(t)*1e3:.1f})"
    print(f"{spec:10} {n_virrey:7d} {n_extract:7d}  {fmt(t_page):>22}  {fmt(t_count):>20}  {fmt(t_extract):>22}"
          f"  {statistics.median(t_extract) / statistics.median(t_count):6.0f}x")
print("\ntarget: material query p50 <= 20 ms (up to 50 games). The match counts differ: virrey counts a balance "
      "held in one position or more (--material-plies 1); pgn-extract's -z rule is its own")
PY
