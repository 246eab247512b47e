"""versus2048 bot whose pre-game reply holds a 5000-digit number (past Python's int() digit limit)."""

import sys

sys.stdin.readline()
print("1" * 5000 + " 1", flush=True)
sys.stdin.read()
