#!/bin/sh
# A fake UCI engine that never answers a search (fake_uci.py).
exec python3 "$(dirname "$0")/fake_uci.py" hang
