"""versus2048 bot that saves its state in a file beside itself, which the jail shows read-only.

Modes (argv[1]):
  crash     the write's error goes unhandled: a traceback on stderr, and the bot exits
  play_on   the error is logged to stderr and the bot plays on, then crashes at its next turn
            reading back the state it could not save
"""

import sys
from pathlib import Path

from botio import read_line, say
from v2048lib import legal_reply, read_turn

STATE = Path(__file__).resolve().parent / "v2048_saved_state.txt"

mode = sys.argv[1]
read_line()
say("1 1")
_, mine, theirs = read_turn()
if mode == "crash":
    STATE.write_text("turn 1\n")
try:
    STATE.write_text("turn 1\n")
except OSError as error:
    print(f"could not save my state: {error}", file=sys.stderr, flush=True)
say(legal_reply(mine, theirs))
read_turn()
print("my state was:", STATE.read_text(), file=sys.stderr)
