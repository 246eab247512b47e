"""versus2048 bot that plays legally but sleeps DELAY_MS (argv[1]) before every turn reply."""

import sys
import time

from botio import read_line, say
from v2048lib import first_effective, read_turn

delay = int(sys.argv[1]) / 1000
read_line()
say("1 1")
while True:
    _, mine, theirs = read_turn()
    direction, merges = first_effective(mine)
    row, col = next((r + 1, c + 1) for r, line in enumerate(theirs) for c, v in enumerate(line) if v == 0)
    time.sleep(delay)
    say(f"{direction} 1 {merges + 1} {row} {col}")
