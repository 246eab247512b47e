"""A pk2048 match in progress: the games of a best of three, as the referee drives them.

The rules are summed up in engine/pk2048/rules.py. Spawns and the first-player coin come from
one ``random.Random(seed)`` in the order of section 8 (coin first, then per spawn the cell, then
the value), or from a scripted list of ``(cell, value)`` spawns given for tests; once a script
runs out, spawns come from the RNG again.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core import Fault, ProcessKey, Request, Result, State, Termination, plural
from engine.pk2048.rules import (
    DECIDED_BY_FAULT,
    DECIDED_BY_SCORE,
    DECIDED_BY_TIEBREAK,
    NO_LEGAL_OPERATION,
    REACHED_TARGET_TILE,
    START_BOARD,
    TIMEOUT,
    Observation,
    empty_cells,
    exponent_of,
    find_violation,
    is_stuck,
    perform,
    value_of,
    with_cell,
)
from engine.slide import Board

_NONE: frozenset[ProcessKey] = frozenset()


@dataclass
class PK2048State(State):
    """A match in progress (see the module docstrings for the rules and the result).

    Attributes:
        four_probability: Probability that a spawn is a 4.
        decision_time_ms: Per answer limit in whole ms; strictly more is ``TIMEOUT``.
        target_tile: The tile value that ends a game.
        games_per_match: Odd number of games at most.
        play_all_games: Play every game even once the match is decided.
        first_seat: The first player of game 1.
        scripted_spawns: ``[cell, value]`` spawns still to come before the RNG takes over.
        game_index: The game being played, from 0.
        board: The shared board, exponents.
        scores: Per seat, the score in the current game.
        to_move: The seat whose answer is awaited.
        interference_used: Per seat, whether it interfered in the current game.
        bomb_used: Per seat, whether it bombed in the current game.
        operations: Answers executed in the current game.
        last_spawn: ``(cell, value)`` of the spawn after the previous operation, ``(0, 0)`` if none.
        last_answer: The previous operation's ``(I, B, D)``, zeros before the first.
        games: The records of the finished games.
        wins: Per seat, games won.
        over: Whether the match has ended.
        plies: Operations executed in the whole match.
    """

    four_probability: float
    decision_time_ms: int
    target_tile: int
    games_per_match: int
    play_all_games: bool
    first_seat: int
    scripted_spawns: list[list[int]] = field(default_factory=list)
    game_index: int = 0
    board: Board = START_BOARD
    scores: list[int] = field(default_factory=lambda: [0, 0])
    to_move: int = 0
    interference_used: list[bool] = field(default_factory=lambda: [False, False])
    bomb_used: list[bool] = field(default_factory=lambda: [False, False])
    operations: int = 0
    last_spawn: tuple[int, int] = (0, 0)
    last_answer: tuple[int, int, int] = (0, 0, 0)
    games: list[dict[str, Any]] = field(default_factory=list)
    wins: list[int] = field(default_factory=lambda: [0, 0])
    over: bool = False
    plies: int = 0
    rng: random.Random = field(default_factory=random.Random, repr=False, compare=False)

    @classmethod
    def start(
        cls, seed: int, first_player: str, spawns: list[tuple[int, int]] | None = None, **variant: Any
    ) -> PK2048State:
        """A new match: the coin (if ``first_player`` is ``random``), then game 1.

        Args:
            seed: The match seed; the only source of randomness.
            first_player: ``random``, ``seat0`` or ``seat1``.
            spawns: Scripted ``(cell, value)`` spawns used before the RNG (tests).
            **variant: The other variant parameters.
        """
        rng = random.Random(seed)
        first_seat = rng.randrange(2) if first_player == "random" else int(first_player == "seat1")
        state = cls(first_seat=first_seat, scripted_spawns=[list(spawn) for spawn in spawns or []], rng=rng, **variant)
        state._start_game(0)
        return state

    # -- referee interface -------------------------------------------------------------------
    def to_act(self) -> list[Request]:
        return [] if self.over else [Request(self.to_move)]

    def processes(self) -> frozenset[ProcessKey]:
        if self.over:
            return _NONE
        return frozenset({ProcessKey(0, epoch=self.game_index), ProcessKey(1, epoch=self.game_index)})

    def game_first_seat(self) -> int:
        """The first player of the current game: game 1's, then alternating."""
        return self.first_seat if self.game_index % 2 == 0 else 1 - self.first_seat

    def is_first_turn(self, seat: int) -> bool:
        """Whether ``seat`` is asked for the first time in this game (its seat line goes along)."""
        return self.operations == (0 if seat == self.game_first_seat() else 1)

    def observation(self, request: Request) -> Observation:
        seat, other = request.seat, 1 - request.seat
        return Observation(
            player=1 if seat == self.game_first_seat() else 2,
            spawn_cell=self.last_spawn[0],
            spawn_value=self.last_spawn[1],
            opp_interference=self.last_answer[0],
            opp_bomb=self.last_answer[1],
            opp_move=self.last_answer[2],
            board=self.board,
            my_score=self.scores[seat],
            opp_score=self.scores[other],
            my_interference_used=self.interference_used[seat],
            my_bomb_used=self.bomb_used[seat],
            opp_interference_used=self.interference_used[other],
            opp_bomb_used=self.bomb_used[other],
        )

    def time_allowance_ms(self, request: Request) -> int:
        return self.decision_time_ms

    def charge_time(self, request: Request, elapsed_ms: int) -> Fault | None:
        if elapsed_ms > self.decision_time_ms:
            return Fault(
                request.seat,
                Termination.TIMEOUT,
                TIMEOUT,
                f"seat {request.seat} took {elapsed_ms} ms for {self.describe_turn()}, "
                f"over the limit of {self.decision_time_ms} ms",
            )
        return None

    def describe_turn(self) -> str:
        """The awaited answer, for detail sentences: "operation 7 of game 2"."""
        return f"operation {self.operations + 1} of game {self.game_index + 1}"

    def check(self, request: Request, action: Any) -> Fault | None:
        seat = request.seat
        violation = find_violation(self.board, action, self.interference_used[seat], self.bomb_used[seat])
        if violation is None:
            return None
        return Fault(
            seat,
            Termination.ILLEGAL_MOVE,
            violation.code,
            f"seat {seat} at {self.describe_turn()} answered '{action}': {violation.what}",
        )

    def apply(self, actions: Mapping[Request, Any]) -> None:
        ((request, operation),) = actions.items()
        seat = request.seat
        self.board, gain = perform(self.board, operation)
        self.scores[seat] += gain
        if operation.interference:
            self.interference_used[seat] = True
            self.last_spawn = (0, 0)
        else:
            if operation.bomb:
                self.bomb_used[seat] = True
            self.last_spawn = self._spawn()
        self.last_answer = (operation.interference, operation.bomb, operation.direction)
        self.operations += 1
        self.plies += 1
        if max(self.board) >= exponent_of(self.target_tile):
            self._end_by_scores(seat, REACHED_TARGET_TILE, f"seat {seat} made a {self.target_tile}")
            return
        self.to_move = 1 - seat
        self._stuck_check()

    def fault(self, fault: Fault) -> None:
        self._end_game(1 - fault.seat, fault.reason_code, DECIDED_BY_FAULT, fault.termination, fault.seat, fault.detail)

    def is_over(self) -> bool:
        return self.over

    # -- game flow ------------------------------------------------------------------------------
    def _spawn(self) -> tuple[int, int]:
        empties = empty_cells(self.board)
        if self.scripted_spawns:
            cell, value = self.scripted_spawns.pop(0)
            if cell not in empties or value not in (2, 4):
                raise ValueError(f"scripted spawn ({cell}, {value}) does not fit; empty cells: {empties}")
        else:
            cell = empties[self.rng.randrange(len(empties))]
            value = 4 if self.rng.random() < self.four_probability else 2
        self.board = with_cell(self.board, cell, exponent_of(value))
        return cell, value

    def _start_game(self, index: int) -> None:
        self.game_index = index
        self.board = START_BOARD
        self.scores = [0, 0]
        self.interference_used = [False, False]
        self.bomb_used = [False, False]
        self.operations = 0
        self.last_spawn = (0, 0)
        self.last_answer = (0, 0, 0)
        self.to_move = self.game_first_seat()
        self._stuck_check()

    def _stuck_check(self) -> None:
        seat = self.to_move
        if self.bomb_used[seat] and is_stuck(self.board):
            self._end_by_scores(1 - seat, NO_LEGAL_OPERATION, f"seat {seat} is stuck with its bomb used")

    def _end_by_scores(self, favoured: int, reason: str, what: str) -> None:
        """End the game on scores; equal scores go to ``favoured`` (the 2048's maker, the stuck seat's opponent)."""
        s0, s1 = self.scores
        if s0 == s1:
            winner, decided_by = favoured, DECIDED_BY_TIEBREAK
            how = f"equal scores {s0}: the tie goes to seat {favoured}"
        else:
            winner, decided_by, how = int(s1 > s0), DECIDED_BY_SCORE, f"scores {s0} to {s1}"
        detail = f"{what} after {plural(self.operations, 'operation')} of game {self.game_index + 1}; {how}"
        self._end_game(winner, reason, decided_by, Termination.NORMAL, None, detail)

    def _end_game(
        self, winner: int, reason: str, decided_by: str, termination: Termination, offender: int | None, detail: str
    ) -> None:
        self.games.append(
            {
                "game": self.game_index + 1,
                "winner": winner,
                "first": self.game_first_seat(),
                "reason": reason,
                "decided_by": decided_by,
                "scores": list(self.scores),
                "operations": self.operations,
                "termination": termination.value,
                "offender": offender,
                "detail": detail,
                "final_board": [value_of(exponent) for exponent in self.board],
            }
        )
        self.wins[winner] += 1
        decided = max(self.wins) > self.games_per_match // 2
        if self.game_index + 1 == self.games_per_match or (decided and not self.play_all_games):
            self.over = True
        else:
            self._start_game(self.game_index + 1)

    # -- result and JSON -------------------------------------------------------------------------
    def deciding_game(self) -> dict[str, Any]:
        """The record of the game in which the match winner took its deciding win."""
        winner = int(self.wins[1] > self.wins[0])
        needed = self.games_per_match // 2 + 1
        won = [record for record in self.games if record["winner"] == winner]
        return won[needed - 1]

    def result(self) -> Result:
        if not self.over:
            raise RuntimeError("the match is not over")
        deciding = self.deciding_game()
        winner = deciding["winner"]
        faulted = deciding["decided_by"] == DECIDED_BY_FAULT
        won, lost = self.wins[winner], self.wins[1 - winner]
        return Result(
            scores=list(self.wins),
            ranks=[1, 2] if winner == 0 else [2, 1],
            termination=Termination(deciding["termination"]),
            offenders=[deciding["offender"]] if faulted else [],
            reason_code=deciding["reason"],
            detail=f"seat {winner} wins the match {won}-{lost}; game {deciding['game']} decided it: "
            + deciding["detail"],
            plies=self.plies,
            extra={"wins": list(self.wins), "first_player": self.first_seat, "games": [dict(g) for g in self.games]},
        )

    def to_json(self) -> dict[str, Any]:
        data = {key: getattr(self, key) for key in self.__dataclass_fields__ if key != "rng"}
        data["board"] = list(self.board)
        data["last_spawn"] = list(self.last_spawn)
        data["last_answer"] = list(self.last_answer)
        for key in ("scores", "interference_used", "bomb_used", "wins"):
            data[key] = list(data[key])
        data["scripted_spawns"] = [list(spawn) for spawn in self.scripted_spawns]
        data["games"] = [dict(record) for record in self.games]
        version, words, gauss = self.rng.getstate()
        data["rng"] = [version, list(words), gauss]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PK2048State:
        fields = dict(data)
        version, words, gauss = fields.pop("rng")
        rng = random.Random()
        rng.setstate((version, tuple(words), gauss))
        fields["board"] = tuple(data["board"])
        fields["last_spawn"] = tuple(data["last_spawn"])
        fields["last_answer"] = tuple(data["last_answer"])
        for key in ("scores", "interference_used", "bomb_used", "wins"):
            fields[key] = list(data[key])
        fields["scripted_spawns"] = [list(spawn) for spawn in data["scripted_spawns"]]
        fields["games"] = [dict(record) for record in data["games"]]
        return cls(rng=rng, **fields)
