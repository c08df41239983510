#!/bin/sh
# A fake XBoard engine that refuses every variant (fake_xboard.py).
exec python3 "$(dirname "$0")/fake_xboard.py"
