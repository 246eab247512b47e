"""versus2048 bot that prints a debug line to stdout before its first turn's reply (it belongs on stderr).

The line is argv[1] if given, else ``debug: thinking``.
"""

import sys

from botio import read_line, say
from v2048lib import legal_reply, read_turn

read_line()
say("1 1")
_, mine, theirs = read_turn()
say(sys.argv[1] if len(sys.argv) > 1 else "debug: thinking")
say(legal_reply(mine, theirs))
read_turn()
