"""The contest's ASGI app: ``create_app(contest)`` assembles the pages, the API, the live stream and the middleware.

Every route lives here, the handlers in their own modules. The app registers one listener with the
contest (``BoardHub.publish``: it returns at once) and needs no lifespan events (``league serve``
runs uvicorn with ``lifespan="off"``).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from league.live.pages import live_routes
from league.serve import api, board_page, bot_page, live, login, organiser, replay, submit_page
from league.serve.security import SecurityHeaders
from league.serve.state import Web

if TYPE_CHECKING:
    from league.contest.contest import Contest

STATIC = Path(__file__).resolve().parent / "static"


def create_app(contest: Contest) -> Starlette:
    """The web app of ``contest`` (its ``Contest`` methods are all it uses)."""
    web = Web(contest, live.BoardHub(contest.board, board_page.board_section))
    contest.add_listener(web.hub.publish)
    routes = [
        Route("/", board_page.leaderboard),
        Route("/live/board", live.live_board),
        Route("/bots/{name}", bot_page.bot),
        Route("/games/{game_id}", replay.replay),
        Route("/games/{game_id}/stderr", replay.stderr),
        Route("/organiser", organiser.organiser),
        Route("/login", login.login_form, methods=["GET"]),
        Route("/login", login.login, methods=["POST"]),
        Route("/logout", login.logout, methods=["POST"]),
        Route("/submit", submit_page.submit_form, methods=["GET"]),
        Route("/submit", submit_page.submit, methods=["POST"]),
        Route("/submissions/{number:int}", submit_page.submission),
        Route("/api/submissions", api.post_submission, methods=["POST"]),
        Route("/api/submissions/{number:int}", api.get_submission),
        Route("/api/board", api.get_board),
        *live_routes(),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, middleware=[Middleware(SecurityHeaders)])
    app.state.web = web
    app.state.live_games = contest.live_games
    app.state.live_heading = contest.league.config.name
    return app
