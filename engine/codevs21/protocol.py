"""codevs21 on the wire (rules/codevs21.md section 9): both sides.

Referee side: the initial input (``W H T S N``, then every base pack as T lines and ``END``) is
the greeting; in solo the bot's stdin is then closed and nothing more is sent, and every turn
reads one ``X R`` line; in versus each turn from the second on first sends both packs of the
turn, the opponent's last move and both stocks. Bot side (``SoloDriver``): reads the initial
input and, after the last pack, answers every turn at once, N lines, playing its own copy of
the game to show the bot each position.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from engine.codevs21.field import Field
from engine.codevs21.packs import Pack, Params, initial_input
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


@dataclass(frozen=True)
class SoloObservation:
    """What a built-in sees before choosing the move of one solo turn (a snapshot: it never changes).

    Attributes:
        params: The game's numbers.
        turn: The turn (0-based).
        columns: Its own field, each column's blocks bottom first.
        score: Its score so far.
        fire: Its fire count Fc.
        packs: Every pack of the game, this turn's at ``packs[turn]``.
    """

    params: Params
    turn: int
    columns: tuple[tuple[int, ...], ...]
    score: int
    fire: int
    packs: tuple[Pack, ...]

    @classmethod
    def of(cls, well: Field, turn: int, packs: tuple[Pack, ...]) -> SoloObservation:
        """The snapshot of ``well`` at ``turn``."""
        return cls(well.params, turn, tuple(tuple(column) for column in well.columns), well.score, well.fire, packs)

    def well(self) -> Field:
        """A field to try moves on, as this snapshot shows it."""
        return Field(self.params, [list(column) for column in self.columns], self.score, self.fire)


class Codevs21Bot(Protocol):
    """What a built-in codevs21 bot implements."""

    def act(self, observation: SoloObservation) -> tuple[int, int]:
        """The move ``(X, R)``."""


class SoloDriver(BotDriver):
    """The bot side of solo: reads the initial input, then prints every move, one line a turn.

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

    def feed(self, line: str) -> str | None:
        words = line.split()
        if not self.header:
            self.header = [int(word) for word in words[:5]]
            return None
        if words != ["END"]:
            self.rows += [int(word) for word in words]
            return None
        self.packs.append(tuple(self.rows))
        self.rows = []
        width, height, side, target, turns = self.header
        if len(self.packs) < turns:
            return None
        params = Params(W=width, H=height, T=side, S=target, N=turns, P=self.cap, Th=self.threshold, A=0, B_obs=0)
        return "\n".join(self._moves(params))

    def _moves(self, params: Params) -> list[str]:
        """Every turn's move, found by playing the bot's own copy of the game."""
        game, moves = SoloGame(params, self.packs), []
        packs = tuple(self.packs)
        while not game.end:
            x, rotation = self.bot.act(SoloObservation.of(game.well, game.turn, packs))
            line = f"{x} {rotation}"
            moves.append(line)
            try:
                game.play(line.encode())
            except MoveFault:
                break
        return moves
