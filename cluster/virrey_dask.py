"""The Dask side of virrey-dask: tasks that run `virrey` commands on workers,
and the drivers that fan them out over shards and reduce what they return.

Shards: DIR/shard-K.db for K = 0..N-1, DIR/shards.json listing them in
order, DIR/inputs.json each input's shard. Shard K's games come before shard K+1's in every merged answer (ids,
search order, statistics), as `virrey db merge DIR/shard-0.db ...` orders
them, so a game is named "K:ID".
"""
import asyncio
import concurrent.futures
import contextlib
import ctypes
import fcntl
import glob
import hashlib
import json
import logging
import os
import re
import secrets
import signal
import subprocess
import sys
import tempfile

import cloudpickle
import distributed

# Workers receive these functions by value: nothing to install on them but
# Python, Dask and virrey.
cloudpickle.register_pickle_by_value(__import__(__name__))

SHARDS_FILE = "shards.json"
LOCK_FILE = ".import.lock"  # held by the one import running into a directory
MAX_OPENING_ROUNDS = 21  # the explorer's depth is at most 20: a round a ply, and one that adds nothing
INPUTS_FILE = "inputs.json"  # each input imported, by its content: its shard and size
MAX_FINDINGS = 20  # of an input's messages about its games, passed to the driver


# What a client meets when its scheduler goes away mid-run.
SCHEDULER_LOST = (concurrent.futures.CancelledError, asyncio.CancelledError, distributed.comm.core.CommClosedError)


