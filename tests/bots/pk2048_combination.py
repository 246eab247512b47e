"""pk2048 bot that puts a 2 on the first empty cell and also slides up, in one answer."""

import sys

from botio import say
from pk2048_lib import board_of, read_state

cells = board_of(read_state())
say(f"{cells.index(0) + 1} 0 1")
sys.stdin.read()
