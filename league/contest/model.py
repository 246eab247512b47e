"""The contest's data as it crosses from its state to its pages: versions, submissions, the board.

One type each, shared by the database (``league.store.submissions``), the validation queue
(``league.contest.validation``), the play loop (``league.contest.play_loop``) and the pages
(``league.serve``). ``Status`` and ``Submission`` are defined beside the database that keeps them
(``league.store.submissions``: the store is a floor below the contest and cannot import it) and
named here with the others.
"""

from __future__ import annotations

from dataclasses import dataclass

from league.store.submissions import Status, Submission

__all__ = ["Board", "BoardRow", "Status", "Submission"]


@dataclass(frozen=True)
class BoardRow:
    """One entry of the leaderboard.

    Attributes:
        place: Its place (tied entries share the best of theirs).
        bot: The name it plays under in the league (its author's name for a submitted entry; the league
            file's name for a house bot).
        author: Its author, or "" for a bot of the league file.
        version: Its version's short name (``Submission.version``), or "" for a bot of the league file.
        games: Its games counted on the board (its current version's only).
        rating: Its Bradley-Terry strength in Elo (NaN before any game).
        low: The low end of the rating's 95% interval.
        high: The high end.
        settled: Whether its place is settled (the adaptive league's claims on both its neighbours hold).
        warming_up: Whether it is still in its warm-up games.
    """

    place: int
    bot: str
    author: str
    version: str
    games: int
    rating: float
    low: float
    high: float
    settled: bool
    warming_up: bool = False


@dataclass(frozen=True)
class Board:
    """The leaderboard at one moment.

    Attributes:
        serial: Grows by one each time the board changes (a live page asks for what came after its serial).
        rows: The entries, best first.
        games: Games stored in the league (every version's).
        state: A sentence for people: playing, settled and waiting for a new version, waiting for entries.
        ranking_line: The adaptive league's claims (``a > b = c``), or "".
        updated: When it last changed, UTC, ``YYYY-MM-DDTHH:MM:SSZ``.
    """

    serial: int
    rows: tuple[BoardRow, ...] = ()
    games: int = 0
    state: str = ""
    ranking_line: str = ""
    updated: str = ""
