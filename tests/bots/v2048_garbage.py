"""versus2048 bot that answers the pre-game, then prints garbage at its first turn and waits."""

import sys

from botio import read_line, say
from v2048lib import read_turn

read_line()
say("1 1")
read_turn()
say("hello, referee!")
sys.stdin.read()
