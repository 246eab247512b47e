"""The contest's data as it crosses from its state to its pages: versions, submissions, the board.

One type each, shared by the database (``league.store.submissions``), the validation queue
(``league.contest.validation``), the play loop (``league.contest.play_loop``) and the pages
(``league.serve``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path


class Status(StrEnum):
    """Where a submission stands: queued for its validation game, being validated, valid, or refused."""

    QUEUED = "queued"
    VALIDATING = "validating"
    VALID = "valid"
    REFUSED = "refused"


@dataclass(frozen=True)
class Submission:
    """One version an author submitted (immutable once stored, but for its status).

    Attributes:
        id: Its number in the contest, in order of arrival.
        author: Who submitted it.
        digest: The SHA-256 of its content (``league.store.uploads.UnpackedBot.digest``): it names the version.
        command: How to start it, from inside its folder (the argv; its first word names a file of the archive
            or a program of the system such as ``python3``).
        folder: Where its files are (``versions/<author>/<digest>/`` in the league folder), read-only to it.
        submitted: When it arrived, UTC, ``YYYY-MM-DDTHH:MM:SSZ``.
        status: Where it stands.
        fault: Why its validation refused it (a sentence), or "".
        stderr: Its stderr in its validation game (shown only to its author and the organiser), or "".
    """

    id: int
    author: str
    digest: str
    command: tuple[str, ...]
    folder: Path
    submitted: str
    status: Status
    fault: str = ""
    stderr: str = ""

    @property
    def version(self) -> str:
        """The short name of the version shown on pages: the digest's first 12 hex digits."""
        return self.digest[:12]


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
