"""An attack2048 process that misbehaves on purpose: ``attack2048_hostile.py ROLE MODE``.

ROLE is ``attack`` or ``defend``; it plays legally (first empty cell, a 2; first legal
direction) except for what MODE makes it do:

* ``occupied`` (attack): at its second request, a placement on an occupied cell;
* ``four`` (attack): a 4 on an empty cell at its first request (illegal under tiles [2]);
* ``nochange`` (defend): the first direction that changes nothing, as soon as there is one;
* ``garbage``: ``hello, referee!`` at its first request;
* ``nonascii``: a direction word with a non-ASCII letter at its first request;
* ``segv``: killed by SIGSEGV at its first request; ``exit3``: exits with status 3 instead;
* ``sleep``: sleeps 2 s at its second request;
* ``blank``: blank lines (empty, spaces, a tab, CRLF) before every legal reply;
* ``legal``: nothing wrong.
"""

import os
import signal
import sys
import time

from attack2048_lib import empty_cells, legal_directions, occupied_cells, read_board, slide
from botio import say

role, mode = sys.argv[1], sys.argv[2]
asked = 0
while True:
    rows = read_board()
    asked += 1
    if mode == "garbage" and asked == 1:
        say("hello, referee!")
        continue
    if mode == "nonascii" and asked == 1:
        sys.stdout.buffer.write("n\u00f6rth\n".encode())
        sys.stdout.flush()
        continue
    if mode == "segv" and asked == 1:
        os.kill(os.getpid(), signal.SIGSEGV)
    if mode == "exit3" and asked == 1:
        sys.exit(3)
    if mode == "sleep" and asked == 2:
        time.sleep(2)
    if mode == "blank":
        sys.stdout.write("\n   \n\t\n\r\n")
    if role == "attack":
        if mode == "occupied" and asked == 2:
            x, y = occupied_cells(rows)[0]
            say(f"{x} {y} 2")
        else:
            x, y = empty_cells(rows)[0]
            say(f"{x} {y} {4 if mode == 'four' else 2}")
    else:
        unchanged = [d for d in ("north", "east", "south", "west") if slide(rows, d) == rows]
        if mode == "nochange" and unchanged:
            say(unchanged[0])
        else:
            say(legal_directions(rows)[0])
