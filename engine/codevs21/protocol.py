"""codevs21 on the wire (rules/codevs21.md section 9): both sides.

Referee side: the initial input (``W H T S N``, then every base pack as T lines and ``END``) is
the greeting; in solo the bot's stdin is then closed and nothing more is sent, and every turn
reads one ``X R`` line; in versus each turn from the second on first sends both packs of the
turn, the opponent's last move and both stocks. Bot side (``SoloDriver``): reads the initial
input and, after the last pack, answers every turn, N lines, each decided only when it is taken
(``replies``: a program prints each move as soon as it is decided, so a spent time bank keeps
the score so far), playing its own copy of the game to show the bot each position;
``VersusDriver`` answers one turn at a time.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Protocol

from engine.codevs21.field import Field
from engine.codevs21.observations import SoloObservation, VersusObservation, Well
from engine.codevs21.packs import Pack, Params, initial_input, rotate
from engine.codevs21.solo import MAX_LINE, MoveFault, SoloGame, read_move
from engine.codevs21.state import FAULT_CODES, SOLO, Codevs21State
from engine.codevs21.versus import VersusGame
from engine.core import ProcessKey, Request, State, Termination
from engine.protocol import BotDriver, LineRules, ParseError, RefereeProtocol


class Codevs21Referee(RefereeProtocol):
    """The referee side: the initial input, per-turn messages in versus, ``X R`` replies in."""

    line_rules = LineRules(max_bytes=MAX_LINE, skip_blank=False, fragment_at_eof_is_line=False)

    def greeting(self, state: State, key: ProcessKey) -> bytes:
        assert isinstance(state, Codevs21State)
        return initial_input(state.params, state.packs, state.send_params).encode("ascii")

    def ends_input_after_greeting(self, state: State, key: ProcessKey) -> bool:
        """Solo closes the bot's stdin once the initial input is written (9.2)."""
        assert isinstance(state, Codevs21State)
        return state.mode == SOLO

    def request(self, state: State, request: Request) -> bytes:
        assert isinstance(state, Codevs21State)
        if isinstance(state.game, VersusGame) and state.turn >= 1:
            return state.game.message(request.seat).encode("ascii")
        return b""

    def parse(self, state: State, request: Request, line: str) -> Any:
        try:
            return read_move(line.encode("latin-1"))
        except MoveFault as fault:
            raise ParseError(str(fault)) from None

    def fault_code(self, state: State, request: Request, termination: Termination) -> str:
        return FAULT_CODES.get(termination, termination.value.lower())

    def describe(self, state: State, request: Request) -> str:
        assert isinstance(state, Codevs21State)
        return f"move {state.turn + 1}"

    def shutdown_wait_ms(self) -> int:
        return 1000


class Codevs21Bot(Protocol):
    """What a built-in codevs21 bot implements."""

    def act(self, observation: SoloObservation | VersusObservation) -> tuple[int, int]:
        """The move ``(X, R)``."""


class _Driver(BotDriver):
    """What both bot sides keep: the built-in, P and Th, the header and the packs read so far.

    Args:
        bot: The built-in; it learns P and Th from the launcher (they are not on the wire).
        cap: The score exponent cap P.
        threshold: The fire threshold Th.
    """

    def __init__(self, bot: Codevs21Bot, cap: int, threshold: int) -> None:
        self.bot = bot
        self.cap, self.threshold = cap, threshold
        self.header: list[int] = []
        self.rows: list[int] = []
        self.packs: list[Pack] = []

    @property
    def params(self) -> Params:
        """The game's numbers as the bot knows them (W H T S N from the header, P and Th given)."""
        width, height, side, target, turns = self.header
        return Params(W=width, H=height, T=side, S=target, N=turns, P=self.cap, Th=self.threshold, A=0, B_obs=0)


class SoloDriver(_Driver):
    """The bot side of solo: reads the initial input, then prints every move, one line a turn."""

    def feed(self, line: str) -> str | None:
        moves = list(self.replies(line))
        return "\n".join(moves) if moves else None

    def replies(self, line: str) -> Iterator[str]:
        """Read one line of the initial input; after the last pack, every turn's move, each decided when taken."""
        words = line.split()
        if not self.header:
            self.header = [int(word) for word in words[:5]]
            return iter(())
        if words != ["END"]:
            self.rows += [int(word) for word in words]
            return iter(())
        self.packs.append(tuple(self.rows))
        self.rows = []
        if len(self.packs) < self.header[4]:
            return iter(())
        return self._moves(self.params)

    def _moves(self, params: Params) -> Iterator[str]:
        """Every turn's move, found by playing the bot's own copy of the game, one at a time."""
        game = SoloGame(params, self.packs)
        packs = tuple(self.packs)
        while not game.end:
            x, rotation = self.bot.act(SoloObservation(params, game.turn, Well.of(game.well), packs))
            yield f"{x} {rotation}"
            try:
                game.move(x, rotation)
            except MoveFault:
                break


class VersusDriver(_Driver):
    """The bot side of versus: reads the initial input and each turn's message, keeps both fields.

    It answers turn 0 after the last pack of the initial input, and every later turn after the
    turn's message (both packs, the opponent's last move, both stocks), replaying the last turn
    on its copies of both fields first.
    """

    def __init__(self, bot: Codevs21Bot, cap: int, threshold: int) -> None:
        super().__init__(bot, cap, threshold)
        self.message: list[Pack] = []
        self.numbers: list[tuple[int, int]] = []
        self.turn = 0
        self.fields: tuple[Field, Field] | None = None
        self.current: tuple[Pack, Pack] = ((), ())
        self.stocks = (0, 0)
        self.move = (0, 0)

    def feed(self, line: str) -> str | None:
        words = line.split()
        if not self.header:
            self.header = [int(word) for word in words[:5]]
            return None
        if self.fields is None or len(self.message) < 2:  # pack rows, of the initial input or a message
            if words != ["END"]:
                self.rows += [int(word) for word in words]
                return None
            (self.packs if self.fields is None else self.message).append(tuple(self.rows))
            self.rows = []
            if self.fields is None and len(self.packs) == self.header[4]:
                self.fields = (Field(self.params), Field(self.params))
                self.current = (self.packs[0], self.packs[0])  # no stock before the first turn
                return self._answer()
            return None
        self.numbers.append((int(words[0]), int(words[1])))
        if len(self.numbers) < 2:
            return None
        (other_x, other_rotation), self.stocks = self.numbers
        side = self.header[2]
        own, other = self.fields
        own.play(rotate(self.current[0], side, self.move[1]), self.move[0])
        other.play(rotate(self.current[1], side, other_rotation), other_x)
        self.turn += 1
        self.current, self.message, self.numbers = (self.message[0], self.message[1]), [], []
        return self._answer()

    def _answer(self) -> str:
        assert self.fields is not None
        own, other = self.fields
        observation = VersusObservation(
            self.params, self.turn, Well.of(own), Well.of(other), *self.current, self.stocks, tuple(self.packs)
        )
        self.move = self.bot.act(observation)
        return f"{self.move[0]} {self.move[1]}"
