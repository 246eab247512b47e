"""A tiny fish toolkit for the test bots, independent of the engine under test (I/O: botio).

``Ice`` follows the referee's lines (rules/fish.md section 8.2) and knows the board in doubled
columns (2.2): a cell ``(r, c)`` is ``(r, x)`` with ``x = 2c + 1`` in even rows, ``2c`` in odd
rows, and the six directions are fixed ``(dx, dr)`` steps. It plays like the fallback policy of
7.3 (first free 1-fish tile in reading order; the move to the most fish, smallest tuple among
equals), so a game with this seat faulted is the same game as one with it clean. It also finds
the wrong moves the hostile modes need: through a gap, through a penguin, off a straight line.
"""

import sys

from botio import read_line

STEPS = ((2, 0), (-2, 0), (1, -1), (-1, -1), (1, 1), (-1, 1))
LENGTHS = [7 if r % 2 == 0 else 8 for r in range(8)]


def to_x(r, c):
    return 2 * c + (1 if r % 2 == 0 else 0)


def to_c(r, x):
    return x // 2


def cells():
    """Every cell ``(r, c)`` in reading order."""
    return [(r, c) for r in range(8) for c in range(LENGTHS[r])]


def line_from(r, c, step):
    """The cells of the straight line from ``(r, c)`` in one direction, up to the board's edge."""
    x, found = to_x(r, c), []
    while True:
        x, r = x + step[0], r + step[1]
        if not (0 <= r < 8 and 0 <= x <= 14):
            return found
        found.append((r, to_c(r, x)))


class Ice:
    """What one seat knows: its seat, the fish on every cell (0 for a gap), every penguin."""

    def __init__(self):
        self.seat = 0
        self.fish = {}
        self.penguins = {}  # (r, c) -> seat
        self.last = ""

    def next_request(self):
        """Read lines until a request; returns "PLACE" or "MOVE".

        At ``END`` it writes one stderr line, ``got <SCORES> <TILES> <END> after '<the line before>'``,
        and exits with status 0.
        """
        finals = []
        while True:
            line = read_line()
            words = line.split()
            if words[0] == "GAME":
                self.seat = int(words[3])
            elif words[0] == "BOARD":
                digits = "".join(words[1:])
                self.fish = {cell: int(d) for cell, d in zip(cells(), digits, strict=True)}
            elif words[0] == "PLACED":
                seat, r, c = map(int, words[1:])
                self.penguins[(r, c)] = seat
            elif words[0] == "MOVED":
                seat, r1, c1, r2, c2 = map(int, words[1:])
                del self.penguins[(r1, c1)]
                self.fish[(r1, c1)] = 0
                self.penguins[(r2, c2)] = seat
            elif words[0] in ("SCORES", "TILES"):
                finals.append(line)
                continue
            elif words[0] == "END":
                print(f"got {' '.join(finals)} {line} after {self.last!r}", file=sys.stderr, flush=True)
                sys.exit(0)
            self.last = line
            if words[0] in ("PLACE", "MOVE"):
                return words[0]

    def free(self, cell):
        """Whether a cell holds a tile without a penguin."""
        return self.fish.get(cell, 0) > 0 and cell not in self.penguins

    def mine(self):
        return sorted(cell for cell, seat in self.penguins.items() if seat == self.seat)

    def placement(self, fish=1):
        """The first free tile with ``fish`` fish in reading order."""
        return next(cell for cell in cells() if self.free(cell) and self.fish[cell] == fish)

    def moves(self):
        """Every legal move ``(r1, c1, r2, c2)`` of this seat, sorted."""
        found = []
        for start in self.mine():
            for step in STEPS:
                for cell in line_from(*start, step):
                    if not self.free(cell):
                        break
                    found.append((*start, *cell))
        return sorted(found)

    def best_move(self):
        """The fallback's move: the most fish at the destination, then the smallest tuple."""
        moves = self.moves()
        most = max(self.fish[(m[2], m[3])] for m in moves)
        return next(m for m in moves if self.fish[(m[2], m[3])] == most)

    def jump(self, over):
        """A move that crosses ``over`` ("gap" or "penguin") to a free tile straight behind it, or None.

        The path from the start is free tiles, then the first blocked cell is of the kind wanted,
        and the destination is the first free tile after it.
        """
        for start in self.mine():
            for step in STEPS:
                path = line_from(*start, step)
                blocked = next((i for i, cell in enumerate(path) if not self.free(cell)), None)
                if blocked is None:
                    continue
                is_gap = self.fish[path[blocked]] == 0
                if is_gap != (over == "gap"):
                    continue
                beyond = next((cell for cell in path[blocked + 1 :] if self.free(cell)), None)
                if beyond is not None:
                    return (*start, *beyond)
        return None

    def bent(self):
        """A move from an own penguin to a free tile two rows away that no straight line reaches."""
        for start in self.mine():
            r, x = start[0], to_x(*start)
            for dr, dx in ((2, 0), (-2, 0), (1, 3), (-1, 3), (1, -3), (-1, -3)):
                r2, x2 = r + dr, x + dx
                if 0 <= r2 < 8 and 0 <= x2 <= 14 and self.free((r2, to_c(r2, x2))):
                    return (*start, r2, to_c(r2, x2))
        return None
