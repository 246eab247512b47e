"""The live board: each new board reaches a follower as an event with its serial; nothing waits on a client.

A real uvicorn serves the app on 127.0.0.1 (a free port) in a thread of this process; the contest's
listener is called from another thread, as the contest's board thread calls it.
"""

from __future__ import annotations

import asyncio
import socket
import threading

import httpx2
import pytest
import uvicorn

from league.contest.model import Board, BoardRow
from league.serve.app import create_app
from league.serve.board_page import board_section
from league.serve.live import BoardHub

HANG_GUARD_S = 120
"""How long a test waits for what must come before it calls it lost (a guard against a hang, not a speed)."""


@pytest.fixture
def server(contest):
    """The app over the contest, served by uvicorn on a free port; its base URL."""
    config = uvicorn.Config(
        create_app(contest), host="127.0.0.1", port=0, log_level="warning", lifespan="off", timeout_graceful_shutdown=1
    )
    served = uvicorn.Server(config)
    thread = threading.Thread(target=served.run, daemon=True)
    thread.start()
    while not served.started:
        assert thread.is_alive(), "uvicorn did not start"
        threading.Event().wait(0.05)
    port = served.servers[0].sockets[0].getsockname()[1]
    yield f"http://127.0.0.1:{port}"
    served.should_exit = True
    thread.join(HANG_GUARD_S)


def events(response: httpx2.Response):
    """The (event, id, data) of a server-sent event stream, as they come."""
    fields: dict[str, list[str]] = {}
    for line in response.iter_lines():
        if not line:
            if "id" in fields:
                yield fields["event"][0], int(fields["id"][0]), "\n".join(fields.get("data", []))
            fields = {}
            continue
        if line.startswith(":"):
            continue
        name, _, value = line.partition(":")
        fields.setdefault(name, []).append(value.removeprefix(" "))


def big_board(serial: int, rows: int = 400) -> Board:
    """A board with many rows (tens of KB of HTML a board), to fill a stalled client's socket quickly."""
    return Board(serial, tuple(BoardRow(i, f"bot{i}", "", "", i, 1500.0, 1400.0, 1600.0, False) for i in range(rows)))


def test_a_listener_call_sends_the_new_board_to_a_follower(server, contest):
    first = contest.board().serial
    with httpx2.Client(timeout=HANG_GUARD_S) as http, http.stream("GET", f"{server}/live/board?after={first}") as live:
        assert live.status_code == 200 and live.headers["content-type"].startswith("text/event-stream")
        new = contest.board_of_games(first + 1, (BoardRow(9, "climber", "carol", "abcdef012345", 3, 1.0, 0, 2, True),))
        threading.Thread(target=contest.publish, args=(new,)).start()
        event, serial, data = next(events(live))
    assert (event, serial) == ("board", first + 1)
    assert data == board_section(new) and '<a href="/bots/climber">climber</a>' in data


def test_a_follower_that_comes_behind_gets_the_newest_board_at_once(server, contest):
    contest.publish(contest.board_of_games(7))
    with httpx2.Client(timeout=HANG_GUARD_S) as http, http.stream("GET", f"{server}/live/board?after=3") as live:
        _, serial, _ = next(events(live))
    assert serial == 7


def test_a_stalled_follower_never_blocks_the_listener_nor_the_other_followers(server, contest):
    host, port = server.removeprefix("http://").split(":")
    stalled = socket.create_connection((host, int(port)))
    stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    stalled.sendall(f"GET /live/board?after=0 HTTP/1.1\r\nHost: {server[7:]}\r\n\r\n".encode())
    try:
        calls = 300  # each board is tens of KB: together far more than the stalled socket's buffers hold
        done = threading.Event()

        def board_thread() -> None:
            for serial in range(10, 10 + calls):
                contest.publish(big_board(serial))
            done.set()

        threading.Thread(target=board_thread, daemon=True).start()
        assert done.wait(HANG_GUARD_S), "the listener blocked on a client that does not read"
        with httpx2.Client(timeout=HANG_GUARD_S) as http, http.stream("GET", f"{server}/live/board?after=0") as live:
            _, serial, data = next(events(live))
        assert serial == 10 + calls - 1, "another follower gets the newest board, skipping the rest"
        assert data.count("<tr>") == 401
    finally:
        stalled.close()


def test_the_listener_returns_with_the_loop_stuck_and_asks_for_one_wake_up_however_many_boards_come():
    hub = BoardHub(lambda: Board(0), board_section)
    loop = asyncio.new_event_loop()
    try:
        stream = hub.stream(after=-1)
        assert loop.run_until_complete(stream.__anext__()).id == "0"
        wake_ups = []
        original = loop.call_soon_threadsafe
        loop.call_soon_threadsafe = lambda *args: (wake_ups.append(args), original(*args))
        for serial in range(1, 1001):  # the loop does not run meanwhile: a wait on it would never end
            hub.publish(Board(serial))
        assert len(wake_ups) == 1, "boards that come while a wake-up is pending add none: nothing queues"
        event = loop.run_until_complete(asyncio.wait_for(stream.__anext__(), HANG_GUARD_S))
        assert event.id == "1000", "the follower skips to the newest board"
        hub.publish(Board(1001))
        assert len(wake_ups) == 2
        loop.run_until_complete(stream.aclose())
        assert hub.followers == 0
    finally:
        loop.close()
