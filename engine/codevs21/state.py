"""codevs21 for the referee: a solo game or a versus match as a ``State`` (rules sections 4, 7, 8).

Solo asks seat 0 for one move per turn; versus asks both seats at once every turn. Each seat has
one time bank for the whole game (``time_total_s``). A fault ends that seat's game with the move
not applied and everything earned kept. The JSON form holds the numbers, the seed, the packs when
they came from a file, and every reply: a state is rebuilt by replaying them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from dataclasses import field as data_field
from typing import Any

from engine.codevs21.observations import SoloObservation, VersusObservation, Well
from engine.codevs21.packs import Pack, Params, fill_orders, generate
from engine.codevs21.solo import EOF, FORMAT, ILLEGAL_MOVE, TIMEOUT, MoveFault, SoloGame, check_move
from engine.codevs21.versus import SURVIVED, VersusGame
from engine.core import Fault, ProcessKey, Request, Result, State, Termination

SOLO, VERSUS = "solo", "versus"
FAULT_CODES = {
    Termination.TIMEOUT: TIMEOUT,
    Termination.CRASH: EOF,
    Termination.BAD_OUTPUT: FORMAT,
    Termination.ILLEGAL_MOVE: ILLEGAL_MOVE,
}


@dataclass
class Codevs21State(State):
    """A codevs21 game in progress (see the module docstring).

    Attributes:
        mode: ``solo`` or ``versus``.
        params: The game's numbers.
        seed: The game seed (the packs unless ``file_packs``; versus fill orders always).
        file_packs: The packs of a ``packs_file``, or None when generated from the seed.
        time_total_ms: Each seat's time bank.
        send_params: Whether the first input line also gives P and Th.
        replies: Per turn, each seat's reply ((X, R) as a list) or fault code.
        used_ms: Per seat, the time charged so far.
        faults: Per seat, the detail of the fault that ended its game ("" if none).
    """

    mode: str
    params: Params
    seed: int
    file_packs: list[Pack] | None = None
    time_total_ms: int = 60_000
    send_params: bool = False
    replies: list[list[Any]] = data_field(default_factory=list)
    used_ms: list[int] = data_field(default_factory=list)
    faults: list[str] = data_field(default_factory=list)
    pending: dict[int, str] = data_field(default_factory=dict, repr=False)
    """Fault codes of this turn's faulted seats, while the other seat's reply is awaited (versus)."""

    def __post_init__(self) -> None:
        seats = self.seats
        self.used_ms = self.used_ms or [0] * seats
        self.faults = self.faults or [""] * seats
        self.packs: list[Pack] = self.file_packs or generate(self.params, self.seed)
        if self.mode == SOLO:
            self.game: SoloGame | VersusGame = SoloGame(self.params, self.packs)
        else:
            self.game = VersusGame(self.params, self.packs, fill_orders(self.seed, self.params.T, self.params.N))
        replies, self.replies = self.replies, []
        for turn in replies:
            self._play([tuple(reply) if isinstance(reply, list) else reply for reply in turn])

    @property
    def seats(self) -> int:
        """1 in solo, 2 in versus."""
        return 1 if self.mode == SOLO else 2

    @property
    def turn(self) -> int:
        """The turn to play next (0-based)."""
        return self.game.turn

    def pack_of(self, seat: int) -> Pack:
        """The pack ``seat`` plays this turn (in versus, with its stock's obstruction)."""
        return self.game.pack_of(seat) if isinstance(self.game, VersusGame) else self.packs[self.turn]

    # -- referee interface -------------------------------------------------------------
    def to_act(self) -> list[Request]:
        return [] if self.is_over() else [Request(seat) for seat in range(self.seats)]

    def processes(self) -> frozenset[ProcessKey]:
        return frozenset() if self.is_over() else frozenset(ProcessKey(seat) for seat in range(self.seats))

    def observation(self, request: Request) -> SoloObservation | VersusObservation:
        """What a built-in gets for this turn (the same its bot side rebuilds from the bytes)."""
        if isinstance(self.game, SoloGame):
            return SoloObservation(self.params.known_to_bots(), self.turn, Well.of(self.game.well), tuple(self.packs))
        seat, other = request.seat, 1 - request.seat
        players = self.game.players
        return VersusObservation(
            self.params.known_to_bots(),
            self.turn,
            Well.of(players[seat].well),
            Well.of(players[other].well),
            self.pack_of(seat),
            self.pack_of(other),
            (players[seat].stock, players[other].stock),
            tuple(self.packs),
        )

    def time_allowance_ms(self, request: Request) -> int:
        return max(0, self.time_total_ms - self.used_ms[request.seat])

    def charge_time(self, request: Request, elapsed_ms: int) -> Fault | None:
        seat = request.seat
        self.used_ms[seat] += elapsed_ms
        if self.used_ms[seat] <= self.time_total_ms:
            return None
        detail = (
            f"seat {seat} ran out of its {self.time_total_ms} ms time bank at move {self.turn + 1}"
            f" ({self.used_ms[seat]} ms used)"
        )
        return Fault(seat, Termination.TIMEOUT, TIMEOUT, detail)

    def check(self, request: Request, action: Any) -> Fault | None:
        x, rotation = action
        try:
            check_move(self.pack_of(request.seat), self.params, x, rotation)
        except MoveFault as fault:
            detail = f"seat {request.seat} at move {self.turn + 1}: {fault}"
            return Fault(request.seat, Termination.ILLEGAL_MOVE, ILLEGAL_MOVE, detail)
        return None

    def apply(self, actions: Mapping[Request, Any]) -> None:
        self._play([actions.get(Request(seat), self.pending.get(seat, EOF)) for seat in range(self.seats)])

    def fault(self, fault: Fault) -> None:
        if self.is_over() or self.faults[fault.seat]:
            return
        self.faults[fault.seat] = fault.detail
        self.pending[fault.seat] = FAULT_CODES.get(fault.termination, fault.reason_code)
        if self.mode == SOLO or all(self.pending.get(seat) for seat in range(self.seats)):
            self._play([self.pending[seat] for seat in range(self.seats)])

    def _play(self, replies: list[Any]) -> None:
        """One turn from each seat's move (X, R) or fault code."""
        self.replies.append([list(reply) if isinstance(reply, tuple) else reply for reply in replies])
        self.pending.clear()
        if isinstance(self.game, VersusGame):
            self.game.play(replies)
        elif isinstance(replies[0], str):
            self.game.fault(replies[0])
        else:
            self.game.move(*replies[0])

    def is_over(self) -> bool:
        return bool(self.game.end) if isinstance(self.game, SoloGame) else self.game.is_over()

    def records(self) -> list[dict[str, Any]]:
        """Each seat's result record (7.1, 7.2)."""
        if isinstance(self.game, SoloGame):
            return [self.game.record()]
        return [self.game.record(seat) for seat in range(2)]

    def result(self) -> Result:
        if not self.is_over():
            raise RuntimeError("the game is not over")
        records = self.records()
        ranks = self.game.ranks() if isinstance(self.game, VersusGame) else [1]  # alone, a solo bot is first
        offenders = [seat for seat in range(self.seats) if self.faults[seat]]
        ends = [str(record["end"]) for record in records]
        termination, code = Termination.NORMAL, next((end for end in ends if end != SURVIVED), ends[0])
        detail = "; ".join(self.faults[seat] for seat in offenders) or ", ".join(
            f"seat {seat} {record['end']} after {record['turns']} turns" for seat, record in enumerate(records)
        )
        if offenders:
            first = records[offenders[0]]["end"]
            code = str(first).removeprefix("fault:")
            termination = next(term for term, name in FAULT_CODES.items() if name == code)
        return Result(
            scores=[int(record["score"]) for record in records],
            ranks=ranks,
            termination=termination,
            offenders=offenders,
            reason_code=code,
            detail=detail,
            plies=self.turn,
            extra={"records": records},
            faults=[fault for seat in offenders if (fault := self._seat_fault(seat, records[seat]))],
        )

    def _seat_fault(self, seat: int, record: dict[str, Any]) -> Fault | None:
        """A faulted seat's own fault (its record's end names its code), as ``Result.faults`` keeps it."""
        code = str(record["end"]).removeprefix("fault:")
        termination = next((term for term, name in FAULT_CODES.items() if name == code), None)
        return None if termination is None else Fault(seat, termination, code, self.faults[seat])

    def to_json(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "params": asdict(self.params),
            "seed": self.seed,
            "file_packs": [list(pack) for pack in self.file_packs] if self.file_packs else None,
            "time_total_ms": self.time_total_ms,
            "send_params": self.send_params,
            "replies": self.replies,
            "used_ms": self.used_ms,
            "faults": self.faults,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Codevs21State:
        packs = [tuple(pack) for pack in data["file_packs"]] if data["file_packs"] else None
        return cls(
            mode=data["mode"],
            params=Params(**data["params"]),
            seed=data["seed"],
            file_packs=packs,
            time_total_ms=data["time_total_ms"],
            send_params=data["send_params"],
            replies=data["replies"],
            used_ms=list(data["used_ms"]),
            faults=list(data["faults"]),
        )
