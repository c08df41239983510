#!/usr/bin/env python3
"""The bare-engine peer of bench/analyse_overhead.sh: drives N UCI engine
processes directly (no virrey), one thread each, over the FENs on standard
input ("position fen F" then "go nodes N" until "bestmove"), and prints the
positions searched and the wall seconds."""
import subprocess
import sys
import threading
import time


def main():
    engine, nodes, jobs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    fens = [line.strip() for line in sys.stdin if line.strip()]
    procs = []
    for _ in range(jobs):
        p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        p.stdin.write("uci\nisready\n")
        for line in p.stdout:
            if line.strip() == "readyok":
                break
        procs.append(p)
    lock = threading.Lock()
    nxt = [0]

    def work(p):
        while True:
            with lock:
                i = nxt[0]
                nxt[0] += 1
            if i >= len(fens):
                return
            p.stdin.write(f"position fen {fens[i]}\ngo nodes {nodes}\n")
            for line in p.stdout:
                if line.startswith("bestmove"):
                    break

    t0 = time.perf_counter()
    threads = [threading.Thread(target=work, args=(p,)) for p in procs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    for p in procs:
        p.stdin.write("quit\n")
        p.wait()
    print(len(fens), f"{wall:.3f}")


main()