_JSON_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def json_text(value):
    """value as virrey writes JSON (cli/output.cpp): no spaces, members in
    their order, text as UTF-8 with only '"', '\\' and control characters
    escaped (\\n, \\r, \\t, else \\u00XX: \\b and \\f too, as virrey's)."""
    if isinstance(value, str):
        return '"' + re.sub(r'[\x00-\x1f"\\]',
                            lambda m: _JSON_ESCAPES.get(m.group(), "\\u{:04x}".format(ord(m.group()))), value) + '"'
    if isinstance(value, dict):
        return "{" + ",".join(json_text(str(k)) + ":" + json_text(v) for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(json_text(v) for v in value) + "]"
    return json.dumps(value)  # numbers, true, false, null


class VirreyError(Exception):
    def __init__(self, message, exit_code=3):
        super().__init__(message)
        self.exit_code = exit_code


def _die_with_parent():
    # A killed worker takes its virrey with it (else the orphan would hold
    # the shard's lock while the retry starts elsewhere).
    libc = ctypes.CDLL("libc.so.6", use_errno=True)
    libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def _run(binary, args):
    try:
        return subprocess.run([binary] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              preexec_fn=_die_with_parent, check=False)
    except OSError as e:
        raise VirreyError("cannot run {}: {}".format(binary, e.strerror or e), 3)


def _failure(args, p):
    return VirreyError("virrey {} exited {}: {}".format(
        " ".join(args), p.returncode, p.stderr.decode(errors="replace").strip()[-2000:]),
        p.returncode if p.returncode > 0 else 3)


def run_virrey(binary, args, ok_codes=(0,)):
    """Runs virrey ARGS on this worker; its standard output. Raises on an
    exit code not in ok_codes (Dask then retries the task)."""
    p = _run(binary, args)
    if p.returncode not in ok_codes:
        raise _failure(args, p)
    return p.stdout.decode()


def import_task(binary, db, path, threads, _after=None, rejects=None):
    """virrey import of one input into db: its summary, with "findings":
    virrey's messages about its games (`file:line:col: error[...]`), the
    first MAX_FINDINGS of them, and "more_findings", how many more. Exit 1
    (some games had errors, the others are stored) is no failure; nor is
    exit 3 with a summary, an input that could not be read (the games read
    before are stored): its summary then carries virrey's message as
    "error". Exit 3 without a summary is the database's failure, raised
    (Dask retries it). With rejects, the games with errors go to that file."""
    args = ["import", "--db", db, "--threads", str(threads), "--format", "json", path]
    if rejects:
        args += ["--rejects", rejects]
    p = _run(binary, args)
    if p.returncode in (0, 1, 3):
        try:
            summary = json.loads(p.stdout.decode())
        except ValueError:
            summary = None
        if isinstance(summary, dict):
            lines = [l for l in p.stderr.decode(errors="replace").splitlines()
                     if l.strip() and not l.startswith("virrey: info:")]
            if p.returncode == 3:
                # The input could not be read: virrey names it so. Any other
                # exit 3 (its rejects file unwritable, say) is a failure.
                unread = [l for l in lines if l.startswith(path + ":") and "error[io-error]" in l]
                if not unread:
                    raise _failure(args, p)
                summary["error"] = unread[-1]
                lines = [l for l in lines if l not in unread]
            summary["findings"] = lines[:MAX_FINDINGS]
            summary["more_findings"] = max(0, len(lines) - MAX_FINDINGS)
            return summary
    raise _failure(args, p)


def fingerprint_task(path):
    """(size, digest) of the input's bytes, or None when it cannot be read
    (its import then says why)."""
    h = hashlib.blake2b(digest_size=16)
    try:
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
            return f.tell(), h.hexdigest()
    except OSError:
        return None


def info_task(binary, db):
    return json.loads(run_virrey(binary, ["db", "info", "--db", db, "--format", "json"]))


def partial_task(binary, db, args, guide=None):
    """The shard's partial; with guide (a merged openings partial), the
    explorer follows its moves too (`stats openings --expand`)."""
    if guide is None:
        return run_virrey(binary, ["stats"] + list(args) + ["--format", "partial", "--db", db])
    with tempfile.TemporaryDirectory(prefix="virrey-guide-") as d:
        path = os.path.join(d, "guide.jsonl")
        with open(path, "w") as f:
            f.write(guide)
        return run_virrey(binary, ["stats"] + list(args) + ["--format", "partial", "--expand", path, "--db", db])


def stats_merge_task(binary, partials, fmt):
    with tempfile.TemporaryDirectory(prefix="virrey-partials-") as d:
        files = []
        for i, text in enumerate(partials):
            files.append(os.path.join(d, "{}.jsonl".format(i)))
            with open(files[-1], "w") as f:
                f.write(text)
        return run_virrey(binary, ["stats", "merge", "--format", fmt] + files)


def search_task(binary, db, args):
    return run_virrey(binary, ["search"] + list(args) + ["--db", db])


def merge_task(binary, dest, shards):
    return run_virrey(binary, ["db", "merge", "--db", dest, "--format", "json"] + list(shards))


def _merge_summary(summary, gained, dest_was_empty):
    """virrey db merge's summary made to count the games dest gained in the
    run: those a task run again counted as duplicates, stored by its first
    run (killed with its worker), are given back. Into a dest that was empty
    they are given back to the sources in order, as db merge adds them (a
    copied source whole, then game by game), and a source whose games are
    then all stored was copied (db merge copies a source none of whose games
    was stored before, and only such a one). Into a dest that held games,
    which of a source's duplicates were there before is not known: only the
    totals are given back."""
    lost = gained - summary["stored"]
    if lost <= 0:
        return summary
    if not dest_was_empty:
        summary["stored"] += lost
        summary["duplicates"] -= lost
        return summary
    for source in summary["sources"]:
        back = min(lost, source["duplicates"])
        if back:
            source["stored"] += back
            source["duplicates"] -= back
            source["copied"] = source["stored"] == source["games"]
            lost -= back
    summary["stored"] = sum(s["stored"] for s in summary["sources"])
    summary["duplicates"] = sum(s["duplicates"] for s in summary["sources"])
    return summary


@contextlib.contextmanager
def connect(scheduler=None, workers=2):
    """A client of the scheduler at `scheduler`, or of a LocalCluster of
    `workers` single-threaded worker processes."""
    if scheduler is not None and not scheduler.strip():
        raise VirreyError("--scheduler names no address (tcp://host:8786; without it, a LocalCluster)", 2)
    if not scheduler and workers < 1:
        raise VirreyError("--workers must be 1 or more, not {}".format(workers), 2)
    if scheduler:
        # A scheduler that goes away mid-run: the driver says so in one line
        # (exit 3), not in the client's tracebacks as it tries to reconnect.
        for name in ["distributed", "tornado", "asyncio"] + [
                n for n in logging.root.manager.loggerDict if n.startswith(("distributed.", "tornado."))]:
            logging.getLogger(name).setLevel(logging.CRITICAL)
        try:
            client = distributed.Client(scheduler)
        except ValueError as e:  # no address: "invalid address ..."
            raise VirreyError("--scheduler {}: {}".format(scheduler, e), 2)
        except OSError as e:  # no answer within distributed.comm.timeouts.connect
            raise VirreyError("--scheduler {}: {}".format(scheduler, e), 3)
        with client:
            yield client
        return
    # No dashboard; the scheduler's HTTP server (which LocalCluster starts
    # anyway) on a free port of localhost, not on 8787 with a warning when
    # another cluster holds it.
    with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                  dashboard_address=None, scheduler_kwargs={"dashboard_address": "localhost:0"},
                                  silence_logs=logging.ERROR) as cluster:
        with distributed.Client(cluster) as client:
            yield client


