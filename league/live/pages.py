"""The live pages' routes: ``/live`` (the games being played), ``/live/games/N`` (one followed) and its stream.

``live_routes()`` are mounted by the contest's app (``league.serve.app``) and by ``live_app``, the app that
``league run --live`` serves beside a batch league. Both find the run's ``LiveGames`` at
``app.state.live_games`` and the pages' heading at ``app.state.live_heading``.

A game's stream (``/live/games/N/frames``, server-sent events) sends its frames from the one asked for
(``Last-Event-ID`` resumes), each once, then an ``end`` event once the game is over. A stream is a cursor
into the game's frames and nothing more: a client that reads slowly (or not at all) holds only its own
place, nothing queues for it, and the game is never held up (the frames are made by the replay whether
anyone reads them or not; a send that takes over ``SEND_TIMEOUT_S`` closes the stream).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator

from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from league.live.games import LiveGame, LiveGames
from league.live.page import game_page, games_page, live_policy, new_nonce

STREAM_POLL_S = 0.05
"""How often a stream looks for new frames of its game."""
MAX_FOLLOWERS = 1000
"""Live game streams served at once; past it a new one is refused (503)."""
SEND_TIMEOUT_S = 30.0
"""How long one send to a follower may take before its stream is closed."""
PING_S = 15
"""Seconds between keep-alive comments on a quiet stream."""
LIST_GLANCE_S = 10.0
"""How long a load of the list keeps the games watched (the list reloads itself every 5 s)."""
FIRST_ANSWER_WAIT_S = 1.5
"""How long the list waits for the run's first answer where nobody watched before."""


def _games(request: Request) -> LiveGames:
    return request.app.state.live_games


def _heading(request: Request) -> str:
    return str(getattr(request.app.state, "live_heading", "live games"))


def _headers(nonce: str = "") -> dict[str, str]:
    return {"Content-Security-Policy": live_policy(nonce or new_nonce()), "Cache-Control": "no-store"}


async def games_list(request: Request) -> Response:
    """``GET /live``: the games being played and those just ended (reads without JavaScript, reloads itself).

    The list keeps the games watched while it is open (``LIST_GLANCE_S``); where nobody watched before, it
    waits for the run's first answer (``FIRST_ANSWER_WAIT_S`` at most), so that it shows what is played now.
    """
    games = _games(request)
    watched_before, polls = games.watched(), games.polls
    games.glance(LIST_GLANCE_S)
    waited = 0.0
    while not watched_before and games.polls == polls and waited < FIRST_ANSWER_WAIT_S:
        await asyncio.sleep(STREAM_POLL_S)
        waited += STREAM_POLL_S
    heading = f"{_heading(request)}: games being played"
    return HTMLResponse(games_page(games.games(), heading), headers=_headers())


def _game(request: Request) -> LiveGame | None:
    return _games(request).game(int(request.path_params["number"]))


def _no_game(request: Request) -> Response:
    number = request.path_params["number"]
    sentence = f"no game {number} is being played or just ended: the games now are listed at /live"
    return PlainTextResponse(sentence, status_code=404, headers={"Cache-Control": "no-store"})


async def game_view(request: Request) -> Response:
    """``GET /live/games/N``: the game's live page, its viewer drawing each frame as it comes; 404 if none."""
    game = _game(request)
    if game is None:
        return _no_game(request)
    nonce = new_nonce()
    return HTMLResponse(game_page(game, nonce, _heading(request)), headers=_headers(nonce))


def _start_at(request: Request) -> int:
    given = request.headers.get("last-event-id")
    if given is not None:
        with contextlib.suppress(ValueError):
            return int(given) + 1
    with contextlib.suppress(ValueError):
        return max(0, int(request.query_params.get("from", "0")))
    return 0


async def _stream(games: LiveGames, game: LiveGame, start: int) -> AsyncIterator[ServerSentEvent]:
    with games.following():
        sent = start
        while True:
            frames = game.frames
            while sent < len(frames):
                yield ServerSentEvent(data=frames[sent], event="frame", id=str(sent))
                sent += 1
            if game.finished and sent >= len(game.frames):
                yield ServerSentEvent(data=json.dumps(game.summary()), event="end", id=str(sent))
                return
            await asyncio.sleep(STREAM_POLL_S)


async def game_frames(request: Request) -> Response:
    """``GET /live/games/N/frames[?from=K]``: the game's frames as server-sent events, then ``end``; 404 if none."""
    game = _game(request)
    if game is None:
        return _no_game(request)
    games = _games(request)
    if games.followers >= MAX_FOLLOWERS:
        return PlainTextResponse("too many live followers now; reload the page in a while", status_code=503)
    return EventSourceResponse(
        _stream(games, game, _start_at(request)),
        ping=PING_S,
        send_timeout=SEND_TIMEOUT_S,
        headers={"Cache-Control": "no-store"},
    )


def live_routes() -> list[Route]:
    """The live pages' routes, for an app whose state holds ``live_games`` (and ``live_heading``)."""
    return [
        Route("/live", games_list),
        Route("/live/games/{number:int}", game_view),
        Route("/live/games/{number:int}/frames", game_frames),
    ]


def live_app(games: LiveGames, heading: str) -> Starlette:
    """The app ``league run --live`` serves: the live pages alone (``/`` leads to ``/live``)."""

    async def home(_request: Request) -> Response:
        return RedirectResponse("/live", status_code=307)

    app = Starlette(routes=[Route("/", home), *live_routes()])
    app.state.live_games = games
    app.state.live_heading = heading
    return app
