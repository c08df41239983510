#!/bin/sh
# A fake UCI engine that answers bestmove without a move (fake_uci.py).
exec python3 "$(dirname "$0")/fake_uci.py" garbage
