"""The organiser's page (``GET /organiser``): authors, submissions, the validation queue, workers, recent faults.

401 for a visitor not logged in, 403 for an author who is no organiser. An organiser reads every
submission's fault and stderr.
"""

from __future__ import annotations

from collections import Counter

from starlette.requests import Request
from starlette.responses import Response

from league.contest.model import Submission
from league.serve.game_rows import games_table
from league.serve.layout import block, message, page, text
from league.serve.login import must_log_in
from league.serve.state import web_of

FAULTS_SHOWN = 50
"""The newest faulted games listed."""


def _submissions(made: list[Submission]) -> str:
    if not made:
        return "<p>None yet.</p>"
    rows = []
    for one in reversed(made):
        stderr = f"<details><summary>stderr</summary><pre>{block(one.stderr)}</pre></details>" if one.stderr else ""
        rows.append(
            f'<tr><td><a href="/submissions/{one.id}">{one.id}</a></td><td>{text(one.author)}</td>'
            f"<td><code>{text(one.version)}</code></td><td>{text(one.submitted)}</td><td>{text(one.status)}</td>"
            f"<td><code>{text(' '.join(one.command))}</code></td><td>{text(one.fault)}{stderr}</td></tr>"
        )
    return (
        "<table><thead><tr><th>#</th><th>author</th><th>version</th><th>submitted</th><th>status</th>"
        f"<th>command</th><th>fault</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )


async def organiser(request: Request) -> Response:
    """``GET /organiser``: the organiser's page."""
    web = web_of(request)
    viewer = await web.viewer(request)
    if viewer.author is None:
        return must_log_in(viewer, "The organiser's page")
    if not viewer.organiser:
        return message("Organisers only", "this page is the organisers'; ask one to make you one", viewer, 403)
    made: list[Submission] = await web.call("submissions")
    workers: list[str] = await web.call("workers")
    faults = (await web.call("faults"))[:FAULTS_SHOWN]
    board = web.hub.newest()
    entries = {row.author: row.version for row in board.rows if row.author}
    counts = Counter(one.author for one in made)
    author_rows = "".join(
        f'<tr><td><a href="/bots/{text(one.name)}">{text(one.name)}</a></td><td>{text(one.created)}</td>'
        f'<td>{"organiser" if one.organiser else ""}</td><td class="number">{counts[one.name]}</td>'
        f"<td><code>{text(entries.get(one.name, ''))}</code></td></tr>"
        for one in await web.call("authors")
    )
    waiting = [one for one in made if one.status in ("queued", "validating")]
    body = (
        "<h2>Authors</h2><table><thead><tr><th>author</th><th>added</th><th></th><th>submissions</th>"
        f"<th>entry on the board</th></tr></thead>"
        f"<tbody>{author_rows}</tbody></table>"
        f"<h2>Validation queue</h2><p>{len(waiting)} waiting or in their validation game.</p>{_submissions(waiting)}"
        f"<h2>Workers</h2><ul>{''.join(f'<li>{text(line)}</li>' for line in workers)}</ul>"
        f"<h2>Submissions</h2>{_submissions(made)}"
        f"<h2>Recent faults</h2>{games_table(faults)}"
    )
    return page("Organiser", body, viewer)
