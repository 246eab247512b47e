"""A stored game as one type (``GameRecord``): what a results line of ``games.jsonl`` holds.

The worker's record (a dict over Ray, moves included) becomes a ``GameRecord`` at one place, the
store (``league.store.results.split_record``, whose ``extend`` returns what it stored); the store
reads its lines as ``GameRecord``s, and the statistics, the report, the replays (with the move log's
``details`` beside) and the planners read those. The type lives in ``league.stats``,
the lowest wing that every reader may import (``store`` is a floor above ``stats``).

``from_json`` takes a decoded line as older stores wrote it too: fields it lacks get defaults
(``faults`` none, ``versions`` and ``opening`` none, ``node`` and ``log`` none), numbers stay as
decoded (scores are exact integers, whatever their size: never floats). ``to_json`` gives back the
line's own JSON, keys in its own order and none added, so a line read and written again is the same
bytes, and keys this code does not know are kept (``other``).

Records are read-only: the lists they hold (seats, scores, times) are the decoded ones, not
copies; never change them.

The readers in ``league/`` use attributes. Each part also still answers ``part["key"]``,
``part.get("key")`` and ``"key" in part`` as the line's dict did (``_LineView``), for the tests that
read stored records so; a part built by ``dataclasses.replace`` keeps its line's keys and order, an
optional field set since coming after them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, ClassVar

INFRA_ERROR = "INFRA_ERROR"
"""The termination of a game that could not be played (our failure): stored, played again, never scored."""


class _LineView:
    """Dict-style reading of a record's part by its JSON keys (what readers did before the type)."""

    __slots__ = ()
    _FIELDS: ClassVar[tuple[str, ...]] = ()
    _FIELDSET: ClassVar[frozenset[str]] = frozenset()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._FIELDSET = frozenset(cls._FIELDS)

    def _present(self) -> tuple[str, ...]:
        """The JSON keys: the line's own, in its order, and after them optional fields set since (``replace``)."""
        keys = getattr(self, "keys_", None)
        if keys is None:
            return self._canonical_keys()
        added = tuple(key for key in self._OPTIONAL if key not in keys and getattr(self, key) is not None)
        return (*keys, *sorted(added, key=self._FIELDS.index)) if added else keys

    def _canonical_keys(self) -> tuple[str, ...]:
        return (
            *(key for key in self._FIELDS if getattr(self, key) is not None or key not in self._OPTIONAL),
            *getattr(self, "other", {}),
        )

    _OPTIONAL: ClassVar[frozenset[str]] = frozenset()

    def __getitem__(self, key: str) -> Any:
        if key not in self._present():
            raise KeyError(key)
        return getattr(self, key) if key in self._FIELDS else self.other[key]  # type: ignore[attr-defined]

    def get(self, key: str, default: Any = None) -> Any:
        """The value of JSON key ``key``, or ``default`` where the line has none."""
        try:
            return self[key]
        except KeyError:
            return default

    def __contains__(self, key: object) -> bool:
        return key in self._present()

    def __iter__(self) -> Iterator[str]:
        return iter(self._present())

    def keys(self) -> tuple[str, ...]:
        """The line's JSON keys, in its order."""
        return self._present()

    def _json_of(self, key: str) -> Any:
        value = getattr(self, key) if key in self._FIELDS else self.other[key]  # type: ignore[attr-defined]
        return value.to_json() if isinstance(value, _LineView) else value

    def to_json(self) -> dict[str, Any]:
        """The JSON object this part came from (keys in its order), or the canonical one for a part built here."""
        return {key: self._json_of(key) for key in self._present()}


def _known(data: dict[str, Any], fields: frozenset[str]) -> tuple[tuple[str, ...], dict[str, Any]]:
    """The keys of ``data`` in its order, and its keys outside ``fields`` with their values."""
    if fields.issuperset(data):
        return tuple(data), {}
    return tuple(data), {key: value for key, value in data.items() if key not in fields}


