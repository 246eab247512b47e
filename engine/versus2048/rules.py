"""versus2048: 5x5 Versus 2048 of AI Challenge 2018 @ CODE FESTIVAL (engine/versus2048/README.md).

Two players, each with a private N x N board (exponent notation) and a score. Pre-game: player 0
puts a 2 on a cell of player 1's board, then player 1 on player 0's. Then players alternate,
player 0 first, for ``turns_per_player`` turns each. A turn: the stuck check (a board that cannot
move loses, nothing is sent), then one reply ``Cmd M V r1 c1 ...``: slide the own board (each merge
scores the created value; X = merges), then put M tiles of exponent V on M empty cells of the
opponent's board with M * 2**V == 2**(X + 1). A non-effective slide, a bad attack, a malformed
reply, a crash or a broken time limit loses at once. After the last turn the higher score wins;
equal scores go to player 1. There are no draws and no randomness.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core import (
    Fault,
    ProcessKey,
    Request,
    Result,
    State,
    Termination,
)
from engine.slide import Board, SlideOutcome, square

PREGAME = "pregame"
MAIN = "main"
OVER = "over"

TIME_LIMIT_EXCEEDED_AT_INIT = "TIME_LIMIT_EXCEEDED_AT_INIT"
PRESENTATION_ERROR_AT_INIT = "PRESENTATION_ERROR_AT_INIT"
INVALID_POSITION_AT_INIT = "INVALID_POSITION_AT_INIT"
TURN_TIME_LIMIT_EXCEEDED = "TURN_TIME_LIMIT_EXCEEDED_AT_MAIN_OR_ATTACK"
TOTAL_TIME_LIMIT_EXCEEDED = "TOTAL_TIME_LIMIT_EXCEEDED_AT_MAIN_OR_ATTACK"
PRESENTATION_ERROR_AT_MAIN = "PRESENTATION_ERROR_AT_MAIN_OR_ATTACK"
CANNOT_MOVE_AT_MAIN = "CANNOT_MOVE_AT_MAIN"
INVALID_M_AND_V_AT_ATTACK = "INVALID_M_AND_V_AT_ATTACK"
INVALID_NUMBER_OF_R_AND_C_AT_ATTACK = "INVALID_NUMBER_OF_R_AND_C_AT_ATTACK"  # reserved, never produced
INVALID_POSITION_AT_ATTACK = "INVALID_POSITION_AT_ATTACK"
ALREADY_OCCUPIED_AT_ATTACK = "ALREADY_OCCUPIED_AT_ATTACK"
LESS_SCORE_AT_END = "LESS_SCORE_AT_END"

_BOTH = frozenset({ProcessKey(0), ProcessKey(1)})
_NONE: frozenset[ProcessKey] = frozenset()
_REQUESTS = (Request(0), Request(1))
"""Each seat's one request (immutable, so made once)."""
FIRST_BUT_SAME_SCORE_AT_END = "FIRST_BUT_SAME_SCORE_AT_END"


@dataclass(frozen=True)
class Placement:
    """A pre-game reply: put a 2 at 1-based (row, col) of the opponent's board."""

    row: int
    col: int


@dataclass(frozen=True)
class TurnMove:
    """A turn reply ``Cmd M V r1 c1 ...``: slide, then M = len(cells) tiles of exponent V."""

    direction: str
    value: int
    cells: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class PregameObservation:
    """What a seat is told before the game: its own number (the board size comes later)."""

    seat: int


TurnInput = tuple[int, int, int, int, Board, Board]
"""A turn input's numbers in the order of section 7.3: turn, time left, both scores, both boards (own first)."""


@dataclass(frozen=True)
class TurnObservation:
    """The turn input of section 7.3, typed. Boards are flat row-major exponent tuples."""

    turn: int
    time_left_ms: int
    my_score: int
    opponent_score: int
    my_board: Board
    opponent_board: Board
    board_size: int


