"""What every request handler shares: the contest, the sessions, the failed-login limit, the live board, the viewer.

``Web`` is made once by ``league.serve.app.create_app`` and kept on the app (``request.app.state.web``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request

from league.serve.auth import FailedLogins, Sessions
from league.serve.layout import SESSION_COOKIE, Viewer
from league.serve.live import BoardHub

if TYPE_CHECKING:
    from league.contest.contest import Contest

FORM_OVERHEAD = 64 * 1024
"""Bytes a multipart request may hold beyond its archive: the boundaries, the command, the CSRF field."""


@dataclass
class Web:
    """The app's state.

    Attributes:
        contest: The contest the pages show and change (``league.contest.contest.Contest``: its methods alone).
        hub: The live board's streams.
        sessions: Sessions and CSRF tokens.
        failed_logins: Failed logins per client address.
    """

    contest: Contest
    hub: BoardHub
    sessions: Sessions = field(default_factory=Sessions)
    failed_logins: FailedLogins = field(default_factory=FailedLogins)

    def upload_cap(self) -> int:
        """The most bytes an archive may have (the league file's ``contest.upload_mb``)."""
        return int(self.contest.league.config.contest.upload_mb * 1024 * 1024)

    def body_cap(self) -> int:
        """The most bytes an upload's request body may have: the archive's cap and the form around it."""
        return self.upload_cap() + FORM_OVERHEAD

    async def call(self, method: str, *args: Any) -> Any:
        """The contest's ``method`` called off the event loop (it reads files and the database)."""
        return await run_in_threadpool(getattr(self.contest, method), *args)

    async def viewer(self, request: Request) -> Viewer:
        """Who sends ``request``: the author of its session (checked with the contest on every request), or nobody."""
        sid = request.cookies.get(SESSION_COOKIE, "")
        new = not (20 <= len(sid) <= 100)
        if new:
            sid = self.sessions.new_id()
        token = None if new else self.sessions.token_of(sid)
        author = None
        organiser = False
        if token is not None:
            author = await self.call("author_of", token)
            if author is None:
                self.sessions.log_out(sid)
            else:
                organiser = bool(await self.call("is_organiser", author))
        return Viewer(author, organiser, sid, self.sessions.csrf(sid), new)


def web_of(request: Request) -> Web:
    """The app's state, from a request."""
    return request.app.state.web
