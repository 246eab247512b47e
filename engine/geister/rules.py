"""geister: GPCC's Geister on a 6x6 board (engine/geister/README.md).

Two players, 8 ghosts each (A-H), 4 red and 4 blue; a player knows only its own colours. Setup:
both choose their reds at once (``SET``), each on its own clock. Then seat 0 first, the players
alternate moving one own piece one square N, E, S or W (in their own frame); moving onto an
opponent piece captures it and reveals its colour. A player wins when the opponent has captured
all its reds, when it has captured all the opponent's blues, or by escape: a blue on one of its
exits (the opponent's back corners) when its turn begins (``escape: on_turn_start``), or a blue
moved off the board from an exit (``escape: move_off``). ``max_plies`` plies without a result
draw. A fault loses at once; both players failing the setup is a draw (``double_fault``). Time:
``setup_timeout_s`` for ``SET``; for moves a budget, then ``move_timeout_s`` per move (byoyomi).

Positions are kept in each seat's own frame; the other seat sees (x, y) as (5 - x, 5 - y).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core import Fault, ProcessKey, Request, Result, State, Termination, plural
from engine.geister.board import CAPTURED, DIRECTIONS, ESCAPED, EXITS, LETTERS, SIZE, START, rotate
from engine.geister.observations import Move, MoveObservation, Piece, SetupObservation, encode_board

SETUP, PLAY, OVER = "setup", "play", "over"

ESCAPE = "escape"
ALL_BLUE_CAPTURED = "all_blue_captured"
ALL_RED_CAPTURED = "all_red_captured"
MAX_PLIES = "max_plies"
DOUBLE_FAULT = "double_fault"
FAULT_CODES = {
    Termination.TIMEOUT: "timeout",
    Termination.CRASH: "crash",
    Termination.BAD_OUTPUT: "bad_output",
    Termination.ILLEGAL_MOVE: "illegal_move",
}

_BOTH = frozenset({ProcessKey(0), ProcessKey(1)})
_NONE: frozenset[ProcessKey] = frozenset()


@dataclass
class GeisterState(State):
    """A game in progress; see the module docstring for the rules.

    ``squares[seat][i]`` is where piece ``LETTERS[i]`` of ``seat`` stands in that seat's frame.
    """

    escape: str = "on_turn_start"
    max_plies: int = 254
    ng_terminate: bool = True
    setup_ms: int = 10_000
    move_ms: int = 10_000
    budget_ms: int | None = 600_000
    squares: list[list[tuple[int, int]]] = field(default_factory=lambda: [list(START), list(START)])
    reds: list[str | None] = field(default_factory=lambda: [None, None])
    remaining_ms: list[int] = field(default_factory=lambda: [0, 0])
    setup_faults: list[dict[str, str] | None] = field(default_factory=lambda: [None, None])
    moves_made: list[int] = field(default_factory=lambda: [0, 0])
    phase: str = SETUP
    to_move: int = 0
    plies: int = 0
    winner: int | None = None
    reason: str = ""
    termination: Termination = Termination.NORMAL
    offenders: list[int] = field(default_factory=list)
    detail: str = ""

    # -- what each side knows ------------------------------------------------------------
    def colour(self, seat: int, index: int) -> str:
        """``R`` or ``B``: the true colour of a piece (all blue while its setup is not accepted)."""
        reds = self.reds[seat]
        return "R" if reds is not None and LETTERS[index] in reds else "B"

    def pieces_seen(self, seat: int, reveal: bool) -> tuple[tuple[Piece, ...], tuple[Piece, ...]]:
        """The receiver's pieces and the opponent's as ``seat`` sees them (board string order).

        Args:
            seat: The receiver.
            reveal: End of game: every colour shown (opponent's in lower case).
        """
        own = tuple(
            Piece(*square, self.colour(seat, i) if square not in (CAPTURED, ESCAPED) else self.colour(seat, i).lower())
            for i, square in enumerate(self.squares[seat])
        )
        other = 1 - seat
        opponent = []
        for i, square in enumerate(self.squares[other]):
            hidden = square not in (CAPTURED, ESCAPED) and not reveal
            opponent.append(Piece(*rotate(square), "u" if hidden else self.colour(other, i).lower()))
        return own, tuple(opponent)

    def board_string(self, seat: int, reveal: bool) -> str:
        """The 48-character board string ``seat`` receives (2.4)."""
        return encode_board(*self.pieces_seen(seat, reveal))

    def occupant(self, seat: int, square: tuple[int, int]) -> tuple[int, int] | None:
        """(owner, piece index) standing on ``square`` of ``seat``'s frame, or None."""
        if square in self.squares[seat]:
            return seat, self.squares[seat].index(square)
        theirs = rotate(square)
        if theirs in self.squares[1 - seat]:
            return 1 - seat, self.squares[1 - seat].index(theirs)
        return None

    # -- referee interface -------------------------------------------------------------
    def to_act(self) -> list[Request]:
        if self.phase == SETUP:
            return [Request(s) for s in (0, 1) if self.reds[s] is None and self.setup_faults[s] is None]
        return [] if self.phase == OVER else [Request(self.to_move)]

    def processes(self) -> frozenset[ProcessKey]:
        return _NONE if self.phase == OVER else _BOTH

    def observation(self, request: Request) -> SetupObservation | MoveObservation:
        if self.phase == SETUP:
            return SetupObservation()
        own, opponent = self.pieces_seen(request.seat, reveal=False)
        return MoveObservation(own, opponent, self.moves_made[request.seat] + 1)

    def time_allowance_ms(self, request: Request) -> int:
        if self.phase == SETUP:
            return self.setup_ms
        if self.budget_ms is None:
            return self.move_ms
        return max(self.remaining_ms[request.seat], 0) + self.move_ms

    def charge_time(self, request: Request, elapsed_ms: int) -> Fault | None:
        seat = request.seat
        allowed = self.time_allowance_ms(request)
        if elapsed_ms > allowed:
            what = "its setup (SET)" if self.phase == SETUP else f"ply {self.plies + 1}"
            return Fault(
                seat,
                Termination.TIMEOUT,
                FAULT_CODES[Termination.TIMEOUT],
                f"seat {seat} took {elapsed_ms} ms for {what}, over the {allowed} ms it had",
            )
        if self.phase == PLAY and self.budget_ms is not None:
            self.remaining_ms[seat] -= elapsed_ms
        return None

    def check(self, request: Request, action: Any) -> Fault | None:
        seat = request.seat
        if self.phase == SETUP:
            if len(set(action.reds)) != len(action.reds):
                repeated = sorted({c for c in action.reds if action.reds.count(c) > 1})
                return self._illegal(seat, f"SET:{action.reds} names {', '.join(repeated)} twice")
            return None
        index = LETTERS.index(action.piece)
        square = self.squares[seat][index]
        if square == CAPTURED:
            return self._illegal(seat, f"{action} moves {action.piece}, which was captured")
        target = self.destination(seat, index, action.direction)
        if target is None:
            if self.escape == "move_off" and square in EXITS:
                return self._illegal(seat, f"{action} would take a red piece off the board: only blues escape")
            return self._illegal(seat, f"{action} moves {action.piece} off the board from {square}, not an escape")
        if target != ESCAPED:
            occupant = self.occupant(seat, target)
            if occupant is not None and occupant[0] == seat:
                return self._illegal(seat, f"{action} moves onto its own {LETTERS[occupant[1]]} at {target}")
        return None

    def destination(self, seat: int, index: int, direction: str) -> tuple[int, int] | None:
        """Where a piece would go: a square, ESCAPED for a legal escape move, or None (off the board)."""
        x, y = self.squares[seat][index]
        dx, dy = DIRECTIONS[direction]
        target = (x + dx, y + dy)
        if 0 <= target[0] < SIZE and 0 <= target[1] < SIZE:
            return target
        if self.escape == "move_off" and (x, y) in EXITS and self.colour(seat, index) == "B":
            return ESCAPED
        return None

    def legal_moves(self, seat: int) -> list[Move]:
        """Every legal move of ``seat`` now (for built-in bots and tests)."""
        moves = []
        for index, square in enumerate(self.squares[seat]):
            if square in (CAPTURED, ESCAPED):
                continue
            for direction in DIRECTIONS:
                target = self.destination(seat, index, direction)
                if target is None:
                    continue
                occupant = self.occupant(seat, target) if target != ESCAPED else None
                if occupant is None or occupant[0] != seat:
                    moves.append(Move(LETTERS[index], direction))
        return moves

    def capture_of(self, seat: int, move: Move) -> str | None:
        """``R`` or ``B``: the colour of the piece ``move`` would capture, or None."""
        target = self.destination(seat, LETTERS.index(move.piece), move.direction)
        occupant = None if target in (None, ESCAPED) else self.occupant(seat, target)
        if occupant is None or occupant[0] == seat:
            return None
        return self.colour(occupant[0], occupant[1])

    def _illegal(self, seat: int, what: str) -> Fault:
        when = "its setup" if self.phase == SETUP else f"ply {self.plies + 1}"
        return Fault(
            seat, Termination.ILLEGAL_MOVE, FAULT_CODES[Termination.ILLEGAL_MOVE], f"seat {seat} at {when}: {what}"
        )

    def apply(self, actions: Mapping[Request, Any]) -> None:
        if self.phase == SETUP:
            for request, action in actions.items():
                self.reds[request.seat] = "".join(sorted(action.reds))
            self._settle_setup()
            return
        ((request, move),) = actions.items()
        seat = request.seat
        self.moves_made[seat] += 1
        self.plies += 1
        index = LETTERS.index(move.piece)
        target = self.destination(seat, index, move.direction)
        assert target is not None, "apply() takes checked moves only"
        if target == ESCAPED:
            self.squares[seat][index] = ESCAPED
            self._end(seat, ESCAPE, f"seat {seat} moved its blue {move.piece} off the board at ply {self.plies}")
            return
        occupant = self.occupant(seat, target)
        self.squares[seat][index] = target
        if occupant is not None:
            owner, captured = occupant
            self.squares[owner][captured] = CAPTURED
            if self._all_captured(owner, "B"):
                self._end(seat, ALL_BLUE_CAPTURED, f"seat {seat} captured the last blue piece at ply {self.plies}")
                return
            if self._all_captured(owner, "R"):
                self._end(owner, ALL_RED_CAPTURED, f"seat {seat} captured seat {owner}'s last red at ply {self.plies}")
                return
        mover_next = 1 - seat
        if self.escape == "on_turn_start":
            for i, square in enumerate(self.squares[mover_next]):
                if square in EXITS and self.colour(mover_next, i) == "B":
                    self.squares[mover_next][i] = ESCAPED
                    detail = f"seat {mover_next}'s blue {LETTERS[i]} stood on an exit when its turn began"
                    self._end(mover_next, ESCAPE, f"{detail} (after ply {self.plies})")
                    return
        if self.plies >= self.max_plies:
            self._end(None, MAX_PLIES, f"no result after {plural(self.plies, 'ply', 'plies')}: a draw")
            return
        self.to_move = mover_next

    def _all_captured(self, seat: int, colour: str) -> bool:
        return all(square == CAPTURED for i, square in enumerate(self.squares[seat]) if self.colour(seat, i) == colour)

    def _settle_setup(self) -> None:
        """Once both setups are settled: play, a loss for the one that failed, or a double fault."""
        settled = [self.reds[s] is not None or self.setup_faults[s] is not None for s in (0, 1)]
        if not all(settled):
            return
        failed = [s for s in (0, 1) if self.setup_faults[s] is not None]
        if not failed:
            self.phase, self.to_move = PLAY, 0
            return
        faults = [self.setup_faults[s] for s in failed]
        if len(failed) == 2:
            self.offenders = [0, 1]
            self.termination = Termination(faults[0]["termination"])  # type: ignore[index]
            details = "; ".join(f["detail"] for f in faults)  # type: ignore[index]
            self._end(None, DOUBLE_FAULT, f"both setups failed: {details}", fault=True)
            return
        fault = faults[0]
        assert fault is not None
        self.offenders = failed
        self.termination = Termination(fault["termination"])
        self._end(1 - failed[0], fault["reason"], fault["detail"], fault=True)

    def fault(self, fault: Fault) -> None:
        if self.phase == SETUP:
            if self.setup_faults[fault.seat] is None:
                self.setup_faults[fault.seat] = {
                    "termination": fault.termination.value,
                    "reason": fault.reason_code,
                    "detail": fault.detail,
                }
            self._settle_setup()
            return
        if self.phase == OVER:
            return
        self.offenders = [fault.seat]
        self.termination = fault.termination
        self._end(1 - fault.seat, fault.reason_code, fault.detail, fault=True)

    def _end(self, winner: int | None, reason: str, detail: str, fault: bool = False) -> None:
        self.phase = OVER
        self.winner, self.reason, self.detail = winner, reason, detail
        if not fault:
            self.termination = Termination.NORMAL

    def is_over(self) -> bool:
        return self.phase == OVER

    def end_line(self, seat: int) -> str:
        """The end message ``seat`` receives (without CR LF): ``WON:``, ``LST:`` or ``DRW:`` and the board."""
        word = "DRW" if self.winner is None else ("WON" if self.winner == seat else "LST")
        return f"{word}:{self.board_string(seat, reveal=True)}"

    def picture(self) -> str:
        """The board in seat 0's frame for people: upper case seat 0, lower case seat 1, colours shown."""
        rows = [["." for _ in range(SIZE)] for _ in range(SIZE)]
        for seat in (0, 1):
            for i, square in enumerate(self.squares[seat]):
                if square in (CAPTURED, ESCAPED):
                    continue
                x, y = square if seat == 0 else rotate(square)
                name = f"{LETTERS[i]}{self.colour(seat, i)}"
                rows[y][x] = name if seat == 0 else name.lower()
        lines = [" ".join(f"{cell:>2}" for cell in row) for row in rows]
        return "\n".join(lines) + "\n(seat 0 upper case at the bottom, seat 1 lower case; r/R red, b/B blue)"

    def result(self) -> Result:
        if self.phase != OVER:
            raise RuntimeError("the game is not over")
        ranks = [1, 1] if self.winner is None else ([1, 2] if self.winner == 0 else [2, 1])
        captured = [sum(square == CAPTURED for square in self.squares[1 - s]) for s in (0, 1)]
        return Result(
            scores=captured,
            ranks=ranks,
            termination=self.termination,
            offenders=list(self.offenders),
            faults=[
                Fault(seat, Termination(fault["termination"]), fault["reason"], fault["detail"])
                for seat in self.offenders
                if (fault := self.setup_faults[seat]) is not None
            ],
            reason_code=self.reason,
            detail=self.detail,
            plies=self.plies,
            extra={
                "winner": self.winner,
                "reason": self.reason,
                "sets": [f"SET:{reds}" if reds is not None else None for reds in self.reds],
                "final": self.end_line(0),
                **(
                    {"faulted": self.offenders if len(self.offenders) > 1 else self.offenders[0]}
                    if self.offenders
                    else {}
                ),
                **({"faults": list(self.setup_faults)} if len(self.offenders) > 1 else {}),  # each seat's own
            },
        )

    def to_json(self) -> dict[str, Any]:
        data = {key: getattr(self, key) for key in self.__dataclass_fields__}
        data["squares"] = [[list(square) for square in seat] for seat in self.squares]
        data["termination"] = self.termination.value
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GeisterState:
        fields = dict(data)
        fields["squares"] = [[tuple(square) for square in seat] for seat in data["squares"]]
        fields["termination"] = Termination(data["termination"])
        for key in ("reds", "remaining_ms", "setup_faults", "moves_made", "offenders"):
            fields[key] = list(data[key])
        return cls(**fields)
