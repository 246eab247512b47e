"""Submitting a version by form (``GET``/``POST /submit``) and a submission's status (``GET /submissions/{id}``).

Both need a logged-in author (401 otherwise). A submission's page shows its status, and its fault
and stderr, to its author and to organisers only (another author's is 404: its existence is not
told); while it waits for its validation game the page reloads itself every few seconds (no script).
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from league.contest.model import Submission
from league.serve.forms import taken_form
from league.serve.layout import Viewer, block, csrf_field, message, page, text
from league.serve.login import must_log_in
from league.serve.state import web_of
from league.serve.upload import Refused, submitted

RELOAD_S = 3
"""Seconds between reloads of a waiting submission's page."""


def _form(viewer: Viewer, cap_mb: int) -> str:
    return (
        f'<form method="post" action="/submit" enctype="multipart/form-data">{csrf_field(viewer)}'
        f"<p><label>Your bot's folder as .zip or .tar.gz (at most {cap_mb} MB): "
        '<input type="file" name="archive" accept=".zip,.tar.gz,.tgz" required></label></p>'
        '<p><label>Its command, from inside the folder: <input name="command" size="40" '
        'placeholder="python3 bot.py" required></label></p><p><button type="submit">Submit</button></p></form>'
    )


async def submit_form(request: Request) -> Response:
    """``GET /submit``: the upload form."""
    web = web_of(request)
    viewer = await web.viewer(request)
    if viewer.author is None:
        return must_log_in(viewer, "Submitting a version")
    return page("Submit a version", _form(viewer, web.upload_cap() // (1024 * 1024)), viewer)


async def submit(request: Request) -> Response:
    """``POST /submit``: the version queued for its validation game (202), or the refusal's one sentence."""
    web = web_of(request)
    viewer = await web.viewer(request)
    if viewer.author is None:
        return must_log_in(viewer, "Submitting a version")
    form = await taken_form(request, web, viewer, web.body_cap())
    if isinstance(form, Response):
        return form
    try:
        made = await submitted(web, viewer.author, form)
    except Refused as refused:
        return message("Refused", refused.sentence, viewer, refused.status)
    body = (
        f"<p>Version <code>{text(made.version)}</code> is queued for its validation game: "
        f'<a href="/submissions/{made.id}">follow submission {made.id}</a>.</p>'
    )
    return page("Submitted", body, viewer, 202)


def submission_body(made: Submission) -> str:
    """A submission's status, fault and stderr (for its author or an organiser)."""
    parts = [
        f"<p>Author {text(made.author)}, version <code>{text(made.version)}</code> "
        f"(digest <code>{text(made.digest)}</code>), submitted {text(made.submitted)}.</p>",
        f"<p>Command: <code>{text(' '.join(made.command))}</code></p>",
        f'<p class="message">Status: {text(made.status)}</p>',
    ]
    if made.fault:
        parts.append(f"<p>Fault: {text(made.fault)}</p>")
    if made.stderr:
        parts.append(f"<h2>Its stderr in the validation game</h2><pre>{block(made.stderr)}</pre>")
    return "".join(parts)


async def submission(request: Request) -> Response:
    """``GET /submissions/{id}``: one's own submission (or any, for an organiser); 404 for another's."""
    web = web_of(request)
    viewer = await web.viewer(request)
    if viewer.author is None:
        return must_log_in(viewer, "A submission's page")
    number = request.path_params["number"]
    made = await web.call("submission", number)
    if made is None or not (viewer.organiser or made.author == viewer.author):
        return message("No such submission", f"you have no submission {number}", viewer, 404)
    waiting = made.status in ("queued", "validating")
    head = f'<meta http-equiv="refresh" content="{RELOAD_S}">' if waiting else ""
    return page(f"Submission {made.id}", submission_body(made), viewer, head=head)
