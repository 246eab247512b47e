"""A stand-in for ``league.contest.contest.Contest`` with the methods the web uses, over a real league folder.

Its league, games, records, stderr tails and replay pages are real (a league played in this process by
``tests.conftest.play_in_process``, read by the contest's own ``league.contest.games.StoredGames``); its
authors, tokens, submissions and board are held here, built from the real types of ``league.contest.model``,
so a test can set what the pages must show (a hostile name, a refused version's stderr) and publish a new
board.
"""

from __future__ import annotations

import hashlib
import itertools
import math
from collections.abc import Callable, Collection
from pathlib import Path

from league.contest.games import StoredGames
from league.contest.model import Board, BoardRow, Status, Submission
from league.contest.submit import SubmissionRefused
from league.live.games import LiveGames
from league.store.authors import Author


class ContestDouble:
    """The facade over ``league`` (played already): ``tokens`` maps token to author, ``organisers`` who they are."""

    def __init__(self, league, tokens: dict[str, str], organisers: set[str]) -> None:
        self.league = league
        self.folder: Path = league.output
        self.tokens = tokens
        self.organisers = organisers
        self.listeners: list[Callable[[Board], None]] = []
        self.made: list[Submission] = []
        self.submitted: list[tuple[str, bytes, list[str]]] = []
        self.replay_seats: list[frozenset[int]] = []
        self.refuse_next: SubmissionRefused | None = None
        self._numbers = itertools.count(1)
        self.games = StoredGames(self.folder, "replay")
        self.live_games = LiveGames()  # no run feeds it: the live pages list no game
        self.games_of, self.record, self.faults = self.games.games_of, self.games.record, self.games.faults
        self.stderr_of = self.games.stderr_of
        self._board = self.board_of_games(serial=1)

    # The contest's state, as the double's tests set it.

    def board_of_games(self, serial: int, extra: tuple[BoardRow, ...] = ()) -> Board:
        """A board of the league's bots with their real game counts (ratings made up), and ``extra`` rows."""
        records = self.games.records()
        rows = []
        for place, bot in enumerate(self.league.bots, 1):
            games = sum(bot in record.spec.seats for record in records)
            author = bot if bot in self.tokens.values() else ""
            version = "0123456789ab" if author else ""
            rows.append(BoardRow(place, bot, author, version, games, 1600.0 - 50 * place, 1500.0, 1700.0, False))
        rows.append(BoardRow(len(rows) + 1, "newcomer", "", "", 0, math.nan, math.nan, math.nan, False, True))
        rows.extend(extra)
        return Board(serial, tuple(rows), len(records), "playing", "greedy > random", "2026-12-07T18:00:00Z")

    def publish(self, board: Board) -> None:
        """A new board, told to every listener as the contest's board thread tells it."""
        self._board = board
        for listener in list(self.listeners):
            listener(board)

    def add_submission(self, author: str, status: Status, fault: str = "", stderr: str = "") -> Submission:
        """A submission as the store would hold it."""
        number = next(self._numbers)
        digest = hashlib.sha256(f"{author}{number}".encode()).hexdigest()
        made = Submission(
            number,
            author,
            digest,
            ("python3", "bot.py"),
            self.folder / "versions" / author / digest,
            "2026-12-07T18:00:00Z",
            status,
            fault,
            stderr,
        )
        self.made.append(made)
        return made

    # The facade.

    def board(self) -> Board:
        return self._board

    def add_listener(self, listener: Callable[[Board], None]) -> None:
        self.listeners.append(listener)

    def author_of(self, token: str) -> str | None:
        return self.tokens.get(token)

    def is_organiser(self, name: str) -> bool:
        return name in self.organisers

    def authors(self) -> list[Author]:
        names = sorted(set(self.tokens.values()))
        return [Author(name, "2026-12-07T18:00:00Z", name in self.organisers) for name in names]

    def submit(self, author: str, data: bytes, command: list[str]) -> Submission:
        self.submitted.append((author, data, command))
        if self.refuse_next is not None:
            refusal, self.refuse_next = self.refuse_next, None
            raise refusal
        return self.add_submission(author, Status.QUEUED)

    def submissions(self, author: str | None = None) -> list[Submission]:
        return [one for one in self.made if author is None or one.author == author]

    def submission(self, number: int) -> Submission | None:
        return next((one for one in self.made if one.id == number), None)

    def replay_page(self, game_id: str, stderr_seats: Collection[int] = ()) -> str | None:
        self.replay_seats.append(frozenset(stderr_seats))
        return self.games.replay_page(game_id, stderr_seats)

    def workers(self) -> list[str]:
        return ["2 game workers on this machine's local Ray", "playing the field of 3 bots"]
