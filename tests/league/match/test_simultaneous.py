"""A simultaneous request phase (as in nimmt): programs are not charged a built-in's thinking time."""

import sys
import time
from typing import Any, ClassVar

from engine.core import Fault, Game, ProcessKey, Request, Result, State, Termination
from engine.protocol import BotDriver, LineRules, RefereeProtocol
from league.match.inprocess import InProcessTransport
from league.match.referee import play_match
from sandbox.process import BotProcess

ALLOWANCE_MS = {0: 200, 1: 2000}  # the program at seat 0 must be quick; the built-in at seat 1 is slow


class GuessState(State):
    """Both seats name a number at once; the higher number wins."""

    def __init__(self) -> None:
        self.numbers: dict[int, int] = {}
        self.faults: list[Fault] = []

    def to_act(self):
        return [] if self.is_over() else [Request(0), Request(1)]

    def processes(self):
        return frozenset() if self.is_over() else frozenset({ProcessKey(0), ProcessKey(1)})

    def observation(self, request):
        return request.seat

    def time_allowance_ms(self, request):
        return ALLOWANCE_MS[request.seat]

    def charge_time(self, request, elapsed_ms):
        if elapsed_ms > ALLOWANCE_MS[request.seat]:
            return Fault(request.seat, Termination.TIMEOUT, "timeout", f"took {elapsed_ms} ms")
        return None

    def check(self, request, action):
        return None

    def apply(self, actions):
        self.numbers.update({request.seat: number for request, number in actions.items()})

    def fault(self, fault):
        self.faults.append(fault)

    def is_over(self):
        return bool(self.faults) or len(self.numbers) == 2

    def result(self):
        if self.faults:
            loser = self.faults[0].seat
            return Result([0, 0], [2, 2], Termination.TIMEOUT, offenders=[loser], detail=self.faults[0].detail)
        ranks = [1, 2] if self.numbers[0] > self.numbers[1] else [2, 1]
        return Result([self.numbers[0], self.numbers[1]], ranks, Termination.NORMAL)

    def to_json(self):
        return {"numbers": self.numbers}

    @classmethod
    def from_json(cls, data):
        return cls()


class GuessReferee(RefereeProtocol):
    line_rules = LineRules()

    def request(self, state, request):
        return b"GO\n"

    def parse(self, state, request, line):
        return int(line)

    def fault_code(self, state, request, termination):
        return termination.value.lower()


class SlowDriver(BotDriver):
    def feed(self, line):
        time.sleep(0.4)
        return "7"


class Guess(Game):
    name: ClassVar[str] = "guess"

    def new_state(self, seed, seats=None):
        return GuessState()

    def referee_protocol(self):
        return GuessReferee()

    def bot_protocol(self, bot: Any):
        return SlowDriver()

    @classmethod
    def builtin_bots(cls):
        return {}


def test_a_program_is_not_charged_while_a_built_in_thinks_in_the_same_phase():
    program = [sys.executable, "-c", "import sys\nfor _ in sys.stdin: print(3, flush=True)"]
    launchers = [lambda key: BotProcess(program), lambda key: InProcessTransport(SlowDriver())]
    record = play_match(Guess(), launchers, seed=0)
    assert record.result.termination == Termination.NORMAL, record.result.detail
    assert record.result.scores == [3, 7]
    times = {move.seat: move.elapsed_ms for move in record.moves}
    assert times[1] >= 400 and times[0] < ALLOWANCE_MS[0]
