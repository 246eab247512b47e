"""What a geister bot knows and guesses about the opponent's hidden colours, from what it has seen.

Everything here is in the bot's own frame: its exits are (0, 0) and (5, 0), the opponent's are
(0, 5) and (5, 5). A :class:`Belief` is fed every ``MOV?`` observation of one game in order; it
works out the bot's seat and the ply count, which opponent piece moved where, and keeps, per
opponent piece, a likelihood ratio "blue : red" from its behaviour:

* a piece that stood on its exit when the opponent's turn began and did not escape is red (for
  certain under ``on_turn_start``, almost certainly under ``move_off``);
* a piece that steps toward the bot's side (or, in the bot's half, sideways toward an exit) is
  more likely blue, one that steps back less likely;
* a piece that steps next to one of the bot's pieces, offering itself, is more likely red
  (unless it is running for an exit it is near).

``marginals`` turns the ratios into each unknown piece's chance of being red, consistent with how
many reds and blues are still on the board (exact enumeration: at most 70 assignments).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from engine.geister.board import START, rotate
from engine.geister.observations import MoveObservation

OPP_EXITS = ((0, 5), (5, 5))
MY_EXITS = ((0, 0), (5, 0))
OPPONENT_START = tuple(rotate(square) for square in START)


def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Manhattan distance between two squares."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def opponent_exit_distance(square: tuple[int, int]) -> int:
    """Steps an opponent piece on ``square`` needs to reach one of its exits."""
    return min(distance(square, exit_) for exit_ in OPP_EXITS)


def my_exit_distance(square: tuple[int, int]) -> int:
    """Steps an own piece on ``square`` needs to reach one of its exits."""
    return min(distance(square, exit_) for exit_ in MY_EXITS)


@lru_cache(maxsize=4096)
def red_chances(unknown: tuple[int, ...], reds: int, weights: tuple[float, ...]) -> dict[int, float]:
    """Each unknown piece's chance of being red when ``reds`` of them are red.

    Args:
        unknown: Indices (0-7) of the opponent's pieces whose colour is unknown.
        reds: How many of them are red (clamped to 0..len(unknown)).
        weights: Per piece index (all eight), the likelihood ratio blue : red.
    """
    reds = max(0, min(reds, len(unknown)))
    if reds in (0, len(unknown)):
        return {i: float(reds > 0) for i in unknown}
    blue_weight = dict.fromkeys(unknown, 0.0)
    total = 0.0
    for blues in combinations(unknown, len(unknown) - reds):
        w = 1.0
        for i in blues:
            w *= weights[i]
        total += w
        for i in blues:
            blue_weight[i] += w
    if total <= 0.0:
        return {i: reds / len(unknown) for i in unknown}
    return {i: 1.0 - blue_weight[i] / total for i in unknown}


class Belief:
    """The opponent's colours as far as one game's observations tell.

    Args:
        escape: The variant's escape rule.
        advance: Blue : red likelihood ratio for a step toward its exits (doubled within two steps).
        retreat: Blue : red likelihood ratio for a step away from its exits.
        offer: Blue : red likelihood ratio for a step next to one of the bot's pieces (where it
            can be taken: blues shun that, reds seek it).
    """

    def __init__(
        self, escape: str = "on_turn_start", advance: float = 1.3, retreat: float = 0.85, offer: float = 0.6
    ) -> None:
        self.escape = escape
        self.offer = offer
        self.advance = advance
        self.retreat = retreat
        self.weights = [1.0] * 8
        self.known_red: set[int] = set()
        self.seat: int | None = None
        self.previous: list[tuple[int, int] | None] | None = None

    def update(self, obs: MoveObservation) -> None:
        """Take in the next observation of the game (call once per ``MOV?``)."""
        now = [(p.x, p.y) if p.on_board else None for p in obs.opponent]
        mine = [(p.x, p.y) for p in obs.own if p.on_board]
        previous = self.previous
        if previous is None:
            self.seat = 0 if tuple(now) == OPPONENT_START else 1
            previous = list(OPPONENT_START)
        else:
            for i, square in enumerate(previous):
                if square in OPP_EXITS and now[i] is not None:
                    if self.escape == "on_turn_start":
                        self.known_red.add(i)
                    else:
                        self.weights[i] *= 0.02
        for i, (before, after) in enumerate(zip(previous, now, strict=True)):
            if before is None or after is None or before == after:
                continue
            d0, d1 = opponent_exit_distance(before), opponent_exit_distance(after)
            if after[1] > before[1] or (after[1] == before[1] >= 3 and d1 < d0):
                self.weights[i] *= self.advance if d1 > 2 else self.advance**2
            elif after[1] < before[1]:
                self.weights[i] *= self.retreat
            if d1 >= min(d0, 3) and any(distance(after, square) == 1 for square in mine):
                self.weights[i] *= self.offer
            self.weights[i] = min(max(self.weights[i], 0.01), 100.0)
        self.known_red = {i for i in self.known_red if now[i] is not None}
        self.previous = now

    def plies_played(self, obs: MoveObservation) -> int:
        """Plies played before the move now asked for."""
        return 2 * (obs.move_number - 1) + (self.seat or 0)

    def marginals(self, obs: MoveObservation) -> dict[int, float]:
        """Per opponent piece on the board: its chance of being red (1.0 for those known red)."""
        captured_red = sum(1 for p in obs.opponent if not p.on_board and p.colour == "r")
        on_board = [i for i, p in enumerate(obs.opponent) if p.on_board]
        unknown = tuple(i for i in on_board if i not in self.known_red)
        reds = 4 - captured_red - (len(on_board) - len(unknown))
        chances = dict(red_chances(unknown, reds, tuple(round(w, 6) for w in self.weights)))
        chances.update(dict.fromkeys(self.known_red, 1.0))
        return chances
