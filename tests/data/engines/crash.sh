#!/bin/sh
# A fake UCI engine that ends when asked to search (fake_uci.py).
exec python3 "$(dirname "$0")/fake_uci.py" crash
