"""Timing whole processes for the latency benchmarks: wall and CPU time of
one run, percentiles, and best-of-N series with warm-up runs."""
import os
import subprocess
import sys
import time


def once(cmd):
    """Wall and CPU (user + system) seconds of one process, and its stdout.
    Exit codes other than 0 and 1 stop the benchmark."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out = p.stdout.read()
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        sys.exit(f"{' '.join(cmd)}: exit {code}")
    return wall, ru.ru_utime + ru.ru_stime, out


def pct(values, q):
    """The q-th percentile (nearest rank on the sorted values)."""
    v = sorted(values)
    return v[min(len(v) - 1, int(round(q / 100 * (len(v) - 1))))]


def timed(cmd, n, warm=2):
    """p50 wall, p99 wall, p50 CPU of n runs after `warm` unmeasured ones, and
    the last run's stdout."""
    for _ in range(min(warm, n)):
        once(cmd)
    walls, cpus, out = [], [], b""
    for _ in range(n):
        w, c, out = once(cmd)
        walls.append(w)
        cpus.append(c)
    return pct(walls, 50), pct(walls, 99), pct(cpus, 50), out
