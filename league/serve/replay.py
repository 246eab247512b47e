"""A game's replay (``GET /games/{id}``) and its stderr (``GET /games/{id}/stderr``).

The replay is the existing viewer's self-contained page (``Contest.replay_page``), served with its
own policy: ``sandbox allow-scripts`` runs its inline scripts in an opaque origin (no cookies, no
same-origin request: nothing of the app is within its reach), it loads nothing and is never framed.
It holds the stderr of the seats the viewer may read alone (their bot's author, or an organiser).
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from league.serve.layout import Viewer, block, message, page, text
from league.serve.state import web_of
from league.stats.game_record import GameRecord

REPLAY_POLICY = (
    "sandbox allow-scripts; default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
    "img-src data: blob:; font-src data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
)
"""The replay page's Content-Security-Policy."""


def readable_seats(record: GameRecord, viewer: Viewer) -> frozenset[int]:
    """The seats of a game whose stderr ``viewer`` may read."""
    return frozenset(seat for seat, bot in enumerate(record.spec.seats) if viewer.reads_stderr_of(bot))


async def _record(request: Request) -> tuple[GameRecord | None, Viewer]:
    web = web_of(request)
    return await web.call("record", request.path_params["game_id"]), await web.viewer(request)


async def replay(request: Request) -> Response:
    """``GET /games/{id}``: the replay page, sandboxed; 404 for a game not stored."""
    web = web_of(request)
    record, viewer = await _record(request)
    game_id = request.path_params["game_id"]
    html = None if record is None else await web.call("replay_page", game_id, readable_seats(record, viewer))
    if html is None:
        return message("No such game", f"no stored game has the id {game_id}", viewer, 404)
    return HTMLResponse(html, headers={"Content-Security-Policy": REPLAY_POLICY, "Cache-Control": "private"})


async def stderr(request: Request) -> Response:
    """``GET /games/{id}/stderr``: what each seat the viewer may read wrote on stderr; 404 for a game not stored."""
    web = web_of(request)
    record, viewer = await _record(request)
    game_id = request.path_params["game_id"]
    if record is None:
        return message("No such game", f"no stored game has the id {game_id}", viewer, 404)
    seats = readable_seats(record, viewer)
    if not seats:
        sentence = "a bot's stderr is shown only to its author and to the organisers; log in as one"
        return message("Not yours", sentence, viewer, 401 if viewer.author is None else 403)
    tails = await web.call("stderr_of", game_id)
    parts = [f'<p><a href="/games/{text(game_id)}">replay</a></p>']
    for seat in sorted(seats):
        tail = tails.get(seat, "")
        shown = f"<pre>{block(tail)}</pre>" if tail else "<p>(nothing)</p>"
        parts.append(f"<h2>seat {seat}: {text(record.spec.seats[seat])}</h2>{shown}")
    return page(f"stderr of game {game_id}", "".join(parts), viewer)
