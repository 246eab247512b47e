"""The live pages served by uvicorn beside a real run: the list, a game's page and its stream, a reader that stalls."""

from __future__ import annotations

import json
import re
import socket
import time
from collections.abc import Iterator

import httpx2
import pytest

from league.live.pages import live_app
from league.serve.listen import Background, address_line, bound_socket
from tests.league.live.live_runs import Followed, lasting_league, stored_public_frames

HANG_GUARD_S = 120


@pytest.fixture
def served(tmp_path, ray_local) -> Iterator[tuple[str, Followed]]:
    """A lasting league run with its live pages served on a free port; (their address, the run)."""
    run = Followed(lasting_league(tmp_path), follow=False)
    server = Background(live_app(run.games, "watched"), bound_socket("127.0.0.1", 0))
    server.start()
    try:
        yield address_line(server.sock), run
    finally:
        server.stop()


def first_game(url: str, run: Followed) -> int:
    """Load the list until it shows a game being played; its number."""
    deadline = time.monotonic() + HANG_GUARD_S
    while time.monotonic() < deadline:
        page = httpx2.get(url + "live", timeout=HANG_GUARD_S)
        assert page.status_code == 200
        found = re.findall(r'href="/live/games/(\d+)"', page.text)
        if found:
            return int(found[0])
        assert run.summary is None, "the league ended before the list showed a game"
        time.sleep(0.2)
    raise AssertionError("no game showed on the list")


def events(url: str, **headers: str) -> list[tuple[str, str, str]]:
    """Every event of a stream up to its end: (event, id, data)."""
    got: list[tuple[str, str, str]] = []
    with httpx2.Client(timeout=HANG_GUARD_S) as http, http.stream("GET", url, headers=headers) as stream:
        assert stream.status_code == 200
        assert stream.headers["content-type"].startswith("text/event-stream")
        event, ident, data = "message", "", []
        for line in stream.iter_lines():
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("id: "):
                ident = line[4:]
            elif line.startswith("data: "):
                data.append(line[6:])
            elif line == "" and data:
                got.append((event, ident, "\n".join(data)))
                if event == "end":
                    return got
                event, ident, data = "message", "", []
    return got


def test_a_game_followed_from_the_list_streams_every_frame_in_order_then_its_end(served):
    url, run = served
    run.start()
    number = first_game(url, run)
    page = httpx2.get(f"{url}live/games/{number}", timeout=HANG_GUARD_S)
    assert page.status_code == 200
    nonce = re.search(r"script-src 'nonce-([^']+)'", page.headers["content-security-policy"]).group(1)
    scripts = re.findall(r"<script( [^>]*)?>", page.text)
    assert scripts and all(f'nonce="{nonce}"' in attrs or "application/json" in attrs for attrs in scripts)
    got = events(f"{url}live/games/{number}/frames")
    frames = [(ident, data) for event, ident, data in got if event == "frame"]
    assert [int(ident) for ident, _ in frames] == list(range(len(frames))), "every frame, once, in order"
    end = json.loads(got[-1][2])
    assert got[-1][0] == "end" and end["over"] and end["result"]["termination"] == "NORMAL"
    run.join()
    game = run.games.game(number)
    assert [json.loads(data) for _, data in frames] == stored_public_frames(run.league.output, game.game_id)


def test_a_stream_resumes_after_the_last_frame_it_had(served):
    url, run = served
    run.start()
    number = first_game(url, run)
    whole = [e for e in events(f"{url}live/games/{number}/frames") if e[0] == "frame"]
    resumed = [e for e in events(f"{url}live/games/{number}/frames", **{"Last-Event-ID": "4"}) if e[0] == "frame"]
    assert [int(ident) for _, ident, _ in resumed] == list(range(5, len(whole)))
    assert [data for *_, data in resumed] == [data for *_, data in whole[5:]]
    from_query = [e for e in events(f"{url}live/games/{number}/frames?from=7") if e[0] == "frame"]
    assert int(from_query[0][1]) == 7
    run.join()


def test_a_reader_that_stops_reading_holds_up_no_game(served):
    url, run = served
    run.start()
    number = first_game(url, run)
    host, port = url.removeprefix("http://").rstrip("/").split(":")
    stalled = socket.create_connection((host, int(port)))
    stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    stalled.sendall(f"GET /live/games/{number}/frames HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
    try:
        summary = run.join()  # the reader never reads a byte: every game is played and stored all the same
        assert summary.played == summary.total == 4 and summary.infra_errors == 0
        assert all(game.finished for game in run.games.games() if game.number >= number)
    finally:
        stalled.close()


def test_a_game_not_played_now_is_404_in_one_sentence(served):
    url, _run = served
    for path in ("live/games/999", "live/games/999/frames"):
        answer = httpx2.get(url + path, timeout=HANG_GUARD_S)
        assert answer.status_code == 404 and "/live" in answer.text and "\n" not in answer.text.strip()
    assert httpx2.get(url, timeout=HANG_GUARD_S, follow_redirects=True).url.path == "/live"
