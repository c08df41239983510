#!/usr/bin/python3
"""How the time to read one game grows with its number of distinct tags:
`virrey validate` beside Debian's `pgn-extract -r` on the same files, made
here (a game of N tags [T0 "v"] ... [TN-1 "v"] and a short game after it), for
N doubling. Both pinned to core 0, runs alternating; prints each tool's median
CPU seconds with the spread, pgn-extract's time over virrey's, and how each
tool's time grows from one N to the next (2.0 for a doubling: linear).

    bench/many_tags_vs_pgn_extract.py [--runs R] [--sizes 25000,50000,...]
"""
import argparse
import os
import shutil
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import process_timing  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def write_game(path, n):
    with open(path, "w") as f:
        f.write('[Event "Many"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "1"]\n'
                '[White "A"]\n[Black "B"]\n[Result "1-0"]\n')
        for i in range(n):
            f.write('[T{} "v"]\n'.format(i))
        f.write("\n1. e4 1-0\n\n")
        f.write('[Event "After"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "1"]\n'
                '[White "C"]\n[Black "D"]\n[Result "0-1"]\n\n1. e4 e5 0-1\n\n')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--sizes", default="25000,50000,100000,200000")
    args = ap.parse_args()
    virrey = os.environ.get("VIRREY", os.path.join(ROOT, "build", "cli", "virrey"))
    pgn_extract = shutil.which("pgn-extract") or "/usr/games/pgn-extract"
    for tool in (virrey, pgn_extract):
        if not os.access(tool, os.X_OK):
            sys.exit("{} is missing (scripts/build.sh; pgn-extract: scripts/install-deps.sh)".format(tool))
    sizes = [int(s) for s in args.sizes.split(",")]
    pin = ["taskset", "-c", "0"]
    with tempfile.TemporaryDirectory() as work:
        rows = []
        for n in sizes:
            path = os.path.join(work, "tags-{}.pgn".format(n))
            write_game(path, n)
            commands = {"virrey": pin + [virrey, "validate", "--threads", "1", "--format", "jsonl", path],
                        "pgn-extract": pin + [pgn_extract, "-r", "-s", path]}
            cpu = {name: [] for name in commands}
            for _ in range(args.runs):
                for name, cmd in commands.items():  # alternating, round by round
                    _, c, _ = process_timing.once(cmd)
                    cpu[name].append(c)
            rows.append((n, cpu))
        print("one game of N distinct tags, {} rounds, both pinned to core 0, CPU seconds".format(args.runs))
        previous = None
        for n, cpu in rows:
            med = {k: statistics.median(v) for k, v in cpu.items()}
            line = "  N={:>8}".format(n)
            for k in ("virrey", "pgn-extract"):
                line += "  {} {:.3f} s ({:.3f}-{:.3f})".format(k, med[k], min(cpu[k]), max(cpu[k]))
            ratio = [p / v for v, p in zip(cpu["virrey"], cpu["pgn-extract"])]
            line += "  ratio pgn-extract/virrey {:.2f}x ({:.2f}-{:.2f})".format(
                statistics.median(ratio), min(ratio), max(ratio))
            if previous:
                pn, pmed = previous
                line += "  growth from N={}: virrey {:.2f}, pgn-extract {:.2f}".format(
                    pn, med["virrey"] / max(pmed["virrey"], 1e-6),
                    med["pgn-extract"] / max(pmed["pgn-extract"], 1e-6))
            previous = (n, med)
            print(line)


if __name__ == "__main__":
    main()
