#!/usr/bin/env bash
# Latency of whole `virrey search` processes over a large database, beside
# Debian's `pgn-extract -t` (FEN search) scanning the same games as PGN, in
# the same run. Prints p50/p99 wall time (and p50 CPU time) per query and the
# ratios to pgn-extract.
#
# The database: every file of the real corpora plus N generated Virrey games
# (`virrey generate`, 1,000,000 by default). Building it takes long; every step
# is resumable: generated chunks, imported inputs and the decompressed PGN
# are kept in the work directory and skipped when present (a killed import
# leaves a consistent database that the next run completes).
#
#   bench/search_latency.sh [--games N] [--runs N] [--extract-runs N]
#                           [--work DIR] [--quick] [--build-only]
#     --games N         generated Virrey games (default 1000000; 0: none)
#     --runs N          processes per virrey query (default 51)
#     --extract-runs N  pgn-extract scans per FEN (default 3)
#     --work DIR        where the database lives (default /var/tmp/virrey-search-bench)
#     --quick           only the small real files and 20000 generated games
#     --build-only      build the database, time nothing
# Environment: VIRREY (the binary; default build/cli/virrey), PGN_EXTRACT, CORPUS.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
virrey=${VIRREY:-$root/build/cli/virrey}
pgn_extract=${PGN_EXTRACT:-$(command -v pgn-extract || echo /usr/games/pgn-extract)}
corpus=${CORPUS:-$root/../shared/corpora/real}
games=1000000 runs=51 extract_runs=3 quick=0 build_only=0
work=/var/tmp/virrey-search-bench
while (($#)); do
  case $1 in
    --games) games=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --extract-runs) extract_runs=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --quick) quick=1; games=20000; runs=21; extract_runs=1; shift ;;
    --build-only) build_only=1; shift ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
