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
# 1.Na3 Na6 in Virrey chess: the generated games' most played second ply.
virrey_opening = "r1bqkbnr/pppppppp/n7/8/8/N7/PPPPPPPP/R1BQKBNR w KQkq - 2 2"
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
    """Games, bytes on disk and bytes of the position index, from `db info`."""
    out = subprocess.run([virrey, "-q", "db", "info", "--db", db, "--format", "json"], capture_output=True,
                         text=True).stdout
    d = json.loads(out)
    games = sum(v["games"] for v in d["variants"].values())
    return games, d["total_bytes"], d["parts"]["positions"]["bytes"], d["parts"]["positions"]["entries"]


def ms(v):
    return f"{v * 1e3:.1f}"


for name, db in (("small", small), ("large", large)):
    games, size, positions, values = info(db)
    print(f"{name}: {db}: {games:,} games, {size / 1e6:,.0f} MB; position index {positions / 1e6:,.0f} MB"
          f" in {values:,} values")
print(f"runs {runs} per query and database, alternating, pinned to core {cpu}; p50 (min..max) of wall time\n")
print(f"{'query':38} {'matches':>17} {'small p50 ms':>22} {'large p50 ms':>22} {'large/small':>11}"
      f" {'replayed':>11} {'bytes read':>19}")
ratios = []
dbs = {"small": small, "large": large}
for name, args in queries:
    cmd = {k: search(db, args, "--format", "jsonl") for k, db in dbs.items()}
    times = {k: [] for k in dbs}
    for k in dbs:  # warm-up
        once(cmd[k])
    for _ in range(runs):
        for k in dbs:
            times[k].append(once(cmd[k])[0])
    p50 = {k: statistics.median(t) for k, t in times.items()}
    ratio = p50["large"] / p50["small"]
    ratios.append(ratio)
    c = {k: count(db, args) for k, db in dbs.items()}
    e = {k: explained(db, args) for k, db in dbs.items()}
    spread = {k: f"{ms(p50[k])} ({ms(min(times[k]))}..{ms(max(times[k]))})" for k in dbs}
    print(f"{name:38} {c['small']:>8}/{c['large']:<8} {spread['small']:>22} {spread['large']:>22} {ratio:11.2f}"
          f" {e['small'][0]:>5}/{e['large'][0]:<5} {e['small'][1]:>9}/{e['large'][1]:<9}")
print(f"\nworst ratio {max(ratios):.2f} (target: at most 1.5)")
