"""The contest as one object: what the pages read and do (``league.serve`` uses this alone).

A ``Contest`` holds the league file read as a live contest (``league.contest.field.check_live``), its
folder (the league's report folder: ``contest.sqlite``, ``versions/``, the store), and, once started,
three threads: the play loop (``league.contest.play_loop``), the validation queue
(``league.contest.validation``) and the board keeper here, which makes a new board
(``league.contest.board``) each time the play loop stores games or an entry changes, at most one each
``BOARD_INTERVAL_S`` (changes that come meanwhile are taken together), and tells each listener. A listener is
called from that thread: it must return at once (a page's live stream only notes the new board).
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

from league.cluster.session import cluster_cpus, leave_ray, start_ray
from league.contest.board import make_board
from league.contest.field import FieldError, check_live
from league.contest.games import StoredGames
from league.contest.model import Board, Status, Submission
from league.contest.play_loop import PlayLoop, PlayState
from league.contest.submit import accept_upload
from league.contest.validation import ValidationQueue
from league.live.games import LiveGames
from league.plan.config import League
from league.stats.game_record import GameRecord
from league.store import authors, submissions
from sandbox.folders import is_system
from sandbox.jail import Sandbox

BOARD_INTERVAL_S = 0.5
"""The least time between two boards: changes in between are taken together (each stored batch of games is one),
so the board's work and its live pages' traffic stay small while a board is never more than a second late."""


class Contest:
    """A live contest over a league file.

    Args:
        path: The league file.
        address: A Ray cluster's address, or None for a local cluster started here.

    Raises:
        FieldError: The file's format cannot be played live, or the jail cannot run here.
        ConfigError: The file is wrong, or its folder is not the league's own.
    """

    def __init__(self, path: Path, address: str | None = None) -> None:
        self.path = Path(path)
        self.league = check_live(self.path)
        walls_problem = contest_walls_problem(self.league)
        if walls_problem is not None:
            raise FieldError(f"{self.path}: {walls_problem}")
        self.league.check_output(create=True)
        if Sandbox(self.league.config.sandbox.mode, self.league.config.limits).bwrap is None:
            raise FieldError(
                f"{self.path}: a live contest plays its entries' code in the jail, and the jail cannot run here"
                " (sandbox: none, or bubblewrap missing: apt-get install bubblewrap); give sandbox: auto or strict"
            )
        self.folder = self.league.output
        self.address = address
        self._listeners: list[Callable[[Board], None]] = []
        self._board = Board(serial=0, state="starting")
        self._changed = threading.Event()
        self._closing = threading.Event()
        self._keeper = threading.Thread(target=self._keep_board, name="contest-board", daemon=True)
        self.live_games = LiveGames()
        """The games being played now, as the live pages show them (``league.live``)."""
        self.play = PlayLoop(self.path, self.entries, lambda _state: self._changed.set(), address, self.live_games)
        self.validation = ValidationQueue(self.league, on_valid=self._entered)
        self._started_ray = False
        self.games = StoredGames(self.folder, self.league.config.name)

    def start(self) -> None:
        """Start Ray (on the calling thread: the main one), the validation queue, the play loop and the board.

        The validation queue sweeps what killed uploads left and validates again what a killed server
        was validating (``ValidationQueue.start``).

        Raises:
            AuthorError: The contest's database cannot be used (nothing is started).
            ClusterUnreachable: The Ray cluster asked for cannot be joined.
        """
        self.validation.start()  # first: an unusable database stops the start before Ray is up
        self._started_ray = start_ray(self.league.config.concurrency, self.address, working_dir=None)
        self._keeper.start()
        self.play.start()

    def stop(self) -> None:
        """Stop every thread (games in flight are dropped; what is stored stays) and a Ray cluster started here."""
        self._closing.set()
        self._changed.set()
        self.validation.stop()
        self.play.stop()
        if self._keeper.is_alive():
            self._keeper.join(30)
        if self._started_ray:
            leave_ray()

    # What the pages read.

    def board(self) -> Board:
        """The newest board."""
        return self._board

    def add_listener(self, listener: Callable[[Board], None]) -> None:
        """Call ``listener`` with each new board (from the board's thread: it must return at once)."""
        self._listeners.append(listener)

    def author_of(self, token: str) -> str | None:
        """Whose token this is (None: nobody's)."""
        return authors.author_of_token(self.folder, token)

    def is_organiser(self, name: str) -> bool:
        """Whether the author is one of the contest's organisers."""
        return authors.is_organiser(self.folder, name)

    def authors(self) -> list[authors.Author]:
        """The contest's authors in the order they were added (name, when, organiser or not; never a token)."""
        return authors.list_authors(self.folder)

    def entries(self) -> dict[str, Submission]:
        """Per author, their entry: their newest valid version."""
        return submissions.entries(self.folder)

    def submissions(self, author: str | None = None) -> list[Submission]:
        """Every submission (one author's, if given), oldest first."""
        return submissions.submissions(self.folder, author)

    def submission(self, number: int) -> Submission | None:
        """One submission by its number."""
        return submissions.submission(self.folder, number)

    def queue(self) -> list[Submission]:
        """The submissions waiting for their validation game or in it, oldest first."""
        return [s for s in self.submissions() if s.status in (Status.QUEUED, Status.VALIDATING)]

    def games_of(self, bot: str) -> list[GameRecord]:
        """Every stored game the bot played (all its versions'), newest first."""
        return self.games.games_of(bot)

    def record(self, game_id: str) -> GameRecord | None:
        """A stored game by its id."""
        return self.games.record(game_id)

    def stderr_of(self, game_id: str) -> dict[int, str]:
        """Per seat, what its bot wrote on stderr in the game (its kept tail); shown to its author and organisers."""
        return self.games.stderr_of(game_id)

    def replay_page(self, game_id: str, stderr_seats: Collection[int] = ()) -> str | None:
        """The replay viewer's page of a stored game, only ``stderr_seats``' stderr in it (``StoredGames``)."""
        return self.games.replay_page(game_id, stderr_seats)

    def workers(self) -> list[str]:
        """What the league's workers do, a sentence each: how many, on what, and what the play loop says."""
        state: PlayState = self.play.state
        concurrency = state.league.config.concurrency if state.league else self.league.config.concurrency
        where = f"a Ray cluster at {self.address}" if self.address else "this machine's local Ray"
        lines = [f"{concurrency} game workers on {where} ({cluster_cpus()} CPUs)", state.sentence]
        return lines

    def faults(self) -> list[GameRecord]:
        """Stored games in which a bot faulted, newest first (the ``FAULTS_SHOWN`` newest of ``StoredGames``)."""
        return self.games.faults()

    # What the pages do.

    def submit(self, author: str, data: bytes, command: list[str]) -> Submission:
        """Take a version (``accept_upload``: refused with ``SubmissionRefused``) and queue its validation game."""
        submission = accept_upload(self.league, author, data, command)
        self.validation.notify()
        self._changed.set()
        return submission

    # Inside.

    def _entered(self, _submission: Submission) -> None:
        """A version passed its validation game: the league starts again on the new field."""
        self.play.field_changed()
        self._changed.set()

    def _keep_board(self) -> None:
        while not self._closing.is_set():
            self._changed.wait()
            if self._closing.wait(BOARD_INTERVAL_S):  # what else changes meanwhile joins this board
                break
            self._changed.clear()
            state = self.play.state
            if state.league is not None and state.run is None:
                continue  # a run starting on a new field: its board comes once it has taken the stored games
            board = make_board(
                self._board.serial + 1, state.league, state.run, self.games.records(), self.entries(), state.sentence
            )
            self._board = board
            for listener in list(self._listeners):
                with contextlib.suppress(Exception):  # a page's broken stream never stops the board
                    listener(board)


def contest_walls_problem(league: League) -> str | None:
    """Why the league's entries would see past their own folders in this contest, or None.

    A bot's jail shows the system folders whole (``sandbox.folders.SYSTEM_DIRS``) and, with
    ``limits.network``, the host's network: a contest folder there would show every author's versions
    and games to every bot, and the network the server's port and Ray's.
    """
    if league.config.limits.network:
        return "limits: network: true would let every entry reach the contest server and Ray; leave it out"
    for what, path in (("league file", league.path), ("output folder", league.output)):
        if is_system(Path(os.path.realpath(path))):
            return (
                f"the {what} {path} lies in a system folder, which every bot's jail shows whole (every author's"
                " versions and games with it): put the contest in a folder of its own, e.g. under /srv or /home"
            )
    return None


def describe(board: Board) -> dict[str, Any]:
    """The board as plain data (``GET /api/board``): its fields, its rows as objects, NaN ratings as None."""
    rows = [
        {key: (None if isinstance(value, float) and value != value else value) for key, value in vars(row).items()}
        for row in board.rows
    ]
    return {**{key: value for key, value in vars(board).items() if key != "rows"}, "rows": rows}
