"""versus2048 bot that plays legally but sleeps DELAY_MS (argv[1]) before every turn reply."""

import sys
import time

from botio import read_line, say
from v2048lib import legal_reply, read_turn

delay = int(sys.argv[1]) / 1000
read_line()
say("1 1")
while True:
    _, mine, theirs = read_turn()
    reply = legal_reply(mine, theirs)
    time.sleep(delay)
    say(reply)
