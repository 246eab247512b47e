"""Openings: a match that starts from the position a few plies lead to, the same for both seats.

An opening is either ``plies`` plies drawn by a uniform random legal policy from a seed, or a
list of moves in the game's own reply notation (the lines a bot would send). The referee plays
it on the state before the bots are asked for anything past it (``OpeningPlay``), on behalf of
both seats, so that both games of a seat-swapped pair start from one position. A game that
supports openings gives ``Game.opening_rules()`` (an ``OpeningRules``): how to draw a random legal
action, how to write an action in its notation, and which of the opening's requests the bots are
still asked (how a bot learns what it must know before play, e.g. versus2048's seat line). A bot
is always told the position it is asked from: in a supported game every request it gets after
the opening tells it the whole position it can see, so no other bytes are needed.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

from engine.core import Game, Request, State, derive_seed, plural
from engine.protocol import ParseError, RefereeProtocol


class OpeningError(ValueError):
    """An opening that is not a legal start of the game (its message names the ply and why)."""


@dataclass(frozen=True)
class Opening:
    """What a match starts from: ``plies`` random plies from ``seed``, or a list of ``moves``.

    Attributes:
        plies: How many plies a uniform random legal policy plays (when ``moves`` is None).
        seed: The match seed the random plies are drawn from (a seed of their own is derived from it).
        moves: The opening's plies in the game's reply notation, in order (None: random plies).
    """

    plies: int = 0
    seed: int = 0
    moves: tuple[str, ...] | None = None

    @property
    def length(self) -> int:
        """How many plies the opening has."""
        return len(self.moves) if self.moves is not None else self.plies


class OpeningRules(ABC):
    """How one game is started from an opening (``Game.opening_rules``)."""

    no_moves_file: str = ""
    """Why the game takes no move lists (an openings file), only random plies; "" where it takes both."""

    def starts(self, state: State) -> bool:
        """Whether the opening's plies may be played now; before, the bots play (geister's secret setups)."""
        return True

    def section(self, state: State) -> Any:
        """Which part of the match ``state`` is in: each part starts from the opening (attack2048's halves)."""
        return None

    def opened(self, state: State) -> None:
        """Called once the opening's last ply of a section is played (attack2048 starts the score there)."""
        return None

    def asked_anyway(self, state: State) -> bool:
        """Whether the bots are still sent this opening ply's request, their replies judged but not played.

        True where the request tells a bot what it must know (versus2048's seat line): the reply
        is read and judged as always (a fault is a fault), and the opening's action is played.
        """
        return False

    @abstractmethod
    def random_action(self, state: State, request: Request, rng: random.Random) -> Any:
        """A legal action for ``request`` drawn by the game's uniform random policy."""

    @abstractmethod
    def notation(self, state: State, request: Request, action: Any) -> str:
        """``action`` as the reply line a bot would send for it (what an openings file holds)."""


@dataclass
class OpeningPlay:
    """One opening being played on one match, ply by ply (again at the start of each of its sections).

    Attributes:
        rules: The game's opening rules.
        opening: The opening.
        protocol: The game's referee protocol (it reads a move list's plies).
        played: The opening's plies, in the game's notation (a later section plays them again).
    """

    rules: OpeningRules
    opening: Opening
    protocol: RefereeProtocol
    played: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._rng = random.Random(derive_seed(self.opening.seed, "opening"))
        self._section: Any = None
        self._done = 0
        """Plies of the opening played in the current section."""

    def pending(self, state: State) -> bool:
        """Whether a ply of the opening is still to be played on ``state`` (a new section starts it again)."""
        if state.is_over():
            return False
        section = self.rules.section(state)
        if section != self._section:
            self._section, self._done = section, 0
        return self._done < self.opening.length

    def play_ply(self, state: State) -> tuple[Request, str]:
        """Play the opening's next ply on ``state``; the request it answered and the ply in the game's notation.

        Raises:
            OpeningError: The ply is not a legal move here (a move list's), or the game asks for
                several replies at once (openings are for turn-based games).
        """
        number = self._done + 1
        requests = state.to_act()
        if len(requests) != 1:
            raise OpeningError(f"ply {number} of the opening: the game asks {len(requests)} seats at once")
        request = requests[0]
        script = self.opening.moves if self.opening.moves is not None else self.played
        if self._done < len(script):
            text = script[self._done]
            try:
                action = self.protocol.parse(state, request, text)
            except ParseError as error:
                raise OpeningError(f"ply {number} of the opening, {text!r}: {error}") from None
        else:
            action = self.rules.random_action(state, request, self._rng)
            text = self.rules.notation(state, request, action)
        fault = state.check(request, action)
        if fault is not None:
            raise OpeningError(f"ply {number} of the opening, {text!r}: {fault.detail}")
        state.apply({request: action})
        if len(self.played) == self._done:
            self.played.append(text)
        self._done += 1
        if self._done == self.opening.length:
            self.rules.opened(state)
        return request, text


def opening_rules(game: Game) -> OpeningRules:
    """The game's opening rules.

    Raises:
        OpeningError: The game takes no openings, with its reason.
    """
    rules = game.opening_rules()
    if rules is None:
        raise OpeningError(f"{type(game).name} takes no openings: {type(game).no_openings}")
    return rules


def check_moves(game: Game, moves: tuple[str, ...]) -> None:
    """Check that a move list is a legal opening of ``game`` that leaves the game going on.

    Raises:
        OpeningError: Naming the first ply that is not legal, or where the game ended.
    """
    if not moves:
        raise OpeningError("the opening has no moves")
    rules = opening_rules(game)
    if rules.no_moves_file:
        raise OpeningError(f"{type(game).name} takes random plies only ({{plies: N}}): {rules.no_moves_file}")
    state = game.new_state(0)
    play = OpeningPlay(rules, Opening(moves=moves), game.referee_protocol())
    while play.pending(state):
        play.play_ply(state)
    if state.is_over():
        raise OpeningError(f"the game is over after {plural(len(play.played), 'ply', 'plies')} of the opening")
