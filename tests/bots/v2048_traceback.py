"""versus2048 bot that answers the pre-game, then raises at its first turn: its traceback must be shown."""

from botio import read_line, say
from v2048lib import read_turn

read_line()
say("1 1")
read_turn()
raise RuntimeError("the bot's own bug, reported on stderr")
