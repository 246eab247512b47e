"""The leaderboard's live stream (``GET /live/board``): each new board's HTML, the newest only, to every follower.

The contest calls ``BoardHub.publish`` from its own thread after each change. It only notes the
board and, if no wake-up is pending already, asks the event loop for one
(``loop.call_soon_threadsafe``): it never waits on the loop or on a client, and however many boards
come while the loop is busy, one wake-up is pending at most. Each follower's stream holds one
``asyncio.Event``: woken, it sends the newest board if its serial is past the one it sent last, so a
client that reads slowly (or not at all) skips the boards it missed and nothing queues for it; its
sends time out after ``SEND_TIMEOUT_S`` (the stream closes). A board's HTML is made once, for all.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable

from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

from league.contest.model import Board

MAX_FOLLOWERS = 1000
"""Live streams served at once; past it a new one is refused (503) and the page reads on without it."""
SEND_TIMEOUT_S = 30.0
"""How long one send to a follower may take before its stream is closed."""
PING_S = 15
"""Seconds between keep-alive comments on an idle stream."""


class BoardHub:
    """The newest board and the followers to wake when it changes.

    Args:
        source: The contest's newest board (``Contest.board``), for a follower that comes before any change.
        render: A board as the HTML the stream sends (``league.serve.board_page.board_section``).
    """

    def __init__(self, source: Callable[[], Board], render: Callable[[Board], str]) -> None:
        self._source = source
        self._render = render
        self._latest: Board | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._followers: set[asyncio.Event] = set()
        self._pending = False
        self._html: tuple[int, str] = (-1, "")

    @property
    def followers(self) -> int:
        """How many streams follow the board now."""
        return len(self._followers)

    def publish(self, board: Board) -> None:
        """Note a new board (from any thread; returns at once: it never waits on the loop or on a client)."""
        self._latest = board
        loop = self._loop
        if loop is None or self._pending:
            return
        self._pending = True
        try:
            loop.call_soon_threadsafe(self._wake)
        except RuntimeError:  # the loop closed: nobody follows on it
            self._pending = False

    def _wake(self) -> None:
        self._pending = False  # before the followers read the board: a board noted after this wakes them again
        for follower in self._followers:
            follower.set()

    def newest(self) -> Board:
        """The newest board: the last published, else the contest's."""
        return self._latest if self._latest is not None else self._source()

    def html(self, board: Board) -> str:
        """The board's section as HTML, made once per serial."""
        serial, made = self._html
        if serial != board.serial:
            made = self._render(board)
            self._html = (board.serial, made)
        return made

    async def stream(self, after: int) -> AsyncIterator[ServerSentEvent]:
        """The boards past serial ``after``, each as an event ``board`` (its id the serial, its data the HTML)."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # a wake-up asked of a former loop never comes
            self._loop = loop
            self._pending = False
        woken = asyncio.Event()
        self._followers.add(woken)
        try:
            sent = after
            while True:
                woken.clear()
                board = self.newest()
                if board.serial > sent:
                    sent = board.serial
                    yield ServerSentEvent(data=self.html(board), event="board", id=str(board.serial))
                await woken.wait()
        finally:
            self._followers.discard(woken)


def _serial_after(request: Request) -> int:
    given = request.headers.get("last-event-id") or request.query_params.get("after") or "-1"
    with contextlib.suppress(ValueError):
        return int(given)
    return -1


async def live_board(request: Request) -> Response:
    """``GET /live/board[?after=SERIAL]``: server-sent events, one per new board (``Last-Event-ID`` resumes)."""
    hub: BoardHub = request.app.state.web.hub
    if hub.followers >= MAX_FOLLOWERS:
        return PlainTextResponse("too many live followers now; reload the page to read the board", status_code=503)
    return EventSourceResponse(
        hub.stream(_serial_after(request)),
        ping=PING_S,
        send_timeout=SEND_TIMEOUT_S,
        headers={"Cache-Control": "no-store"},
    )
