"""Reads `virrey search --show --format jsonl` on stdin and prints the FEN of
the matched position with the fewest men, at least five (the first such
when several tie): a rare endgame for the latency benchmarks."""
import json
import sys

best = None
for line in sys.stdin:
    fen = json.loads(line)["fen"]
    men = sum(c.isalpha() for c in fen.split()[0])
    if men >= 5 and (best is None or men < best[0]):
        best = (men, fen)
if best is None:
    sys.exit("no position of five men or more")
print(best[1])
