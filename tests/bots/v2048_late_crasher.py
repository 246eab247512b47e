"""versus2048 bot that plays legally, then dies of SIGSEGV at its turn TURN (argv[1]): a long game cut short."""

import os
import signal
import sys

from botio import read_line, say
from v2048lib import legal_reply, read_turn

doomed_at = int(sys.argv[1])
read_line()
say("1 1")
turn = 0
while True:
    _, mine, theirs = read_turn()
    turn += 1
    if turn >= doomed_at:
        os.kill(os.getpid(), signal.SIGSEGV)
    say(legal_reply(mine, theirs))
