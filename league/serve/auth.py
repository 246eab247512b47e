"""Who is logged in, the CSRF token of each session, and the limit on failed logins per client address.

A session is a random id in an HttpOnly, SameSite=Strict cookie. Every visitor's id (logged in or
not) has a CSRF token, an HMAC of the id under a key drawn at start, so a form works before login
too (the login form itself) with no state kept for anonymous visitors. A login stores the author's
token under a new id (the old one is never promoted: no session fixation); each request asks the
contest whose token it is, so an author removed is logged out at once. Sessions live in memory: a
restarted server asks everyone to log in again.

A state-changing form is taken only when its hidden ``csrf`` field matches the session's token
(compared in constant time) and its ``Origin`` (else its ``Referer``) is this server's own.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections import OrderedDict, deque
from urllib.parse import urlsplit

from starlette.requests import Request

FAILED_LOGINS_PER_MINUTE = 10
"""Failed logins (a token that is no author's) one client address may make in a minute before it must wait."""
MAX_SESSIONS = 10_000
"""Logged-in sessions kept; the oldest is dropped past it (its author logs in again)."""
MAX_ADDRESSES = 10_000
"""Client addresses whose failed logins are remembered; the oldest is forgotten past it."""


class Sessions:
    """Session ids, their CSRF tokens and the tokens of the logged-in ones."""

    def __init__(self) -> None:
        self._key = secrets.token_bytes(32)
        self._tokens: OrderedDict[str, str] = OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def new_id() -> str:
        """A fresh, unguessable session id."""
        return secrets.token_urlsafe(32)

    def csrf(self, sid: str) -> str:
        """The CSRF token of session ``sid``."""
        return hmac.new(self._key, sid.encode(), hashlib.sha256).hexdigest()

    def csrf_matches(self, sid: str, given: str) -> bool:
        """Whether ``given`` is the session's CSRF token (in constant time)."""
        return hmac.compare_digest(self.csrf(sid).encode(), given.encode("utf-8", "replace"))

    def log_in(self, token: str) -> str:
        """A new session id for the author whose token this is."""
        sid = self.new_id()
        with self._lock:
            self._tokens[sid] = token
            while len(self._tokens) > MAX_SESSIONS:
                self._tokens.popitem(last=False)
        return sid

    def log_out(self, sid: str) -> None:
        """Forget session ``sid``."""
        with self._lock:
            self._tokens.pop(sid, None)

    def token_of(self, sid: str) -> str | None:
        """The author token of a logged-in session, or None."""
        with self._lock:
            return self._tokens.get(sid)


class FailedLogins:
    """Failed logins per client address over the last minute (``FAILED_LOGINS_PER_MINUTE`` allowed)."""

    def __init__(self, per_minute: int = FAILED_LOGINS_PER_MINUTE, clock=time.monotonic) -> None:
        self.per_minute = per_minute
        self._clock = clock
        self._seen: OrderedDict[str, deque[float]] = OrderedDict()
        self._lock = threading.Lock()

    def _recent(self, address: str) -> deque[float]:
        times = self._seen.setdefault(address, deque())
        cutoff = self._clock() - 60.0
        while times and times[0] <= cutoff:
            times.popleft()
        return times

    def blocked(self, address: str) -> bool:
        """Whether ``address`` used up its failed logins of the minute."""
        with self._lock:
            return len(self._recent(address)) >= self.per_minute

    def failed(self, address: str) -> None:
        """Count one failed login from ``address``."""
        with self._lock:
            self._recent(address).append(self._clock())
            self._seen.move_to_end(address)
            while len(self._seen) > MAX_ADDRESSES:
                self._seen.popitem(last=False)


BLOCKED = (
    f"more than {FAILED_LOGINS_PER_MINUTE} failed logins from your address in a minute; wait a minute and try again"
)
"""What a client that used up its failed logins is told."""


def client_address(request: Request) -> str:
    """The address the request came from (the socket's peer)."""
    return request.client.host if request.client else "unknown"


def same_origin(request: Request) -> bool:
    """Whether the request's ``Origin`` (else its ``Referer``) is this server's own origin; False without either."""
    own = f"{request.url.scheme}://{request.url.netloc}"
    origin = request.headers.get("origin")
    if origin is not None:
        return origin == own
    referer = request.headers.get("referer")
    if not referer:
        return False
    parts = urlsplit(referer)
    return f"{parts.scheme}://{parts.netloc}" == own
