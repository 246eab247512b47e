"""Logging in (``GET``/``POST /login``: paste your token) and out (``POST /logout``).

A token that is no author's counts against the client's address: past ``FAILED_LOGINS_PER_MINUTE``
in a minute, logins from it are refused (429) until the minute has passed, right token or not.
"""

from __future__ import annotations

from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from league.serve.auth import BLOCKED, client_address
from league.serve.forms import taken_form
from league.serve.layout import SESSION_COOKIE, Viewer, csrf_field, message, page, set_session_cookie, text
from league.serve.state import Web, web_of


def _form(viewer: Viewer, problem: str = "") -> str:
    said = f'<p class="message">{text(problem)}</p>' if problem else ""
    return (
        f'{said}<form method="post" action="/login">{csrf_field(viewer)}'
        "<p><label>Your token (the one <code>league authors add</code> printed): "
        '<input type="password" name="token" autocomplete="current-password" required></label></p>'
        '<p><button type="submit">Log in</button></p></form>'
    )


async def login_form(request: Request) -> Response:
    """``GET /login``: the login form (or who is logged in)."""
    viewer = await web_of(request).viewer(request)
    if viewer.author is not None:
        return page("Log in", f"<p>You are logged in as {text(viewer.author)}.</p>", viewer)
    return page("Log in", _form(viewer), viewer)


async def login(request: Request) -> Response:
    """``POST /login``: a token that is an author's starts a session (a new id); 403 or 429 otherwise."""
    web, viewer, form = await _posted(request)
    if isinstance(form, Response):
        return form
    address = client_address(request)
    if web.failed_logins.blocked(address):
        return message("Log in", BLOCKED, viewer, 429)
    token = form.get("token")
    author = await web.call("author_of", token.strip()) if isinstance(token, str) and token.strip() else None
    if author is None:
        web.failed_logins.failed(address)
        return page("Log in", _form(viewer, "that token is no author's; paste the token you were given"), viewer, 403)
    response = RedirectResponse("/", status_code=303)
    set_session_cookie(response, web.sessions.log_in(token.strip()))
    return response


async def logout(request: Request) -> Response:
    """``POST /logout``: the session forgotten, its cookie dropped."""
    web, viewer, form = await _posted(request)
    if isinstance(form, Response):
        return form
    web.sessions.log_out(viewer.sid)
    response = RedirectResponse("/", status_code=303)
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="strict")
    return response


async def _posted(request: Request) -> tuple[Web, Viewer, FormData | Response]:
    """The web, who sends ``request`` and its small form taken (or the page refusing it, ``taken_form``)."""
    web = web_of(request)
    viewer = await web.viewer(request)
    return web, viewer, await taken_form(request, web, viewer)


def must_log_in(viewer: Viewer, what: str) -> Response:
    """The 401 page of a page that needs a logged-in author."""
    return page("Log in first", f'<p>{text(what)} needs you logged in: <a href="/login">log in</a>.</p>', viewer, 401)