def _object(data: Any, what: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise ValueError(f"a game record's {what} is not a JSON object")
    return data


@dataclass(frozen=True, slots=True)
class StoredFault(_LineView):
    """One offender's own fault, as ``engine.core.Fault`` stores it.

    Attributes:
        seat: The seat that faulted.
        termination: The kind of fault (a ``Termination`` value).
        reason_code: The game's own code for it.
        detail: A sentence a person can act on.
    """

    seat: int
    termination: str
    reason_code: str = ""
    detail: str = ""
    other: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    keys_: tuple[str, ...] | None = field(default=None, compare=False, repr=False)

    _FIELDS: ClassVar[tuple[str, ...]] = ("seat", "termination", "reason_code", "detail")

    @classmethod
    def from_json(cls, data: Any) -> StoredFault:
        """A stored fault (``{"seat", "termination", "reason_code", "detail"}``)."""
        data = _object(data, "fault")
        keys, other = _known(data, cls._FIELDSET)
        return cls(
            data.get("seat", -1),
            data.get("termination", ""),
            data.get("reason_code", ""),
            data.get("detail", ""),
            other,
            keys,
        )


@dataclass(frozen=True, slots=True)
class RecordSpec(_LineView):
    """What game was played: the schedule's ``GameSpec`` as the worker stored it, with the game and the versions.

    Attributes:
        game_id: The game's id.
        index: Its place in the schedule.
        league: The league's name.
        variant: The variant's name.
        seats: Bot names, seat 0 first.
        seed: The match seed.
        round: Which repetition of the pairing (for tables, the table's number).
        opening: What the game started from (``league.plan.openings``), None for the rules' start.
        game: The game's name (None in a store written before records named it).
        versions: Per seated bot, its version when played (None in a store written before versions).
        other: Keys this code does not know, kept as read.
    """

    game_id: str = ""
    index: int = 0
    league: str = ""
    variant: str = ""
    seats: list[str] = field(default_factory=list)
    seed: int = 0
    round: int = 0
    opening: dict[str, Any] | None = None
    game: str | None = None
    versions: dict[str, str] | None = None
    other: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    keys_: tuple[str, ...] | None = field(default=None, compare=False, repr=False)

    _FIELDS: ClassVar[tuple[str, ...]] = (
        "game_id",
        "index",
        "league",
        "variant",
        "seats",
        "seed",
        "round",
        "opening",
        "game",
        "versions",
    )
    _OPTIONAL: ClassVar[frozenset[str]] = frozenset({"opening", "game", "versions"})

    @classmethod
    def from_json(cls, data: Any) -> RecordSpec:
        """A stored spec; missing fields get their defaults."""
        data = _object(data, "spec")
        keys, other = _known(data, cls._FIELDSET)
        get = data.get
        return cls(
            get("game_id", ""),
            get("index", 0),
            get("league", ""),
            get("variant", ""),
            get("seats") or [],
            get("seed", 0),
            get("round", 0),
            get("opening"),
            get("game"),
            get("versions"),
            other,
            keys,
        )


@dataclass(frozen=True, slots=True)
class RecordResult(_LineView):
    """How a game ended: ``engine.core.Result.to_json()`` as stored.

    Attributes:
        scores: Per seat, the game's score (exact integers).
        ranks: Per seat, 1 is best.
        termination: How the match ended (a ``Termination`` value).
        offenders: Seats that caused the end by a fault.
        reason_code: The game's own code.
        detail: A sentence a person can act on.
        plies: Actions applied.
        extra: What the game's rules report beyond that.
        faults: Each offender's own fault; None in a store written before faults were stored (and
            in an INFRA_ERROR record).
        winner: The single seat ranked first, None for a draw.
        other: Keys this code does not know, kept as read.
    """

    scores: list[int] = field(default_factory=list)
    ranks: list[int] = field(default_factory=list)
    termination: str = ""
    offenders: list[int] = field(default_factory=list)
    reason_code: str = ""
    detail: str = ""
    plies: int = 0
    extra: dict[str, Any] = field(default_factory=dict)
    faults: list[StoredFault] | None = None
    winner: int | None = None
    other: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    keys_: tuple[str, ...] | None = field(default=None, compare=False, repr=False)

    _FIELDS: ClassVar[tuple[str, ...]] = (
        "scores",
        "ranks",
        "termination",
        "offenders",
        "reason_code",
        "detail",
        "plies",
        "extra",
        "faults",
        "winner",
    )
    _OPTIONAL: ClassVar[frozenset[str]] = frozenset({"faults"})

    @classmethod
    def from_json(cls, data: Any) -> RecordResult:
        """A stored result; missing fields get their defaults."""
        data = _object(data, "result")
        keys, other = _known(data, cls._FIELDSET)
        get = data.get
        faults = get("faults")
        return cls(
            get("scores") or [],
            get("ranks") or [],
            get("termination", ""),
            get("offenders") or [],
            get("reason_code", ""),
            get("detail", ""),
            get("plies", 0),
            get("extra") or {},
            [StoredFault.from_json(fault) for fault in faults] if type(faults) is list else None,
            get("winner"),
            other,
            keys,
        )

    def _json_of(self, key: str) -> Any:
        if key == "faults" and self.faults is not None:
            return [fault.to_json() for fault in self.faults]
        return _LineView._json_of(self, key)


@dataclass(frozen=True, slots=True)
class GameRecord(_LineView):
    """One stored game, as its results line holds it (the moves and stderr are in the move log).

    Attributes:
        game_id: The game's id.
        spec: What was played.
        result: How it ended.
        time_used_ms: Per seat, the time its replies took.
        worker: Which worker played it (host and process; None where not stored).
        node: On Ray, the node it was played on (None elsewhere).
        fingerprint: The game's identity (``league.store.results.fingerprint``; None before it is stored).
        log: ``[offset, length]`` of its line in the move log (None: no details stored).
        other: Keys this code does not know, kept as read.
    """

    game_id: str
    spec: RecordSpec = field(default_factory=RecordSpec)
    result: RecordResult = field(default_factory=RecordResult)
    time_used_ms: list[int] = field(default_factory=list)
    worker: str | None = None
    node: str | None = None
    fingerprint: str | None = None
    log: list[int] | None = None
    other: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    keys_: tuple[str, ...] | None = field(default=None, compare=False, repr=False)

    _FIELDS: ClassVar[tuple[str, ...]] = (
        "game_id",
        "spec",
        "result",
        "time_used_ms",
        "worker",
        "node",
        "fingerprint",
        "log",
    )
    _OPTIONAL: ClassVar[frozenset[str]] = frozenset({"worker", "node", "fingerprint", "log"})

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """A results line (decoded); fields an older store's line lacks get their defaults.

        Raises:
            ValueError: ``data`` is not a game record (no string ``game_id``, a spec or result that
                is not an object).
        """
        data = _object(data, "line")
        game_id = data.get("game_id")
        if type(game_id) is not str:
            raise ValueError("a game record has no game id")
        keys, other = _known(data, cls._FIELDSET)
        get = data.get
        return cls(
            game_id,
            RecordSpec.from_json(get("spec", {})),
            RecordResult.from_json(get("result", {})),
            get("time_used_ms") or [],
            get("worker"),
            get("node"),
            get("fingerprint"),
            get("log"),
            other,
            keys,
        )

    @property
    def infra(self) -> bool:
        """Whether the game could not be played (INFRA_ERROR: played again by the next run, never scored)."""
        return self.result.termination == INFRA_ERROR

    def with_log(self, log: list[int]) -> GameRecord:
        """This record with its move-log pointer ``log`` (a key added at the end of its line)."""
        return dataclasses.replace(self, log=log)
