#!/usr/bin/env python3
# A fake XBoard engine for tests of `virrey analyse`: it announces no
# `variants` feature and answers every `variant` command with an error, as an
# engine that plays only chess does.
import sys

for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "protover":
        print('feature myname="Fake xboard" ping=1 setboard=1 done=1', flush=True)
    elif words[0] == "ping":
        print("pong " + words[1], flush=True)
    elif words[0] == "variant":
        print("Error (unknown variant): " + " ".join(words[1:]), flush=True)
    elif words[0] == "quit":
        break
