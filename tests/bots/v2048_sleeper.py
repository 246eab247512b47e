"""versus2048 bot that answers the pre-game, then never answers a turn (sleeps)."""

import time

from botio import read_line, say
from v2048lib import read_turn

read_line()
say("1 1")
read_turn()
time.sleep(3600)
