"""A geister bot that misbehaves in one way, chosen by its argument (it plays well otherwise).

Usage: ``geister_hostile.py MODE``. It sets ``SET:ABCD`` and plays ``geister_lib.charge`` moves;
the MODE changes one thing:

* ``plain``: nothing (a well-behaved opponent for the others);
* ``mov_in_setup``: answers ``SET?`` with ``MOV:A,N``;
* ``set_in_play``: answers its first ``MOV?`` with ``SET:ABCD``;
* ``letter``: moves piece ``I``;
* ``captured``: once one of its pieces was captured, moves that piece;
* ``off_board``: moves ``E`` south, off its own back row;
* ``duplicate``: ``SET:AABC``;
* ``crash``: at its first ``MOV?`` writes a line to stderr and exits with status 3;
* ``sleep_setup`` / ``sleep_move``: never answers ``SET?`` / its first ``MOV?`` (it exits once its
  stdin is closed, so the game's end need not wait for it);
* ``retry``: before every move, a line that is always rejected (``MOV:I,N`` or garbage);
* ``slow_retry``: at its first ``MOV?``, ``MOV:E,S``, then 0.4 s later its move;
* ``retry_too_slow``: at its first ``MOV?``, ``MOV:E,S`` twice, 0.3 s apart, then its move 0.3 s later;
* ``overlong``: at its first ``MOV?``, a 2000-byte line, then 3000 bytes written in two parts
  0.2 s apart before their LF, then its move.
"""

import sys
import time

from botio import say, wait_for_the_end
from geister_lib import captured_own, charge, read_message

MODE = sys.argv[1]


def setup():
    if MODE == "mov_in_setup":
        say("MOV:A,N")
    elif MODE == "duplicate":
        say("SET:AABC")
    elif MODE == "sleep_setup":
        wait_for_the_end()
    else:
        say("SET:ABCD")


def move(board, number):
    lost = captured_own(board)
    if number == 1 and MODE in ("set_in_play", "letter", "off_board", "crash", "sleep_move"):
        if MODE == "crash":
            print("geister_hostile: out of ghosts", file=sys.stderr, flush=True)
            sys.exit(3)
        if MODE == "sleep_move":
            wait_for_the_end()
        say({"set_in_play": "SET:ABCD", "letter": "MOV:I,N", "off_board": "MOV:E,S"}[MODE])
        return
    if MODE == "captured" and lost:
        say(f"MOV:{lost[0]},N")
        return
    if number == 1 and MODE == "overlong":
        say("X" * 2000)
        sys.stdout.write("Y" * 1500)
        sys.stdout.flush()
        time.sleep(0.2)
        say("Y" * 1500)
    if MODE == "retry":
        say("MOV:I,N" if number % 2 else "hello, referee!")
    if number == 1 and MODE in ("slow_retry", "retry_too_slow"):
        say("MOV:E,S")
        time.sleep(0.4 if MODE == "slow_retry" else 0.3)
        if MODE == "retry_too_slow":
            say("MOV:E,S")
            time.sleep(0.3)
    say(charge(board))


def main():
    number = 0
    while True:
        message = read_message()
        if message == "SET?":
            setup()
        elif message.startswith("MOV?"):
            number += 1
            move(message[4:], number)


main()
