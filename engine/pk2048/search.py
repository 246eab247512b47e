"""The ``expectimax`` built-in pk2048 player: a shallow search that knows the special operations.

A turn of the search: the player to move picks an operation (own turns maximise, the
opponent's turns minimise the value), then the spawn is a chance node over every empty cell and
both tile values (an interference has none). Values are from the bot's side: the score
difference (own minus opponent's) at the leaves, plus what the next own slide would score and
what the unused special operations are worth; a finished game is worth +-``WIN`` plus the
difference, with the rules' tie-breaks (a tie goes to the maker of the target tile, and loses
for a player that is stuck with its bomb used).

Which operations are searched:

* own turn at the root: every slide, every interference, and the bombs that score more than the
  best slide (top few), or every bomb when the board is stuck. An interference has no chance
  node, so it is cheap to search: it wins at once when filling the last empty cell leaves an
  opponent without a bomb stuck and not ahead, it can block the opponent's best merge, and it
  passes the turn when every slide would line up a merge for the opponent;
* deeper turns: the slides, the forced bombs of a stuck board, and interferences once at most
  ``endgame_empties`` cells are empty (that is when they can make a board stuck).

The search is deterministic: a fixed depth in turn pairs (one by default, a few ms a move; a
second pair costs about a hundred times more and is tried only within ``max_nodes``), never the
clock; the seeded RNG only orders equal choices.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from operator import itemgetter

from engine.core import require_at_least
from engine.pk2048.rules import Observation, Operation, exponent_of
from engine.slide import Board, slide_line

WIN = 1_000_000.0
_TRANSPOSE = itemgetter(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15)


@cache
def _toward_start(row: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
    new, _, gain = slide_line(row)
    return new, gain


@cache
def _toward_end(row: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
    new, _, gain = slide_line(row[::-1])
    return new[::-1], gain


def _slide_rows(board: Board, line: Callable[[Board], tuple[Board, int]]) -> tuple[Board, int]:
    a, ga = line(board[0:4])
    b, gb = line(board[4:8])
    c, gc = line(board[8:12])
    d, gd = line(board[12:16])
    return a + b + c + d, ga + gb + gc + gd


def fast_slide(board: Board, direction: int) -> tuple[Board, int]:
    """The board after a slide (1 up, 2 right, 3 down, 4 left) and its gain, for the 4x4 board."""
    if direction == 4:
        return _slide_rows(board, _toward_start)
    if direction == 2:
        return _slide_rows(board, _toward_end)
    slid, gain = _slide_rows(_TRANSPOSE(board), _toward_start if direction == 1 else _toward_end)
    return _TRANSPOSE(slid), gain


def _stuck(board: Board) -> bool:
    if 0 in board:
        return False
    for i in range(16):
        value = board[i]
        if (i & 3) != 3 and board[i + 1] == value:
            return False
        if i < 12 and board[i + 4] == value:
            return False
    return True


Used = tuple[bool, bool, bool, bool]
"""Special operations used: own interference, own bomb, opponent's interference, opponent's bomb."""

Move = tuple[Operation, Board, int, Used]


class _OutOfNodes(Exception):
    pass


class ExpectimaxBot:
    """Expectimax over own operations (bomb and interference included), spawns and the opponent's reply.

    Args:
        seed: Seeds the order of equal choices.
        depth: Turn pairs searched (own turn and the opponent's reply); deeper pairs are tried
            only while the node budget lasts.
        max_nodes: Positions searched per answer before a deeper pass is given up.
        four_probability: The spawn's chance of a 4 (the variant's, from ``PK2048.bot_rules``).
        target_tile: The tile that ends a game (the variant's, from ``PK2048.bot_rules``).
        reply_weight: How much of its best next slide's gain a leaf credits to the side to move.
        bomb_value: Points an unused bomb is worth (kept as insurance against a stuck board).
        interference_value: Points an unused interference is worth.
        bomb_candidates: How many scoring bombs the root searches.
        endgame_empties: At most this many empty cells: deeper turns search interferences too.
    """

    def __init__(
        self,
        seed: int = 0,
        depth: int = 1,
        max_nodes: int = 3000,
        four_probability: float = 0.5,
        target_tile: int = 2048,
        reply_weight: float = 0.8,
        bomb_value: float = 24.0,
        interference_value: float = 8.0,
        bomb_candidates: int = 3,
        endgame_empties: int = 2,
    ) -> None:
        require_at_least(1, depth=depth, max_nodes=max_nodes)
        require_at_least(0, bomb_candidates=bomb_candidates, endgame_empties=endgame_empties)
        self.rng = random.Random(seed)
        self.depth = depth
        self.max_nodes = max_nodes
        self.chances = [(1, 1.0 - four_probability), (2, four_probability)]
        self.chances = [(exponent, p) for exponent, p in self.chances if p > 0]
        self.target = exponent_of(target_tile)
        self.reply_weight = reply_weight
        self.bomb_value = bomb_value
        self.interference_value = interference_value
        self.bomb_candidates = bomb_candidates
        self.endgame_empties = endgame_empties
        self.nodes = 0
        self.node_limit = float("inf")
        self.searched_depth = 0

    def act(self, observation: Observation) -> Operation:
        used: Used = (
            observation.my_interference_used,
            observation.my_bomb_used,
            observation.opp_interference_used,
            observation.opp_bomb_used,
        )
        board, diff = observation.board, observation.my_score - observation.opp_score
        moves = self._moves(board, used, mine=True, root=True)
        self.nodes = 0
        self.rng.shuffle(moves)
        best = moves[0][0]
        for depth in range(1, self.depth + 1):
            previous, self.nodes = self.nodes, 0
            if depth > 1 and previous * previous / len(moves) > self.max_nodes:
                break  # one more turn pair multiplies the work by about (nodes per own move)
            self.node_limit = float("inf") if depth == 1 else self.max_nodes
            try:
                values = [self._after(after, diff + gain, mark, op, depth, True) for op, after, gain, mark in moves]
            except _OutOfNodes:
                break
            best = moves[max(range(len(moves)), key=values.__getitem__)][0]
            self.searched_depth = depth
        return best

    # -- operations -----------------------------------------------------------------------------
    def _moves(self, board: Board, used: Used, mine: bool, root: bool = False) -> list[Move]:
        """Candidate operations of the side to move with their boards, gains and new ``used``."""
        own_interference, own_bomb = (0, 1) if mine else (2, 3)
        moves: list[Move] = []
        best_gain = -1
        for direction in (1, 2, 3, 4):
            after, gain = fast_slide(board, direction)
            if after != board:
                moves.append((Operation(0, 0, direction), after, gain, used))
                best_gain = max(best_gain, gain)
        empties = [i for i in range(16) if board[i] == 0]
        if not used[own_interference] and (root or len(empties) <= self.endgame_empties):
            marked = _mark(used, own_interference)
            for i in empties:
                moves.append((Operation(i + 1, 0, 0), board[:i] + (1,) + board[i + 1 :], 0, marked))
        if not used[own_bomb] and (not moves or root):
            marked = _mark(used, own_bomb)
            bombs = []
            for i in range(16):
                if board[i]:
                    bombed = board[:i] + (0,) + board[i + 1 :]
                    for direction in (1, 2, 3, 4):
                        after, gain = fast_slide(bombed, direction)
                        if after != bombed:
                            bombs.append((Operation(0, i + 1, direction), after, gain, marked))
            if moves:  # not forced: only bombs that score more than any slide
                bombs = sorted((m for m in bombs if m[2] > best_gain), key=lambda m: -m[2])[: self.bomb_candidates]
            moves += bombs
        return moves

    # -- search ---------------------------------------------------------------------------------
    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise _OutOfNodes

    def _after(self, after: Board, diff: float, used: Used, op: Operation, depth: int, mover_is_me: bool) -> float:
        """Value after an operation: the target check, then the spawn (none after an interference)."""
        if max(after) >= self.target:
            won = diff >= 0 if mover_is_me else diff > 0
            return (WIN if won else -WIN) + diff
        if not mover_is_me and depth <= 1:
            return self._leaf(after, diff, used, spawn_follows=op.interference == 0)
        next_depth = depth if mover_is_me else depth - 1
        if op.interference:
            return self._turn(after, diff, used, next_depth, not mover_is_me)
        return self._chance(after, diff, used, next_depth, not mover_is_me)

    def _chance(self, board: Board, diff: float, used: Used, depth: int, me_next: bool) -> float:
        empties = [i for i in range(16) if board[i] == 0]
        total = 0.0
        for i in empties:
            for exponent, p in self.chances:
                total += p * self._turn(board[:i] + (exponent,) + board[i + 1 :], diff, used, depth, me_next)
        return total / len(empties)

    def _turn(self, board: Board, diff: float, used: Used, depth: int, me: bool) -> float:
        """Value of a position with ``me`` (or the opponent) to move."""
        self._tick()
        if _stuck(board) and used[1 if me else 3]:
            won = diff > 0 if me else diff >= 0  # a tie loses for the stuck player
            return (WIN if won else -WIN) + diff
        sign = 1 if me else -1
        best = -WIN * 2 if me else WIN * 2
        for op, after, gain, new_used in self._moves(board, used, mine=me):
            value = self._after(after, diff + sign * gain, new_used, op, depth, me)
            best = max(best, value) if me else min(best, value)
        return best

    def _leaf(self, board: Board, diff: float, used: Used, spawn_follows: bool) -> float:
        """A position with the bot to move: difference, its best next slide, and the specials held."""
        self._tick()
        best_gain = -1
        for direction in (1, 2, 3, 4):
            after, gain = fast_slide(board, direction)
            if after != board and gain > best_gain:
                best_gain = gain
        if best_gain < 0 and not spawn_follows and used[1]:
            return (WIN if diff > 0 else -WIN) + diff  # stuck with the bomb used
        specials = self.bomb_value * (used[3] - used[1]) + self.interference_value * (used[2] - used[0])
        return diff + self.reply_weight * max(best_gain, 0) + specials


def _mark(used: Used, index: int) -> Used:
    marked = list(used)
    marked[index] = True
    return (marked[0], marked[1], marked[2], marked[3])
