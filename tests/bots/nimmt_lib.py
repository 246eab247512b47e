"""A tiny nimmt toolkit for the test bots, independent of the engine under test (I/O: botio).

``Table`` follows the referee's lines (rules/nimmt.md section 8.2) far enough to play like the
fallback policy of section 7.3: the lowest card of the hand, and for a ``TAKE`` the row with the
fewest bullheads (the lowest number among equals). A bot that plays like this makes the same
game as the referee's fallback, so a faulted seat's game can be compared with a clean one.
"""

import sys

from botio import read_line


def bullheads(card, table="gpcc"):
    """The penalty of one card (2.1)."""
    if card == 55:
        return 7
    if card % 11 == 0:
        return 5
    if card % 10 == 0:
        return 3
    if card % 5 == 0:
        return 2 if table == "classic" else 1
    return 1


class Table:
    """What one seat knows: its seat, its hand, the rows, and every ``SCORES`` line received."""

    def __init__(self):
        self.seat = 0
        self.table = "gpcc"
        self.deal = 0
        self.hand = []
        self.rows = []
        self.scores = []
        self.last = ""

    def next_request(self):
        """Read lines until a request; returns ("PLAY", round) or ("TAKE", card).

        At ``END`` it writes one stderr line, ``got END ... after '<the line before>'; scores
        <SCORES of each round, separated by |>``, and exits with status 0.
        """
        while True:
            line = read_line()
            word, _, rest = line.partition(" ")
            if word == "GAME":
                self.seat = int(rest.split()[2])
            elif word == "BULLHEADS":
                self.table = rest
            elif word == "DEAL":
                self.deal = int(rest)
            elif word == "HAND":
                self.hand = [int(card) for card in rest.split()]
            elif word == "ROWS":
                self.rows = [[int(card) for card in row.split(",")] for row in rest.split()]
            elif word == "SCORES":
                self.scores.append(rest)
            elif word == "REVEAL":
                mine = int(rest.split()[self.seat])
                if mine in self.hand:
                    self.hand.remove(mine)
            elif word == "END":
                print(f"got {line} after {self.last!r}; scores {'|'.join(self.scores)}", file=sys.stderr, flush=True)
                sys.exit(0)
            self.last = line
            if word in ("PLAY", "TAKE"):
                return word, int(rest)

    def lowest(self):
        """The fallback's card: the lowest of the hand."""
        return min(self.hand)

    def cheapest_row(self):
        """The fallback's row: fewest bullheads, the lowest number among equals."""
        costs = [sum(bullheads(card, self.table) for card in row) for row in self.rows]
        return costs.index(min(costs))
