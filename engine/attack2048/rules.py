"""attack2048: Attacker/Defender 2048 (engine/attack2048/README.md), the rules as an engine.

The rules in short. One 4x4 board, cells ``(x, y)`` = (column, row), index ``4 * y + x``. In a
**half** one bot attacks and the other defends; a **match** is two halves with the roles swapped
on a fresh board (bot 0 attacks in half 1, bot 1 in half 2). A ply is one placement or one slide:

1. the attacker puts a tile (a value of ``tiles``, a 4 only if the 4-tile allowance permits it)
   on an empty cell; if the defender is now stuck (board full, no equal neighbours) the half ends
   (``stuck``); else if the ply counter reached ``max_plies_per_half`` it ends (``cap``);
2. the defender slides north, east, south or west; the slide must change the board; each merge
   adds the created value to the defender's score; the cap check again; back to 1.

Openings: ``empty`` (the attacker starts), ``attacker_two`` (the attacker places twice first) and
``random_two`` (two 2s on cells derived from the seed by SHA-256, then the defender starts; not
plies). The 4-tile allowance (3.5): with ``tiles`` [2, 4], ``four_limit`` caps the 4s of a half;
``four_every_twos`` (a credit per N placed 2s) and ``four_on_new_max`` (a credit per slide that
raises the largest tile) put the half in earning mode, where each 4 spends a credit. The higher
defender score wins the match; equal scores are a draw. The first fault (timeout, crash,
bad_output, illegal_move) ends the match at once and its bot loses.

How the result shows it (the terminations of engine/core.py): a fault gives its termination
(TIMEOUT, CRASH, BAD_OUTPUT, ILLEGAL_MOVE) and reason code, the faulting seat as the offender and
rank 2. Otherwise the match is decided by score (reason ``score`` or ``equal_score``, equal
scores rank both seats 1) and the termination is NORMAL, except that a match in which a half was
ended by the safety cap (end reason ``cap``; the cap is ours, not the game's) has termination
MAX_PLIES, still with ranks, winner and reason code by score and no offender. Result.scores are
``[bot 0's score as defender, bot 1's score as defender]``; ``extra`` holds the record of section 5.
Boards are flat row-major tuples of exponents (0 empty, e a tile of 2**e), as in engine/slide.py.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.attack2048 import ATTACK, DEFEND
from engine.core import Fault, ProcessKey, Request, Result, State, Termination, plural
from engine.slide import Board, SlideOutcome, square

SIZE = 4
GEOMETRY = square(SIZE)
EMPTY: Board = (0,) * (SIZE * SIZE)

SCORE = "score"
EQUAL_SCORE = "equal_score"
TIMEOUT = "timeout"
CRASH = "crash"
BAD_OUTPUT = "bad_output"
ILLEGAL_MOVE = "illegal_move"

STUCK = "stuck"
CAP = "cap"
FAULT = "fault"

ROLE_WORDS = {ATTACK: "attacker", DEFEND: "defender"}
DIRECTION_WORDS = {"U": "north", "R": "east", "D": "south", "L": "west"}
_NONE: frozenset[ProcessKey] = frozenset()


@dataclass(frozen=True)
class Placement:
    """An attacker reply ``x y v``: a tile of value ``value`` (2 or 4, not an exponent) at column x, row y."""

    x: int
    y: int
    value: int


@dataclass(frozen=True)
class Slide:
    """A defender reply: a direction ``U R D L`` (north, east, south, west)."""

    direction: str


@dataclass(frozen=True)
class Attack2048Observation:
    """What a process sees before each of its plies: the board only (no score, role or counters).

    Attributes:
        board: 16 exponents in reading order, index ``4 * y + x`` (0 empty, e a tile of 2**e).
    """

    board: Board


def random_two_cells(seed: int) -> tuple[int, int]:
    """The two cells (indices) of the ``random_two`` opening for a match seed (3.4)."""
    n = int.from_bytes(hashlib.sha256(f"attack2048:{seed}".encode("ascii")).digest(), "big")
    c1 = n % 16
    others = [i for i in range(16) if i != c1]
    return c1, others[(n // 16) % 15]


def value_of(exponent: int) -> int:
    """The tile value of an exponent (0 for an empty cell)."""
    return 1 << exponent if exponent else 0


@dataclass
class Attack2048State(State):
    """A match in progress; see the module docstring for the rules."""

    tiles: list[int]
    four_limit: int | None
    four_every_twos: int | None
    four_on_new_max: bool
    opening: str
    max_plies_per_half: int | None
    decision_ms: int
    startup_ms: int
    seed: int
    half: int = 1
    board: Board = EMPTY
    score: int = 0
    plies: int = 0
    to_move: str = ATTACK
    twos: int = 0
    fours: int = 0
    credits: int = 0
    asked: list[str] = field(default_factory=list)
    halves: list[dict[str, Any]] = field(default_factory=list)
    total_plies: int = 0
    over: bool = False
    reason: str = ""
    termination: Termination = Termination.NORMAL
    detail: str = ""
    faulted: int | None = None
    fault_role: str = ""
    _last_slide: tuple[str, Board, SlideOutcome] | None = field(default=None, repr=False, compare=False)
    _last_ply: tuple[str, int, int | str, int] | None = field(default=None, repr=False, compare=False)
    _first_half_board: Board | None = field(default=None, repr=False, compare=False)

    # -- halves ----------------------------------------------------------------------------
    def start_half(self, half: int) -> None:
        """Set up half ``half`` (1 or 2): fresh board, score, counters and processes."""
        self.half = half
        self.board = EMPTY
        self.to_move = ATTACK
        if self.opening == "random_two":
            cells = list(self.board)
            for cell in random_two_cells(self.seed):
                cells[cell] = 1
            self.board = tuple(cells)
            self.to_move = DEFEND
        self.score = self.plies = self.twos = self.fours = self.credits = 0
        self.asked = []
        self._last_ply = None

    @property
    def last_ply(self) -> tuple[str, int, int | str, int] | None:
        """The last ply of this half, for replay viewers (not kept in JSON).

        ``("place", seat, cell index, value)`` or ``("slide", seat, direction U R D L, gain)``;
        None before the half's first ply.
        """
        return self._last_ply

    @property
    def first_half_board(self) -> Board | None:
        """The board half 1 ended on (None before), for replay viewers (not kept in JSON)."""
        return self._first_half_board

    @property
    def attacker(self) -> int:
        """The seat attacking in the current half."""
        return 0 if self.half == 1 else 1

    def seat_of(self, role: str) -> int:
        """The seat playing ``role`` in the current half."""
        return self.attacker if role == ATTACK else 1 - self.attacker

    def role_of(self, seat: int) -> str:
        """The role of ``seat`` in the current half."""
        return ATTACK if seat == self.attacker else DEFEND

    def _who(self, role: str) -> str:
        return f"seat {self.seat_of(role)} ({ROLE_WORDS[role]} in half {self.half})"

    def fours_allowed(self) -> bool:
        """Whether this variant has 4s at all."""
        return 4 in self.tiles

    def earning(self) -> bool:
        """Whether 4s cost credits (3.5 earning mode)."""
        return self.fours_allowed() and (self.four_every_twos is not None or self.four_on_new_max)

    # -- referee interface -------------------------------------------------------------
    def to_act(self) -> list[Request]:
        return [] if self.over else [Request(self.seat_of(self.to_move), self.to_move)]

    def processes(self) -> frozenset[ProcessKey]:
        if self.over:
            return _NONE
        return frozenset(
            {ProcessKey(self.attacker, ATTACK, self.half), ProcessKey(1 - self.attacker, DEFEND, self.half)}
        )

    def observation(self, request: Request) -> Attack2048Observation:
        return Attack2048Observation(self.board)

    def time_allowance_ms(self, request: Request) -> int:
        first = request.role not in self.asked
        return self.decision_ms + (self.startup_ms if first else 0)

    def charge_time(self, request: Request, elapsed_ms: int) -> Fault | None:
        allowance = self.time_allowance_ms(request)
        first = request.role not in self.asked
        if first:
            self.asked.append(request.role)
        if elapsed_ms <= allowance:
            return None
        what = "its first request" if first else "its request"
        return Fault(
            request.seat,
            Termination.TIMEOUT,
            TIMEOUT,
            f"{self._who(request.role)} took {elapsed_ms} ms for {what} (ply {self.plies + 1}), "
            f"over the limit of {allowance} ms",
        )

    def check(self, request: Request, action: Any) -> Fault | None:
        if request.role == ATTACK:
            problem = self._placement_problem(action)
        else:
            outcome = self.slide_outcome(action.direction)
            changed = outcome.changed(self.board)
            problem = None if changed else f"slide {DIRECTION_WORDS[action.direction]} changes nothing on this board"
        if problem is None:
            return None
        return Fault(
            request.seat,
            Termination.ILLEGAL_MOVE,
            ILLEGAL_MOVE,
            f"{self._who(request.role)} at ply {self.plies + 1}: {problem}",
        )

    def _placement_problem(self, action: Placement) -> str | None:
        """Why a placement breaks 3.2, or None if it is legal."""
        x, y, value = action.x, action.y, action.value
        if not (0 <= x < SIZE and 0 <= y < SIZE):
            return f"cell ({x},{y}) is off the board (x and y must be 0 to 3)"
        held = self.board[SIZE * y + x]
        if held:
            return f"cell ({x},{y}) is occupied (it holds a {value_of(held)})"
        if value not in self.tiles:
            if value == 4:
                return "a 4 is not allowed: this variant has tiles [2] (2s only)"
            return f"value {value} is not a tile of this variant (tiles {sorted(self.tiles)})"
        if value == 4:
            if self.four_limit is not None and self.fours >= self.four_limit:
                return f"a 4 is not allowed: the limit of {self.four_limit} 4(s) a half is reached"
            if self.earning() and self.credits < 1:
                return f"a 4 is not allowed: no 4-credit left ({self.twos} 2s placed, {self.fours} 4s placed)"
        return None

    def slide_outcome(self, direction: str) -> SlideOutcome:
        """What sliding the board in ``direction`` would do (the last answer is reused)."""
        cached = self._last_slide
        if cached is not None and cached[0] == direction and cached[1] is self.board:
            return cached[2]
        outcome = GEOMETRY.slide(self.board, direction)
        self._last_slide = (direction, self.board, outcome)
        return outcome

    def apply(self, actions: Mapping[Request, Any]) -> None:
        ((request, action),) = actions.items()
        self.plies += 1
        self.total_plies += 1
        if request.role == ATTACK:
            self._place(action)
            self._last_ply = ("place", request.seat, SIZE * action.y + action.x, action.value)
            if not GEOMETRY.can_move(self.board):
                self._end_half(STUCK)
                return
            if self._capped():
                return
            two_first = self.opening == "attacker_two" and self.plies == 1
            self.to_move = ATTACK if two_first else DEFEND
            return
        outcome = self.slide_outcome(action.direction)
        before_max = max(self.board)
        self.board = outcome.board
        self.score += outcome.gain
        self._last_ply = ("slide", request.seat, action.direction, outcome.gain)
        if self.fours_allowed() and self.four_on_new_max and max(self.board) > before_max:
            self.credits += 1
        if self._capped():
            return
        self.to_move = ATTACK

    def _place(self, action: Placement) -> None:
        cells = list(self.board)
        cells[SIZE * action.y + action.x] = 1 if action.value == 2 else 2
        self.board = tuple(cells)
        if action.value == 2:
            self.twos += 1
            if self.fours_allowed() and self.four_every_twos and self.twos % self.four_every_twos == 0:
                self.credits += 1
        else:
            self.fours += 1
            if self.earning():
                self.credits -= 1

    def _capped(self) -> bool:
        if self.max_plies_per_half is not None and self.plies >= self.max_plies_per_half:
            self._end_half(CAP)
            return True
        return False

    def _half_record(self, end: str) -> dict[str, Any]:
        return {
            "half": self.half,
            "attacker": self.attacker,
            "defender": 1 - self.attacker,
            "score": self.score,
            "plies": self.plies,
            "end": end,
            "twos": self.twos,
            "fours": self.fours,
        }

    def _end_half(self, end: str) -> None:
        self.halves.append(self._half_record(end))
        if self.half == 1:
            self._first_half_board = self.board
            self.start_half(2)
            return
        self.over = True
        s0, s1 = self.scores()
        self.reason = SCORE if s0 != s1 else EQUAL_SCORE
        capped = [record["half"] for record in self.halves if record["end"] == CAP]
        self.termination = Termination.MAX_PLIES if capped else Termination.NORMAL
        if s0 == s1:
            self.detail = f"both bots scored {s0} as defender: a draw"
        else:
            winner = 0 if s0 > s1 else 1
            self.detail = f"bot 0 scored {s0} as defender, bot 1 scored {s1}: bot {winner} wins"
        for half in capped:
            self.detail += (
                f"; half {half} was stopped by the safety cap of {plural(self.max_plies_per_half, 'ply', 'plies')}"
            )

    def scores(self) -> list[int]:
        """Per bot its defender score so far (bot 1 defends in half 1, bot 0 in half 2)."""
        by_half = {record["half"]: record["score"] for record in self.halves}
        return [by_half.get(2, 0), by_half.get(1, 0)]

    def fault(self, fault: Fault) -> None:
        if self.over:
            return
        self.fault_role = self.role_of(fault.seat)
        self.halves.append(self._half_record(FAULT))
        self.over = True
        self.faulted = fault.seat
        self.reason, self.termination, self.detail = fault.reason_code, fault.termination, fault.detail

    def is_over(self) -> bool:
        return self.over

    def result(self) -> Result:
        if not self.over:
            raise RuntimeError("the match is not over")
        scores = self.scores()
        extra: dict[str, Any] = {"reason": self.reason, "scores": scores, "halves": [dict(h) for h in self.halves]}
        if self.faulted is not None:
            winner: int | None = 1 - self.faulted
            ranks = [1, 2] if winner == 0 else [2, 1]
            extra |= {"faulted": self.faulted, "half": self.half, "role": ROLE_WORDS[self.fault_role]}
            extra["detail"] = self.detail
        else:
            ranks = [1 + (scores[1] > scores[0]), 1 + (scores[0] > scores[1])]
            winner = None if scores[0] == scores[1] else ranks.index(1)
        return Result(
            scores=scores,
            ranks=ranks,
            termination=self.termination,
            offenders=[] if self.faulted is None else [self.faulted],
            reason_code=self.reason,
            detail=self.detail,
            plies=self.total_plies,
            extra={"winner": winner, **extra},
        )

    def to_json(self) -> dict[str, Any]:
        data = {key: getattr(self, key) for key in self.__dataclass_fields__ if not key.startswith("_")}
        data["board"] = list(self.board)
        data["tiles"] = list(self.tiles)
        data["asked"] = list(self.asked)
        data["halves"] = [dict(record) for record in self.halves]
        data["termination"] = self.termination.value
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Attack2048State:
        fields = dict(data)
        fields["board"] = tuple(data["board"])
        fields["tiles"] = list(data["tiles"])
        fields["asked"] = list(data["asked"])
        fields["halves"] = [dict(record) for record in data["halves"]]
        fields["termination"] = Termination(data["termination"])
        return cls(**fields)
