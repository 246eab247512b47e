"""The ``search`` built-in fish player: paranoid alpha-beta over bitboards, territory evaluation.

The board is kept as a bitboard with one bit a cell at ``16 * r + x`` (``x`` the rules' doubled
column), so each of the six directions is one fixed shift (E/W 2, NE/SW 15, NW/SE 17) and the
unused column 15 and wrong-parity bits stop lines at the edges.

* **Search**: paranoid alpha-beta: the bot maximises its utility, every opponent minimises it,
  turns follow the rules (placements, then moves in seat order, blocked seats skipped, the exact
  final score when no penguin can move). Moves are tried richest landing first, placements
  richest surroundings first.
* **Evaluation**: per seat, the fish it has collected, the fish under its penguins (each
  penguin's tile is its owner's in the end) and its territory: a multi-source breadth-first
  search over free tiles from every penguin at once, each free tile going to the seat whose
  penguins reach it in the fewest steps (tiles reached first by several seats are split between
  them), so islands, cut-offs and rich areas all show. Territory counts ``territory`` of its fish
  (it is not collected yet). The utility is the bot's value minus a blend of the best and the
  mean of the opponents' values (``rivalry``: 1 is the best alone, 0 the mean alone).
* **Budget**: iterative deepening until ``max_nodes`` nodes are spent, so given the seed the
  moves are the same on every machine; ``max_ms`` is only a safety cap. The seeded RNG orders
  equal root moves.
"""

from __future__ import annotations

import random
import time

from engine.core import require_at_least
from engine.fish.board import CELL_OF, CELLS, RAYS, cell_index
from engine.fish.observations import FishObservation, Move, Place

INF = float("inf")


def _position(cell: int) -> int:
    r, c = CELL_OF[cell]
    return 16 * r + 2 * c + (1 if r % 2 == 0 else 0)


POS = tuple(_position(cell) for cell in range(CELLS))
"""Per cell in reading order, its bit position."""
CELL_AT = {pos: cell for cell, pos in enumerate(POS)}
RAYS_AT: list[tuple[tuple[int, ...], ...]] = [()] * 128
NEIGHBOURS_AT = [0] * 128
for _cell, _pos in enumerate(POS):
    RAYS_AT[_pos] = tuple(tuple(POS[t] for t in ray) for ray in RAYS[_cell] if ray)
    NEIGHBOURS_AT[_pos] = sum(1 << POS[ray[0]] for ray in RAYS[_cell] if ray)


class _OutOfNodes(Exception):
    """The node budget (or the safety clock) ran out in the middle of a pass."""


