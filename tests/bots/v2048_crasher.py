"""versus2048 bot that answers the pre-game, then dies of SIGSEGV at its first turn."""

import os
import signal

from botio import read_line, say
from v2048lib import read_turn

read_line()
say("1 1")
read_turn()
os.kill(os.getpid(), signal.SIGSEGV)
