#!/usr/bin/env python3
# A fake UCI engine for tests of `virrey analyse`: the mode (first argument)
# says how it misbehaves when asked to search:
#   illegal  answers a move that is not legal ("a1a1")
#   hang     never answers
#   busy     never answers, and reads nothing more (a search that runs on)
#   garbage  answers "bestmove" without a move
#   crash    ends without an answer
#   book     answers the positions of 1. e4 e5 (from a small book), and
#            never answers any other
import sys
import time

mode = sys.argv[1] if len(sys.argv) > 1 else "illegal"
# The board and side to move of a FEN -> the move the book answers there.
BOOK = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w": "e2e4",
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b": "e7e5",
    "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w": "g1f3",
}
position = ""
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        print("id name Fake " + mode, flush=True)
        print("uciok", flush=True)
    elif words[0] == "isready":
        print("readyok", flush=True)
    elif words[0] == "position" and len(words) >= 4 and words[1] == "fen":
        position = words[2] + " " + words[3]
    elif words[0] == "go":
        if mode == "hang" or (mode == "book" and position not in BOOK):
            continue
        if mode == "book":
            move = BOOK[position]
            print(f"info depth 1 score cp 20 nodes 1 pv {move}", flush=True)
            print(f"bestmove {move}", flush=True)
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
