"""Shared types of every game: requests, faults, results, and the Game and State contracts.

A game is a frozen pydantic model of its variant parameters (the rules file's names, time limits
included). ``Game.new_state(seed)`` gives a ``State`` that the referee drives:

* ``to_act()`` names the requests that must be answered now: one for turn-based games, several
  for simultaneous phases (each a ``Request`` of a seat and a role);
* ``processes()`` names the bot processes that must be running now; a process key carries an
  epoch, so a best of three or a second half gets fresh processes;
* ``time_allowance_ms``/``charge_time`` keep each seat's clocks exactly as the rules say;
* ``check`` judges a well-formed action, ``apply`` plays the actions of one request phase,
  ``fault`` records what went wrong (a forfeit, or a fallback seat in multi-player games);
* ``result()`` is the outcome as data once ``is_over()``.

Engines are pure: no clock, no I/O, no global random state. Randomness comes only from the seed.
"""

from __future__ import annotations

import enum
import hashlib
import typing
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, model_validator

PLAY = "play"
"""The role of a seat in games where each bot has one role only."""


class Termination(enum.StrEnum):
    """How a match ended: by the rules (NORMAL), by a bot's fault, by our safety cap, or by our failure."""

    NORMAL = "NORMAL"
    ILLEGAL_MOVE = "ILLEGAL_MOVE"
    BAD_OUTPUT = "BAD_OUTPUT"
    TIMEOUT = "TIMEOUT"
    CRASH = "CRASH"
    MAX_PLIES = "MAX_PLIES"
    INFRA_ERROR = "INFRA_ERROR"


@dataclass(frozen=True, order=True)
class Request:
    """One reply the referee waits for: a seat, in one of its roles."""

    seat: int
    role: str = PLAY


@dataclass(frozen=True, order=True)
class ProcessKey:
    """One bot process: a seat's role in one epoch (a game of a match, a half)."""

    seat: int
    role: str = PLAY
    epoch: int = 0


@dataclass(frozen=True)
class Fault:
    """Something a bot did wrong, as data.

    Attributes:
        seat: The seat that faulted.
        termination: The kind of fault (never NORMAL).
        reason_code: The game's own code for it, e.g. ``CANNOT_MOVE_AT_MAIN``.
        detail: A sentence a person can act on.
    """

    seat: int
    termination: Termination
    reason_code: str
    detail: str


@dataclass
class Result:
    """The outcome of one match.

    Attributes:
        scores: Per seat, the game's score (exact integers).
        ranks: Per seat, 1 is best; equal ranks are ties.
        termination: How the match ended.
        offenders: Seats that caused the end by a fault (usually empty or one).
        reason_code: The game's own code (e.g. ``LESS_SCORE_AT_END``).
        detail: A sentence a person can act on.
        plies: Actions applied.
        extra: What the game's rules report beyond that.
        faults: Each offender's own fault, in ``offenders``' order. A game whose seats can fault in
            different ways in one match (nimmt, fish, codevs21, geister's double fault) gives them;
            elsewhere each offender gets the game's termination, reason code and detail.
    """

    scores: list[int]
    ranks: list[int]
    termination: Termination
    offenders: list[int] = field(default_factory=list)
    reason_code: str = ""
    detail: str = ""
    plies: int = 0
    extra: dict[str, Any] = field(default_factory=dict)
    faults: list[Fault] = field(default_factory=list)

    def __post_init__(self) -> None:
        given = {fault.seat: fault for fault in self.faults}
        self.faults = [
            given.get(seat) or Fault(seat, self.termination, self.reason_code, self.detail) for seat in self.offenders
        ]

    @property
    def winner(self) -> int | None:
        """The single seat ranked first, or None for a draw."""
        firsts = [seat for seat, rank in enumerate(self.ranks) if rank == 1]
        return firsts[0] if len(firsts) == 1 else None

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (termination as its name)."""
        data = asdict(self)
        data["termination"] = self.termination.value
        data["winner"] = self.winner
        data["faults"] = [{**asdict(fault), "termination": fault.termination.value} for fault in self.faults]
        return data


def ranks_from_keys(keys: list[Any]) -> list[int]:
    """Competition ranks ("1,2,2,4") from per-seat sort keys, higher key better.

    Args:
        keys: One comparable key per seat.

    Returns:
        Per seat its rank; equal keys share a rank and the next rank skips.
    """
    return [1 + sum(1 for other in keys if other > key) for key in keys]


class State(ABC):
    """One match in progress, driven by the referee (see module docstring)."""

    @abstractmethod
    def to_act(self) -> list[Request]:
        """The requests that must be answered now (empty once over)."""

    @abstractmethod
    def processes(self) -> frozenset[ProcessKey]:
        """The bot processes that must be running now."""

    @abstractmethod
    def observation(self, request: Request) -> Any:
        """What the seat sees for this request, as typed data."""

    @abstractmethod
    def time_allowance_ms(self, request: Request) -> int:
        """How long the referee waits for this reply, in whole ms (exactly this is allowed)."""

    @abstractmethod
    def charge_time(self, request: Request, elapsed_ms: int) -> Fault | None:
        """Charge a reply's elapsed time to its seat's clocks; a time fault if a limit broke."""

    @abstractmethod
    def check(self, request: Request, action: Any) -> Fault | None:
        """Judge a well-formed action against the rules without applying it."""

    @abstractmethod
    def apply(self, actions: Mapping[Request, Any]) -> None:
        """Play the checked actions of one request phase."""

    @abstractmethod
    def fault(self, fault: Fault) -> None:
        """Record a fault: the match ends, or the seat goes on as a fallback seat."""

    @abstractmethod
    def is_over(self) -> bool:
        """Whether the match has ended."""

    @abstractmethod
    def result(self) -> Result:
        """The outcome; only valid once ``is_over()``."""

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON-ready data."""

    @classmethod
    @abstractmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        """Rebuild a state from ``to_json`` output."""


