"""A nimmt bot that misbehaves in one way, chosen by its arguments (it plays like the fallback otherwise).

Usage: ``nimmt_hostile.py MODE [N]``. It plays the lowest card of its hand and takes the
cheapest row (the fallback policy of rules/nimmt.md 7.3, so a game with this seat faulted is the
same game as one with it clean). N is the round of deal 1 at which the MODE strikes (default 1):

* ``plain``: nothing (at ``END`` it writes the ``END`` line to stderr, as every mode does);
* ``not_in_hand``: answers ``PLAY N`` with the lowest card on the table (not in its hand);
* ``take_row``: answers its first ``TAKE`` with the row number N (4 or 7: not a row);
* ``malformed``: answers ``PLAY N`` with ``play 17``;
* ``twice``: answers ``PLAY 1`` with its lowest card twice: the second line is the answer to
  its next request (a card it no longer holds);
* ``ahead``: answers ``PLAY 1`` with its two lowest cards, then each ``PLAY r`` with its
  (r+1)-th lowest card of the deal (none at ``PLAY 10``): the referee reads every answer one
  request early, which are the fallback's cards as long as no ``TAKE`` comes in between;
* ``crash``: at ``PLAY N`` writes a line to stderr and exits with status 3;
* ``sleep``: never answers ``PLAY N`` (it exits once its stdin is closed);
* ``sleep_take``: never answers its first ``TAKE`` (it exits once its stdin is closed);
* ``hang``: at ``PLAY N`` sleeps for a minute, ignoring its stdin and SIGTERM (it must be killed);
* ``slow``: sleeps N seconds (a float) before every ``PLAY`` answer;
* ``padded``: answers ``PLAY 1`` with its lowest card followed by spaces, N bytes before the LF;
* ``padded_cr``: the same, the last of the N bytes a CR.
"""

import sys
import time

from botio import hang, say, wait_for_the_end
from nimmt_lib import Table

MODE = sys.argv[1]
ARG = float(sys.argv[2]) if len(sys.argv) > 2 else 1
N = int(ARG)
DEALT = []


def play(table, number):
    """The answer (or the misbehaviour) for ``PLAY number``."""
    strikes = table.deal == 1 and number == N
    if MODE == "slow":
        time.sleep(ARG)
    elif MODE == "not_in_hand" and strikes:
        say(str(min(card for row in table.rows for card in row)))
        return
    elif MODE in ("padded", "padded_cr") and table.deal == 1 and number == 1:
        end = "\r" if MODE == "padded_cr" else ""
        say(str(table.lowest()).ljust(N - len(end)) + end)
        return
    elif MODE == "malformed" and strikes:
        say("play 17")
        return
    elif MODE == "twice" and table.deal == 1 and number == 1:
        say(str(table.lowest()))
    elif MODE == "ahead" and table.deal == 1:
        if number == 1:
            DEALT[:] = sorted(table.hand)
            say(str(DEALT[0]))
        if number < 10:
            say(str(DEALT[number]))
        return
    elif MODE == "crash" and strikes:
        print(f"nimmt_hostile: out of cards in round {number}", file=sys.stderr, flush=True)
        sys.exit(3)
    elif MODE == "sleep" and strikes:
        wait_for_the_end()
    elif MODE == "hang" and strikes:
        hang()
    say(str(table.lowest()))


def main():
    table = Table()
    takes = 0
    while True:
        word, number = table.next_request()
        if word == "PLAY":
            play(table, number)
            continue
        takes += 1
        if MODE == "take_row" and takes == 1:
            say(str(N))
        elif MODE == "sleep_take" and takes == 1:
            wait_for_the_end()
        else:
            say(str(table.cheapest_row()))


main()
