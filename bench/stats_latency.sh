#!/usr/bin/env bash
# Latency of whole `virrey stats` processes over the large database of
# bench/search_latency.sh, beside scans of the same games as PGN in the same
# run: `pgn-extract` (parses and replays every game; with -x, the games that
# reach the 8-ply position) and `virrey validate` (replays every game, knows
# Virrey). Prints p50/p99 wall and p50 CPU time per statistic and the ratio of
# the scan's wall time to the statistic's p50.
#
# Targets: opening statistics for the start position and for a
# common position after 8 plies p50 <= 10 ms as a whole process; results and
# promotion statistics over the whole database <= 1 s.
#
#   bench/stats_latency.sh [--games N] [--runs N] [--scan-runs N] [--work DIR]
#                          [--quick] [--no-scan]
#     --games N      generated Virrey games in the database (default 1000000)
#     --runs N       processes per opening statistic (default 51; whole-database
#                    statistics run a fifth as often, at least 5)
#     --scan-runs N  runs of each PGN scan (default 1)
#     --work DIR     the database's directory (default: search_latency.sh's)
#     --quick        the small database (real files but the big ones, 20000 generated games)
#     --no-scan      time the statistics only
# The database is built (or completed) by `bench/search_latency.sh --build-only`
# with the same --games/--work/--quick; an existing complete one is reused.
# Environment: VIRREY (the binary; default build/cli/virrey), PGN_EXTRACT.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
virrey=${VIRREY:-$root/build/cli/virrey}
pgn_extract=${PGN_EXTRACT:-$(command -v pgn-extract || echo /usr/games/pgn-extract)}
games=1000000 runs=51 scan_runs=1 quick=0 scan=1 work=
build_args=()
while (($#)); do
  case $1 in
    --games) games=$2; build_args+=(--games "$2"); shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --scan-runs) scan_runs=$2; shift 2 ;;
    --work) work=$2; build_args+=(--work "$2"); shift 2 ;;
    --quick) quick=1; games=20000; runs=21; build_args+=(--quick); shift ;;
    --no-scan) scan=0; shift ;;
    -h|--help) sed -n '2,25p' "$0"; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
[[ -x "$virrey" ]] || "$root/scripts/build.sh" >/dev/null
[[ -n $work ]] || work=/var/tmp/virrey-search-bench
(( quick )) && work="$work-quick"
db=$work/db pgn=$work/all.pgn
if [[ ! -e $work/done/compacted || ! -e $work/done/pgn-$games ]]; then
  # Another run (search_latency.sh) may be building it right now.
  if [[ -e $db/LOCK ]] && python3 -c '
import fcntl, struct, sys
with open(sys.argv[1], "rb") as f:
    lock = struct.pack("hhqqi", fcntl.F_WRLCK, 0, 0, 0, 0)
    sys.exit(0 if struct.unpack("hhqqi", fcntl.fcntl(f, fcntl.F_GETLK, lock))[0] != fcntl.F_UNLCK else 1)
' "$db/LOCK"; then
    echo "$db is being written by another process; run again when it is done" >&2
    exit 3
  fi
  VIRREY=$virrey "$root/bench/search_latency.sh" --build-only "${build_args[@]}"
fi
(( scan )) && { [[ -x "$pgn_extract" ]] || { echo "pgn-extract is missing (scripts/install-deps.sh --bench)" >&2; exit 2; }; }

PYTHONDONTWRITEBYTECODE=1 BENCH_DIR=$root/bench python3 - "$virrey" "$pgn_extract" "$db" "$pgn" "$work" "$runs" "$scan_runs" "$scan" <<'PY'
import csv, io, json, os, sys
sys.path.insert(0, os.environ["BENCH_DIR"])
from process_timing import once, timed
virrey, pgn_extract, db, pgn, work = sys.argv[1:6]
runs, scan_runs, scan = int(sys.argv[6]), int(sys.argv[7]), sys.argv[8] == "1"

def stats(*args):
    return [virrey, "stats", *args, "--db", db]

