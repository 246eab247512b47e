"""pk2048 bot that bombs the first empty cell and slides up at its first turn."""

import sys

from botio import say
from pk2048_lib import board_of, read_state

cells = board_of(read_state())
say(f"0 {cells.index(0) + 1} 1")
sys.stdin.read()