class Board:
    """A position searched in place: actions are played and taken back.

    Attributes:
        players: The number of seats.
        fish: Per bit position, the fish of its tile when the search began (0: a gap or no cell).
        free: The tiles without a penguin, as a bitboard.
        penguins: Per seat, the bit positions of its penguins.
        banked: Per seat, fish collected plus the fish under its penguins (all the owner's in the end).
        to_place: Placements still to make before the movement phase.
    """

    def __init__(self, obs: FishObservation) -> None:
        self.players = len(obs.penguins)
        self.fish = [0] * 128
        for cell, fish in enumerate(obs.fish):
            self.fish[POS[cell]] = fish
        self.penguins = [[POS[cell_index(r, c)] for r, c in seat] for seat in obs.penguins]
        taken = {pos for seat in self.penguins for pos in seat}
        self.free = sum(1 << POS[cell] for cell in range(CELLS) if obs.fish[cell] and POS[cell] not in taken)
        self.two_up = sum(1 << pos for pos in range(128) if self.fish[pos] >= 2)
        self.three = sum(1 << pos for pos in range(128) if self.fish[pos] == 3)
        self.banked = [obs.scores[s] + sum(self.fish[p] for p in self.penguins[s]) for s in range(self.players)]
        self.to_place = self.players * obs.penguins_per_player - len(taken)

    def value_of(self, mask: int) -> int:
        """The fish on the tiles of ``mask`` (free tiles only)."""
        return mask.bit_count() + (mask & self.two_up).bit_count() + (mask & self.three).bit_count()

    def actions(self, seat: int) -> list[tuple[int, int]]:
        """``(from, to)`` bit positions (``from`` -1 for a placement), richest destination first."""
        free = self.free
        if self.to_place:
            ones = free & ~self.two_up or free  # a free 1-fish tile always exists under the rules
            found = [(-1, p) for p in range(128) if (ones >> p) & 1]
            found.sort(key=self.order)
            return found
        found = []
        for start in self.penguins[seat]:
            for ray in RAYS_AT[start]:
                for target in ray:
                    if not (free >> target) & 1:
                        break
                    found.append((start, target))
        found.sort(key=self.order)
        return found

    def order(self, action: tuple[int, int]) -> int:
        """Sort key, best first: a move's landing fish; a placement's fish on the free tiles around it."""
        start, target = action
        if start >= 0:
            return -self.fish[target]
        return -self.value_of(NEIGHBOURS_AT[target] & self.free)

    def play(self, seat: int, start: int, target: int) -> None:
        """Play an action of ``seat``: the tile at ``start`` is removed, ``target`` taken."""
        self.free ^= 1 << target
        self.banked[seat] += self.fish[target]
        if start < 0:
            self.penguins[seat].append(target)
            self.to_place -= 1
        else:
            cells = self.penguins[seat]
            cells[cells.index(start)] = target

    def undo(self, seat: int, start: int, target: int) -> None:
        """Take back :meth:`play`."""
        self.free ^= 1 << target
        self.banked[seat] -= self.fish[target]
        if start < 0:
            self.penguins[seat].pop()
            self.to_place += 1
        else:
            cells = self.penguins[seat]
            cells[cells.index(target)] = start

    def can_move(self, seat: int) -> bool:
        """Whether a penguin of ``seat`` has a free tile next to it."""
        free = self.free
        return any(NEIGHBOURS_AT[p] & free for p in self.penguins[seat])

    def next_seat(self, seat: int) -> int:
        """The seat to act after ``seat``, or -1 when no penguin can move (the game is over)."""
        n = self.players
        if self.to_place:
            return (seat + 1) % n
        for step in range(1, n + 1):
            other = (seat + step) % n
            if self.can_move(other):
                return other
        return -1

    def territory(self) -> list[float]:
        """Per seat, the fish on the free tiles its penguins reach in fewer steps than any other seat's.

        A breadth-first search from every penguin at once over the free tiles, one step a round;
        a tile first reached in the same round by several seats counts half for each.
        """
        fronts = [sum(1 << p for p in cells) for cells in self.penguins]
        owned = [0.0] * self.players
        left = self.free
        value = self.value_of
        while True:
            union = shared = 0
            grown = []
            for f in fronts:
                if f:
                    f = ((f << 2) | (f >> 2) | (f << 15) | (f >> 15) | (f << 17) | (f >> 17)) & left
                    shared |= union & f
                    union |= f
                grown.append(f)
            if not union:
                return owned
            left &= ~union
            for s, f in enumerate(grown):
                if f:
                    owned[s] += value(f & ~shared) + 0.5 * value(f & shared) if shared else value(f)
            fronts = grown