@dataclass(frozen=True)
class TcpSettings:
    """How a game's TCP clients connect (games whose original server spoke TCP).

    Attributes:
        ports: Per seat, the port its client connects to.
        connect_timeout_s: How long a client may take to connect before it has crashed.
    """

    ports: tuple[int, ...]
    connect_timeout_s: float


class Game(BaseModel, ABC):
    """A game with its variant parameters (defaults are the rules file's).

    Subclasses declare their variant keys as pydantic fields; unknown keys are rejected.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    @model_validator(mode="before")
    @classmethod
    def _no_true_or_false_for_a_number(cls, data: Any) -> Any:
        """Refuse ``max_plies: true``: pydantic would read it as 1."""
        if isinstance(data, dict):
            for key, value in data.items():
                field = cls.model_fields.get(key)
                if isinstance(value, bool) and field is not None:
                    kinds = set(typing.get_args(field.annotation)) | {field.annotation}
                    if bool not in kinds and kinds & {int, float}:
                        raise ValueError(f"{key} must be a number, not {str(value).lower()}")
        return data

    name: ClassVar[str]
    title: ClassVar[str] = ""
    """One line for people: what the game is and where it comes from."""
    score_label: ClassVar[str] = "score"
    """What ``Result.scores`` count, as results are labelled ("score", "games won")."""
    scores_spread: ClassVar[bool] = True
    """Whether scores spread over a range worth a distribution chart (False where a score is a
    small tally such as pk2048's games won in a best of three)."""
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 2
    roles: ClassVar[tuple[str, ...]] = (PLAY,)

    @abstractmethod
    def new_state(self, seed: int, seats: int | None = None) -> State:
        """A fresh match for ``seats`` players, its randomness drawn only from ``seed``."""

    @abstractmethod
    def referee_protocol(self) -> Any:
        """The referee side of the wire protocol (an ``engine.protocol.RefereeProtocol``)."""

    @abstractmethod
    def bot_protocol(self, bot: Any) -> Any:
        """A bot side of the protocol driving ``bot`` (an ``engine.protocol.BotDriver``)."""

    @classmethod
    @abstractmethod
    def builtin_bots(cls) -> Mapping[str, type | Mapping[str, type]]:
        """The built-in strategies by short name: a class, or for games with roles a class per role.

        A class is constructed as ``cls(seed=..., **params)`` and answers ``act(observation)``.
        """

    def seat_counts(self) -> range:
        """How many bots this variant seats (codevs21's solo one, its versus two)."""
        return range(self.min_seats, self.max_seats + 1)

    def seats_hint(self) -> str:
        """Which variant keys change the number of seats, for people ("" when none do)."""
        return ""

    path_keys: ClassVar[tuple[str, ...]] = ()
    """Variant keys that name files: a league resolves them against the league file's folder."""

    def bot_rules(self) -> dict[str, Any]:
        """Variant rules a built-in bot must know that the protocol does not tell it.

        They are passed to every built-in as keyword parameters (a bot's own ``params`` win),
        in-process and through ``league bot`` alike.
        """
        return {}

    def tcp(self) -> TcpSettings | None:
        """How bots may connect over TCP instead of stdin/stdout, or None: this game has no TCP transport."""
        return None

    no_openings: ClassVar[str] = "it has no opening rules"
    """Why ``opening_rules`` gives None: a sentence for people (the game's own randomness, say)."""

    def draws_from_seed(self) -> bool:
        """Whether the rules draw anything from the match seed (tiles, deals, packs, boards).

        Where they draw nothing, two games on different seeds whose bots made the same replies are
        one game (``league.store.results.fingerprint``).
        """
        return True

    def opening_rules(self) -> Any:
        """How a match starts from an opening (an ``engine.openings.OpeningRules``), or None: no openings."""
        return None

    def render(self, final_state: dict[str, Any]) -> str:
        """A picture of a final state (from ``State.to_json``) for people; "" if none."""
        return ""

    def process_label(self, epoch: int) -> str:
        """Names one of a seat's processes in a role for people ("game 2" of a best of three)."""
        return f"process {epoch + 1}"

    def variant(self) -> dict[str, Any]:
        """The variant parameters as plain data."""
        return self.model_dump(mode="json")


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 ply``, ``2 plies``: a count with its word, for sentences people read."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


def span(values: Iterable[int]) -> str:
    """The least and the most of some counts, for people: ``4``, or ``2 to 10`` ("0" when none)."""
    values = list(values)
    low, high = (min(values), max(values)) if values else (0, 0)
    return str(low) if low == high else f"{low} to {high}"


def require_at_least(minimum: float, **values: float | None) -> None:
    """Check a built-in bot's numeric parameters (None passes: "no limit").

    Raises:
        ValueError: Naming the first parameter below ``minimum`` and its value.
    """
    for name, value in values.items():
        if value is not None and value < minimum:
            raise ValueError(f"{name} must be at least {minimum}, not {value}")


def derive_seed(seed: int, *parts: object) -> int:
    """A seed below 2**63 derived from ``seed`` and labels, stable across runs and machines.

    Args:
        seed: The parent seed.
        *parts: Labels that make the child distinct (a seat, a role, a game id).
    """
    text = "/".join(str(part) for part in (seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1
