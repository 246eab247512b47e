"""Built-in attack2048 players, one class per role, written against typed observations, each seeded.

An observation is the board only (``Attack2048Observation.board``: 16 exponents in reading order,
0 empty, e a tile of 2**e), as on the wire. Attackers answer ``Placement(x, y, value)`` with a tile
value (2 or 4), defenders ``Slide(direction)`` with ``U R D L``.

The protocol does not tell a bot the variant, so every built-in takes the variant's 4-tile keys
as parameters (``tiles``, ``four_limit``, ``four_every_twos``, ``four_on_new_max``, the rules
file's names and meanings). Their default ``tiles`` is ``[2]``: told nothing, a built-in attacker
places only 2s, which is legal under every variant. Told the 4-tile keys, an
attacker keeps the counters of section 3.5 itself from the boards it sees (its own placements,
and a credit whenever the board it is shown has a larger tile than the board its last placement
left), so it places a 4 only when the rules permit one. Defenders use ``tiles`` to know whether
4s may come. Search bots count nodes, not wall-clock time, so games replay exactly.

* ``random``: attacker a random empty cell and allowed value; defender a random legal slide.
* ``greedy``: attacker places where the defender's best reply scores least (a placement that
  leaves it stuck first); defender the slide with the best immediate score. Ties at random.
* ``expectimax``: a depth-limited search over placements and slides, iteratively deepened within
  a node budget, valued by the defender's score plus an evaluation of its prospects (room and
  equal neighbours). The defender treats placements as a mix of worst case and average
  (``pessimism``); the attacker assumes the defender's best reply and minimizes its prospects.
"""

from __future__ import annotations

from engine.attack2048.botbase import GEOMETRY, Attacker, Defender, empty_cells, put
from engine.attack2048.search import ExpectimaxAttacker, ExpectimaxDefender
from engine.slide import Board


class RandomAttacker(Attacker):
    """A random empty cell and a random allowed value."""

    def choose(self, board: Board, exponents: tuple[int, ...]) -> tuple[int, int]:
        return self.rng.choice(empty_cells(board)), self.rng.choice(exponents)


class RandomDefender(Defender):
    """A random slide that changes the board."""

    def choose(self, board: Board) -> str:
        return self.rng.choice(sorted(GEOMETRY.effective_moves(board)))


class GreedyAttacker(Attacker):
    """Places where the defender's best reply scores least (stuck counts below any score)."""

    def choose(self, board: Board, exponents: tuple[int, ...]) -> tuple[int, int]:
        scored = [(GEOMETRY.best_gain(put(board, cell, e)), cell, e) for cell in empty_cells(board) for e in exponents]
        least = min(score for score, _, _ in scored)
        _, cell, e = self.rng.choice([item for item in scored if item[0] == least])
        return cell, e


class GreedyDefender(Defender):
    """The legal slide with the best immediate score."""

    def choose(self, board: Board) -> str:
        moves = GEOMETRY.effective_moves(board)
        top = max(outcome.gain for outcome in moves.values())
        return self.rng.choice(sorted(d for d, o in moves.items() if o.gain == top))


BUILTIN_BOTS: dict[str, dict[str, type]] = {
    "random": {"attack": RandomAttacker, "defend": RandomDefender},
    "greedy": {"attack": GreedyAttacker, "defend": GreedyDefender},
    "expectimax": {"attack": ExpectimaxAttacker, "defend": ExpectimaxDefender},
}
