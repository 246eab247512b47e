"""Built-in versus2048 players, written against typed observations, each seeded.

* ``random``: a random effective slide, then a random legal attack.
* ``greedy``: the slide with the best one-ply score (seeded tie-breaks), then one tile where the
  opponent's best reply scores least (a cell that leaves it stuck first).
* ``minimax``: alpha-beta over whole turns (slide and attack) to a depth, with a node budget (and
  an optional time budget, which makes games depend on machine speed); attacks searched are one
  tile on the most hurtful cells and, after merges, a spread of 2s.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

from engine.core import require_at_least
from engine.slide import Board, Geometry, square
from engine.versus2048.rules import Placement, PregameObservation, TurnMove, TurnObservation

Observation = PregameObservation | TurnObservation
Action = Placement | TurnMove


def _empty_cells(board: Board, n: int) -> list[tuple[int, int]]:
    return [(i // n + 1, i % n + 1) for i, v in enumerate(board) if v == 0]


def _put(board: Board, cells: list[tuple[int, int]] | tuple[tuple[int, int], ...], value: int, n: int) -> Board:
    out = list(board)
    for row, col in cells:
        out[(row - 1) * n + col - 1] = value
    return tuple(out)


def _opening(rng: random.Random) -> Placement:
    # The board size is not on the wire yet; cells 1..2 exist on every legal size.
    return Placement(rng.randint(1, 2), rng.randint(1, 2))


class RandomBot:
    """A random effective slide and a random legal attack."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, obs: Observation) -> Action:
        if isinstance(obs, PregameObservation):
            return _opening(self.rng)
        n = obs.board_size
        moves = square(n).effective_moves(obs.my_board)
        direction = self.rng.choice(sorted(moves))
        merges = moves[direction].merges
        empties = _empty_cells(obs.opponent_board, n)
        ks = [k for k in range(merges + 1) if (1 << k) <= len(empties)]
        k = self.rng.choice(ks)
        cells = self.rng.sample(empties, 1 << k)
        return TurnMove(direction, merges + 1 - k, tuple(cells))


