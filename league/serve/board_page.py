"""The leaderboard (``GET /``): the board's state, its ranking line and its table, kept live by ``static/live.js``.

The table reads without JavaScript; the script follows ``/live/board`` and swaps in each new
board's section (``board_section``, the same HTML the stream sends).
"""

from __future__ import annotations

import math

from starlette.requests import Request
from starlette.responses import Response

from league.contest.model import Board, BoardRow
from league.serve.layout import page, text
from league.serve.state import web_of


def rating_text(row: BoardRow) -> str:
    """A rating with its 95% interval ("1512 (1480 to 1544)"), or a dash before any game."""
    if math.isnan(row.rating):
        return "–"
    if math.isnan(row.low) or math.isnan(row.high):
        return f"{row.rating:.0f}"
    return f"{row.rating:.0f} ({row.low:.0f} to {row.high:.0f})"


def _row(row: BoardRow) -> str:
    return (
        f'<tr><td class="number">{row.place}</td><td><a href="/bots/{text(row.bot)}">{text(row.bot)}</a></td>'
        f"<td>{text(row.author) if row.author else '<span class=muted>house</span>'}</td>"
        f'<td><code>{text(row.version)}</code></td><td class="number">{row.games}</td>'
        f'<td class="number">{rating_text(row)}</td><td>{"settled" if row.settled else "not yet"}</td>'
        f"<td>{'warming up' if row.warming_up else ''}</td></tr>"
    )


def board_section(board: Board) -> str:
    """The board's state sentence, ranking line and table (what the live stream sends for each new board)."""
    parts = [f'<p class="state">{text(board.state)}</p>']
    if board.ranking_line:
        parts.append(f'<p class="ranking">Ranking: <code>{text(board.ranking_line)}</code></p>')
    if board.rows:
        parts.append(
            '<table class="board"><thead><tr><th>place</th><th>bot</th><th>author</th><th>version</th>'
            "<th>games</th><th>rating (95% interval)</th><th>place settled</th><th></th></tr></thead><tbody>"
            + "".join(_row(row) for row in board.rows)
            + "</tbody></table>"
        )
    else:
        parts.append("<p>No entries yet.</p>")
    when = f", updated {text(board.updated)}" if board.updated else ""
    parts.append(f'<p class="muted">{board.games} games stored{when} · board {board.serial}</p>')
    return "".join(parts)


async def leaderboard(request: Request) -> Response:
    """``GET /``: the leaderboard."""
    web = web_of(request)
    viewer = await web.viewer(request)
    board = web.hub.newest()
    name = web.contest.league.config.name
    body = f'<section id="board" data-serial="{board.serial}" aria-live="polite">{web.hub.html(board)}</section>'
    return page(f"{name}: leaderboard", body, viewer, scripts=("/static/live.js",))
