"""The ``search`` built-in geister player: belief-weighted expectiminimax with alpha-beta.

The bot knows its own colours; for the opponent's it keeps a :class:`~engine.geister.belief.Belief`
(pieces stepping toward their exits look blue, pieces stepping next to the bot's look red, a piece
that sat on its exit and did not escape is red) and turns it into each unknown piece's chance of
being red, consistent with the colours already captured. The search tree is over that belief, not
over sampled assignments:

* own turns maximise and the opponent's minimise the value (from the bot's side);
* capturing an unknown piece is a chance node: red with its chance (capturing the fourth red
  loses), blue otherwise (the fourth blue wins); later chances are conditioned on the outcome;
* when the opponent's turn begins with an unknown piece on its exit, that is a chance node too:
  blue escapes (a loss), red is then known red and play goes on;
* the opponent captures own pieces knowing their colours (a cautious model: blues near an
  opponent piece count as lost, reds as safe).

Chance nodes keep alpha-beta cuts with Ballard's Star1 windows. Leaves are scored by material
(blues lost and taken, reds given and taken, the third red taken costing extra), the best escape
race of an own blue against the opponent pieces nearest that exit, the opponent's threats weighted
by their chance of being blue, and own reds standing next to opponent pieces (offers a real
opponent may take, though the search's never does). A leaf where the side to move must answer an
escape threat is searched one ply further. Win values are far above leaf scores, so the bot takes
a gamble on a capture that may lose at once only when the alternative is about as bad.

Iterative deepening runs until a node budget is spent (``max_nodes``): given the seed, the moves
are the same on every machine. ``max_ms`` is only a safety cap (reached only on a machine far
slower than intended, and then play depends on its speed). The seeded RNG picks the setup and
orders equal moves.
"""

from __future__ import annotations

import random
import time

from engine.core import require_at_least
from engine.geister.belief import Belief, red_chances
from engine.geister.board import LETTERS
from engine.geister.observations import Move, MoveObservation, SetReds, SetupObservation

