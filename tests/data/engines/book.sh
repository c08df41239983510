#!/bin/sh
# A fake UCI engine that answers the positions of 1. e4 e5 alone (fake_uci.py).
exec python3 "$(dirname "$0")/fake_uci.py" book
