#!/usr/bin/env python3
# A fake UCI engine for tests of `virrey analyse`: the mode (first argument)
# says how it misbehaves when asked to search:
#   illegal  answers a move that is not legal ("a1a1")
#   hang     never answers
#   busy     never answers, and reads nothing more (a search that runs on)
#   garbage  answers "bestmove" without a move
#   crash    ends without an answer
import sys
import time

mode = sys.argv[1] if len(sys.argv) > 1 else "illegal"
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        print("id name Fake " + mode, flush=True)
        print("uciok", flush=True)
    elif words[0] == "isready":
        print("readyok", flush=True)
    elif words[0] == "go":
        if mode == "hang":
            continue
        if mode == "busy":
            while True:
                time.sleep(1)
        if mode == "crash":
            break
        print("info depth 1 score cp 0 nodes 1 pv a1a1", flush=True)
        print("bestmove" if mode == "garbage" else "bestmove a1a1", flush=True)
    elif words[0] == "quit":
        break
