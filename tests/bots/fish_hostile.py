"""A fish bot that misbehaves in one way, chosen by its arguments (it plays like the fallback otherwise).

Usage: ``fish_hostile.py MODE [N]``. It places and moves as the fallback policy of
rules/fish.md 7.3 does (so a game with this seat faulted is the same game as one with it clean).
N is the bot's own ``MOVE`` request at which a MODE strikes (default 1):

* ``plain``: nothing (at ``END`` it writes the end lines to stderr, as every mode does);
* ``two_fish``: answers its first ``PLACE`` with the first free 2-fish tile;
* ``twice``: answers its first ``PLACE`` twice: the second line is the answer to its next
  request, a placement on the tile its first penguin now stands on;
* ``gap`` / ``penguin``: from its N-th ``MOVE`` on, as soon as it has one, a move whose path
  crosses a gap / another penguin to a free tile behind it;
* ``bent``: answers ``MOVE`` N with a move to a free tile off every straight line from the penguin;
* ``malformed``: answers ``MOVE`` N with its move written ``r1,c1->r2,c2``;
* ``crash``: at ``MOVE`` N writes a line to stderr and exits with status 3;
* ``sleep``: never answers ``MOVE`` N (it exits once its stdin is closed);
* ``hang``: at ``MOVE`` N sleeps for a minute, ignoring its stdin and SIGTERM (it must be killed);
* ``slow``: sleeps N seconds (a float) before every answer.
"""

import sys
import time

from botio import hang, say, wait_for_the_end
from fish_lib import Ice

MODE = sys.argv[1]
ARG = float(sys.argv[2]) if len(sys.argv) > 2 else 1
N = int(ARG)


def place(ice, number):
    if MODE == "slow":
        time.sleep(ARG)
    r, c = ice.placement(fish=2 if MODE == "two_fish" and number == 1 else 1)
    say(f"{r} {c}")
    if MODE == "twice" and number == 1:
        say(f"{r} {c}")


def move(ice, number):
    strikes = number == N
    if MODE == "slow":
        time.sleep(ARG)
    elif MODE in ("gap", "penguin") and number >= N:
        wrong = ice.jump(MODE)
        if wrong is not None:
            say(" ".join(map(str, wrong)))
            return
    elif MODE == "bent" and strikes and ice.bent() is not None:
        say(" ".join(map(str, ice.bent())))
        return
    elif MODE == "malformed" and strikes:
        r1, c1, r2, c2 = ice.best_move()
        say(f"{r1},{c1}->{r2},{c2}")
        return
    elif MODE == "crash" and strikes:
        print(f"fish_hostile: fell through the ice at move {number}", file=sys.stderr, flush=True)
        sys.exit(3)
    elif MODE == "sleep" and strikes:
        wait_for_the_end()
    elif MODE == "hang" and strikes:
        hang()
    say(" ".join(map(str, ice.best_move())))


def main():
    ice = Ice()
    asked = {"PLACE": 0, "MOVE": 0}
    while True:
        word = ice.next_request()
        asked[word] += 1
        (place if word == "PLACE" else move)(ice, asked[word])


main()
