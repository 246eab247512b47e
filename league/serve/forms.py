"""A state-changing form taken, or refused in one sentence: same origin, body under its cap, CSRF token matched.

Checked in this order: the ``Origin`` (else ``Referer``) before any byte of the body is read, then
the body's size (a ``Content-Length`` over the cap refused unread, the rest counted as it streams),
then the form's hidden ``csrf`` field against the session's token, in constant time.
"""

from __future__ import annotations

from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import Response

from league.serve.auth import same_origin
from league.serve.layout import Viewer, message
from league.serve.security import BadBody, BodyTooLarge, capped_body, form_of
from league.serve.state import Web

SMALL_FORM = 16 * 1024
"""The body cap of a form without a file (login, logout)."""
CROSS_SITE = "this form was sent from another site (its Origin is not this server's); send it from this server's page"
BAD_CSRF = "this form's security token is missing or stale; reload the page and send it again"


async def taken_form(request: Request, web: Web, viewer: Viewer, cap: int = SMALL_FORM) -> FormData | Response:
    """The form of ``request`` if it passes every check, else the page refusing it (403, 413 or 400)."""
    if not same_origin(request):
        return message("Refused", CROSS_SITE, viewer, 403)
    try:
        body = await capped_body(request, cap)
    except BodyTooLarge:
        return message(
            "Too large", f"the form is over {cap // (1024 * 1024) or 1} MB; send a smaller archive", viewer, 413
        )
    except BadBody as error:
        return message("Refused", str(error), viewer, 400)
    try:
        form = await form_of(request, body, cap)
    except BadBody as error:
        return message("Refused", str(error), viewer, 400)
    given = form.get("csrf")
    if viewer.new_sid or not isinstance(given, str) or not web.sessions.csrf_matches(viewer.sid, given):
        return message("Refused", BAD_CSRF, viewer, 403)
    return form