class SearchBot:
    """Paranoid alpha-beta a few plies deep: fish banked plus the territory each seat reaches first.

    The strategy in full is in the docstring of ``engine/fish/search.py``.

    Args:
        seed: Orders equal root actions.
        max_nodes: Nodes searched per decision (the budget that decides the play).
        max_ms: Safety cap on the time per decision in ms (play depends on the machine only if it is hit).
        territory: Weight of the fish in a seat's territory against the fish it has banked.
        rivalry: 1 to play against the best opponent alone, 0 against the mean of the opponents.
    """

    def __init__(
        self, seed: int = 0, max_nodes: int = 2000, max_ms: int = 400, territory: float = 0.4, rivalry: float = 0.5
    ) -> None:
        require_at_least(1, max_nodes=max_nodes, max_ms=max_ms)
        require_at_least(0, territory=territory, rivalry=rivalry)
        if rivalry > 1:
            raise ValueError(f"rivalry must be at most 1, not {rivalry}")
        self.rng = random.Random(seed)
        self.max_nodes = max_nodes
        self.max_ms = max_ms
        self.territory = territory
        self.rivalry = rivalry
        self.last_nodes = 0
        self.last_depth = 0

    def act(self, obs: FishObservation) -> Place | Move:
        """The action the search prefers in ``obs``."""
        if len(obs.legal) == 1:
            return obs.legal[0]
        start, target = self.search(Board(obs), obs.seat)
        if start < 0:
            return Place(*CELL_OF[CELL_AT[target]])
        return Move(*CELL_OF[CELL_AT[start]], *CELL_OF[CELL_AT[target]])

    # -- evaluation ------------------------------------------------------------------------
    def utility(self, values: list[float]) -> float:
        """The bot's value minus the blend of the opponents' best and mean values."""
        others = values[: self.me] + values[self.me + 1 :]
        return values[self.me] - self.rivalry * max(others) - (1 - self.rivalry) * sum(others) / len(others)

    def evaluate(self) -> float:
        """The utility of the board now: banked fish plus weighted territory, per seat."""
        board, weight = self.board, self.territory
        owned = board.territory()
        return self.utility([bank + weight * land for bank, land in zip(board.banked, owned, strict=True)])

    # -- search ----------------------------------------------------------------------------
    def search(self, board: Board, me: int) -> tuple[int, int]:
        """Iterative deepening at the root until the node budget is spent; the best action found."""
        self.board, self.me, self.nodes = board, me, 0
        self.deadline = time.perf_counter() + self.max_ms / 1000
        actions = board.actions(me)
        self.rng.shuffle(actions)
        actions.sort(key=board.order)
        best, self.last_depth = actions[0], 0
        for depth in range(1, 64):
            self.cut = False
            found, found_value, alpha = None, -INF, -INF
            try:
                for action in actions:
                    v = self.child(me, action, depth, alpha, INF)
                    if v > found_value:
                        found, found_value, alpha = action, v, v
            except _OutOfNodes:
                if found is not None:
                    best = found
                break
            best, self.last_depth = found, depth
            actions.remove(found)
            actions.insert(0, found)
            if not self.cut:  # every line reached the end of the game: the value is exact
                break
        self.last_nodes = self.nodes
        return best

    def child(self, seat: int, action: tuple[int, int], depth: int, alpha: float, beta: float) -> float:
        """The value after ``seat`` plays ``action``, searched ``depth - 1`` plies further."""
        board = self.board
        board.play(seat, *action)
        after = board.next_seat(seat)
        if after < 0:
            v = self.utility([float(bank) for bank in board.banked])
        else:
            v = self.value(after, depth - 1, alpha, beta)
        board.undo(seat, *action)
        return v

    def value(self, seat: int, depth: int, alpha: float, beta: float) -> float:
        """The position's value for the bot with ``seat`` to act, searched ``depth`` plies."""
        self.nodes += 1
        if self.nodes > self.max_nodes or (self.nodes & 63 == 0 and time.perf_counter() > self.deadline):
            raise _OutOfNodes
        if depth <= 0:
            self.cut = True
            return self.evaluate()
        if seat == self.me:
            for action in self.board.actions(seat):
                v = self.child(seat, action, depth, alpha, beta)
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
            return alpha
        for action in self.board.actions(seat):
            v = self.child(seat, action, depth, alpha, beta)
            if v < beta:
                beta = v
                if alpha >= beta:
                    break
        return beta
