"""The live pages' HTML: the games being played (a list that reads without JavaScript) and one game followed live.

A game's page holds the game's own replay viewer (``engine/<game>/viewer.js`` with ``dom.js`` and the shared
scripts its ``view.ASSETS`` names) and the live player (``assets/live_player.js``), which draws the frames
that come on the game's stream, every one in order. Its scripts run under a nonce of the response's own
(``LIVE_POLICY``): whatever a bot printed, it is data, drawn with ``textContent``, never markup.
"""

from __future__ import annotations

import html
import secrets

from league.live.games import LiveGame
from league.replay.page import asset_text, embedded_json, viewer_scripts
from league.replay.rebuild import view_module

REPLAY_ASSETS = "league.replay.assets"
LIVE_ASSETS = "league.live.assets"


def live_policy(nonce: str) -> str:
    """The live pages' Content-Security-Policy: their own scripts alone, their own server's streams alone."""
    return (
        f"default-src 'none'; script-src 'nonce-{nonce}'; style-src 'unsafe-inline'; connect-src 'self'; "
        "img-src data: blob:; font-src data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
    )


def new_nonce() -> str:
    """A nonce for one response's scripts."""
    return secrets.token_urlsafe(18)


def _players(game: LiveGame) -> str:
    return " vs ".join(html.escape(name) for name in game.seats)


def _state(game: LiveGame) -> str:
    """One line on where a game stands, for a reader without JavaScript."""
    if game.dropped:
        return "stopped before its end (it is played again)"
    if game.over and game.result is not None:
        result = game.result
        scores = " : ".join(str(score) for score in result.get("scores", []))
        return f"over: {html.escape(str(result.get('termination', '')))}, scores {html.escape(scores)}"
    tension = game.tensions[-1] if game.tensions else 0.0
    return f"playing: {len(game.frames)} frames so far, tension {tension:.2f}"


def games_page(games: list[LiveGame], heading: str) -> str:
    """The games being played now and those just ended, each linked to its live page (reads without JavaScript)."""
    rows = "".join(
        f'<tr><td><a href="/live/games/{game.number}">{game.number}</a></td><td>{html.escape(game.game)}</td>'
        f"<td>{_players(game)}</td><td>{html.escape(game.variant)}</td><td>{_state(game)}</td></tr>"
        for game in games
    )
    table = (
        "<table><tr><th>game</th><th>of</th><th>players</th><th>variant</th><th>now</th></tr>" + rows + "</table>"
        if games
        else '<p class="quiet">no game is being played now; this page shows the games as the league plays them</p>'
    )
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="5">
<title>{html.escape(heading)}</title>
<style>{asset_text(REPLAY_ASSETS, "player.css")}</style></head>
<body>
<p><a href="/">home</a></p>
<h1>{html.escape(heading)}</h1>
{table}
</body></html>
"""


def game_page(game: LiveGame, nonce: str, heading: str) -> str:
    """A game's live page: its viewer drawing each frame as it comes from ``/live/games/NUMBER/frames``."""
    view = view_module(game.game)
    data = {
        "number": game.number,
        "game": game.game,
        "title": f"{' vs '.join(game.seats)} (live)",
        "seats": game.seats,
        "stream": f"/live/games/{game.number}/frames",
        "tension_text": view.TENSION,
    }
    scripts = [*viewer_scripts(game.game), asset_text(LIVE_ASSETS, "live_player.js")]
    body = "\n".join(f'<script nonce="{nonce}">{script}</script>' for script in scripts)
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(heading)}</title>
<style>{asset_text(REPLAY_ASSETS, "player.css")}</style></head>
<body>
<p class="quiet"><a href="/live">games being played</a> · {html.escape(heading)}</p>
<h1>{_players(game)} <span class="quiet">(live, game {game.number}, {html.escape(game.variant)})</span></h1>
<p id="status">{_state(game)}</p>
<noscript><p>The board is drawn by JavaScript; without it this page says where the game stands when loaded.</p>
</noscript>
<p id="position" class="quiet"></p>
<div id="board"></div>
<p class="quiet">Tension: {html.escape(view.TENSION)}</p>
<h3>This step</h3>
<ul id="moves"></ul>
<script id="live-data" type="application/json">{embedded_json(data)}</script>
{body}
</body></html>
"""