def _to_stderr(line):
    print(line, file=sys.stderr, flush=True)


REJECTS_FILE = "rejects.json"  # in a rejects directory: each name's input, across runs


def _write_json(path, value):
    """value as JSON at path, whole or not at all: written beside it, synced,
    then put in its place (a run stopped midway leaves the file before). It
    takes the mode the file has, or the one the umask gives a new file (as
    virrey's outputs; mkstemp's 0600 would hide it from other users)."""
    try:
        mode = os.stat(path).st_mode & 0o7777
    except FileNotFoundError:
        mode = None
    while True:
        staged = "{}.{}".format(path, secrets.token_hex(4))
        try:
            fd = os.open(staged, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            break
        except FileExistsError:
            continue
    try:
        with os.fdopen(fd, "w") as f:
            if mode is not None:
                os.fchmod(f.fileno(), mode)
            json.dump(value, f, indent=0, sort_keys=True)
            f.flush()
            os.fsync(f.fileno())
        os.replace(staged, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(staged)
        raise


def _remove_staged(path):
    """Removes what virrey staged for path and left (PATH.partial-XXXXXX,
    its StagedFile's temporary name): a virrey killed before its end."""
    for left in glob.glob(glob.escape(path) + ".partial-??????"):
        with contextlib.suppress(FileNotFoundError):
            os.remove(left)


def _rejects_files(directory, inputs):
    """Each input's rejects file in directory: its name less .zst and .pgn,
    then .rejects.pgn; "-2", "-3", ... added to a name another input took,
    in this run or an earlier one (directory/rejects.json keeps each name's
    input), so that no run overwrites another input's rejects."""
    os.makedirs(directory, exist_ok=True)
    record = os.path.join(directory, REJECTS_FILE)
    try:
        with open(record) as f:
            owners = json.load(f)["names"]
        if not isinstance(owners, dict):
            raise ValueError("no names")
    except FileNotFoundError:
        owners = {}
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise VirreyError("{}: cannot read {} ({})".format(directory, REJECTS_FILE, e), 3)
    files = {}
    for path in inputs:
        real = os.path.realpath(path)
        stem = os.path.basename(path)
        for ext in (".zst", ".pgn"):
            if stem.endswith(ext):
                stem = stem[:-len(ext)]
        name, n = stem, 1
        while owners.get(name, real) != real:
            n += 1
            name = "{}-{}".format(stem, n)
        owners[name] = real
        files[path] = os.path.join(os.path.abspath(directory), name + ".rejects.pgn")
    _write_json(record, {"names": owners})
    return files


def check_import(directory, count):
    """The names of count shards, refused (exit 2) when count is less than 1
    or directory holds other shards."""
    if count < 1:
        raise VirreyError("-n (shards) must be 1 or more, not {}".format(count), 2)
    names = ["shard-{}.db".format(k) for k in range(count)]
    if os.path.exists(os.path.join(directory, SHARDS_FILE)):
        if shard_paths(directory) != [os.path.join(os.path.abspath(directory), n) for n in names]:
            raise VirreyError("{} holds other shards than {}".format(directory, count), 2)
    return names


def shard_paths(directory):
    try:
        with open(os.path.join(directory, SHARDS_FILE)) as f:
            names = json.load(f)["shards"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise VirreyError("{}: no shards here ({})".format(directory, e), 2)
    if not isinstance(names, list) or not all(isinstance(n, str) and n for n in names):
        raise VirreyError("{}: {} does not list shards by name".format(directory, SHARDS_FILE), 2)
    if not names:
        raise VirreyError("{}: {} lists no shards".format(directory, SHARDS_FILE), 2)
    return [os.path.join(os.path.abspath(directory), n) for n in names]


def input_records(directory):
    """The inputs imported into the shards of directory, by the digest of
    their bytes: {"shard": K, "bytes": size, "path": where it was first}."""
    try:
        with open(os.path.join(directory, INPUTS_FILE)) as f:
            records = json.load(f)["inputs"]
    except FileNotFoundError:
        return {}
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise VirreyError("{}: cannot read {} ({})".format(directory, INPUTS_FILE, e), 3)
    if not isinstance(records, dict) or not all(
            isinstance(r, dict) and isinstance(r.get("shard"), int) and isinstance(r.get("bytes"), int)
            for r in records.values()):
        raise VirreyError("{}: {} does not record inputs by shard and size".format(directory, INPUTS_FILE), 3)
    return records


def existing_shards(directory):
    """The shards of directory, each a database: a shard listed and missing
    is an I/O error (exit 3), as virrey's for a missing database."""
    dbs = shard_paths(directory)
    for db in dbs:
        if not os.path.isdir(db):
            raise VirreyError("{}: the shard is missing (listed in {})".format(
                db, os.path.join(directory, SHARDS_FILE)), 3)
    return dbs


def _date_key(text):
    # The day virrey search --sort date orders by (store/game_summary.cpp,
    # parse_date): "yyyy.mm.dd" only, an unknown month or day as 0, a month
    # over 12 as unknown; any other Date sorts last, with the undated games.
    d = text or ""
    if len(d) != 10 or d[4] != "." or d[7] != ".":
        return (1, 0)

    def part(s):
        return int(s) if all(c in "0123456789" for c in s) else 0

    year, month, day = part(d[0:4]), part(d[5:7]), part(d[8:10])
    if year == 0:
        return (1, 0)
    if month > 12:
        month = 0
    if month == 0 or day > 31:
        day = 0
    return (0, year * 10000 + month * 100 + day)


class Runner:
    def __init__(self, client, binary="virrey", retries=3):
        self.client = client
        self.binary = binary
        self.retries = retries

    def check(self):
        """Raises unless a worker runs the virrey binary (exit 3): a program
        that runs but is no virrey (/bin/true) would answer nothing, or
        wrongly."""
        try:
            out = self.client.gather(self._submit(run_virrey, self.binary, ["--version"]))
        except VirreyError as e:
            raise VirreyError("{} (on a worker)".format(e), 3)
        words = (out.splitlines() or [""])[0].split()
        if words[:1] != ["virrey"]:
            raise VirreyError("{} is not virrey (its --version on a worker: {!r})".format(
                self.binary, " ".join(words)), 3)

    def _submit(self, fn, *args):
        return self.client.submit(fn, *args, pure=False, retries=self.retries)

    def import_inputs(self, directory, count, inputs, threads=1, report=None, rejects=None):
        """An input imported before, by its content (DIR/inputs.json), goes to
        the shard that holds it, so that a run with the inputs in any order
        adds nothing; a new one goes to the shard with the fewest bytes of
        input. A shard's inputs are imported one after another (one writer
        per database), the shards side by side. Imports are idempotent (an
        input imported before is skipped, a game stored before is a
        duplicate): a task retried after its worker died completes the shard.
        Totals come from the shards themselves; an input that could not be
        read is reported (report(line), standard error by default), named in
        "failed_inputs", and the others are imported. virrey's messages
        about an input's games are reported as it prints them (the first
        MAX_FINDINGS, then how many more); with rejects (a directory), each
        input's games with errors are written to a file in it."""
        report = report or _to_stderr
        names = check_import(directory, count)
        os.makedirs(directory, exist_ok=True)
        # One import into a directory at a time: two would both assign
        # inputs (DIR/inputs.json) and could send one input to two shards.
        # So into a rejects directory: two would both name inputs there
        # (rejects.json), and each removes what a killed virrey staged there.
        with contextlib.ExitStack() as held:
            for locked, what in ((directory, "into it"), (rejects, "writing its rejects there")):
                if locked is None:
                    continue
                os.makedirs(locked, exist_ok=True)
                lock = held.enter_context(open(os.path.join(locked, LOCK_FILE), "a"))
                try:
                    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:
                    raise VirreyError("{}: another virrey-dask import {} is running".format(locked, what), 3)
            return self._import_locked(directory, count, inputs, names, threads, report, rejects)

    def _import_locked(self, directory, count, inputs, names, threads, report, rejects):
        listing = os.path.join(directory, SHARDS_FILE)
        if not os.path.exists(listing):
            with open(listing, "w") as f:
                json.dump({"shards": names}, f)
        dbs = shard_paths(directory)
        # A shard that holds inputs imported before and is gone: importing
        # would make it again, empty, and every answer would lack its games.
        records = input_records(directory)
        if any(not 0 <= r["shard"] < len(dbs) for r in records.values()):
            raise VirreyError("{}: {} names shards beyond {}".format(directory, INPUTS_FILE, len(dbs)), 2)
        for digest, r in records.items():
            if r.get("imported") and not os.path.isdir(dbs[r["shard"]]):
                raise VirreyError("{}: the shard is missing, yet {} lists {} as imported into it: restore it, "
                                  "or import into a new directory".format(dbs[r["shard"]], INPUTS_FILE,
                                                                          r.get("path", digest)), 3)
        shard_of, digest_of = self._assign(directory, count, inputs, records)
        rejects_of = _rejects_files(rejects, inputs) if rejects else {}
        last = [None] * count
        tasks = {}
        for path in inputs:
            k = shard_of[path]
            last[k] = self._submit(import_task, self.binary, dbs[k], os.path.abspath(path), threads, last[k],
                                   rejects_of.get(path))
            tasks[last[k]] = path
        # A shard no input reaches (more shards than inputs) is made empty,
        # so that every shard listed is a database.
        for k in range(count):
            if last[k] is None and not os.path.exists(os.path.join(dbs[k], "CURRENT")):
                tasks[self._submit(import_task, self.binary, dbs[k], os.devnull, threads, None)] = None
        summaries, failed = [], []
        for future in distributed.as_completed(list(tasks)):
            path = tasks[future]
            if future.status == "finished":
                summary = future.result()
                summaries.append(summary)
                for line in summary.get("findings", []):
                    report(line)
                if summary.get("more_findings"):
                    report("virrey-dask: {}: {} more messages about its games{}".format(
                        path, summary["more_findings"],
                        " (its rejects: {})".format(rejects_of[path]) if path in rejects_of else ""))
                if "error" not in summary:
                    continue
                message = summary["error"]  # virrey's, naming the input
            elif future.status == "cancelled":
                # The scheduler went away (or cancelled the run): what was
                # imported stays, and a run again completes it.
                raise VirreyError("the scheduler cancelled the import (is it still running?): run it again, once "
                                  "the workers have finished or been restarted, to complete it; what was "
                                  "imported is kept", 3)
            else:
                # The shard's database failed (and so every input after
                # this one in its shard): not the input's fault, but not imported.
                message = "virrey-dask: {}: not imported: {}".format(path, future.exception())
            if path is None:  # the empty shard's database: info_task below raises
                continue
            failed.append(path)
            report(message)
        # Every task is done: a rejects file virrey staged (NAME.rejects.pgn.partial-XXXXXX) and never put
        # in place was left by a virrey killed with its worker; the task run again wrote the rejects.
        for staged in rejects_of.values():
            _remove_staged(staged)
        self._mark_imported(directory, [digest_of[p] for p in inputs if p not in failed and p in digest_of])
        infos = self.client.gather([self._submit(info_task, self.binary, db) for db in dbs])
        games = sum(v["games"] for i in infos for v in i["variants"].values())
        return {"shards": count, "inputs": len(inputs), "games": games,
                "games_per_shard": [sum(v["games"] for v in i["variants"].values()) for i in infos],
                # An input skipped as imported before (a task run again after
                # its worker died) counts the games it had with errors then.
                "rejected": sum(s["rejected"] + s.get("skipped_rejected", 0) for s in summaries),
                "failed_inputs": [p for p in inputs if p in failed]}

    def _assign(self, directory, count, inputs, known):
        """Each input's shard, the new ones recorded in DIR/inputs.json before
        any is imported (a run stopped midway sends them there again), and
        each readable input's digest. An input at a path imported before
        with other bytes (a file games were added to) goes to that path's
        shard, whose import counts the games it had as duplicates. known:
        DIR/inputs.json's records, their shards checked."""
        load = [0] * count
        path_shard = {}
        for r in known.values():
            load[r["shard"]] += r["bytes"]
            if isinstance(r.get("path"), str):
                path_shard[r["path"]] = r["shard"]
        prints = self.client.gather([self._submit(fingerprint_task, os.path.abspath(p)) for p in inputs])
        shard_of, digest_of = {}, {}
        for path, fp in zip(inputs, prints):
            if fp is None:  # unreadable: its import reports it, and records nothing
                shard_of[path] = load.index(min(load))
                continue
            size, digest = fp
            digest_of[path] = digest
            real = os.path.realpath(path)
            if digest not in known:
                k = path_shard.get(real, load.index(min(load)))
                known[digest] = {"shard": k, "bytes": size, "path": real}
                path_shard[real] = k
                load[k] += size
            shard_of[path] = known[digest]["shard"]
        _write_json(os.path.join(directory, INPUTS_FILE), {"inputs": known})
        return shard_of, digest_of

    def _mark_imported(self, directory, digests):
        """Notes in DIR/inputs.json that these inputs are in their shards."""
        known = input_records(directory)
        for d in digests:
            if d in known:
                known[d]["imported"] = True
        _write_json(os.path.join(directory, INPUTS_FILE), {"inputs": known})

    def stats(self, directory, args, fmt="text"):
        """A statistic over every shard: partials made on the workers, folded by
        `virrey stats merge` into the bytes one database would print. The
        opening explorer goes in rounds: each shard follows the moves of the
        merged explorer of the round before (--expand), so that a position a
        shard reaches by another order of moves counts its games, until a
        round adds nothing (at most --depth rounds more)."""
        dbs = existing_shards(directory)
        partials = [self._submit(partial_task, self.binary, db, args) for db in dbs]
        if list(args[:1]) == ["openings"] and len(dbs) > 1:
            merged = self.client.gather(self._submit(stats_merge_task, self.binary, partials, "partial"))
            for _ in range(MAX_OPENING_ROUNDS):
                partials = [self._submit(partial_task, self.binary, db, args, merged) for db in dbs]
                again = self.client.gather(self._submit(stats_merge_task, self.binary, partials, "partial"))
                if again == merged:
                    break
                merged = again
        return self.client.gather(self._submit(stats_merge_task, self.binary, partials, fmt))

    def search(self, directory, args, sort="id", limit=50, offset=0, count=False):
        """Games of every shard in the sort order, each named "K:ID"; the page
        from offset, at most limit (0: all). With count: the number of matches."""
        return self.search_page(directory, args, sort, limit, offset, count)[0]

    def search_page(self, directory, args, sort="id", limit=50, offset=0, count=False):
        """search's answer, and whether more games match past the page."""
        if limit < 0 or offset < 0:
            raise VirreyError("--limit and --offset are 0 or more", 2)
        dbs = existing_shards(directory)
        if count:
            outs = self.client.gather([self._submit(search_task, self.binary, db, list(args) + ["--count"])
                                       for db in dbs])
            return sum(int(o.strip() or 0) for o in outs), False
        # One game more than the page from each shard: whether any lies past it.
        page = ["--format", "jsonl", "--sort", sort, "--offset", "0",
                "--limit", str(offset + limit + 1 if limit else 0)]
        outs = self.client.gather([self._submit(search_task, self.binary, db, list(args) + page) for db in dbs])
        games = []
        for k, out in enumerate(outs):
            for line in out.splitlines():
                if line.strip():
                    g = json.loads(line)
                    g["shard"] = k
                    g["game"] = "{}:{}".format(k, g["id"])
                    games.append(g)
        if sort == "date":
            games.sort(key=lambda g: (_date_key(g.get("date")), g["shard"], g["id"]))
        else:
            games.sort(key=lambda g: (g["shard"], g["id"]))
        more = bool(limit) and len(games) > offset + limit
        return (games[offset:offset + limit] if limit else games[offset:]), more

    def _games_in(self, db):
        """The games of database db (0 when there is none yet), read on a worker."""
        if not os.path.exists(os.path.join(db, "CURRENT")):
            return 0
        info = self.client.gather(self._submit(info_task, self.binary, db))
        return sum(v["games"] for v in info["variants"].values())

    def merge(self, directory, dest):
        """The shards merged into one database at dest, on a worker: virrey
        db merge's summary (json_text prints it as virrey does), counting
        what dest gained in this run. A task run again after its worker
        died finds the games its first run stored as duplicates; dest's
        games read before and after give them back to the sources, in the
        order db merge adds them."""
        dest, shards = os.path.abspath(dest), existing_shards(directory)
        before = self._games_in(dest)
        summary = json.loads(self.client.gather(self._submit(merge_task, self.binary, dest, shards)))
        return _merge_summary(summary, self._games_in(dest) - before, before == 0)
