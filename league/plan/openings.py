"""A league's ``openings``: every seat-swapped pair of games starts from its own position.

``openings: {plies: N}`` plays the first N plies of each game by a uniform random legal policy
drawn from the match seed (the two games of a pair share it, so both start from the same
position); ``openings: {file: PATH}`` takes each pair's opening, a move list in the game's own
reply notation, from a file: round k of every pairing (its k-th pair of games) plays line k, the
lines wrapping round when the league has more rounds than the file has lines (as fastchess
cycles its book; the repeated games are then counted as repeats). The engine side, which plays an
opening on a state and keeps the bots told of it, is ``engine.openings``.

Which of the seven games can repeat, and how an opening reaches the bots (each game's README,
section "Openings"):

* versus2048: no randomness at all (its README, section 1), so two deterministic bots repeat every
  game. Every turn input tells a bot the whole position (turn, time left, both scores, both
  boards), so the referee plays the opening's plies for both seats and the bots are next asked
  from the position they lead to. The pre-game is how a bot learns its seat: under an opening
  each bot is still sent its seat line and its pre-game reply is read and judged as always, but
  the opening's cell is put (its first turn input shows it). Supported.
* attack2048: the default ``empty`` and ``attacker_two`` openings have no randomness (only
  ``random_two`` draws two cells from the seed), so deterministic bots repeat. Every request shows
  the whole board, so the referee plays the opening's plies (placements and slides) at the start
  of both halves (the same plies: each half starts from one board), and the half's score starts
  once they are played (the opening's slides score for no one). Supported.
* geister: no randomness (``seed`` is unused), so deterministic bots repeat. Every ``MOV?`` tells
  a bot the whole board in its frame (captures with their colours), so the referee plays the
  opening's moves after both setups, which stay the bots' own secret, and sends no acknowledgement
  for them. Random plies only: a move list's legality and result depend on the secret setups, so
  an openings file is refused. Supported.
* pk2048: every spawned tile is drawn from the match seed (its README), so every pair of games
  already differs: ``openings`` is refused, saying so.
* nimmt: the deal is drawn from the match seed: refused, saying so.
* fish: the board's fish are shuffled from the match seed: refused, saying so.
* codevs21: the packs are drawn from the match seed (a fixed ``packs`` file repeats them; its
  solo mode seats one bot): refused, saying so.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from engine.core import Game, plural
from engine.openings import Opening, OpeningError, check_moves, opening_rules

SEPARATOR = ";"
"""What separates the plies of an openings file's line (a ply is a reply line in the game's notation)."""


class OpeningsConfig(BaseModel):
    """``openings: {plies: N}`` or ``openings: {file: PATH}`` (one of them)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    plies: int | None = Field(None, strict=True)
    file: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _mapping(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            raise ValueError("give {plies: N} (N random plies open each pair) or {file: PATH} (one opening a line)")
        return data

    @field_validator("plies")
    @classmethod
    def _plies(cls, value: int | None) -> int | None:
        if value is not None and value < 0:
            raise ValueError(f"{value} plies: give 0 or more, e.g. {{plies: 4}}")
        return value

    @model_validator(mode="after")
    def _one(self) -> OpeningsConfig:
        if (self.plies is None) == (self.file is None):
            raise ValueError("give exactly one of plies (random plies: {plies: 4}) or file ({file: openings.txt})")
        return self


@dataclass(frozen=True)
class Openings:
    """A league's openings, resolved: ``plies`` random plies, or the move lists of a file.

    Attributes:
        plies: Random plies per game (when ``lines`` is None).
        lines: The file's openings in order, each with its line number in the file.
        file: The file's path as resolved (for people).
    """

    plies: int = 0
    lines: tuple[tuple[int, tuple[str, ...]], ...] | None = None
    file: str = ""

    def for_round(self, round_: int) -> dict[str, Any] | None:
        """What a game of round ``round_`` (its pair's number) starts from, as a ``GameSpec``'s ``opening``."""
        if self.lines is None:
            return {"plies": self.plies} if self.plies else None
        number, moves = self.lines[round_ % len(self.lines)]
        return {"file": Path(self.file).name, "line": number, "moves": list(moves)}

    def describe(self) -> str:
        """One phrase for people: ``4 random plies`` or ``the 12 openings of book.txt, in order``."""
        if self.lines is None:
            return f"{self.plies} random plies from each pair's seed"
        return (
            f"the {plural(len(self.lines), 'opening')} of {self.file}, in order (pair k plays the k-th, wrapping round)"
        )


def opening_of(data: dict[str, Any] | None, seed: int) -> Opening | None:
    """The opening a game's spec names (``Openings.for_round``), its random plies drawn from the match ``seed``."""
    if not data:
        return None
    if "moves" in data:
        return Opening(moves=tuple(data["moves"]))
    return Opening(plies=int(data["plies"]), seed=seed)


def parse_line(text: str) -> tuple[str, ...]:
    """An openings file's line as its plies: reply lines separated by ``;``, each trimmed."""
    return tuple(ply.strip() for ply in text.split(SEPARATOR))


def resolve(config: OpeningsConfig | None, folder: Path, games: dict[str, Game]) -> Openings | None:
    """Check a league's ``openings`` against its game's variants and read its file.

    Args:
        config: The league file's ``openings`` (None: none).
        folder: The league file's folder (a relative file is found there).
        games: Per variant name, the game.

    Raises:
        OpeningError: One sentence naming the problem and the fix (the caller adds the file and key).
    """
    if config is None:
        return None
    for game in games.values():
        opening_rules(game)
    if config.file is None:
        return Openings(plies=config.plies or 0)
    path = (folder / config.file).resolve()
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        why = getattr(error, "strerror", None) or "not UTF-8 text"
        raise OpeningError(f"cannot read {path} ({why}): give a text file of openings, one a line") from None
    lines = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        moves = parse_line(raw)
        for name, game in games.items():
            try:
                check_moves(game, moves)
            except OpeningError as error:
                where = f" (variant {name})" if len(games) > 1 else ""
                raise OpeningError(f"{path}, line {number}{where}: {error}") from None
        lines.append((number, moves))
    if not lines:
        raise OpeningError(f"{path} holds no openings: write one a line, plies separated by '{SEPARATOR}'")
    return Openings(lines=tuple(lines), file=str(path))


def from_assignments(assignments: dict[str, Any], game: Game, folder: Path, seed: int) -> Opening | None:
    """The opening of one match: ``league play --openings`` (``plies=4``; ``file=PATH``, ``pair=K``; ``moves=...``).

    Args:
        assignments: ``plies``, or ``file`` and with it ``pair``: the 0-based pair number whose line a
            league would play (default 0, the file's first opening), or ``moves``: one line's plies.
        game: The game with its variant.
        folder: Where a relative file is found.
        seed: The match seed (random plies are drawn from it).

    Raises:
        OpeningError: One sentence naming the problem.
    """
    given = dict(assignments)
    if "moves" in given:  # the plies themselves, as a file's line (a stored game's replay command gives them)
        if len(given) > 1 or not isinstance(given["moves"], str):
            raise OpeningError("moves='PLY; PLY; ...' is an opening by itself: give it alone, quoted")
        moves = parse_line(given["moves"])
        check_moves(game, moves)
        return Opening(moves=moves)
    pair = given.pop("pair", 0)
    if (
        not isinstance(pair, int)
        or isinstance(pair, bool)
        or pair < 0
        or ("pair" in assignments and "file" not in given)
    ):
        raise OpeningError(f"pair={pair!r}: give a pair number 0 or more, with file=PATH")
    try:
        config = OpeningsConfig(**given)
    except ValueError as error:
        first = error.errors()[0] if hasattr(error, "errors") else {"msg": str(error), "loc": ()}
        where = ".".join(str(part) for part in first["loc"])
        raise OpeningError(f"{where + ': ' if where else ''}{first['msg'].removeprefix('Value error, ')}") from None
    openings = resolve(config, folder, {"default": game})
    assert openings is not None
    return opening_of(openings.for_round(pair), seed)
