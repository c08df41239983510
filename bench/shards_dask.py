#!/usr/bin/python3
"""Sharded import and fan-out queries through Dask against one database, in
the same run on the same generated files.

Import: N generated Virrey games in F files, imported (a) into one database
by one `virrey import --threads 2` of all the files, and (b) into S shards
by cluster/virrey-dask on a LocalCluster of W single-threaded workers (each
input one task, `virrey import --threads 1`); rounds alternate a then b,
both pinned to cores 0-1 (taskset), the cluster started before the timed
part as a running cluster would be. Target: b within 15 % of a's wall time.
Then latency of whole queries: each statistic and search on the one
database (a process) against the same through the driver (fan-out tasks,
partials merged by `virrey stats merge` on a worker), p50 of R runs.
Prints games/s, bytes per game on disk and the ratios.

  bench/shards_dask.py [--games N] [--files F] [--shards S] [--workers W]
                       [--runs R] [--query-runs Q] [--work DIR]
Environment: VIRREY (default build/cli/virrey).
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(root, "cluster"))
sys.path.insert(0, os.path.join(root, "bench"))
import process_timing  # noqa: E402
import virrey_dask  # noqa: E402

virrey = os.environ.get("VIRREY", os.path.join(root, "build", "cli", "virrey"))


def du(path):
    total = 0
    for d, _, files in os.walk(path):
        for f in files:
            try:
                total += os.path.getsize(os.path.join(d, f))
            except OSError:
                pass
    return total


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--games", type=int, default=2000000)
    p.add_argument("--files", type=int, default=8)
    p.add_argument("--shards", type=int, default=4)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--query-runs", type=int, default=7)
    p.add_argument("--work")
    a = p.parse_args()
    work = a.work or tempfile.mkdtemp(prefix="virrey-shards-bench-")
    os.makedirs(work, exist_ok=True)
    per = a.games // a.files
    inputs = []
    for i in range(a.files):
        path = os.path.join(work, "games-{}.pgn".format(i))
        if not os.path.exists(path):
            subprocess.run([virrey, "generate", "--variant", "virrey", "--seed", "1", "--first", str(i * per),
                            "-n", str(per), "--threads", "2", "-o", path + ".tmp"], check=True)
            os.rename(path + ".tmp", path)
        inputs.append(path)
    pgn_bytes = sum(os.path.getsize(f) for f in inputs)
    print("{} games in {} files, {:.0f} MB of PGN; {} shards, {} workers".format(
        per * a.files, a.files, pgn_bytes / 1e6, a.shards, a.workers), flush=True)

    os.sched_setaffinity(0, {0, 1})  # the cluster's workers inherit it
    single_db = os.path.join(work, "single.db")
    shards = os.path.join(work, "shards")
    single, cluster = [], []
    with virrey_dask.connect(None, a.workers) as client:
        run = virrey_dask.Runner(client, virrey)
        for r in range(a.runs):
            shutil.rmtree(single_db, ignore_errors=True)
            t = time.perf_counter()
            subprocess.run(["taskset", "-c", "0,1", virrey, "-q", "import", "--threads", "2", "--db",
                            single_db] + inputs, check=True, stdout=subprocess.DEVNULL)
            single.append(time.perf_counter() - t)
            shutil.rmtree(shards, ignore_errors=True)
            t = time.perf_counter()
            totals = run.import_inputs(shards, a.shards, inputs, threads=1)
            cluster.append(time.perf_counter() - t)
            print("round {}: single {:.2f} s, cluster {:.2f} s ({} games)".format(
                r + 1, single[-1], cluster[-1], totals["games"]), flush=True)
        games = totals["games"]
        ms, mc = statistics.median(single), statistics.median(cluster)
        print("import: single {:.2f} s ({:.0f} games/s, {:.0f} per core; spread {:.2f}-{:.2f}), "
              "cluster {:.2f} s ({:.0f} games/s; spread {:.2f}-{:.2f}); cluster/single wall {:.3f} "
              "(target <= 1.15)".format(ms, games / ms, games / ms / 2, min(single), max(single), mc, games / mc,
                                        min(cluster), max(cluster), mc / ms))
        sb, cb = du(single_db), du(shards)
        print("disk: single {:.0f} MB ({:.1f} bytes/game), shards {:.0f} MB ({:.1f} bytes/game), "
              "PGN {:.1f} bytes/game".format(sb / 1e6, sb / games, cb / 1e6, cb / games, pgn_bytes / games))

        queries = [
            ("stats games", ["games"], None),
            ("stats promotions", ["promotions"], None),
            ("stats openings depth 2", ["openings", "--variant", "virrey", "--depth", "2"], None),
            ("search --promotion V --count", None, ["--promotion", "V"]),
            ("search --moves e4 d5 (50)", None, ["--variant", "virrey", "--moves", "e4 d5"]),
        ]
        print("{:<30} {:>12} {:>12} {:>8}".format("query", "one db p50", "fan-out p50", "ratio"))
        for name, stat, search in queries:
            if stat:
                one_cmd = [virrey, "stats"] + stat + ["--format", "json", "--db", single_db]
                fan = lambda: run.stats(shards, stat, "json")  # noqa: E731
            else:
                count = "--count" in name
                one_cmd = [virrey, "search"] + search + (["--count"] if count else ["--format", "jsonl"]) + \
                    ["--db", single_db]
                fan = lambda: run.search(shards, search, count=count)  # noqa: E731
            one = process_timing.timed(one_cmd, a.query_runs)[0]
            fan()
            times = []
            for _ in range(a.query_runs):
                t = time.perf_counter()
                fan()
                times.append(time.perf_counter() - t)
            f = statistics.median(times)
            print("{:<30} {:>10.1f}ms {:>10.1f}ms {:>8.2f}".format(name, one * 1e3, f * 1e3, f / one), flush=True)
    if not a.work:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
