"""The ``expectimax`` players of attack2048: a depth-limited search within a node budget.

Both roles value a position by the defender's prospects: the score its slides still make within
the horizon plus ``evaluate`` at the leaves (room to move: empty cells and equal neighbours,
the latter worth more for bigger tiles). A stuck board is worth 0: the half is over.

* Defender nodes take the best slide.
* Attacker nodes consider every (empty cell, allowed value); below the first level only the
  ``width`` placements that look worst for the defender after one slide are searched deeper.
  The defender player values them as ``pessimism * min + (1 - pessimism) * mean`` (a mix of worst
  case and average, as the attacker's choice is unknown); the attacker player takes the min.

The search deepens one attacker level at a time up to ``depth`` and keeps the choice of the last
level finished within ``max_nodes`` (node counts, not wall-clock time, so games replay exactly).
"""

from __future__ import annotations

from typing import Any

from engine.attack2048.botbase import GEOMETRY, NEIGHBOURS, Attacker, Defender, empty_cells, put
from engine.core import require_at_least
from engine.slide import DIRECTIONS, Board


class _OutOfBudget(Exception):
    """The node budget ran out in the middle of a search level."""


class Searcher:
    """The shared search.

    Args:
        exponents: Tile exponents the attacker may place (1, or 1 and 2).
        width: Placements searched deeper at each attacker node below the root.
        pessimism: Weight of the worst placement against the mean (1 = minimax).
        max_nodes: Node budget of one decision (a node is one board after a placement, slid 4 ways).
        empty_weight: Evaluation points per empty cell.
        pair_weight: Evaluation points per pair of equal neighbours, times the pair's exponent.
    """

    def __init__(
        self,
        exponents: tuple[int, ...],
        width: int,
        pessimism: float,
        max_nodes: int,
        empty_weight: float,
        pair_weight: float,
    ) -> None:
        self.exponents = exponents
        self.width = width
        self.pessimism = pessimism
        self.max_nodes = max_nodes
        self.empty_weight = empty_weight
        self.pair_weight = pair_weight
        self.nodes = 0

    def evaluate(self, board: Board) -> float:
        """The defender's prospects on a board it has just slid (before the next placement)."""
        pairs = 0
        for i, j in NEIGHBOURS:
            e = board[i]
            if e and e == board[j]:
                pairs += e
        return self.empty_weight * board.count(0) + self.pair_weight * pairs

    def defender_value(self, board: Board, depth: int) -> float:
        """Future score of the defender to move on ``board`` (after a placement); 0 if stuck."""
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise _OutOfBudget
        best = 0.0
        for direction in DIRECTIONS:
            outcome = GEOMETRY.slide(board, direction)
            if outcome.board != board:
                value = outcome.gain + self.attacker_value(outcome.board, depth)
                if value > best:
                    best = value
        return best

    def attacker_value(self, board: Board, depth: int) -> float:
        """Future score of the defender with the attacker to place on ``board`` (after a slide)."""
        if depth == 0:
            return self.evaluate(board)
        children = [put(board, cell, e) for cell in empty_cells(board) for e in self.exponents]
        if depth == 1:
            values = [self.defender_value(child, 0) for child in children]
        else:
            ranked = sorted((self.defender_value(child, 0), child) for child in children)
            values = [self.defender_value(child, depth - 1) for _, child in ranked[: self.width]]
        return self.combine(values)

    def combine(self, values: list[float]) -> float:
        """An attacker node's value from its children's."""
        worst = min(values)
        if self.pessimism >= 1:
            return worst
        return self.pessimism * worst + (1 - self.pessimism) * sum(values) / len(values)


class ExpectimaxDefender(Defender):
    """Slides to the best value of a search over the attacker's placements.

    Args:
        seed: Seeds the tie-breaks.
        depth: Attacker levels searched after the slide (1: every placement, then one slide).
        width: Placements searched deeper below the first level.
        pessimism: Weight of the worst placement against the mean.
        max_nodes: Node budget per decision.
        empty_weight: Evaluation points per empty cell.
        pair_weight: Evaluation points per equal pair, times its exponent.
        **variant: The variant's 4-tile keys (``tiles`` tells whether 4s may come).
    """

    def __init__(
        self,
        seed: int = 0,
        depth: int = 1,
        width: int = 3,
        pessimism: float = 0.5,
        max_nodes: int = 20_000,
        empty_weight: float = 2.0,
        pair_weight: float = 4.0,
        **variant: Any,
    ) -> None:
        super().__init__(seed, **variant)
        require_at_least(1, depth=depth, width=width, max_nodes=max_nodes)
        if not 0 <= pessimism <= 1:
            raise ValueError(f"pessimism must be from 0 to 1, not {pessimism}")
        self.depth = depth
        self.searcher = Searcher(self.exponents, width, pessimism, max_nodes, empty_weight, pair_weight)

    def choose(self, board: Board) -> str:
        searcher = self.searcher
        searcher.nodes = 0
        moves = sorted(GEOMETRY.effective_moves(board).items())
        best = [direction for direction, _ in moves]
        for depth in range(1, self.depth + 1):
            try:
                values = [(o.gain + searcher.attacker_value(o.board, depth), d) for d, o in moves]
            except _OutOfBudget:
                break
            top = max(value for value, _ in values)
            best = [d for value, d in values if value >= top - 1e-9]
        return self.rng.choice(best)


class ExpectimaxAttacker(Attacker):
    """Places where a search says the defender's prospects are worst.

    Args:
        seed: Seeds the tie-breaks.
        depth: Attacker levels searched, this placement included (1: the defender's best slide
            after each placement, valued by the evaluation).
        width: Placements searched deeper below the root.
        root_width: Placements of the root searched deeper than one slide.
        max_nodes: Node budget per decision.
        empty_weight: Evaluation points per empty cell.
        pair_weight: Evaluation points per equal pair, times its exponent.
        **variant: The variant's 4-tile keys (when a 4 is allowed).
    """

    def __init__(
        self,
        seed: int = 0,
        depth: int = 2,
        width: int = 3,
        root_width: int = 4,
        max_nodes: int = 20_000,
        empty_weight: float = 2.0,
        pair_weight: float = 4.0,
        **variant: Any,
    ) -> None:
        super().__init__(seed, **variant)
        require_at_least(1, depth=depth, width=width, root_width=root_width, max_nodes=max_nodes)
        self.depth = depth
        self.root_width = root_width
        self.searcher = Searcher(self.rules.exponents(), width, 1.0, max_nodes, empty_weight, pair_weight)

    def choose(self, board: Board, exponents: tuple[int, ...]) -> tuple[int, int]:
        searcher = self.searcher
        searcher.exponents = (1, 2) if self.rules.fours_on and self.rules.four_limit != 0 else (1,)
        options = [(cell, e) for cell in empty_cells(board) for e in exponents]
        searcher.nodes = -len(options)  # the first level is always searched; the budget bounds the deeper ones
        scored = sorted((searcher.defender_value(put(board, c, e), 0), (c, e)) for c, e in options)
        least = scored[0][0]
        best = [option for value, option in scored if value <= least + 1e-9]
        candidates = [option for _, option in scored[: self.root_width]]
        for depth in range(2, self.depth + 1):
            try:
                values = [(searcher.defender_value(put(board, c, e), depth - 1), (c, e)) for c, e in candidates]
            except _OutOfBudget:
                break
            least = min(value for value, _ in values)
            best = [option for value, option in values if value <= least + 1e-9]
        return self.rng.choice(best)