class GreedyBot:
    """Best one-ply score; attacks with one tile where the opponent's best reply scores least."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, obs: Observation) -> Action:
        if isinstance(obs, PregameObservation):
            return _opening(self.rng)
        n = obs.board_size
        geometry = square(n)
        moves = geometry.effective_moves(obs.my_board)
        top = max(outcome.gain for outcome in moves.values())
        direction = self.rng.choice(sorted(d for d, o in moves.items() if o.gain == top))
        value = moves[direction].merges + 1
        scored = []
        for cell in _empty_cells(obs.opponent_board, n):
            reply = geometry.best_gain(_put(obs.opponent_board, [cell], value, n))
            scored.append((reply, cell))
        least = min(reply for reply, _ in scored)
        cell = self.rng.choice([cell for reply, cell in scored if reply == least])
        return TurnMove(direction, value, (cell,))


_WIN = 10**9


def _mobility(geometry: Geometry, board: Board) -> int:
    """Empty cells plus equal orthogonal neighbours: room to keep moving."""
    cols = geometry.cols
    room = board.count(0)
    for i, value in enumerate(board):
        if value:
            if (i + 1) % cols and board[i + 1] == value:
                room += 1
            if i + cols < len(board) and board[i + cols] == value:
                room += 1
    return room


class MinimaxBot:
    """Alpha-beta over whole turns, iteratively deepened, with a node and a time budget.

    Args:
        seed: Seeds the tie-breaks.
        depth: Turns searched (1 = own turn only, 2 = own turn and the opponent's reply).
        cells: How many of the most hurtful cells a one-tile attack may target.
        max_nodes: Stop deepening once this many positions were searched (deterministic).
        budget_ms: Stop deepening past this much thinking time per turn; None (the default)
            keeps games reproducible on any machine.
        mobility_weight: Score points one unit of mobility is worth in the evaluation.
    """

    def __init__(
        self,
        seed: int = 0,
        depth: int = 2,
        cells: int = 4,
        max_nodes: int = 20_000,
        budget_ms: int | None = None,
        mobility_weight: int = 16,
    ) -> None:
        require_at_least(1, depth=depth, cells=cells, max_nodes=max_nodes, budget_ms=budget_ms)
        self.rng = random.Random(seed)
        self.depth = depth
        self.cells = cells
        self.max_nodes = max_nodes
        self.budget_ms = budget_ms
        self.mobility_weight = mobility_weight
        self.nodes = 0
        self.deadline = float("inf")

    def _out_of_budget(self) -> bool:
        return self.nodes > self.max_nodes or (self.budget_ms is not None and time.monotonic() > self.deadline)

    def act(self, obs: Observation) -> Action:
        if isinstance(obs, PregameObservation):
            return _opening(self.rng)
        self.geometry = square(obs.board_size)
        self.n = obs.board_size
        if self.budget_ms is not None:
            self.deadline = time.monotonic() + self.budget_ms / 1000
        self.nodes = 0
        best: TurnMove | None = None
        for depth in range(1, self.depth + 1):
            value, move = self._search(obs.my_board, obs.opponent_board, depth, -_WIN * 2, _WIN * 2, True)
            if move is not None:
                best = move
            if self._out_of_budget() or value >= _WIN:
                break
        assert best is not None
        return best

    def _turns(self, mine: Board, theirs: Board) -> Iterator[tuple[int, Board, Board, TurnMove]]:
        """Candidate turns of the player owning ``mine``: (gain, my board, their board, move)."""
        n, geometry = self.n, self.geometry
        moves = list(geometry.effective_moves(mine).items())
        self.rng.shuffle(moves)
        moves.sort(key=lambda item: -item[1].gain)
        empties = _empty_cells(theirs, n)
        for direction, outcome in moves:
            value = outcome.merges + 1
            ranked = sorted(
                empties,
                key=lambda cell: _mobility(geometry, _put(theirs, [cell], value, n)),
            )
            for cell in ranked[: self.cells]:
                yield outcome.gain, outcome.board, _put(theirs, [cell], value, n), TurnMove(direction, value, (cell,))
            spread = 1 << outcome.merges
            if outcome.merges and spread <= len(empties):
                cells = tuple(ranked_by_single(geometry, theirs, empties, n)[:spread])
                yield outcome.gain, outcome.board, _put(theirs, cells, 1, n), TurnMove(direction, 1, cells)

    def _evaluate(self, mine: Board, theirs: Board) -> int:
        weight = self.mobility_weight
        return weight * (_mobility(self.geometry, mine) - _mobility(self.geometry, theirs))

    def _search(
        self, mine: Board, theirs: Board, depth: int, alpha: int, beta: int, root: bool
    ) -> tuple[int, TurnMove | None]:
        """Negamax value of the player owning ``mine`` to move, scores as gain differences."""
        self.nodes += 1
        if not self.geometry.can_move(mine):
            return -_WIN, None
        if depth == 0 or (not root and self._out_of_budget()):
            return self._evaluate(mine, theirs), None
        best_value, best_move = -_WIN * 2, None
        for gain, new_mine, new_theirs, move in self._turns(mine, theirs):
            child, _ = self._search(new_theirs, new_mine, depth - 1, -beta, -alpha, False)
            value = gain - child
            if value > best_value:
                best_value, best_move = value, move
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        return best_value, best_move


def ranked_by_single(geometry: Geometry, board: Board, empties: list[tuple[int, int]], n: int) -> list[tuple[int, int]]:
    """Empty cells ordered by how little room a 2 there leaves the board's owner."""
    return sorted(empties, key=lambda cell: _mobility(geometry, _put(board, [cell], 1, n)))


BUILTIN_BOTS: dict[str, type] = {"random": RandomBot, "greedy": GreedyBot, "minimax": MinimaxBot}
