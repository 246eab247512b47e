"""Replay pages: one self-contained HTML file that plays stored games in the browser.

A page holds its data (the frames of one game, or of several stretches for highlights) as JSON,
the player (``league/replay/assets/player.js``: controls, pacing by tension, the tension curve,
each move's details) and the game's own viewer (``engine/<game>/viewer.js``, which draws a
frame, with the helpers of ``dom.js`` and the shared scripts its ``view.ASSETS`` names).
Nothing is fetched: the page opens offline, from a file, and runs no network request.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from league.replay.rebuild import Replay, view_module

ASSETS = "league.replay.assets"


@dataclass
class Reel:
    """What the player shows of one game: the whole game, or a stretch of it.

    Attributes:
        title: A heading ("random vs greedy, game 3f2a...").
        replay: The replayed game.
        start: The first frame shown.
        end: The last frame shown.
    """

    title: str
    replay: Replay
    start: int = 0
    end: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The reel as the player reads it."""
        replay = self.replay
        frames = replay.frames
        end = len(frames) - 1 if self.end is None else self.end
        return {
            "title": self.title,
            "summary": summary(replay),
            "seats": replay.seats,
            "frames": [
                {
                    "view": f.view,
                    "tension": f.tension,
                    "moves": f.moves,
                    **({"opening_end": True} if f.opening_end else {}),
                }
                for f in frames
            ],
            "start": self.start,
            "end": end,
            "peak": max((f.tension for f in frames[self.start : end + 1]), default=0.0),
            "diverged": replay.diverged,
            "stderr": replay.stderr,
            "tension_text": replay.tension_text,
        }


def summary(replay: Replay) -> str:
    """One line on how the game ended, from the stored result."""
    result = replay.stored
    ranks = result.get("ranks") or []
    names = replay.seats
    order = sorted(range(len(ranks)), key=lambda seat: ranks[seat])
    placed = ", ".join(f"{ranks[seat]}. {names[seat]} ({result['scores'][seat]})" for seat in order)
    termination = result.get("termination", "")
    detail = result.get("detail", "")
    return f"{placed} · {termination} · {detail} · {result.get('plies', 0)} plies · seed {replay.seed}"


def page(game: str, reels: list[Reel], heading: str) -> str:
    """The HTML page of ``reels`` of ``game``.

    Args:
        game: The game's name (its viewer is ``engine/<game>/viewer.js``).
        reels: What to play, the first shown first.
        heading: The page's title.
    """
    data = {"game": game, "reels": [reel.to_json() for reel in reels]}
    scripts = [*viewer_scripts(game), asset_text(ASSETS, "player.js")]
    body = "\n".join(f"<script>{script}</script>" for script in scripts)
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(heading)}</title>
<style>{asset_text(ASSETS, "player.css")}</style></head>
<body>
<p class="quiet">{html.escape(heading)}</p>
<h1 id="title"></h1>
<p id="result"></p>
<p id="diverged" hidden></p>
<ol id="reels" hidden></ol>
<div id="controls">
<button id="first" title="first frame">|&lt;</button><button id="back" title="step back (left arrow)">&lt;</button>
<button id="play" title="play or pause (space)">play</button>
<button id="forward" title="step forward (right arrow)">&gt;</button><button id="last" title="last frame">&gt;|</button>
<input id="scrub" type="range" min="0" value="0" aria-label="frame">
<label>speed <select id="speed"><option value="auto">auto (by tension)</option><option value="0.5">0.5/s</option>
<option value="1">1/s</option><option value="2">2/s</option><option value="5">5/s</option>
<option value="10">10/s</option><option value="30">30/s</option></select></label>
<span id="view-options"></span>
<span id="position" class="quiet"></span>
</div>
<div id="board"></div>
<svg id="tension" role="img" aria-label="tension curve: click to jump"></svg>
<p class="quiet">Tension (click the curve to jump): <span id="tension-text"></span></p>
<h3>This step</h3>
<div id="moves"></div>
<details id="stderr"></details>
<script id="replay-data" type="application/json">{embedded_json(data)}</script>
{body}
</body></html>
"""


def viewer_scripts(game: str) -> list[str]:
    """The scripts that draw a frame of ``game``: ``dom.js``, the shared ones its view names, its ``viewer.js``."""
    view = view_module(game)
    scripts = [asset_text(ASSETS, name) for name in ("dom.js", *getattr(view, "ASSETS", ()))]
    return [*scripts, asset_text(f"engine.{game}", "viewer.js")]


def embedded_json(data: Any) -> str:
    """JSON safe inside a script element: no ``</script>``, no HTML comment, whatever bots printed."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def asset_text(package: str, name: str) -> str:
    """A packaged script or style sheet's text (``league.replay.assets``, a game's ``viewer.js``)."""
    return resources.files(package).joinpath(name).read_text(encoding="utf-8")