[[ -x "$virrey" ]] || "$root/scripts/build.sh" >/dev/null
[[ -x "$pgn_extract" ]] || { echo "pgn-extract is missing (scripts/install-deps.sh --bench)" >&2; exit 2; }
command -v zstd >/dev/null || { echo "zstd is missing (apt-get install zstd)" >&2; exit 2; }
(( quick )) && work="$work-quick"
db=$work/db
mkdir -p "$work/gen" "$work/done"
log() { printf '%s %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

# --- inputs -------------------------------------------------------------------
inputs=()
if (( quick )); then
  for f in "$corpus"/shakmaty-*.pgn.zst "$corpus"/tcec-*.pgn.zst; do [[ -e $f ]] && inputs+=("$f"); done
else
  for f in "$corpus"/*.pgn.zst "$corpus"/*.pgn; do [[ -e $f ]] && inputs+=("$f"); done
fi
(( ${#inputs[@]} )) || { echo "no PGN files in $corpus" >&2; exit 2; }

chunk=50000
for ((first = 0; first < games; first += chunk)); do
  n=$(( games - first < chunk ? games - first : chunk ))
  f=$work/gen/virrey-seed7-$(printf %07d "$first")-$n.pgn.zst
  if [[ ! -s $f ]]; then
    log "generating Virrey games $first..$((first + n - 1))"
    "$virrey" -q generate --variant virrey --seed 7 --first "$first" --games "$n" --threads 2 |
      zstd -q -3 -o "$f.tmp" && mv "$f.tmp" "$f"
  fi
  inputs+=("$f")
done

# --- the database -----------------------------------------------------------------
# A database left by an older virrey is brought to this one's schema.
if [[ -e $db ]] && [[ $("$virrey" -q db info --db "$db" --format json 2>&1 || true) == *"db upgrade"* ]]; then
  log "upgrading $db"
  "$virrey" -q db upgrade --db "$db" >&2 || exit 3
  rm -f "$work/done/compacted"
fi
for f in "${inputs[@]}"; do
  mark=$work/done/import-$(basename "$f")
  [[ -e $mark ]] && continue
  log "importing $(basename "$f")"
  # Exit 1: some games were rejected (the real collections hold a few).
  status=0
  "$virrey" import "$f" --db "$db" --threads 2 >"$work/import.log" 2>&1 || status=$?
  (( status <= 1 )) || { cat "$work/import.log" >&2; exit 3; }
  tail -n 3 "$work/import.log" >&2
  touch "$mark"
  rm -f "$work/done/compacted"
done
if [[ ! -e $work/done/compacted ]]; then
  log "compacting"
  "$virrey" import "${inputs[0]}" --db "$db" --compact >/dev/null 2>&1 && touch "$work/done/compacted"
fi

# --- the same games as one PGN, for pgn-extract ----------------------------------
pgn=$work/all.pgn
if [[ ! -e $work/done/pgn-$games ]]; then
  log "writing $pgn"
  rm -f "$work"/done/pgn-*
  for f in "${inputs[@]}"; do
    case $f in *.zst) zstd -dcq "$f" ;; *) cat "$f" ;; esac
    echo
  done >"$pgn.tmp"
  mv "$pgn.tmp" "$pgn"
  touch "$work/done/pgn-$games"
fi
(( build_only )) && { log "database ready: $db"; exit 0; }

# --- the queries -------------------------------------------------------------------
opening="r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"  # 1.e4 e5 2.Nf3 Nc6 3.Bb5
# A rare endgame: the final position with the fewest pieces among 400 real
# games from the middle of the collection.
standard_games=$("$virrey" -q search --db "$db" --variant standard --count)
endgame=$("$virrey" -q search --db "$db" --variant standard --offset $((standard_games / 2)) --limit 400 \
    --show --format jsonl | python3 "$root/bench/fewest_men.py")
player=carlsen
(( quick )) && player=$("$virrey" -q search --db "$db" --variant standard --limit 1 --format jsonl |
  python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["white"].split(",")[0].lower())')
printf 'FEN "%s"\n' "$opening" >"$work/opening.tags"
printf 'FEN "%s"\n' "$endgame" >"$work/endgame.tags"
info=$("$virrey" -q db info --db "$db" --format json 2>/dev/null || echo '{}')

python3 - "$virrey" "$pgn_extract" "$db" "$pgn" "$work" "$runs" "$extract_runs" "$opening" "$endgame" \
  "$player" "$info" <<'PY'
import json, os, subprocess, sys, time
virrey, pgn_extract, db, pgn, work = sys.argv[1:6]
runs, extract_runs = int(sys.argv[6]), int(sys.argv[7])
opening, endgame, player, info = sys.argv[8], sys.argv[9], sys.argv[10], sys.argv[11]

def once(cmd):
    """Wall and CPU (user + system) seconds of one process, and its stdout."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out = p.stdout.read()
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode not in (0, 1):
        sys.exit(f"{' '.join(cmd)}: exit {p.returncode}")
    return wall, ru.ru_utime + ru.ru_stime, out

def pct(values, q):
    v = sorted(values)
    return v[min(len(v) - 1, int(round(q / 100 * (len(v) - 1))))]

def timed(cmd, n, warm=2):
    for _ in range(min(warm, n)): once(cmd)
    walls, cpus = [], []
    for _ in range(n):
        w, c, out = once(cmd)
        walls.append(w); cpus.append(c)
    return pct(walls, 50), pct(walls, 99), pct(cpus, 50), out

def count(args):
    return int(once([virrey, "search", "--db", db, *args, "--count"])[2])

try:
    counts = json.loads(info).get("counts", info)
except Exception:
    counts = info
print(f"database {db}: {counts}")
print(f"pgn-extract input {pgn}: {os.path.getsize(pgn) / 1e6:.0f} MB")
# Two baselines: any process on this machine (/bin/true), and virrey's own
# start-up (static initialisation, command line) without opening a database.
for label, cmd in (("`/bin/true`", ["/bin/true"]),
                   ("`virrey perft --depth 1` (no database)", [virrey, "perft", "--startpos", "--depth", "1"])):
    base = timed(cmd, runs)
    print(f"baseline {label} process: p50 {base[0]*1e3:.1f} ms, CPU p50 {base[2]*1e3:.1f} ms")
print(f"opening FEN {opening}\nendgame FEN {endgame}\nplayer prefix {player}\n")

queries = [
    ("exact position, common opening", ["--fen", opening], "opening"),
    ("exact position, rare endgame", ["--fen", endgame], "endgame"),
    ("viceroy promotion", ["--promotion", "V"], None),
    ("two viceroys for Black", ["--promotion", "V", "--by", "black", "--min-count", "2"], None),
    ("tag: player prefix", ["--player", player], None),
    ("tag: result and date range", ["--result", "0-1", "--date-from", "2010", "--date-to", "2012.06"], None),
    ("material exact, KVR-KR", ["--material", "KVR-KR"], None),
    ("material exact either way, KQ-KR", ["--material", "KQ-KR", "--either-colour"], None),
    ("material range, White V>=2", ["--material", "V>=2"], None),
    ("material terms, Q=0 V>=1 vs Q=1", ["--material", "Q=0 V>=1 vs Q=1"], None),
    ("material held 10 plies, KRP-KR", ["--material", "KRP-KR", "--material-plies", "10"], None),
]
extract = {}
for name, tags in (("opening", "opening.tags"), ("endgame", "endgame.tags")):
    cmd = [pgn_extract, "-s", "-t" + os.path.join(work, tags), "-o" + os.devnull, pgn]
    extract[name] = timed(cmd, extract_runs, warm=0)

print(f"{'query':34} {'matches':>8} {'p50 ms':>8} {'p99 ms':>8} {'CPU p50':>8}   pgn-extract p50   ratio (p50)")
for name, args, fen in queries:
    n = count(args)
    p50, p99, cpu, out = timed([virrey, "search", "--db", db, *args, "--format", "jsonl"], runs)
    line = f"{name:34} {n:8d} {p50*1e3:8.1f} {p99*1e3:8.1f} {cpu*1e3:8.1f}"
    if fen:
        e50 = extract[fen][0]
        line += f"   {e50:10.2f} s   {e50 / p50:10.0f}x"
    print(line)
for name, args, fen in queries[:2]:
    p50, p99, cpu, _ = timed([virrey, "search", "--db", db, *args, "--count"], max(5, runs // 5))
    print(f"{name + ', --count':34} {'':8} {p50*1e3:8.1f} {p99*1e3:8.1f} {cpu*1e3:8.1f}")
print("\ntargets: exact position (up to 50 games) p50 <= 10 ms and >= 500x pgn-extract; "
      "viceroy promotion p50 <= 20 ms; material query (up to 50 games) p50 <= 20 ms")
PY
