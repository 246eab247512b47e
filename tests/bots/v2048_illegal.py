"""versus2048 bot that slides legally but attacks an occupied cell of the opponent's board."""

import sys

from botio import read_line, say
from v2048lib import first_effective, read_turn

read_line()
say("1 1")
_, mine, theirs = read_turn()
direction, merges = first_effective(mine)
row, col = next((r + 1, c + 1) for r, line in enumerate(theirs) for c, v in enumerate(line) if v)
say(f"{direction} 1 {merges + 1} {row} {col}")
sys.stdin.read()
