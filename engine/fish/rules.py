"""fish: Hey, That's My Fish! with GPCC 2016's rules (rules/fish.md).

2 to 4 players on 60 hexagonal ice tiles (30 one-fish, 20 two-fish, 10 three-fish) in 8 rows of
7, 8, 7, ... tiles, shuffled from the seed. Each player owns ``k`` penguins (4/3/2 for 2/3/4
players unless ``penguins`` says otherwise). Placement: in seat order, one penguin at a time, on
a free 1-fish tile. Movement: in seat order a player moves one own penguin in a straight line
(six directions) over free tiles only; the tile it left is removed and its fish are the mover's.
A player who cannot move is skipped; when no penguin can move the game ends and every penguin's
tile goes to its owner. Most fish wins, ties broken by tiles collected; equal in both share a
rank. A faulted seat is played on by the deterministic fallback policy and ranks below every
seat without a fault (a later fault ranks better); once fewer than two seats are live the game
stops at once, that turn's action unapplied, with no end credit.

Cells are numbered 0..59 in reading order; ``(r, c)`` are the rules' offset coordinates.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core import Fault, ProcessKey, Request, Result, State, Termination
from engine.fish.board import CELL_OF, CELLS, RAYS, cell_index, on_board
from engine.fish.observations import FishObservation, Move, Place

PENGUINS_AUTO = {2: 4, 3: 3, 4: 2}

PLACE, MOVE, OVER = "place", "move", "over"
NO_MOVE = "no_move"
EARLY_STOP = "early_stop"
FAULT_CODES = {
    Termination.TIMEOUT: "timeout",
    Termination.CRASH: "crash",
    Termination.BAD_OUTPUT: "bad_output",
    Termination.ILLEGAL_MOVE: "illegal",
}


@dataclass
class FishState(State):
    """A game in progress; see the module docstring for the rules.

    ``fish[i]`` is the fish on cell ``i`` (0: a gap); ``penguins[s]`` the cells of seat ``s``'s
    penguins; ``log`` every placement ``[s, r, c]`` and move ``[s, r1, c1, r2, c2]`` in order;
    ``pending`` the faults of seats whose program failed out of turn (it could not start), each
    charged when that seat's turn comes (7.1).
    """

    players: int = 2
    penguins_per_player: int = 4
    timeout_ms: int = 1000
    first_timeout_ms: int = 5000
    fish: list[int] = field(default_factory=lambda: [1] * CELLS)
    penguins: list[list[int]] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    tiles: list[int] = field(default_factory=list)
    live: list[bool] = field(default_factory=list)
    answered: list[int] = field(default_factory=list)
    faults: list[dict[str, Any]] = field(default_factory=list)
    pending: list[dict[str, Any]] = field(default_factory=list)
    log: list[list[int]] = field(default_factory=list)
    skips: list[list[int]] = field(default_factory=list)
    phase: str = PLACE
    turn: int = 0
    to_move: int = 0
    reason: str = ""

    def __post_init__(self) -> None:
        n = self.players
        for name in ("scores", "tiles", "answered"):
            if not getattr(self, name):
                setattr(self, name, [0] * n)
        if not self.penguins:
            self.penguins = [[] for _ in range(n)]
        if not self.live:
            self.live = [True] * n

    # -- the rules ----------------------------------------------------------------------
    def occupied(self) -> set[int]:
        """The cells with a penguin on them."""
        return {cell for seat in self.penguins for cell in seat}

    def placements(self) -> list[Place]:
        """The legal placements now, in reading order (4.1)."""
        taken = self.occupied()
        free = [i for i in range(CELLS) if self.fish[i] and i not in taken]
        ones = [i for i in free if self.fish[i] == 1]
        return [Place(*CELL_OF[i]) for i in (ones or free)]

    def destinations(self, cell: int, taken: set[int] | None = None) -> list[int]:
        """The cells a penguin on ``cell`` can move to, direction by direction (4.2)."""
        taken = self.occupied() if taken is None else taken
        found = []
        for ray in RAYS[cell]:
            for target in ray:
                if not self.fish[target] or target in taken:
                    break
                found.append(target)
        return found

    def moves(self, seat: int) -> list[Move]:
        """The legal moves of ``seat``, sorted by ``(r1, c1, r2, c2)``."""
        taken = self.occupied()
        return sorted(
            Move(*CELL_OF[start], *CELL_OF[end])
            for start in self.penguins[seat]
            for end in self.destinations(start, taken)
        )

    def can_move(self, seat: int, taken: set[int] | None = None) -> bool:
        """Whether ``seat`` has a legal move."""
        taken = self.occupied() if taken is None else taken
        return any(self.destinations(cell, taken) for cell in self.penguins[seat])

    def legal(self, seat: int) -> list[Place] | list[Move]:
        """The legal actions of ``seat`` in the current phase."""
        return self.placements() if self.phase == PLACE else self.moves(seat)

    def fallback(self, seat: int) -> Place | Move:
        """The fallback policy's action for ``seat`` now (7.3)."""
        if self.phase == PLACE:
            return self.placements()[0]
        moves = self.moves(seat)
        best = max(self.fish[cell_index(m.r2, m.c2)] for m in moves)
        return next(m for m in moves if self.fish[cell_index(m.r2, m.c2)] == best)

    # -- referee interface -------------------------------------------------------------
    def to_act(self) -> list[Request]:
        return [] if self.phase == OVER else [Request(self.to_move)]

    def processes(self) -> frozenset[ProcessKey]:
        if self.phase == OVER:
            return frozenset()
        return frozenset(ProcessKey(seat) for seat in range(self.players) if self.live[seat])

    def observation(self, request: Request) -> FishObservation:
        return FishObservation(
            seat=request.seat,
            phase=self.phase,
            turn=self.turn + 1,
            penguins_per_player=self.penguins_per_player,
            fish=tuple(self.fish),
            penguins=tuple(tuple(CELL_OF[cell] for cell in seat) for seat in self.penguins),
            scores=tuple(self.scores),
            tiles=tuple(self.tiles),
            legal=tuple(self.legal(request.seat)),
        )

    def time_allowance_ms(self, request: Request) -> int:
        return self.first_timeout_ms if self.answered[request.seat] == 0 else self.timeout_ms

    def charge_time(self, request: Request, elapsed_ms: int) -> Fault | None:
        allowed = self.time_allowance_ms(request)
        if elapsed_ms <= allowed:
            return None
        seat = request.seat
        detail = f"seat {seat} took {elapsed_ms} ms for turn {self.turn + 1}, over the {allowed} ms it had"
        return Fault(seat, Termination.TIMEOUT, FAULT_CODES[Termination.TIMEOUT], detail)

    def check(self, request: Request, action: Any) -> Fault | None:
        seat = request.seat
        wanted = Place if self.phase == PLACE else Move
        if not isinstance(action, wanted):
            detail = f"seat {seat} answered turn {self.turn + 1} ({self.phase}) with {action!r}"
            return Fault(seat, Termination.BAD_OUTPUT, FAULT_CODES[Termination.BAD_OUTPUT], detail)
        why = self._why_illegal(seat, action)
        if why is None:
            return None
        detail = f"seat {seat} at turn {self.turn + 1}: '{action}' is illegal: {why}"
        return Fault(seat, Termination.ILLEGAL_MOVE, FAULT_CODES[Termination.ILLEGAL_MOVE], detail)

    def _why_illegal(self, seat: int, action: Place | Move) -> str | None:
        taken = self.occupied()
        if isinstance(action, Place):
            if not on_board(action.r, action.c):
                return "no such cell"
            cell = cell_index(action.r, action.c)
            if cell in taken:
                return "a penguin stands there"
            return None if action in self.placements() else "only a free 1-fish tile may take a penguin"
        if not (on_board(action.r1, action.c1) and on_board(action.r2, action.c2)):
            return "no such cell"
        start, end = cell_index(action.r1, action.c1), cell_index(action.r2, action.c2)
        if start not in self.penguins[seat]:
            return f"({action.r1}, {action.c1}) is not one of its penguins"
        if start == end:
            return "the distance is 0"
        if not any(end in ray for ray in RAYS[start]):
            return "the cells are not on a straight line"
        if end in self.destinations(start, taken):
            return None
        if not self.fish[end]:
            return "the destination is a gap"
        if end in taken:
            return "a penguin stands on the destination"
        ray = next(ray for ray in RAYS[start] if end in ray)
        blocked = next(cell for cell in ray[: ray.index(end)] if not self.fish[cell] or cell in taken)
        r, c = CELL_OF[blocked]
        return f"the path crosses {'a gap' if not self.fish[blocked] else 'a penguin'} at ({r}, {c})"

    def apply(self, actions: Mapping[Request, Any]) -> None:
        ((request, action),) = actions.items()
        self.answered[request.seat] += 1
        self._play(request.seat, action)
        self.advance()

    def fault(self, fault: Fault) -> None:
        """Charge a fault at this turn, or, out of turn (a program that could not start), at the seat's turn."""
        if self.phase == OVER or not self.live[fault.seat]:
            return
        kind = FAULT_CODES.get(fault.termination, fault.reason_code)
        record = {"seat": fault.seat, "kind": kind, "termination": fault.termination.value, "detail": fault.detail}
        if fault.seat != self.to_move:
            if all(pending["seat"] != fault.seat for pending in self.pending):
                self.pending.append(record)
            return
        if self._charge(record):
            self._play(fault.seat, self.fallback(fault.seat))
            self.advance()

    def _charge(self, record: dict[str, Any]) -> bool:
        """Record a fault of the seat to move at this turn; False when that stops the game (7.5)."""
        self.live[record["seat"]] = False
        self.faults.append({**record, "turn": self.turn + 1})
        if sum(self.live) < 2:
            self.phase, self.reason = OVER, EARLY_STOP
            return False
        return True

    def track(self, seat: int, action: Place | Move) -> None:
        """Play an action announced by ``PLACED``/``MOVED`` (a bot's tracked copy of the game)."""
        self.to_move = seat
        self._play(seat, action)
        self.advance()

    def _play(self, seat: int, action: Place | Move) -> None:
        """Play a legal action of ``seat`` (the current turn's)."""
        self.turn += 1
        if isinstance(action, Place):
            self.penguins[seat].append(cell_index(action.r, action.c))
            self.log.append([seat, action.r, action.c])
            return
        start, end = cell_index(action.r1, action.c1), cell_index(action.r2, action.c2)
        self.scores[seat] += self.fish[start]
        self.tiles[seat] += 1
        self.fish[start] = 0
        self.penguins[seat][self.penguins[seat].index(start)] = end
        self.log.append([seat, action.r1, action.c1, action.r2, action.c2])

    def advance(self) -> None:
        """Pass the turn to the next live seat that must act, playing fallback seats and skipping blocked ones.

        A seat whose fault is pending is charged as its turn comes, and then played by the fallback.
        """
        n = self.players
        while True:
            seat = (self.to_move + 1) % n
            if self.phase == PLACE and self.turn == n * self.penguins_per_player:
                self.phase, seat = MOVE, 0
            if self.phase == MOVE:
                taken = self.occupied()
                if not any(self.can_move(s, taken) for s in range(n)):
                    self._end_by_rules()
                    return
                while not self.can_move(seat, taken):
                    self.skips.append([seat, self.turn])
                    seat = (seat + 1) % n
            self.to_move = seat
            due = [record for record in self.pending if record["seat"] == seat]
            if due:
                self.pending.remove(due[0])
                if not self._charge(due[0]):
                    return
            if self.live[seat]:
                return
            self._play(seat, self.fallback(seat))

    def _end_by_rules(self) -> None:
        """No penguin can move: every penguin's tile goes to its owner (6.1)."""
        for seat, cells in enumerate(self.penguins):
            for cell in cells:
                self.scores[seat] += self.fish[cell]
                self.tiles[seat] += 1
        self.phase, self.reason = OVER, NO_MOVE

    def is_over(self) -> bool:
        return self.phase == OVER

    def ranks(self) -> list[int]:
        """Per seat its rank (section 5 and 7.4): faulted seats last, a later fault better."""
        keys: list[tuple[int, ...]] = [(0, -self.scores[s], -self.tiles[s]) for s in range(self.players)]
        for order, record in enumerate(self.faults):
            keys[record["seat"]] = (1, -record["turn"], -order)
        return [1 + sum(other < key for other in keys) for key in keys]

    def result(self) -> Result:
        if self.phase != OVER:
            raise RuntimeError("the game is not over")
        faults = self.faults
        if faults:
            termination, code = Termination(faults[0]["termination"]), faults[0]["kind"]
            detail = "; ".join(record["detail"] for record in faults)
            if self.reason == EARLY_STOP:
                detail += "; fewer than two seats were live, so the game stopped there"
        else:
            termination, code = Termination.NORMAL, NO_MOVE
            detail = f"no penguin could move after turn {self.turn}"
        return Result(
            scores=list(self.scores),
            ranks=self.ranks(),
            termination=termination,
            offenders=[record["seat"] for record in faults],
            faults=[
                Fault(record["seat"], Termination(record["termination"]), record["kind"], record["detail"])
                for record in faults
            ],
            reason_code=code,
            detail=detail,
            plies=self.turn,
            extra={
                "tiles": list(self.tiles),
                "end": self.reason,
                "faults": [{key: record[key] for key in ("seat", "kind", "turn")} for record in faults],
            },
        )

    def to_json(self) -> dict[str, Any]:
        return {key: getattr(self, key) for key in self.__dataclass_fields__}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> FishState:
        fields = {key: data[key] for key in cls.__dataclass_fields__}
        fields["penguins"] = [list(cells) for cells in data["penguins"]]
        fields["faults"] = [dict(record) for record in data["faults"]]
        fields["pending"] = [dict(record) for record in data["pending"]]
        for key in ("fish", "scores", "tiles", "live", "answered", "log", "skips"):
            fields[key] = [list(item) if isinstance(item, list) else item for item in data[key]]
        return cls(**fields)
