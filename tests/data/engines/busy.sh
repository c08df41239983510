#!/bin/sh
# A fake UCI engine whose search runs on and reads nothing (fake_uci.py).
exec python3 "$(dirname "$0")/fake_uci.py" busy
