"""What every answer carries (security headers) and the cap on a request body, counted before it is all read.

The app's own pages may load only what the app serves (``default-src 'self'``), are never framed
(``frame-ancestors 'none'``) and post forms only to the app. A replay page sets its own policy
(``league.serve.replay``): it is kept as it is.
"""

from __future__ import annotations

from starlette.datastructures import FormData, MutableHeaders
from starlette.exceptions import HTTPException
from starlette.formparsers import MultiPartException
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

APP_POLICY = "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'"
"""The Content-Security-Policy of the app's own pages."""
HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
}


class SecurityHeaders:
    """ASGI middleware: the security headers on every HTTP answer (a policy the answer set itself is kept)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                if "content-security-policy" not in headers:
                    headers["Content-Security-Policy"] = APP_POLICY
                for name, value in HEADERS.items():
                    headers.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, send_with_headers)


class BodyTooLarge(Exception):
    """The request's body is over the cap."""


class BadBody(Exception):
    """The request's body is not the form it should be."""


async def capped_body(request: Request, cap: int) -> bytes:
    """The request's body, refused past ``cap`` bytes: by its ``Content-Length`` before reading, else as it streams.

    Raises:
        BodyTooLarge: It declares or sends more than ``cap`` bytes.
        BadBody: Its ``Content-Length`` is not a number.
    """
    declared = request.headers.get("content-length")
    if declared is not None:
        if not declared.strip().isdigit():
            raise BadBody("the request's Content-Length is not a number")
        if int(declared) > cap:
            raise BodyTooLarge
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > cap:
            raise BodyTooLarge
        chunks.append(chunk)
    return b"".join(chunks)


async def form_of(request: Request, body: bytes, part_cap: int) -> FormData:
    """The multipart or urlencoded form in ``body`` (already read and capped), at most one file and a few fields.

    Raises:
        BadBody: It is not such a form.
    """
    given = False

    async def receive() -> Message:
        nonlocal given
        if given:
            return {"type": "http.disconnect"}
        given = True
        return {"type": "http.request", "body": body, "more_body": False}

    try:
        return await Request(request.scope, receive).form(max_files=1, max_fields=8, max_part_size=part_cap)
    except (MultiPartException, HTTPException, ValueError) as error:
        raise BadBody(f"the request is not a form this server reads ({error})") from None