@dataclass
class Versus2048State(State):
    """A game in progress; see the module docstring for the rules."""

    board_size: int
    turns_per_player: int
    turn_time_ms: int
    total_time_ms: int
    pregame_time_ms: int
    boards: list[Board]
    scores: list[int]
    used_ms: list[int]
    phase: str = PREGAME
    to_move: int = 0
    turn: int = 0
    plies: int = 0
    loser: int | None = None
    reason: str = ""
    termination: Termination = Termination.NORMAL
    detail: str = ""
    _last_slide: tuple[str, Board, SlideOutcome] | None = field(default=None, repr=False, compare=False)

    # -- referee interface -------------------------------------------------------------
    def to_act(self) -> list[Request]:
        return [] if self.phase == OVER else [_REQUESTS[self.to_move]]

    def processes(self) -> frozenset[ProcessKey]:
        return _NONE if self.phase == OVER else _BOTH

    def observation(self, request: Request) -> PregameObservation | TurnObservation:
        seat = request.seat
        if self.phase == PREGAME:
            return PregameObservation(seat)
        return TurnObservation(*self.turn_input(seat), board_size=self.board_size)

    def turn_input(self, seat: int) -> TurnInput:
        """What a turn input (7.3) tells ``seat``: turn, time left, both scores and both boards, its own first."""
        return (
            self.turn,
            max(0, self.total_time_ms - self.used_ms[seat]),
            self.scores[seat],
            self.scores[1 - seat],
            self.boards[seat],
            self.boards[1 - seat],
        )

    def time_allowance_ms(self, request: Request) -> int:
        return self.pregame_time_ms if self.phase == PREGAME else self.turn_time_ms

    def charge_time(self, request: Request, elapsed_ms: int) -> Fault | None:
        seat = request.seat
        if self.phase == PREGAME:
            if elapsed_ms > self.pregame_time_ms:
                return self._time_fault(seat, TIME_LIMIT_EXCEEDED_AT_INIT, elapsed_ms, self.pregame_time_ms)
            return None
        if elapsed_ms > self.turn_time_ms:
            return self._time_fault(seat, TURN_TIME_LIMIT_EXCEEDED, elapsed_ms, self.turn_time_ms)
        self.used_ms[seat] += elapsed_ms
        if self.used_ms[seat] > self.total_time_ms:
            return Fault(
                seat,
                Termination.TIMEOUT,
                TOTAL_TIME_LIMIT_EXCEEDED,
                f"seat {seat} used {self.used_ms[seat]} ms in all by turn {self.turn}, "
                f"over the total of {self.total_time_ms} ms",
            )
        return None

    def _time_fault(self, seat: int, code: str, elapsed_ms: int, limit_ms: int) -> Fault:
        when = "the pre-game reply" if self.phase == PREGAME else f"turn {self.turn}"
        return Fault(
            seat,
            Termination.TIMEOUT,
            code,
            f"seat {seat} took {elapsed_ms} ms for {when}, over the limit of {limit_ms} ms",
        )

    def check(self, request: Request, action: Any) -> Fault | None:
        seat = request.seat
        n = self.board_size
        if self.phase == PREGAME:
            if not (1 <= action.row <= n and 1 <= action.col <= n):
                return self._illegal(
                    seat, INVALID_POSITION_AT_INIT, f"cell ({action.row},{action.col}) is off the {n}x{n} board"
                )
            return None
        outcome = self.slide_outcome(seat, action.direction)
        if not outcome.changed(self.boards[seat]):
            return self._illegal(seat, CANNOT_MOVE_AT_MAIN, f"slide {action.direction} changes nothing")
        m = len(action.cells)
        # M * 2**V == 2**(X+1) exactly, without building a 2**V integer for a huge V.
        if action.value > outcome.merges + 1 or m != 1 << (outcome.merges + 1 - action.value):
            return self._illegal(
                seat,
                INVALID_M_AND_V_AT_ATTACK,
                f"{m} tile(s) of exponent {action.value} do not sum to 2^{outcome.merges + 1} "
                f"after {outcome.merges} merge(s)",
            )
        for row, col in action.cells:
            if not (1 <= row <= n and 1 <= col <= n):
                return self._illegal(
                    seat, INVALID_POSITION_AT_ATTACK, f"attack cell ({row},{col}) is off the {n}x{n} board"
                )
        opponent = self.boards[1 - seat]
        taken: set[tuple[int, int]] = set()
        for row, col in action.cells:
            if opponent[(row - 1) * n + col - 1] or (row, col) in taken:
                return self._illegal(seat, ALREADY_OCCUPIED_AT_ATTACK, f"attack cell ({row},{col}) is occupied")
            taken.add((row, col))
        return None

    def _illegal(self, seat: int, code: str, what: str) -> Fault:
        when = "pre-game" if self.phase == PREGAME else f"turn {self.turn}"
        return Fault(seat, Termination.ILLEGAL_MOVE, code, f"seat {seat} at {when}: {what}")

    def slide_outcome(self, seat: int, direction: str) -> SlideOutcome:
        """What sliding ``seat``'s board in ``direction`` would do (the last answer is reused)."""
        board = self.boards[seat]
        cached = self._last_slide
        if cached is not None and cached[0] == direction and cached[1] is board:
            return cached[2]
        outcome = square(self.board_size).slide(board, direction)
        self._last_slide = (direction, board, outcome)
        return outcome

    def apply(self, actions: Mapping[Request, Any]) -> None:
        ((request, action),) = actions.items()
        seat = request.seat
        opponent = 1 - seat
        n = self.board_size
        self.plies += 1
        if self.phase == PREGAME:
            self.boards[opponent] = _put(self.boards[opponent], [(action.row, action.col)], 1, n)
            if seat == 0:
                self.to_move = 1
            else:
                self.phase, self.to_move, self.turn = MAIN, 0, 1
                self._stuck_check()
            return
        outcome = self.slide_outcome(seat, action.direction)
        self.boards[seat] = outcome.board
        self.scores[seat] += outcome.gain
        self.boards[opponent] = _put(self.boards[opponent], action.cells, action.value, n)
        if seat == 1:
            if self.turn == self.turns_per_player:
                self._end_by_score()
                return
            self.turn += 1
        self.to_move = opponent
        self._stuck_check()

    def _stuck_check(self) -> None:
        seat = self.to_move
        if not square(self.board_size).can_move(self.boards[seat]):
            detail = f"seat {seat} cannot move at the start of turn {self.turn}"
            self._end(seat, CANNOT_MOVE_AT_MAIN, Termination.NORMAL, detail)

    def _end_by_score(self) -> None:
        s0, s1 = self.scores
        if s0 == s1:
            self._end(0, FIRST_BUT_SAME_SCORE_AT_END, Termination.NORMAL, f"equal scores {s0}: the tie goes to seat 1")
        else:
            loser = 0 if s0 < s1 else 1
            self._end(loser, LESS_SCORE_AT_END, Termination.NORMAL, f"scores {s0} to {s1} after {self.turn} turns each")

    def _end(self, loser: int, reason: str, termination: Termination, detail: str) -> None:
        self.phase = OVER
        self.loser, self.reason, self.termination, self.detail = loser, reason, termination, detail

    def fault(self, fault: Fault) -> None:
        self._end(fault.seat, fault.reason_code, fault.termination, fault.detail)

    def is_over(self) -> bool:
        return self.phase == OVER

    def result(self) -> Result:
        if self.loser is None:
            raise RuntimeError("the game is not over")
        winner = 1 - self.loser
        ranks = [1, 2] if winner == 0 else [2, 1]
        faulted = self.termination != Termination.NORMAL
        return Result(
            scores=list(self.scores),
            ranks=ranks,
            termination=self.termination,
            offenders=[self.loser] if faulted else [],
            reason_code=self.reason,
            detail=self.detail,
            plies=self.plies,
            extra={"winner": winner, "reason": self.reason, "turn": self.turn},
        )

    def to_json(self) -> dict[str, Any]:
        data = {key: getattr(self, key) for key in self.__dataclass_fields__ if not key.startswith("_")}
        data["boards"] = [list(board) for board in self.boards]
        data["termination"] = self.termination.value
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Versus2048State:
        fields = dict(data)
        fields["boards"] = [tuple(board) for board in data["boards"]]
        fields["scores"] = list(data["scores"])
        fields["used_ms"] = list(data["used_ms"])
        fields["termination"] = Termination(data["termination"])
        return cls(**fields)


def _put(board: Board, cells: Any, value: int, n: int) -> Board:
    out = list(board)
    for row, col in cells:
        out[(row - 1) * n + col - 1] = value
    return tuple(out)
