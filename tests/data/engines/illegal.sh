#!/bin/sh
# A fake UCI engine that answers an illegal move (fake_uci.py).
exec python3 "$(dirname "$0")/fake_uci.py" illegal
