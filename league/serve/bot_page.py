"""A bot's page (``GET /bots/{name}``): its versions, its games (newest first, a page at a time), its faults.

A version's validation fault and stderr, and the link to each game's stderr, are shown only to the
bot's author and to organisers; everyone sees the versions, the games and the replays.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from league.contest.model import Submission
from league.serve.game_rows import games_table
from league.serve.layout import Viewer, block, message, page, text
from league.serve.state import web_of

GAMES_A_PAGE = 50
"""Games listed on one page of a bot's games."""
FAULTS_SHOWN = 20
"""The bot's newest faulted games listed in its faults section."""


def _versions(versions: list[Submission], viewer: Viewer, bot: str) -> str:
    if not versions:
        return "<p>A bot of the league file: no submitted versions.</p>"
    private = viewer.reads_stderr_of(bot)
    rows = []
    for version in reversed(versions):
        detail = ""
        if private:
            link = f'<a href="/submissions/{version.id}">submission {version.id}</a>'
            fault = f"<p>{text(version.fault)}</p>" if version.fault else ""
            stderr = (
                f"<details><summary>stderr</summary><pre>{block(version.stderr)}</pre></details>"
                if version.stderr
                else ""
            )
            detail = f"{link}{fault}{stderr}"
        rows.append(
            f"<tr><td><code>{text(version.version)}</code></td><td>{text(version.submitted)}</td>"
            f"<td>{text(version.status)}</td><td><code>{text(' '.join(version.command))}</code></td>"
            f"<td>{detail}</td></tr>"
        )
    return (
        "<table><thead><tr><th>version</th><th>submitted</th><th>status</th><th>command</th><th></th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def _page_number(request: Request) -> int:
    given = request.query_params.get("page", "1")
    return max(1, int(given)) if given.isdigit() else 1


async def bot(request: Request) -> Response:
    """``GET /bots/{name}[?page=N]``: a bot's page; 404 for a name that is no bot of the contest."""
    web = web_of(request)
    viewer = await web.viewer(request)
    name = request.path_params["name"]
    versions: list[Submission] = await web.call("submissions", name)
    games = await web.call("games_of", name)
    known = versions or games or any(row.bot == name for row in web.contest.board().rows)
    if not known and name not in web.contest.league.bots:
        return message("No such bot", f"no bot of this contest is named {name}", viewer, 404)
    number = _page_number(request)
    pages = max(1, -(-len(games) // GAMES_A_PAGE))
    number = min(number, pages)
    shown = games[(number - 1) * GAMES_A_PAGE : number * GAMES_A_PAGE]
    private = viewer.reads_stderr_of(name)

    def stderr_link(record) -> str:
        return f' <a href="/games/{text(record.game_id)}/stderr">stderr</a>' if private else ""

    links = []
    if number > 1:
        links.append(f'<a href="?page={number - 1}">newer</a>')
    if number < pages:
        links.append(f'<a href="?page={number + 1}">older</a>')
    faults = [record for record in games if _faulted(record, name)][:FAULTS_SHOWN]
    body = (
        f"<h2>Versions</h2>{_versions(versions, viewer, name)}"
        f"<h2>Games</h2><p>{len(games)} games stored (every version's), newest first; page {number} of {pages}. "
        f"{' · '.join(links)}</p>{games_table(shown, stderr_link)}"
        f"<h2>Faults</h2><p>{sum(_faulted(r, name) for r in games)} games in which it faulted; the newest:</p>"
        f"{games_table(faults, stderr_link)}"
    )
    return page(f"Bot {name}", body, viewer)


def _faulted(record, name: str) -> bool:
    seats = record.spec.seats
    return any(seat < len(seats) and seats[seat] == name for seat in record.result.offenders)
