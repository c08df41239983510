"""The timing half of bench/lookup_scaling.sh: the same searches as whole
processes on a small and a large database, runs alternating between them,
every process pinned to one core.

    lookup_scaling.py VIRREY SMALL_DB LARGE_DB RUNS CPU ENDGAME_FEN VIRREY_FEN
"""
import json
import os
import re
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from process_timing import once  # noqa: E402

virrey, small, large = sys.argv[1:4]
runs, cpu = int(sys.argv[4]), sys.argv[5]
endgame, virrey_rare = sys.argv[6], sys.argv[7]

ruy_lopez = "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"
# 1.e4 e5 2.Nf3 Nc6 in Virrey chess: a position every other generated game
# passes through.
virrey_opening = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
# Legal, and reached by no game: both kings and two viceroys on the rim.
absent = "V6k/8/8/8/8/8/8/K6v w - - 0 1"

queries = [
    ("exact position, common opening", ["--fen", ruy_lopez]),
    ("exact position, common Virrey opening", ["--variant", "virrey", "--fen", virrey_opening]),
    ("exact position, rare endgame", ["--fen", endgame]),
    ("exact position, rare Virrey position", ["--variant", "virrey", "--fen", virrey_rare]),
    ("exact position, reached by no game", ["--variant", "virrey", "--fen", absent]),
    ("viceroy promotion", ["--promotion", "V"]),
    ("two viceroys for Black", ["--promotion", "V", "--by", "black", "--min-count", "2"]),
]


def search(db, args, *extra):
    return ["taskset", "-c", cpu, virrey, "search", "--db", db, *args, *extra]


def count(db, args):
    return int(once(search(db, args, "--count"))[2])


def explained(db, args):
    """Candidates replayed and bytes read, as `--explain` logs them."""
    p = subprocess.run(search(db, args, "--explain", "--format", "jsonl"), capture_output=True, text=True)
    checked = re.search(r"checked (\d+) candidate games", p.stderr)
    read = re.search(r"read (\d+) bytes in (\d+) blocks", p.stderr)
    return (int(checked.group(1)) if checked else 0, int(read.group(1)) if read else 0)


def info(db):
    out = subprocess.run([virrey, "-q", "db", "info", "--db", db, "--format", "json"], capture_output=True,
                         text=True).stdout
    try:
        d = json.loads(out)
    except ValueError:
        return "?"
    return d


def ms(v):
    return f"{v * 1e3:.1f}"


for name, db in (("small", small), ("large", large)):
    d = info(db)
    games = d.get("games", "?") if isinstance(d, dict) else "?"
    size = d.get("disk_bytes", d.get("bytes", "?")) if isinstance(d, dict) else "?"
    print(f"{name}: {db}: {games} games, {size} bytes")
print(f"runs {runs} per query and database, alternating, pinned to core {cpu}; p50 (min..max) of wall time\n")
print(f"{'query':38} {'matches':>17} {'small p50 ms':>22} {'large p50 ms':>22} {'large/small':>11}"
      f" {'replayed':>11} {'bytes read':>19}")
ratios = []
for name, args in queries:
    cmd = {db: search(db, args, "--format", "jsonl") for db in (small, large)}
    times = {small: [], large: []}
    for db in (small, large):  # warm-up
        once(cmd[db])
    for _ in range(runs):
        for db in (small, large):
            times[db].append(once(cmd[db])[0])
    p50 = {db: statistics.median(t) for db, t in times.items()}
    ratio = p50[large] / p50[small]
    ratios.append(ratio)
    c = {db: count(db, args) for db in (small, large)}
    e = {db: explained(db, args) for db in (small, large)}
    spread = {db: f"{ms(p50[db])} ({ms(min(times[db]))}..{ms(max(times[db]))})" for db in (small, large)}
    print(f"{name:38} {c[small]:>8}/{c[large]:<8} {spread[small]:>22} {spread[large]:>22} {ratio:11.2f}"
          f" {e[small][0]:>5}/{e[large][0]:<5} {e[small][1]:>9}/{e[large][1]:<9}")
print(f"\nworst ratio {max(ratios):.2f} (target: at most 1.5)")
