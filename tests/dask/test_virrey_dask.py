#!/usr/bin/python3
"""The Dask driver (cluster/virrey-dask) on a LocalCluster of 2 workers:
inputs imported into shards, then statistics, search and the merged
database compared with one database importing the same inputs in the
shards' order (the peer: plain `virrey`); a worker killed during an import
and the run completing with the games of an uninterrupted import.

Skipped (exit 77, ctest SKIP_RETURN_CODE) when python3-distributed is absent.
Run: VIRREY=build/cli/virrey python3 tests/dask/test_virrey_dask.py
"""
import json
import os
import shutil
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "cluster"))

try:
    import distributed  # noqa: F401
except ImportError:
    print("SKIPPED: python3-distributed is not installed (scripts/install-deps.sh installs it)")
    sys.exit(77)

import virrey_dask  # noqa: E402

VIRREY = os.environ.get("VIRREY", "virrey")


def virrey(*args, ok=(0,)):
    p = subprocess.run([VIRREY] + [str(a) for a in args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode not in ok:
        raise AssertionError("virrey {} exited {}: {}".format(" ".join(map(str, args)), p.returncode,
                                                               p.stderr.decode()))
    return p.stdout.decode()


DRIVER = os.path.join(HERE, "..", "..", "cluster", "virrey-dask")


def driver(*args, env=None):
    """virrey-dask ARGS on a LocalCluster of one worker: (exit code, stdout, stderr)."""
    p = subprocess.run([sys.executable, DRIVER, "--workers", "1", "--virrey", VIRREY] + [str(a) for a in args],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300,
                       env=dict(os.environ, **(env or {})))
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def shard_inputs(shards, count, inputs):
    """The inputs of each shard as recorded, in the order given."""
    records = virrey_dask.input_records(shards)
    shard_of = {r["path"]: r["shard"] for r in records.values()}
    return [[p for p in inputs if shard_of[os.path.realpath(p)] == k] for k in range(count)]


def games_of(db):
    info = json.loads(virrey("db", "info", "--db", db, "--format", "json"))
    return sum(v["games"] for v in info["variants"].values())


class DaskDriver(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="virrey-dask-")
        cls.inputs, cls.games = [], {}
        for i, (variant, n) in enumerate([("virrey", 60), ("standard", 50), ("modern", 40),
                                          ("virrey", 70), ("standard", 30), ("virrey", 45)]):
            path = os.path.join(cls.tmp, "in{}.pgn".format(i))
            virrey("generate", "--variant", variant, "-n", n, "--seed", 100 + i, "-o", path)
            cls.inputs.append(path)
            cls.games[path] = n
        cls.ctx = virrey_dask.connect(None, 2)
        cls.client = cls.ctx.__enter__()
        cls.runner = virrey_dask.Runner(cls.client, VIRREY)

    @classmethod
    def tearDownClass(cls):
        cls.ctx.__exit__(None, None, None)
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_shards_answer_as_one_database(self):
        shards = os.path.join(self.tmp, "shards3")
        totals = self.runner.import_inputs(shards, 3, self.inputs)
        self.assertEqual(totals["games"], 295)
        in_shard = shard_inputs(shards, 3, self.inputs)
        spans = [sum(self.games[p] for p in in_shard[k]) for k in range(3)]
        self.assertEqual(totals["games_per_shard"], spans)
        # One database importing the inputs in shard order.
        one = os.path.join(self.tmp, "one.db")
        virrey("import", "--db", one, *[p for k in range(3) for p in in_shard[k]])
        for stat in (["games"], ["results", "--by", "player"], ["promotions"],
                     ["openings", "--variant", "virrey", "--depth", "2"]):
            for fmt in ("json", "text"):
                self.assertEqual(self.runner.stats(shards, stat, fmt),
                                 virrey("stats", *stat, "--format", fmt, "--db", one), stat)
        # Search: the same games in the same order; K:ID is the one database's
        # id less the ids of the shards before K.
        for args, sort in ((["--variant", "virrey", "--moves", "e4"], "id"),
                           (["--promotion", "Q"], "date"), (["--variant", "standard"], "id")):
            expected = [json.loads(l) for l in
                        virrey("search", *args, "--sort", sort, "--limit", "0", "--format", "jsonl",
                               "--db", one).splitlines()]
            got = self.runner.search(shards, args, sort=sort, limit=0)
            self.assertEqual([sum(spans[:g["shard"]]) + g["id"] for g in got], [e["id"] for e in expected])
            self.assertEqual([g["white"] for g in got], [e["white"] for e in expected])
            page = self.runner.search(shards, args, sort=sort, limit=5, offset=3)
            self.assertEqual([g["game"] for g in page], [g["game"] for g in got[3:8]])
            self.assertEqual(self.runner.search(shards, args, count=True), len(expected))
        merged = os.path.join(self.tmp, "merged.db")
        self.runner.merge(shards, merged)
        self.assertIn("consistent", virrey("db", "check", "--db", merged))
        for q in (["export"], ["stats", "games", "--format", "json"], ["search", "--promotion", "V"]):
            self.assertEqual(virrey(*q, "--db", merged), virrey(*q, "--db", one), q)
        # Importing again adds nothing: every input is known to its shard.
        self.assertEqual(self.runner.import_inputs(shards, 3, self.inputs)["games"], 295)

    def test_inputs_in_another_order_add_nothing(self):
        # An input goes to the shard that holds it whatever its place on the
        # command line (and a copy of it under another name too); a new one
        # goes to the shard with the fewest bytes of input. Every run's
        # counts are those of one database of the same inputs.
        shards = os.path.join(self.tmp, "reordered")
        a, b, c, d = self.inputs[:4]
        copy = os.path.join(self.tmp, "copy-of-a.pgn")
        shutil.copyfile(a, copy)
        one = os.path.join(self.tmp, "reordered-one.db")
        runs = [[a, b, c], [c, b, a], [b, copy, a, c, d], [d, c, b, a]]
        for inputs, games in zip(runs, [150, 150, 220, 220]):
            virrey("import", "--db", one, *inputs)
            totals = self.runner.import_inputs(shards, 2, inputs)
            self.assertEqual(totals["games"], games_of(one), inputs)
            self.assertEqual(totals["games"], games, inputs)
        records = virrey_dask.input_records(shards)
        self.assertEqual(len(records), 4)  # the copy is a
        # d went to the lighter shard at the time: the one without the
        # largest of a, b, c when the other holds the rest.
        sizes = {os.path.realpath(p): os.path.getsize(p) for p in (a, b, c)}
        load = [sum(r["bytes"] for r in records.values() if r["shard"] == k and r["path"] in sizes)
                for k in range(2)]
        shard_of = {r["path"]: r["shard"] for r in records.values()}
        self.assertEqual(shard_of[os.path.realpath(d)], load.index(min(load)))

    def test_more_shards_than_inputs(self):
        # A shard no input reaches is an empty database, and every command
        # over the shards answers as one database.
        shards = os.path.join(self.tmp, "shards4")
        totals = self.runner.import_inputs(shards, 4, self.inputs[:2])
        self.assertEqual(sorted(totals["games_per_shard"]), [0, 0, 50, 60])
        one = os.path.join(self.tmp, "two.db")
        virrey("import", "--db", one, *self.inputs[:2])
        self.assertEqual(self.runner.stats(shards, ["games"], "json"),
                         virrey("stats", "games", "--format", "json", "--db", one))
        self.assertEqual(self.runner.search(shards, ["--variant", "standard"], count=True), 50)

    def test_the_command_exits_1_when_games_are_rejected(self):
        bad = os.path.join(self.tmp, "bad.pgn")
        with open(bad, "w") as f:
            f.write('[Event "x"]\n\n1. e4 e5 2. Ke3 *\n\n[Event "y"]\n\n1. d4 *\n')
        driver = os.path.join(HERE, "..", "..", "cluster", "virrey-dask")
        p = subprocess.run([sys.executable, driver, "--workers", "1", "--virrey", VIRREY, "import", "--shards",
                            os.path.join(self.tmp, "badshards"), "-n", "1", bad],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.assertEqual(p.returncode, 1, p.stderr.decode())
        self.assertEqual(json.loads(p.stdout.decode())["rejected"], 1)
        # Run again (as a task is when its worker died): the input is skipped
        # as imported before, and still counts the game it had with errors.
        p = subprocess.run([sys.executable, driver, "--workers", "1", "--virrey", VIRREY, "import", "--shards",
                            os.path.join(self.tmp, "badshards"), "-n", "1", bad],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.assertEqual(p.returncode, 1, p.stderr.decode())
        self.assertEqual(json.loads(p.stdout.decode())["rejected"], 1)
        # A negative offset is a usage error, as virrey search's.
        with self.assertRaises(virrey_dask.VirreyError) as e:
            self.runner.search(os.path.join(self.tmp, "badshards"), [], offset=-3)
        self.assertEqual(e.exception.exit_code, 2)

    def test_inputs_that_cannot_be_read_stop_nothing(self):
        # A missing input and a truncated .zst among readable ones: every
        # other input is imported, the failures named with virrey's message,
        # the summary printed, exit 3, as one virrey import of them all.
        missing = os.path.join(self.tmp, "missing.pgn")
        inputs = [self.inputs[0], missing, self.inputs[1], self.inputs[2]]
        bad = [missing]
        if shutil.which("zstd"):
            whole = os.path.join(self.tmp, "whole.pgn.zst")
            subprocess.run(["zstd", "-q", "-f", self.inputs[3], "-o", whole], check=True)
            with open(whole, "rb") as f:
                data = f.read()
            truncated = os.path.join(self.tmp, "truncated.pgn.zst")
            with open(truncated, "wb") as f:
                f.write(data[:len(data) * 2 // 3])
            inputs[2:2] = [truncated]
            bad.append(truncated)
        one = os.path.join(self.tmp, "unreadable-one.db")
        virrey("import", "--db", one, *inputs, ok=(3,))
        code, out, err = driver("import", "--shards", os.path.join(self.tmp, "unreadable"), "-n", 2, *inputs)
        self.assertEqual(code, 3, err)
        totals = json.loads(out)
        self.assertEqual(totals["games"], games_of(one))
        self.assertEqual(totals["failed_inputs"], bad)
        self.assertIn(missing + ": ", err)
        self.assertIn("No such file or directory", err)
        if shutil.which("zstd"):
            self.assertIn("truncated", err)
        self.assertNotIn("Traceback", err)

    def test_rejected_games_are_located(self):
        # virrey's messages about the games pass to the driver's standard
        # error, at most MAX_FINDINGS an input then how many more; --rejects
        # DIR holds each input's games with errors, as virrey import writes them.
        bad = os.path.join(self.tmp, "many-bad.pgn")
        with open(bad, "w") as f:
            for i in range(virrey_dask.MAX_FINDINGS + 5):
                f.write('[Event "bad {}"]\n\n1. e4 e5 2. Ke3 *\n\n[Event "good {}"]\n\n1. d4 *\n\n'.format(i, i))
        small = os.path.join(self.tmp, "one-bad.pgn")
        with open(small, "w") as f:
            f.write('[Event "x"]\n\n1. e4 e5 2. Ke3 *\n')
        one = os.path.join(self.tmp, "located-one.db")
        p = subprocess.run([VIRREY, "import", "--db", one, "--rejects", os.path.join(self.tmp, "ref.rejects.pgn"), bad],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.assertEqual(p.returncode, 1)
        expected = [l for l in p.stderr.decode().splitlines() if "error[" in l]
        self.assertEqual(len(expected), virrey_dask.MAX_FINDINGS + 5)
        rejects = os.path.join(self.tmp, "rejects")
        code, out, err = driver("import", "--shards", os.path.join(self.tmp, "located"), "-n", 2,
                                "--rejects", rejects, bad, self.inputs[0], small)
        self.assertEqual(code, 1, err)
        self.assertEqual(json.loads(out)["rejected"], virrey_dask.MAX_FINDINGS + 6)
        lines = err.splitlines()
        self.assertEqual([l for l in lines if l.startswith(bad + ":")], expected[:virrey_dask.MAX_FINDINGS])
        self.assertIn("virrey-dask: {}: 5 more messages about its games (its rejects: {})".format(
            bad, os.path.join(rejects, "many-bad.rejects.pgn")), lines)
        self.assertEqual(len([l for l in lines if l.startswith(small + ":3:")]), 1)
        with open(os.path.join(self.tmp, "ref.rejects.pgn"), "rb") as f:
            with open(os.path.join(rejects, "many-bad.rejects.pgn"), "rb") as g:
                self.assertEqual(g.read(), f.read())
        self.assertTrue(os.path.getsize(os.path.join(rejects, "one-bad.rejects.pgn")) > 0)

    def test_a_missing_shard_is_not_made_again(self):
        # A shard that holds inputs imported before and is gone: a later
        # import refuses (exit 3) instead of making it again, empty.
        shards = os.path.join(self.tmp, "lost")
        self.runner.import_inputs(shards, 2, self.inputs[:2])
        gone = os.path.join(self.tmp, "lost-shard-away")
        shutil.move(os.path.join(shards, "shard-1.db"), gone)
        code, out, err = driver("import", "--shards", shards, "-n", 2, self.inputs[2])
        self.assertEqual((code, out), (3, ""), err)
        self.assertIn("the shard is missing", err)
        self.assertFalse(os.path.exists(os.path.join(shards, "shard-1.db")))
        shutil.move(gone, os.path.join(shards, "shard-1.db"))
        code, out, err = driver("import", "--shards", shards, "-n", 2, self.inputs[2])
        self.assertEqual(code, 0, err)
        self.assertEqual(json.loads(out)["games"], 60 + 50 + 40)

    def test_inputs_json_naming_shards_beyond_the_listing_is_refused(self):
        # An inputs.json that names a shard the listing lacks (shards.json
        # made again with fewer): one line, exit 2, no traceback.
        shards = os.path.join(self.tmp, "beyond")
        self.runner.import_inputs(shards, 2, self.inputs[:2])
        os.remove(os.path.join(shards, "shards.json"))
        code, out, err = driver("import", "--shards", shards, "-n", 1, self.inputs[2])
        self.assertEqual((code, out), (2, ""), err)
        self.assertIn("names shards beyond 1", err)
        self.assertNotIn("Traceback", err)

    def test_a_grown_input_goes_to_its_shard(self):
        # A file games were added to, imported again, goes to the shard that
        # holds it: the games it had are duplicates there, counted once, as
        # one database counts them.
        shards = os.path.join(self.tmp, "grown")
        grown = os.path.join(self.tmp, "grown.pgn")
        shutil.copyfile(self.inputs[0], grown)
        self.runner.import_inputs(shards, 3, [grown, self.inputs[1]])
        with open(grown, "a") as f, open(self.inputs[3]) as more:
            f.write("\n" + more.read())
        totals = self.runner.import_inputs(shards, 3, [grown])
        self.assertEqual(totals["games"], 60 + 50 + 70)
        records = virrey_dask.input_records(shards)
        self.assertEqual(len({r["shard"] for r in records.values() if r["path"] == os.path.realpath(grown)}), 1)

    def test_rejects_of_inputs_of_one_name_stay_apart(self):
        # Two inputs named alike, in two runs: each keeps its own rejects
        # file, and a run again of the first finds its own there.
        rejects = os.path.join(self.tmp, "rejects-apart")
        shards = os.path.join(self.tmp, "rejects-apart-shards")
        paths = []
        for d, bad in (("a", 1), ("b", 2)):
            os.makedirs(os.path.join(self.tmp, d), exist_ok=True)
            path = os.path.join(self.tmp, d, "round.pgn")
            with open(path, "w") as f:
                for i in range(bad):
                    f.write('[Event "{} {}"]\n\n1. e4 e5 2. Ke3 *\n\n'.format(d, i))
            paths.append(path)
            code, out, err = driver("import", "--shards", shards, "-n", 1, "--rejects", rejects, path)
            self.assertEqual(code, 1, err)
        with open(os.path.join(rejects, "round.rejects.pgn")) as f:
            self.assertEqual(f.read().count("[Event"), 1)
        with open(os.path.join(rejects, "round-2.rejects.pgn")) as f:
            self.assertEqual(f.read().count("[Event"), 2)
        code, out, err = driver("import", "--shards", shards, "-n", 1, "--rejects", rejects, paths[0])
        self.assertEqual((code, json.loads(out)["rejected"]), (1, 1), err)
        with open(os.path.join(rejects, "round.rejects.pgn")) as f:
            self.assertEqual(f.read().count("[Event"), 1)

    def test_search_count_and_pages_speak_as_virrey_search(self):
        # --count --format jsonl prints {"count": N}; a page with more
        # matches past it says so on standard error, as virrey search.
        shards = os.path.join(self.tmp, "pages")
        self.runner.import_inputs(shards, 2, self.inputs[:2])
        code, out, err = driver("search", "--shards", shards, "--count", "--format", "jsonl")
        self.assertEqual((code, json.loads(out)), (0, {"count": 110}), err)
        code, out, err = driver("search", "--shards", shards, "--count", "--format", "text")
        self.assertEqual(out.strip(), "110")
        code, out, err = driver("search", "--shards", shards, "--limit", "3")
        self.assertEqual(len(out.splitlines()), 3)
        self.assertIn("more match", err)
        code, out, err = driver("search", "--shards", shards, "--limit", "0")
        self.assertEqual(len(out.splitlines()), 110)
        self.assertNotIn("more match", err)
        # Every match in one shard (the 60 Virrey games of the first input):
        # past the page all the same, and not past the last one.
        code, out, err = driver("search", "--shards", shards, "--variant", "virrey", "--limit", "3")
        self.assertEqual((code, len(out.splitlines())), (0, 3), err)
        self.assertIn("more match", err)
        code, out, err = driver("search", "--shards", shards, "--variant", "virrey", "--limit", "60")
        self.assertEqual(len(out.splitlines()), 60)
        self.assertNotIn("more match", err)

    def test_openings_across_shards_count_transpositions_below_the_root(self):
        # One shard's game reaches the tree's position after 1. e4 c5 2. b3
        # only by 1. b3 c5 2. e4: the driver's rounds count it there, as one
        # database does.
        a = os.path.join(self.tmp, "route-a.pgn")
        b = os.path.join(self.tmp, "route-b.pgn")
        with open(a, "w") as f:
            f.write('[Event "A"]\n[Result "1/2-1/2"]\n\n1. e4 c5 2. b3 Nf6 1/2-1/2\n')
        with open(b, "w") as f:
            f.write('[Event "B"]\n[Result "0-1"]\n\n1. b3 c5 2. e4 e5 0-1\n')
        shards = os.path.join(self.tmp, "routes")
        self.runner.import_inputs(shards, 2, [a, b])
        in_shard = shard_inputs(shards, 2, [a, b])
        self.assertEqual(sorted(len(x) for x in in_shard), [1, 1])
        one = os.path.join(self.tmp, "routes-one.db")
        virrey("import", "--db", one, *[p for k in range(2) for p in in_shard[k]])
        stat = ["openings", "--variant", "standard", "--moves", "e4", "c5", "--depth", "2"]
        for fmt in ("csv", "text"):
            self.assertEqual(self.runner.stats(shards, stat, fmt),
                             virrey("stats", *stat, "--format", fmt, "--db", one), fmt)

    def test_no_shards_is_a_usage_error(self):
        # -n 0 or less: one line, exit 2, nothing written; a shards.json
        # listing no shards: one line, exit 2, for every command.
        for n in (0, -1):
            shards = os.path.join(self.tmp, "n{}".format(n))
            code, out, err = driver("import", "--shards", shards, "-n", n, self.inputs[0])
            self.assertEqual((code, out, len(err.strip().splitlines())), (2, "", 1), err)
            self.assertFalse(os.path.exists(shards))
        empty = os.path.join(self.tmp, "listing-nothing")
        os.makedirs(empty)
        with open(os.path.join(empty, "shards.json"), "w") as f:
            json.dump({"shards": []}, f)
        for cmd in (["stats", "--shards", empty, "games"], ["search", "--shards", empty, "--count"],
                    ["merge", "--shards", empty, "--db", os.path.join(self.tmp, "from-nothing.db")],
                    ["import", "--shards", empty, "-n", 1, self.inputs[0]]):
            code, out, err = driver(*cmd)
            self.assertEqual((code, out), (2, ""), cmd)
            self.assertEqual(err, "virrey-dask: {}: shards.json lists no shards\n".format(empty), cmd)

    def test_fail_empty_asks_of_the_whole_collection(self):
        # A match in one shard and none in the others is a match (exit 0, as
        # one database answers); no match anywhere exits 1.
        shards = os.path.join(self.tmp, "fail-empty")
        code, out, err = driver("import", "--shards", shards, "-n", 3, self.inputs[0])
        self.assertEqual(code, 0, err)
        self.assertEqual(sorted(games_of(os.path.join(shards, "shard-{}.db".format(k))) for k in range(3)),
                         [0, 0, 60])  # one input: one shard holds games
        white = json.loads(virrey("search", "--db", os.path.join(shards, "shard-{}.db".format(
            next(k for k in range(3) if games_of(os.path.join(shards, "shard-{}.db".format(k)))))),
            "--format", "jsonl", "--limit", "1").splitlines()[0])["white"]
        for extra in ([], ["--count"], ["--offset", "100000"]):
            code, out, err = driver("search", "--shards", shards, "--white", white, "--fail-empty", *extra)
            # An offset past every match prints nothing: exit 1, as virrey search.
            self.assertEqual(code, 1 if extra[:1] == ["--offset"] else 0, (extra, err))
            code, out, err = driver("search", "--shards", shards, "--white", "Nobody, At All", "--fail-empty",
                                    *extra)
            self.assertEqual((code, err), (1, ""), extra)

    def test_one_import_into_a_directory_at_a_time(self):
        # While an import holds the directory, another is refused in one
        # line (exit 3) and changes nothing; an inputs.json of another
        # shape is one line too.
        import fcntl
        shards = os.path.join(self.tmp, "locked")
        os.makedirs(shards)
        with open(os.path.join(shards, ".import.lock"), "a") as held:
            fcntl.flock(held, fcntl.LOCK_EX)
            code, out, err = driver("import", "--shards", shards, "-n", 2, self.inputs[0])
        self.assertEqual((code, out), (3, ""), err)
        self.assertIn("another virrey-dask import into it is running", err)
        self.assertEqual(len(err.strip().splitlines()), 1, err)
        self.assertFalse(os.path.exists(os.path.join(shards, "inputs.json")))
        code, _, err = driver("import", "--shards", shards, "-n", 2, self.inputs[0])
        self.assertEqual(code, 0, err)
        with open(os.path.join(shards, "inputs.json"), "w") as f:
            json.dump({"inputs": [1, 2]}, f)
        code, out, err = driver("import", "--shards", shards, "-n", 2, self.inputs[1])
        self.assertEqual((code, len(err.strip().splitlines())), (3, 1), err)
        self.assertIn("inputs.json does not record inputs", err)

    def test_one_import_into_a_rejects_directory_at_a_time(self):
        # Two imports (into two shard directories) that write their rejects
        # into one directory: the second is refused in one line (exit 3),
        # changing nothing, while the first holds it.
        import fcntl
        rdir = os.path.join(self.tmp, "rejects-locked")
        os.makedirs(rdir)
        shards = os.path.join(self.tmp, "rejects-locked-shards")
        with open(os.path.join(rdir, ".import.lock"), "a") as held:
            fcntl.flock(held, fcntl.LOCK_EX)
            code, out, err = driver("import", "--shards", shards, "-n", 1, "--rejects", rdir, self.inputs[0])
        self.assertEqual((code, out), (3, ""), err)
        self.assertIn("another virrey-dask import writing its rejects there is running", err)
        self.assertEqual(len(err.strip().splitlines()), 1, err)
        self.assertEqual(os.listdir(rdir), [".import.lock"])
        self.assertFalse(os.path.exists(os.path.join(shards, "inputs.json")))
        code, _, err = driver("import", "--shards", shards, "-n", 1, "--rejects", rdir, self.inputs[0])
        self.assertEqual(code, 0, err)

    def test_a_retried_merge_into_a_database_with_games_corrects_its_totals_only(self):
        # Worked by hand: the first attempt stored 30 of source 1's games
        # and died; the retry counted them as duplicates beside source 0's 5
        # games that dest held before. Into an empty dest the 30 go back to
        # the sources in order; into one that held games, which duplicates
        # were there before is not known: the totals alone are mended.
        def summary():
            return {"stored": 0, "duplicates": 35, "sources": [
                {"games": 5, "stored": 0, "duplicates": 5, "copied": False},
                {"games": 30, "stored": 0, "duplicates": 30, "copied": False}]}
        held = virrey_dask._merge_summary(summary(), 30, False)
        self.assertEqual((held["stored"], held["duplicates"]), (30, 5))
        self.assertEqual(held["sources"], summary()["sources"])
        empty = virrey_dask._merge_summary(summary(), 35, True)
        self.assertEqual((empty["stored"], empty["duplicates"]), (35, 0))
        self.assertEqual([(s["stored"], s["copied"]) for s in empty["sources"]], [(5, True), (30, True)])

    def test_no_workers_is_a_usage_error(self):
        shards = os.path.join(self.tmp, "no-workers")
        for w in (0, -2):
            code, out, err = driver("--workers", w, "import", "--shards", shards, "-n", 1, self.inputs[0])
            self.assertEqual((code, out, err), (2, "", "virrey-dask: --workers must be 1 or more, not {}\n".format(w)))
        self.assertFalse(os.path.exists(shards))

    def test_version_is_the_binarys(self):
        # No cluster is started: the binary's version, or one line saying why not.
        own = subprocess.run([VIRREY, "--version"], stdout=subprocess.PIPE, text=True, check=True).stdout
        code, out, err = driver("--version")
        self.assertEqual((code, out, err), (0, own.replace("virrey ", "virrey-dask ", 1), ""))
        missing = os.path.join(self.tmp, "no-virrey-here")
        code, out, err = driver("--version", "--virrey", missing)
        self.assertEqual((code, out), (3, ""))
        self.assertEqual(err, "virrey-dask: cannot run {} --version: No such file or directory\n".format(missing))

    def test_no_scheduler_or_no_binary_is_one_line(self):
        # A scheduler that does not answer and a virrey that cannot run: exit
        # 3 (I/O); an address that is none: exit 2; one line, no traceback.
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            silent = "tcp://127.0.0.1:{}".format(s.getsockname()[1])
        stats = ["stats", "--shards", os.path.join(self.tmp, "unreached"), "games"]
        self.runner.import_inputs(os.path.join(self.tmp, "unreached"), 1, self.inputs[:1])
        not_a_program = os.path.join(self.tmp, "not-a-program")
        with open(not_a_program, "w") as f:
            f.write("no\n")
        shards = os.path.join(self.tmp, "never-written")
        a_file = os.path.join(self.tmp, "a-file")
        with open(a_file, "w") as f:
            f.write("no directory\n")
        for args, code, words in (
                (["--virrey", "/bin/true"] + stats, 3, "/bin/true is not virrey"),
                (["--scheduler", ""] + stats, 2, "--scheduler names no address"),
                (["import", "--shards", os.path.join(a_file, "sub"), "-n", 1, self.inputs[0]], 3,
                 "Not a directory"),
                (["--scheduler", silent] + stats, 3, "--scheduler " + silent),
                (["--scheduler", "nonsense:::1"] + stats, 2, "--scheduler nonsense:::1: invalid address"),
                (["--virrey", os.path.join(self.tmp, "no-virrey-here"), "import", "--shards", shards, "-n", 1,
                  self.inputs[0]], 3, "No such file or directory"),
                (["--virrey", not_a_program] + stats, 3, "Permission denied")):
            got, out, err = driver(*args, env={"DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "3"})
            self.assertEqual((got, out), (code, ""), err)
            self.assertNotIn("Traceback", err)
            ours = [l for l in err.splitlines() if l.startswith("virrey-dask:")]
            self.assertEqual(len(ours), 1, err)
            self.assertIn(words, ours[0])
        self.assertFalse(os.path.exists(shards))

    def test_the_readmes_examples_run(self):
        # The driver's commands in README.md, on this cluster's terms: no
        # --scheduler, 2 shards, the standard inputs for the month's files;
        # each answers as one database of the same games.
        with open(os.path.join(HERE, "..", "..", "README.md")) as f:
            text = f.read().replace("\\\n", " ")
        examples = [shlex.split(l.split("$ ", 1)[1]) for l in text.splitlines()
                    if l.startswith("host0$ cluster/virrey-dask")]
        self.assertEqual(len(examples), 3)
        shards = os.path.join(self.tmp, "readme")
        inputs = [self.inputs[1], self.inputs[4]]
        one = os.path.join(self.tmp, "readme-one.db")
        virrey("import", "--db", one, *inputs)
        for example in examples:
            args = []
            for a in example[1:]:
                if a.startswith("/shared/pgn/"):
                    args += inputs
                else:
                    args.append({"/shared/lichess": shards, "64": "2"}.get(a, a))
            i = args.index("--scheduler")
            del args[i:i + 2]
            code, out, err = driver(*args)
            self.assertEqual(code, 0, (example, err))
            if args[0] == "stats":
                self.assertEqual(out, virrey("stats", *args[3:], "--db", one))
            elif args[0] == "search":
                self.assertEqual([json.loads(l)["white"] for l in out.splitlines()],
                                 [json.loads(l)["white"] for l in virrey("search", *args[3:], "--format", "jsonl",
                                                                        "--db", one).splitlines()])

    def test_a_missing_shard_is_an_io_error(self):
        # A shard shards.json lists and the directory lacks: one line, exit 3
        # (as virrey's for a missing database), for every command reading shards.
        shards = os.path.join(self.tmp, "lost-one")
        self.runner.import_inputs(shards, 2, self.inputs[:2])
        shutil.rmtree(os.path.join(shards, "shard-1.db"))
        for cmd in (["stats", "--shards", shards, "games"], ["search", "--shards", shards, "--count"],
                    ["merge", "--shards", shards, "--db", os.path.join(self.tmp, "from-lost.db")]):
            code, out, err = driver(*cmd)
            self.assertEqual((code, out, err), (3, "", "virrey-dask: {}: the shard is missing (listed in {})\n".format(
                os.path.join(shards, "shard-1.db"), os.path.join(shards, "shards.json"))), cmd)
        with self.assertRaises(virrey_dask.VirreyError) as e:
            self.runner.stats(shards, ["games"])
        self.assertEqual(e.exception.exit_code, 3)

    def test_the_local_cluster_is_quiet(self):
        # No dashboard, and no warning when port 8787 (the dashboard's
        # default) is held by someone else.
        port = self.client.scheduler_info()["services"]["dashboard"]  # the HTTP server's
        with self.assertRaises(urllib.error.HTTPError) as e:
            urllib.request.urlopen("http://localhost:{}/status".format(port), timeout=10)
        self.assertEqual(e.exception.code, 404)
        with socket.socket() as held:
            held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                held.bind(("", 8787))
                held.listen()
            except OSError:
                pass  # held already
            shards = os.path.join(self.tmp, "quiet")
            self.runner.import_inputs(shards, 1, self.inputs[:1])
            code, out, err = driver("stats", "--shards", shards, "games")
        self.assertEqual((code, err), (0, ""))

    def test_date_order_is_virreys(self):
        # The order of search --sort date: yyyy.mm.dd only, unknown parts as
        # 0, anything else (a year alone, "unknown") with the undated games.
        dates = ["2021", "2021.01.01", "2020.??.??", "unknown", "2020.13.05", "2020.05.31", "????.??.??"]
        ordered = sorted(dates, key=virrey_dask._date_key)
        self.assertEqual(ordered[:4], ["2020.??.??", "2020.13.05", "2020.05.31", "2021.01.01"])
        self.assertEqual(set(ordered[4:]), {"2021", "unknown", "????.??.??"})

    def test_a_worker_killed_during_an_import(self):
        big = os.path.join(self.tmp, "big.pgn")
        virrey("generate", "--variant", "virrey", "-n", 30000, "--seed", 7, "--threads", 2, "-o", big)
        inputs = [big] + self.inputs[:3]
        one = os.path.join(self.tmp, "uninterrupted.db")
        virrey("import", "--db", one, *inputs)
        expected = games_of(one)

        workers = self.client.run(os.getpid)
        killed = []

        def kill_the_importing_worker():
            # The worker whose virrey child imports big.pgn, once it has run a while.
            deadline = time.time() + 120
            while time.time() < deadline and not killed:
                for pid in os.listdir("/proc"):
                    if not pid.isdigit():
                        continue
                    try:
                        with open("/proc/{}/cmdline".format(pid), "rb") as f:
                            cmd = f.read().split(b"\0")
                        with open("/proc/{}/stat".format(pid)) as f:
                            ppid = int(f.read().rsplit(")", 1)[1].split()[1])
                    except OSError:
                        continue
                    if big.encode() in cmd and b"import" in cmd and ppid in workers.values():
                        time.sleep(0.8)  # some of it committed
                        os.kill(ppid, signal.SIGKILL)
                        killed.append(ppid)
                        break
                time.sleep(0.05)

        killer = threading.Thread(target=kill_the_importing_worker)
        killer.start()
        shards = os.path.join(self.tmp, "shards2")
        totals = self.runner.import_inputs(shards, 2, inputs)
        killer.join()
        self.assertTrue(killed, "no worker was importing big.pgn")
        self.assertEqual(totals["games"], expected)
        for k in range(2):
            check = virrey("db", "check", "--db", os.path.join(shards, "shard-{}.db".format(k)))
            self.assertIn("consistent", check)
        # The worker came back (the nanny restarted it).
        self.client.wait_for_workers(2, timeout=60)

    def wrapper(self, name, script):
        """A --virrey that runs script (sh; {virrey}: the real one, {flags}: a
        directory of its own) for the commands it catches, else virrey."""
        flags = os.path.join(self.tmp, name + "-flags")
        os.makedirs(flags)
        path = os.path.join(flags, "virrey")
        with open(path, "w") as f:
            f.write("#!/bin/sh\n" + script.format(virrey=shlex.quote(VIRREY), flags=shlex.quote(flags)) +
                    'exec {} "$@"\n'.format(shlex.quote(VIRREY)))
        os.chmod(path, 0o755)
        return path, flags

    def test_a_worker_killed_during_a_merge(self):
        # The worker running `db merge` dies once, after the first shard is in
        # DEST (the wrapper merges that much, then kills its worker): the
        # task run again counts those games as duplicates, yet the summary
        # printed counts what DEST gained in the run, as an uninterrupted
        # merge does, in virrey's form. The second shard repeats the
        # first's games: it is merged game by game, its duplicates dropped.
        shards = os.path.join(self.tmp, "merge-killed")
        shared = os.path.join(self.tmp, "shares-games.pgn")
        with open(shared, "w") as f, open(self.inputs[1]) as a, open(self.inputs[2]) as b:
            f.write(a.read() + "\n" + b.read())
        self.runner.import_inputs(shards, 2, [self.inputs[1], shared])
        dbs = virrey_dask.shard_paths(shards)
        ref = os.path.join(self.tmp, "merge-uninterrupted.db")
        expected = json.loads(virrey("db", "merge", "--db", ref, "--format", "json", *dbs))
        self.assertEqual([(s["stored"], s["duplicates"], s["copied"]) for s in expected["sources"]],
                         [(50, 0, True), (40, 50, False)])
        # db merge --db DEST --format json SHARD-0 SHARD-1: $4 DEST, $7 SHARD-0.
        binary, flags = self.wrapper("merge-killed", (
            'case " $* " in *" db merge "*) if mkdir {flags}/killed 2>/dev/null; then\n'
            '  {virrey} db merge --db "$4" "$7" >/dev/null 2>&1; kill -9 $PPID; sleep 60; fi ;; esac\n'))
        dest = os.path.join(self.tmp, "merge-killed.db")
        code, out, err = driver("--virrey", binary, "merge", "--shards", shards, "--db", dest)
        self.assertEqual(code, 0, err)
        self.assertTrue(os.path.isdir(os.path.join(flags, "killed")))
        got = json.loads(out)
        self.assertEqual(out, json.dumps(got, separators=(",", ":"), ensure_ascii=False) + "\n")
        self.assertEqual(list(got), list(expected))
        for summary in (got, expected):
            del summary["path"], summary["database_bytes"]
        self.assertEqual(got, expected)
        self.assertEqual(games_of(dest), games_of(ref))

    def test_a_worker_killed_while_rejects_are_staged(self):
        # virrey import --rejects writes NAME.rejects.pgn.partial-XXXXXX and
        # puts it in place at its end; its worker killed before then, the
        # task run again writes the rejects, and the staged file is removed:
        # RDIR holds the rejects files and rejects.json, which (as
        # DIR/inputs.json) takes the mode the umask gives, as virrey's files.
        bad = os.path.join(self.tmp, "staged-bad.pgn")
        with open(bad, "w") as f:
            for i in range(30):
                f.write('[Event "bad {0}"]\n\n1. e4 e5 2. Ke3 *\n\n[Event "good {0}"]\n\n1. d4 *\n\n'.format(i))
        ref = os.path.join(self.tmp, "staged-ref.rejects.pgn")
        virrey("import", "--db", os.path.join(self.tmp, "staged-ref.db"), "--rejects", ref, bad, ok=(1,))
        rdir = os.path.join(self.tmp, "staged-rejects")
        binary, flags = self.wrapper("staged", (
            'case " $* " in *" --rejects "*) if mkdir {flags}/killed 2>/dev/null; then\n'
            '  {virrey} "$@" & child=$!\n'
            '  for i in $(seq 1000); do\n'
            '    for f in ' + shlex.quote(rdir) + '/*.rejects.pgn.partial-*; do\n'
            '      if [ -e "$f" ]; then touch {flags}/staged; kill -9 $child $PPID; sleep 60; fi; done\n'
            '    sleep 0.005; done; fi ;; esac\n'))
        shards = os.path.join(self.tmp, "staged-shards")
        code, out, err = driver("--virrey", binary, "import", "--shards", shards, "-n", 1, "--rejects", rdir, bad)
        self.assertEqual(code, 1, err)
        self.assertTrue(os.path.exists(os.path.join(flags, "staged")), "the rejects were never seen staged")
        self.assertEqual(json.loads(out)["rejected"], 30)
        self.assertTrue(out.startswith('{"failed_inputs":[],"games":30,'), out)  # virrey's JSON form
        self.assertEqual(sorted(os.listdir(rdir)), [".import.lock", "rejects.json", "staged-bad.rejects.pgn"])
        with open(ref, "rb") as f, open(os.path.join(rdir, "staged-bad.rejects.pgn"), "rb") as g:
            self.assertEqual(g.read(), f.read())
        mask = os.umask(0o22)
        os.umask(mask)
        for path in (os.path.join(rdir, "rejects.json"), os.path.join(shards, "inputs.json")):
            self.assertEqual(oct(os.stat(path).st_mode & 0o777), oct(0o666 & ~mask), path)

    def test_search_prints_as_virrey_search(self):
        # One shard is one database: its jsonl lines are virrey search's,
        # byte for byte (compact, UTF-8 as it is, virrey's key order), with
        # "shard" and "game" last; --count prints virrey's {"count":N}. The
        # text format is the driver's own listing (README): a line a game.
        pgn = os.path.join(self.tmp, "names.pgn")
        with open(pgn, "w", encoding="utf-8") as f:
            f.write('[Event "Torneo de Cádiz"]\n[White "López, José"]\n[Black "Ñúñez \\\\ \\"el Sabio\\""]\n'
                    '[Date "2021.03.04"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n\n'
                    '[Event "東京"]\n[White "Smith"]\n[Black "Núñez"]\n[Result "*"]\n\n1. d4 *\n')
        shards = os.path.join(self.tmp, "names")
        self.runner.import_inputs(shards, 1, [pgn])
        db = os.path.join(shards, "shard-0.db")
        code, out, err = driver("search", "--shards", shards, "--limit", "0")
        self.assertEqual(code, 0, err)
        lines = virrey("search", "--db", db, "--format", "jsonl", "--limit", "0").splitlines()
        self.assertEqual(len(lines), 2)
        self.assertEqual(out.splitlines(), [l[:-1] + ',"shard":0,"game":"0:{}"}}'.format(json.loads(l)["id"])
                                            for l in lines])
        code, out, err = driver("search", "--shards", shards, "--count", "--player", "López")
        self.assertEqual((code, out), (0, virrey("search", "--db", db, "--count", "--format", "jsonl",
                                                 "--player", "López")), err)
        self.assertEqual(out, '{"count":1}\n')
        code, out, err = driver("search", "--shards", shards, "--format", "text", "--sort", "date")
        self.assertEqual((code, out), (0, '         0:1  2021.03.04  López, José - Ñúñez \\ "el Sabio"  1-0\n'
                                          '         0:2  ?           Smith - Núñez  *\n'), err)

    def test_a_real_cluster_and_its_scheduler_lost_mid_import(self):
        # The README's cluster: dask-scheduler and dask-worker started apart.
        # The scheduler killed while an import runs (held until then by a
        # virrey that waits for a flag): one line, exit 3; the cluster back,
        # the same command completes the import.
        # (python3-distributed, present here, installs both.)
        self.assertTrue(shutil.which("dask-scheduler") and shutil.which("dask-worker"),
                        "dask-scheduler or dask-worker is not on PATH")
        flags = os.path.join(self.tmp, "scheduler-lost-flags")
        os.makedirs(flags)
        held = os.path.join(flags, "virrey")
        with open(held, "w") as f:
            f.write('#!/bin/sh\ncase " $* " in *" import "*) touch {0}/started\n'
                    '  while [ ! -e {0}/go ]; do sleep 0.05; done ;; esac\nexec {1} "$@"\n'.format(
                        shlex.quote(flags), shlex.quote(VIRREY)))
        os.chmod(held, 0o755)
        shards = os.path.join(self.tmp, "scheduler-lost")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        address = "tcp://127.0.0.1:{}".format(port)
        procs = []

        def start_cluster():
            quiet = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            procs.append(subprocess.Popen(["dask-scheduler", "--port", str(port), "--dashboard-address", ":0"],
                                          **quiet))
            procs.append(subprocess.Popen(["dask-worker", address, "--nthreads", "1", "--nworkers", "1"],
                                          **quiet))

        def stop_cluster():
            for p in reversed(procs):
                if p.poll() is None:
                    p.terminate()
                    try:
                        p.wait(timeout=30)
                    except subprocess.TimeoutExpired:
                        p.kill()
                        p.wait()
            procs.clear()

        command = [sys.executable, DRIVER, "--scheduler", address, "--virrey", held, "import", "--shards",
                   shards, "-n", "1", self.inputs[0]]
        try:
            start_cluster()
            run = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            deadline = time.time() + 120
            while time.time() < deadline and not os.path.exists(os.path.join(flags, "started")):
                time.sleep(0.05)
            self.assertTrue(os.path.exists(os.path.join(flags, "started")), "the import never started")
            procs[0].kill()
            out, err = run.communicate(timeout=300)
            self.assertEqual(run.returncode, 3, err.decode())
            self.assertNotIn("Traceback", err.decode())
            self.assertIn("virrey-dask: the scheduler", err.decode())
            open(os.path.join(flags, "go"), "w").close()
            stop_cluster()
            start_cluster()
            done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
            self.assertEqual(done.returncode, 0, done.stderr.decode())
            self.assertEqual(json.loads(done.stdout)["games"], self.games[self.inputs[0]])
        finally:
            open(os.path.join(flags, "go"), "w").close()
            stop_cluster()

if __name__ == "__main__":
    unittest.main(verbosity=2)
