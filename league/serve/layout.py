"""The frame every page shares, the escaping of every text a bot or an author wrote, and who is looking.

Every text that comes from a bot or an author (names, commands, stderr, fault details, versions)
passes through ``text`` or ``block``: control characters shown as escapes (``league.match.inert``),
then HTML-escaped, quotes included, so it is inert in an element and in an attribute alike.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from starlette.responses import HTMLResponse, Response

from league.match.inert import inert_block, inert_line


def text(value: object) -> str:
    """``value`` on one line, safe in HTML text and in a quoted attribute."""
    return html.escape(inert_line(str(value)), quote=True)


def block(value: object) -> str:
    """``value`` as a ``<pre>`` block's content: lines kept, controls escaped, HTML-escaped."""
    return html.escape(inert_block(str(value)), quote=True)


@dataclass(frozen=True)
class Viewer:
    """Who asks for a page.

    Attributes:
        author: The logged-in author, or None.
        organiser: Whether they are one of the contest's organisers.
        sid: Their session cookie's value (a fresh one when they came without).
        csrf: The CSRF token of that session, for the hidden field of each form.
        new_sid: Whether ``sid`` is new, so that the answer sets the cookie.
    """

    author: str | None
    organiser: bool
    sid: str
    csrf: str
    new_sid: bool = False

    def reads_stderr_of(self, bot: str) -> bool:
        """Whether this viewer may read what ``bot`` wrote on stderr: its author, or an organiser."""
        return self.organiser or (self.author is not None and self.author == bot)


def csrf_field(viewer: Viewer) -> str:
    """The hidden field that carries the session's CSRF token in a form."""
    return f'<input type="hidden" name="csrf" value="{text(viewer.csrf)}">'


def _nav(viewer: Viewer) -> str:
    links = ['<a href="/">Leaderboard</a>', '<a href="/live">Games being played</a>']
    if viewer.author is not None:
        links.append(f'<a href="/bots/{text(viewer.author)}">My bot</a>')
        links.append('<a href="/submit">Submit a version</a>')
        if viewer.organiser:
            links.append('<a href="/organiser">Organiser</a>')
        links.append(
            f'<form method="post" action="/logout" class="inline">{csrf_field(viewer)}'
            f'<button type="submit">Log out {text(viewer.author)}</button></form>'
        )
    else:
        links.append('<a href="/login">Log in</a>')
    return "<nav>" + " · ".join(links) + "</nav>"


def page(
    title: str, body: str, viewer: Viewer, status: int = 200, scripts: tuple[str, ...] = (), head: str = ""
) -> HTMLResponse:
    """A whole page: ``title`` (escaped here), ``body`` (HTML already escaped), the navigation for ``viewer``.

    Args:
        title: The page's title and heading.
        body: Its content, made of escaped text.
        viewer: Who looks (the navigation, and the session cookie when it is new).
        status: The HTTP status.
        scripts: Paths of the app's own scripts to load (``/static/...``); the page reads without them.
        head: More of the head (HTML made here, never bot text): a ``<meta>`` reload.
    """
    tags = "".join(f'<script src="{text(src)}" defer></script>' for src in scripts)
    document = (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{text(title)}</title><link rel="stylesheet" href="/static/style.css">{tags}{head}</head>'
        f"<body>{_nav(viewer)}<main><h1>{text(title)}</h1>{body}</main></body></html>\n"
    )
    response = HTMLResponse(document, status_code=status)
    if viewer.new_sid:
        set_session_cookie(response, viewer.sid)
    return response


SESSION_COOKIE = "league_session"


def set_session_cookie(response: Response, sid: str) -> None:
    """Set the session cookie: HttpOnly (no script reads it), SameSite=Strict (no other site's request carries it)."""
    response.set_cookie(SESSION_COOKIE, sid, httponly=True, samesite="strict", path="/")


def message(title: str, sentence: str, viewer: Viewer, status: int) -> HTMLResponse:
    """A page that says one sentence (a refusal, an error)."""
    return page(title, f'<p class="message">{text(sentence)}</p>', viewer, status)