games = json.loads(once(stats("results", "--by", "variant", "--format", "json"))[2])
per_variant = {g["key"]: g["games"] for g in games["groups"]}
print(f"database {db}: {games['total']['games']} games {per_variant}")
if scan: print(f"PGN for the scans {pgn}: {os.path.getsize(pgn) / 1e6:.0f} MB")
# Two baselines: any process on this machine (/bin/true), and virrey's own
# start-up (static initialisation, command line) without opening a database.
for label, cmd in (("`/bin/true`", ["/bin/true"]),
                   ("`virrey perft --depth 1` (no database)", [virrey, "perft", "--startpos", "--depth", "1"])):
    base = timed(cmd, runs)
    print(f"baseline {label} process: p50 {base[0]*1e3:.1f} ms, CPU p50 {base[2]*1e3:.1f} ms")

# The common position after 8 plies: the most played line of each variant.
lines = {}
for v in ("standard", "virrey"):
    if not per_variant.get(v): continue
    rows = list(csv.DictReader(io.StringIO(once(stats("openings", "--variant", v, "--depth", "8", "--top", "1",
                                                      "--format", "csv"))[2].decode())))
    deepest = [r for r in rows if r["depth"] == "8"]
    if deepest:
        lines[v] = deepest[0]["line"]
        print(f"{v}: most played 8-ply line {lines[v]} ({deepest[0]['games']} games go on from it)")

queries = []  # (name, command, runs)
for v in lines:
    queries.append((f"openings {v}, start position", stats("openings", "--variant", v, "--format", "json"), runs))
    queries.append((f"openings {v}, after 8 plies", stats("openings", "--variant", v, "--moves", lines[v],
                                                          "--format", "json"), runs))
whole = max(5, runs // 5)
queries += [
    ("openings, start, depth 2", stats("openings", "--depth", "2", "--format", "json"), whole),
    ("results", stats("results", "--format", "json"), whole),
    ("results --by variant", stats("results", "--by", "variant", "--format", "json"), whole),
    ("results --by year", stats("results", "--by", "year", "--format", "json"), whole),
    ("results --by eco", stats("results", "--by", "eco", "--format", "json"), whole),
    ("results --by player --limit 20", stats("results", "--by", "player", "--limit", "20", "--format", "json"), whole),
    ("promotions", stats("promotions", "--format", "json"), whole),
    ("promotions --variant virrey", stats("promotions", "--variant", "virrey", "--format", "json"), whole),
    ("games", stats("games", "--format", "json"), whole),
    ("results --player a (filtered)", stats("results", "--player", "a", "--format", "json"), whole),
]

scans = {}
if scan:
    scans["pgn-extract (all games)"] = timed([pgn_extract, "-s", "-o" + os.devnull, pgn], scan_runs, warm=0)[0]
    for v, line in lines.items():
        path = os.path.join(work, f"stats-line-{v}.pgn")
        with open(path, "w") as f: f.write(line + "\n")
        scans[f"pgn-extract -x (8 plies, {v})"] = timed([pgn_extract, "-s", "-x" + path, "-o" + os.devnull, pgn],
                                                        scan_runs, warm=0)[0]
    scans["virrey validate (all games)"] = timed([virrey, "validate", "--threads", "1", pgn], scan_runs, warm=0)[0]
    for name, t in scans.items(): print(f"scan: {name:36} {t:8.2f} s")

def scan_for(name):
    if not scan: return None
    for v in lines:
        if name == f"openings {v}, after 8 plies": return scans[f"pgn-extract -x (8 plies, {v})"]
    return scans["pgn-extract (all games)"]

print(f"\n{'statistic':36} {'p50 ms':>8} {'p99 ms':>8} {'CPU p50':>8}   {'vs pgn-extract scan':>20}"
      f"   {'vs virrey validate':>18}")
for name, cmd, n in queries:
    p50, p99, cpu, _ = timed(cmd, n)
    row = f"{name:36} {p50*1e3:8.1f} {p99*1e3:8.1f} {cpu*1e3:8.1f}"
    if scan:
        row += f"   {scan_for(name) / p50:19.0f}x   {scans['virrey validate (all games)'] / p50:17.0f}x"
    print(row)
print("\ntargets: openings (start, 8 plies) p50 <= 10 ms as a process; results and promotions <= 1 s")
PY
