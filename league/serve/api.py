"""The JSON API (``league submit`` uses it): ``POST /api/submissions``, ``GET /api/submissions/{id}``, ``/api/board``.

The submission calls take ``Authorization: Bearer TOKEN`` alone (never the session cookie, so a
browser never sends one cross-site): none is 401, a token that is no author's 403 (counted against
the client's address as a failed login: past the limit, 429). An author reads their own
submissions only: another's number is 404, as one that does not exist. Errors are
``{"error": sentence}``.
"""

from __future__ import annotations

import math
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from league.contest.model import Board, Submission
from league.serve.auth import BLOCKED, client_address
from league.serve.security import BadBody, BodyTooLarge, capped_body, form_of
from league.serve.state import Web, web_of
from league.serve.upload import Refused, submitted


def error(sentence: str, status: int) -> JSONResponse:
    """A JSON error answer."""
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    return JSONResponse({"error": sentence}, status_code=status, headers=headers)


async def bearer_author(request: Request, web: Web) -> str | JSONResponse:
    """The author whose Bearer token the request carries, or the error answer (401, 403, 429)."""
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return error("no token: send your token as the header Authorization: Bearer TOKEN (league submit --token)", 401)
    address = client_address(request)
    if web.failed_logins.blocked(address):
        return error(BLOCKED, 429)
    author = await web.call("author_of", token.strip())
    if author is None:
        web.failed_logins.failed(address)
        return error("that token is no author's; use the token league authors add printed", 403)
    return author


def board_json(board: Board) -> dict[str, Any]:
    """The board as JSON data: its fields, its rows as objects, NaN ratings as null."""
    rows = [
        {key: None if isinstance(value, float) and math.isnan(value) else value for key, value in vars(row).items()}
        for row in board.rows
    ]
    return {**{key: value for key, value in vars(board).items() if key != "rows"}, "rows": rows}


def submission_json(made: Submission) -> dict[str, Any]:
    """A submission as its author reads it."""
    return {
        "id": made.id,
        "author": made.author,
        "version": made.version,
        "digest": made.digest,
        "status": str(made.status),
        "fault": made.fault,
        "stderr": made.stderr,
        "url": f"/api/submissions/{made.id}",
    }


async def post_submission(request: Request) -> Response:
    """``POST /api/submissions``: multipart ``archive`` and ``command``; 202 with the queued submission."""
    web = web_of(request)
    author = await bearer_author(request, web)
    if isinstance(author, Response):
        return author
    try:
        body = await capped_body(request, web.body_cap())
        form = await form_of(request, body, web.body_cap())
        made = await submitted(web, author, form)
    except BodyTooLarge:
        return error(f"the upload is over {web.upload_cap() // (1024 * 1024)} MB; send a smaller archive", 413)
    except BadBody as problem:
        return error(str(problem), 400)
    except Refused as refused:
        return error(refused.sentence, refused.status)
    return JSONResponse(submission_json(made), status_code=202)


async def get_submission(request: Request) -> Response:
    """``GET /api/submissions/{id}``: one's own submission (any, for an organiser); 404 for another's."""
    web = web_of(request)
    author = await bearer_author(request, web)
    if isinstance(author, Response):
        return author
    number = request.path_params["number"]
    made = await web.call("submission", number)
    if made is None or (made.author != author and not await web.call("is_organiser", author)):
        return error(f"you have no submission {number}", 404)
    return JSONResponse(submission_json(made))


async def get_board(request: Request) -> Response:
    """``GET /api/board``: the newest board."""
    return JSONResponse(board_json(web_of(request).hub.newest()), headers={"Cache-Control": "no-store"})
