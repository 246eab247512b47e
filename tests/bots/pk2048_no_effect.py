"""pk2048 bot that plays legal slides until some direction changes nothing, then answers that one."""

import sys

from botio import say
from pk2048_lib import board_of, read_state, working

while True:
    cells = board_of(read_state())
    useful = working(cells)
    useless = [d for d in (1, 2, 3, 4) if d not in useful]
    if useless:
        say(f"0 0 {useless[0]}")
        sys.stdin.read()
        sys.exit(0)
    say(f"0 0 {useful[0]}")