WIN = 10_000.0
LOSS = 2.0  # a loss weighs this many wins: a coin flip for the game is worse than a quiet position
INF = float("inf")
BAIT = 20.0  # per own red next to an opponent piece: an offer the opponent may take (the search never does)
LEAF = 0.9 * WIN  # the most a leaf's score may be worth
PROVEN = 0.95 * WIN  # values beyond are wins or losses found by the search
BLUE_VALUE = 40.0
RED_GIVEN = 12.0
RED_TAKEN = 15.0
LAST_RED_MARGIN = 25.0
RACE = 120.0
RUN = (50.0, 30.0, 20.0, 12.0, 7.0, 4.0, 2.0, 1.0) + (0.0,) * 4
MY_EXITS = (0, 5)
OPP_EXITS = (30, 35)
DIST = tuple(tuple(abs(a % 6 - b % 6) + abs(a // 6 - b // 6) for b in range(36)) for a in range(36))
NEIGHBOURS = tuple(
    tuple(t for t, ok in ((s - 6, s >= 6), (s + 1, s % 6 < 5), (s + 6, s < 30), (s - 1, s % 6 > 0)) if ok)
    for s in range(36)
)
D0, D5, D30, D35 = DIST[0], DIST[5], DIST[30], DIST[35]
DIRECTION_OF = {-6: "NORTH", 1: "EAST", 6: "SOUTH", -1: "WEST"}
SETUPS = ("BCFG", "BCEH", "BCEF", "BCGH", "ADFG", "ABCD")


class _OutOfNodes(Exception):
    """The node budget (or the safety clock) ran out in the middle of a pass."""


class _Tree:
    """One position as the bot sees it, searched in place (moves are played and taken back).

    Pieces 0-7 are the bot's, 8-15 the opponent's; squares are ``x + 6 * y`` in the bot's frame,
    -1 once captured.
    """

    def __init__(self, obs: MoveObservation, belief: Belief, params: SearchBot, plies: int) -> None:
        self.board = [-1] * 36
        self.pos = [-1] * 16
        for i, piece in enumerate((*obs.own, *obs.opponent)):
            if piece.on_board:
                square = piece.x + 6 * piece.y
                self.board[square], self.pos[i] = i, square
        self.red = [p.colour in "Rr" for p in obs.own]
        self.known_red = [j in belief.known_red for j in range(8)]
        self.my_red_lost = sum(1 for p in obs.own if not p.on_board and p.colour == "r")
        self.my_blue_lost = sum(1 for p in obs.own if not p.on_board and p.colour == "b")
        self.taken_red = sum(1 for p in obs.opponent if not p.on_board and p.colour == "r")
        self.taken_blue = sum(1 for p in obs.opponent if not p.on_board and p.colour == "b")
        self.weights = tuple(round(w, 6) for w in belief.weights)
        self.move_off = params.escape == "move_off"
        self.max_plies = params.max_plies
        self.root_plies = plies
        self.max_nodes = params.max_nodes
        self.deadline = time.perf_counter() + params.max_ms / 1000
        self.nodes = 0
        self.blues = [i for i in range(8) if not self.red[i]]
        self.reds = [i for i in range(8) if self.red[i]]
        self._memo: dict[tuple[tuple[int, ...], int], dict[int, float]] = {}
        self._current: dict[int, float] | None = None

    # -- beliefs ---------------------------------------------------------------------------
    def chances(self) -> dict[int, float]:
        """Each unknown opponent piece's chance of being red, here in the tree."""
        if self._current is not None:
            return self._current
        pos, known = self.pos, self.known_red
        unknown = tuple(j for j in range(8) if pos[8 + j] >= 0 and not known[j])
        reds = 4 - self.taken_red - sum(1 for j in range(8) if pos[8 + j] >= 0 and known[j])
        key = (unknown, reds)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = red_chances(unknown, reds, self.weights)
        self._current = found
        return found

    def won(self, plies: int) -> float:
        """The value of a win after ``plies`` plies (sooner is better)."""
        return WIN - (plies - self.root_plies)

    def lost(self, plies: int) -> float:
        """The value of a loss after ``plies`` plies (later is better)."""
        return -LOSS * WIN + (plies - self.root_plies)

    def p_red(self, j: int) -> float:
        return 1.0 if self.known_red[j] else self.chances()[j]

    # -- moves -----------------------------------------------------------------------------
    def moves(self, me: bool) -> list[tuple[int, int, int, int]]:
        """(piece, from, to, captured or -1), captures first, then steps toward the mover's exits."""
        board, pos = self.board, self.pos
        captures, forward, other = [], [], []
        first, exit_a, exit_b = (0, 0, 5) if me else (8, 30, 35)
        for i in range(first, first + 8):
            s = pos[i]
            if s < 0:
                continue
            before = min(DIST[exit_a][s], DIST[exit_b][s])
            for t in NEIGHBOURS[s]:
                o = board[t]
                if o < 0:
                    (forward if min(DIST[exit_a][t], DIST[exit_b][t]) < before else other).append((i, s, t, -1))
                elif (o >= 8) == me:
                    captures.append((i, s, t, o))
        return captures + forward + other

    def play(self, i: int, s: int, t: int, o: int) -> None:
        self.board[s], self.board[t], self.pos[i] = -1, i, t
        if o >= 0:
            self.pos[o] = -1
            self._current = None

    def undo(self, i: int, s: int, t: int, o: int) -> None:
        self.board[s], self.board[t], self.pos[i] = i, o, s
        if o >= 0:
            self.pos[o] = t
            self._current = None

    # -- search ----------------------------------------------------------------------------
    def value(self, depth: int, alpha: float, beta: float, me: bool, plies: int, ext: int) -> float:
        """The position's value for the bot, ``me`` (or the opponent) to move after ``plies`` plies."""
        self.nodes += 1
        if self.nodes > self.max_nodes or (self.nodes & 127 == 0 and time.perf_counter() > self.deadline):
            raise _OutOfNodes
        board = self.board
        if self.move_off and plies >= self.max_plies:
            return 0.0
        if me:
            for e in MY_EXITS:
                o = board[e]
                if 0 <= o < 8 and not self.red[o]:
                    return self.won(plies)
        else:
            for e in OPP_EXITS:
                o = board[e]
                if o >= 8 and not self.known_red[o - 8]:
                    p, lose = self.p_red(o - 8), self.lost(plies)
                    if p <= 0.0:
                        return lose
                    self.known_red[o - 8], self._current = True, None
                    v = self.value(depth, (alpha - (1 - p) * lose) / p, (beta - (1 - p) * lose) / p, me, plies, ext)
                    self.known_red[o - 8], self._current = False, None
                    return p * v + (1 - p) * lose
        if plies >= self.max_plies:
            return 0.0
        if depth <= 0:
            if ext <= 0 or not self.urgent(me):
                return self.evaluate(me)
            depth, ext = 1, ext - 1
        best = -INF if me else INF
        for move in self.moves(me):
            v = self.child(move, depth, alpha, beta, me, plies, ext)
            if me:
                if v > best:
                    best = v
                    alpha = max(alpha, v)
            elif v < best:
                best = v
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best

    def child(
        self, move: tuple[int, int, int, int], depth: int, alpha: float, beta: float, me: bool, plies: int, ext: int
    ) -> float:
        """The value after ``move``: a chance node when the bot captures an unknown piece."""
        i, s, t, o = move
        after = plies + 1
        self.play(i, s, t, o)
        try:
            if o < 0:
                return self.value(depth - 1, alpha, beta, not me, after, ext)
            if not me:  # the opponent takes one of ours: its colour is known
                counter = "my_red_lost" if self.red[o] else "my_blue_lost"
                setattr(self, counter, getattr(self, counter) + 1)
                try:
                    if getattr(self, counter) == 4:  # our 4th red taken wins; our 4th blue loses
                        return self.won(after) if self.red[o] else self.lost(after)
                    return self.value(depth - 1, alpha, beta, True, after, ext)
                finally:
                    setattr(self, counter, getattr(self, counter) - 1)
            self.pos[o], self._current = t, None  # still on the board while its chance is worked out
            p = self.p_red(o - 8)
            self.pos[o], self._current = -1, None
            return self._capture(p, depth, alpha, beta, after, ext)
        finally:
            self.undo(i, s, t, o)

    def _capture(self, p: float, depth: int, alpha: float, beta: float, after: int, ext: int) -> float:
        """Star1 over the two colours a captured unknown piece may have (red with chance ``p``)."""

        def red(a: float, b: float) -> float:
            self.taken_red += 1
            self._current = None
            v = self.lost(after) if self.taken_red == 4 else self.value(depth - 1, a, b, False, after, ext)
            self.taken_red -= 1
            self._current = None
            return v

        def blue(a: float, b: float) -> float:
            self.taken_blue += 1
            v = self.won(after) if self.taken_blue == 4 else self.value(depth - 1, a, b, False, after, ext)
            self.taken_blue -= 1
            return v

        if p >= 1.0:
            return red(alpha, beta)
        if p <= 0.0:
            return blue(alpha, beta)
        (p1, f1), (p2, f2) = sorted(((p, red), (1 - p, blue)), key=lambda pair: -pair[0])
        high, low = WIN, -LOSS * WIN  # bounds of any value
        v1 = f1((alpha - p2 * high) / p1, (beta - p2 * low) / p1)
        if p1 * v1 + p2 * high <= alpha:
            return p1 * v1 + p2 * high
        if p1 * v1 + p2 * low >= beta:
            return p1 * v1 + p2 * low
        return p1 * v1 + p2 * f2((alpha - p1 * v1) / p2, (beta - p1 * v1) / p2)

    def urgent(self, me: bool) -> bool:
        """Whether the side to move must answer an escape threat (a leaf searched one ply further)."""
        board = self.board
        if me:
            return any(board[e] >= 8 and not self.known_red[board[e] - 8] for e in OPP_EXITS)
        return any(0 <= board[e] < 8 and not self.red[board[e]] for e in MY_EXITS)

    def evaluate(self, me: bool) -> float:
        """A leaf's value: material, the best own escape race, the opponent's likely-blue threats."""
        pos = self.pos
        v = BLUE_VALUE * (self.taken_blue - self.my_blue_lost) + RED_GIVEN * self.my_red_lost
        v -= RED_TAKEN * self.taken_red + (LAST_RED_MARGIN if self.taken_red == 3 else 0.0)
        mine = [s for s in pos[:8] if s >= 0]
        theirs = [s for s in pos[8:] if s >= 0]
        guard_a = min([D0[s] for s in theirs])
        guard_b = min([D5[s] for s in theirs])
        tempo = 0 if me else 1
        best = 0.0
        for i in self.blues:
            s = pos[i]
            if s >= 0:
                a, b = D0[s], D5[s]
                score = RUN[a] + RACE if guard_a - a > tempo else RUN[a]
                other = RUN[b] + RACE if guard_b - b > tempo else RUN[b]
                best = max(best, score, other)
        v += best
        board = self.board
        for i in self.reds:
            s = pos[i]
            if s >= 0:
                for t in NEIGHBOURS[s]:
                    if board[t] >= 8:
                        v += BAIT
                        break
        guard_a = min([D30[s] for s in mine])
        guard_b = min([D35[s] for s in mine])
        tempo = 1 - tempo
        known = self.known_red
        chances = None
        for j in range(8):
            s = pos[8 + j]
            if s < 0 or known[j]:
                continue
            a, b = D30[s], D35[s]
            threat = max(
                RUN[a] + RACE if guard_a - a > tempo else RUN[a], RUN[b] + RACE if guard_b - b > tempo else RUN[b]
            )
            if threat > 0.0:
                if chances is None:
                    chances = self.chances()
                v -= (1.0 - chances[j]) * threat
        return max(-LEAF, min(LEAF, v))


class SearchBot:
    """Expectiminimax over a belief about the opponent's colours, alpha-beta, node-budgeted.

    Args:
        seed: Seeds the setup (one of a few) and the order of equal moves.
        max_nodes: Positions searched per move; iterative deepening stops when they are spent.
        max_ms: Safety cap on the time per move in milliseconds (normally the node budget ends
            the search long before).
        extensions: How many times one line may be searched a ply further to answer an escape threat.
        escape: The variant's escape rule (given by the league).
        max_plies: The variant's ply cap (given by the league).
    """

    def __init__(
        self,
        seed: int = 0,
        max_nodes: int = 3000,
        max_ms: int = 2000,
        extensions: int = 2,
        escape: str = "on_turn_start",
        max_plies: int = 254,
    ) -> None:
        require_at_least(1, max_nodes=max_nodes, max_ms=max_ms)
        require_at_least(0, extensions=extensions)
        self.rng = random.Random(seed)
        self.max_nodes = max_nodes
        self.max_ms = max_ms
        self.extensions = extensions
        self.escape = escape
        self.max_plies = max_plies
        self.belief = Belief(escape)
        self.last_nodes = 0
        self.last_depth = 0

    def act(self, obs: SetupObservation | MoveObservation) -> SetReds | Move:
        if isinstance(obs, SetupObservation):
            return SetReds(self.rng.choice(SETUPS))
        self.belief.update(obs)
        if self.escape == "move_off":
            for letter, piece in zip(LETTERS, obs.own, strict=True):
                if piece.colour == "B" and (piece.x, piece.y) in ((0, 0), (5, 0)):
                    return Move(letter, "NORTH")
        tree = _Tree(obs, self.belief, self, self.belief.plies_played(obs))
        move = self.search(tree)
        i, s, t, _ = move
        return Move(LETTERS[i], DIRECTION_OF[t - s])

    def search(self, tree: _Tree) -> tuple[int, int, int, int]:
        """Iterative deepening at the root until the node budget is spent; the best move found."""
        moves = tree.moves(True)
        order = list(range(len(moves)))
        self.rng.shuffle(order)
        captures = {k for k, move in enumerate(moves) if move[3] >= 0}
        order.sort(key=lambda k: k not in captures)
        moves = [moves[k] for k in order]
        best, self.last_depth = moves[0], 0
        plies = tree.root_plies
        for depth in range(1, 40):
            found, found_value, alpha = None, -INF, -INF
            try:
                for move in moves:
                    v = tree.child(move, depth, alpha, INF, True, plies, self.extensions)
                    if v > found_value:
                        found, found_value, alpha = move, v, v
            except _OutOfNodes:
                if found is not None:
                    best = found
                break
            best, self.last_depth = found, depth
            moves.remove(found)
            moves.insert(0, found)
            if abs(found_value) >= PROVEN or depth >= tree.max_plies - plies:
                break
        self.last_nodes = tree.nodes
        return best
