"""The report's list of games: every game as a CSV row, a Markdown table, and a filterable HTML table.

Each game shows its id, variant, seats, scores, ranks, winner, how it ended (termination, the
game's reason code, the detail sentence), its length in plies (how many of them the league's
opening played), its seed and, when the league's manifest allows, the ``league play`` command that
plays it again, and a link to its replay page where the report wrote one (league/report/replays.py).
``games.csv`` holds every game.
The page embeds the rows as one JSON blob and a small inline script shows them a page at a time,
filtered by bot (games where it sat), variant and termination, each game's replay command on a
line of its own under it (one element, selected whole by a click, with a copy button), so that
the table fits a page 1,400 px wide and the termination column keeps room to be read; a league of 100,000 games is cut
to ``HTML_MAX_ROWS`` rows on the page (every faulted game kept), and ``report.md`` to
``MARKDOWN_MAX_ROWS``, each saying so. Scores and seeds are text: they may pass 2**53.
Everything a bot's author wrote (names, details) is escaped (league/match/inert.py), and the script only
sets text; in ``games.csv`` such a cell never starts a spreadsheet formula.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import pandas as pd

from league.match.inert import inert_line, markdown_code, markdown_text, spreadsheet_text
from league.stats.game_record import GameRecord
from league.stats.placing import places

ReplayCommand = Callable[[dict[str, Any]], str]

HTML_MAX_ROWS = 20_000
HTML_PAGE_ROWS = 200
MARKDOWN_MAX_ROWS = 100
NORMAL = "NORMAL"


@dataclass(frozen=True)
class GameRow:
    """One game as the list shows it.

    Attributes:
        index: Position in the schedule.
        game_id: The game's id.
        variant: The variant's name.
        seats: Bot names, seat 0 first.
        scores: Each seat's score as text (exact).
        ranks: Each seat's rank (1 is best).
        winner: Who won: a name, "draw", "shared: NAME, NAME" for a first place shared by some, or
            "none: every seat faulted".
        termination: How the game ended (NORMAL, CRASH, ...).
        reason_code: The game's own code for it ("" when none).
        detail: The sentence that explains it.
        offenders: The seats that faulted.
        plies: The game's length.
        seed: The match seed as text (exact).
        replay: The command that replays the game ("" when unknown).
        opening_plies: How many of its first plies were the league's opening (the referee's, no bot's).
    """

    index: int
    game_id: str
    variant: str
    seats: tuple[str, ...]
    scores: tuple[str, ...]
    ranks: tuple[int, ...]
    winner: str
    termination: str
    reason_code: str
    detail: str
    offenders: tuple[int, ...]
    plies: int
    seed: str
    replay: str
    opening_plies: int = 0

    @property
    def plies_text(self) -> str:
        """The length for people: ``30``, or ``30 (4 opening)`` where an opening played its first plies."""
        return f"{self.plies} ({self.opening_plies} opening)" if self.opening_plies else str(self.plies)

    @property
    def faulted(self) -> bool:
        """Whether the game ended otherwise than by its rules."""
        return bool(self.offenders) or self.termination != NORMAL


def winner_text(seats: Sequence[str], places: Sequence[int]) -> str:
    """The winner's name; "draw" when every seat shares first place; "shared: A, B" when some do.

    ``places`` are the league's ranks (``league.stats.placing``): a seat that faulted is never first, so a
    game where every seat faulted has no first place at all ("none: every seat faulted").
    """
    first = [name for name, rank in zip(seats, places, strict=True) if rank == 1]
    if not first:
        return "none: every seat faulted"
    if len(first) == 1:
        return first[0]
    if len(first) == len(seats):
        return "draw"
    return "shared: " + ", ".join(first)


def game_rows(records: Sequence[GameRecord], replay_command: ReplayCommand | None = None) -> list[GameRow]:
    """Every game as a row, in schedule order.

    Args:
        records: Scored game records (``game_id``, ``spec``, ``result``).
        replay_command: A record's ``league play`` command; None when the league cannot say.
    """
    rows = []
    for record in sorted(records, key=lambda r: r.spec.index):
        spec, result = record.spec, record.result
        seats = tuple(str(name) for name in spec.seats)
        ranks = tuple(int(rank) for rank in result.ranks)
        rows.append(
            GameRow(
                index=int(spec.index),
                game_id=str(record.game_id),
                variant=str(spec.variant),
                seats=seats,
                scores=tuple(str(score) for score in result.scores),
                ranks=ranks,
                winner=winner_text(seats, places(result)),
                termination=str(result.termination),
                reason_code=str(result.reason_code or ""),
                detail=str(result.detail or ""),
                offenders=tuple(int(seat) for seat in result.offenders or ()),
                plies=int(result.plies),
                seed=str(spec.seed),
                replay=replay_command(record) if replay_command is not None else "",
                opening_plies=opening_length(spec.opening),
            )
        )
    return rows


def opening_length(opening: dict[str, Any] | None) -> int:
    """How many plies a game's opening (its spec's, ``league.plan.openings``) played first: 0 for none."""
    if not opening:
        return 0
    return len(opening["moves"]) if "moves" in opening else int(opening.get("plies", 0))


def _as_rows(games: Sequence[Any], replay_command: ReplayCommand | None) -> list[GameRow]:
    """``games`` as rows: records are turned into rows (in schedule order); rows are taken as they are."""
    if games and isinstance(games[0], GameRow):
        return sorted(games, key=lambda row: row.index)
    return game_rows(games, replay_command)


def listed_rows(rows: Sequence[GameRow], cap: int) -> list[GameRow]:
    """At most ``cap`` rows in schedule order: every faulted game first (up to ``cap``), then the others."""
    if len(rows) <= cap:
        return list(rows)
    faulted = [row for row in rows if row.faulted][:cap]
    others = [row for row in rows if not row.faulted][: cap - len(faulted)]
    return sorted(faulted + others, key=lambda row: row.index)


def cut_sentence(shown: Sequence[GameRow], rows: Sequence[GameRow], where: str) -> str:
    """What a capped list leaves out, and where the full list is ("" when nothing is left out)."""
    if len(shown) == len(rows):
        return ""
    faulted = sum(1 for row in rows if row.faulted)
    kept = sum(1 for row in shown if row.faulted)
    if kept < faulted:
        which = f"the first {kept:,} of the {faulted:,} faulted games"
    else:
        which = "every faulted game, then the first others in schedule order"
    return f"{where} lists {len(shown):,} of {len(rows):,} games: {which}; games.csv has every game."


def games_frame(
    records: Sequence[GameRecord] | Sequence[GameRow], replay_command: ReplayCommand | None = None
) -> pd.DataFrame:
    """``games.csv``: one row per game, in schedule order.

    Seats are joined by " vs ", scores, ranks and offending seats by spaces; scores and seeds are
    exact (text and 64-bit integers, never floats). The cells that can hold a bot's text (seats,
    winner, detail) are ``spreadsheet_text``: no spreadsheet takes them for formulas.
    """
    columns = ["index", "game_id", "variant", "seats", "scores", "ranks", "winner", "termination"]
    columns += ["reason_code", "offenders", "detail", "plies", "seed", "replay"]
    data = [
        {
            "index": row.index,
            "game_id": row.game_id,
            "variant": row.variant,
            "seats": spreadsheet_text(" vs ".join(row.seats)),
            "scores": " ".join(row.scores),
            "ranks": " ".join(map(str, row.ranks)),
            "winner": spreadsheet_text(row.winner),
            "termination": row.termination,
            "reason_code": row.reason_code,
            "offenders": " ".join(map(str, row.offenders)),
            "detail": spreadsheet_text(row.detail),
            "plies": row.plies,
            "seed": row.seed,
            "replay": row.replay,
        }
        for row in _as_rows(records, replay_command)
    ]
    return pd.DataFrame(data, columns=columns)


# Markdown ---------------------------------------------------------------------------------------


def games_markdown(
    records: Sequence[GameRecord] | Sequence[GameRow],
    replay_command: ReplayCommand | None = None,
    max_rows: int = MARKDOWN_MAX_ROWS,
    watch: frozenset[str] | None = None,
) -> str:
    """The list of games for ``report.md``: a table of at most ``max_rows`` games, and what was left out.

    ``watch`` holds the games with a replay page in ``replays/``, linked from their id.
    """
    rows = _as_rows(records, replay_command)
    if not rows:
        return "(no games)"
    shown = listed_rows(rows, max_rows)
    header = ["#", "game", "variant", "seats", "scores", "ranks", "winner", "termination", "plies", "seed"]
    header += ["replay"] if replay_command is not None else []
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for row in shown:
        ending = row.termination + (f" {row.reason_code}" if row.reason_code else "")
        ending += f": {row.detail}" if row.detail and row.faulted else ""
        cells = [
            str(row.index),
            f"[{markdown_code(row.game_id)}](replays/{row.game_id}.html)"
            if row.game_id in (watch or ())
            else markdown_code(row.game_id),
            markdown_text(row.variant),
            " vs ".join(markdown_text(name) for name in row.seats),
            " : ".join(row.scores),
            " ".join(map(str, row.ranks)),
            markdown_text(row.winner),
            markdown_text(ending),
            row.plies_text,
            row.seed,
        ]
        cells += [markdown_code(row.replay)] if replay_command is not None else []
        lines.append("| " + " | ".join(cells) + " |")
    cut = cut_sentence(shown, rows, "This table")
    cut += f" index.html lists up to {HTML_MAX_ROWS:,} of them, with filters." if cut else ""
    return "\n".join([f"{len(rows):,} games, in schedule order.", "", *lines, *(["", cut] if cut else [])])


# HTML -------------------------------------------------------------------------------------------

_STYLE = (
    ".scroll{overflow-x:auto;max-width:100%}"
    "#games-table td,#games-table th{text-align:left;vertical-align:top}"
    "#games-table td.games-number{text-align:right}"
    "#games-table td.games-termination{min-width:16em;max-width:36em}#games-table td.games-winner{min-width:8em}"
    "#games-table tr.games-with-replay td{border-bottom:0}"
    "#games-table tr.games-replay-row td{border-top:0;padding-top:0;padding-bottom:6px}"
    ".games-filters{display:flex;flex-wrap:wrap;gap:.5em 1.2em;align-items:center;margin:.5em 0}"
    ".games-faulted{color:#a00}.games-small{display:block;font-size:.8em;color:#555}"
    ".games-seats span{white-space:nowrap}.games-replay-label{font-size:.8em;color:#555;flex:none}"
    ".games-replay-line{display:flex;align-items:baseline;gap:.6em;position:sticky;left:8px;"
    "max-width:calc(100vw - 7em)}"  # in sight, whole, however wide the table scrolls
    "code.games-replay{user-select:all;white-space:pre-wrap;overflow-wrap:anywhere;min-width:0}"
    "button.games-copy{font-size:.8em;flex:none}"
)

GAMES_SCRIPT = "games.js"
"""The list's script, beside this module (package data): it only ever sets text, never markup."""


@cache
def _script() -> str:
    """The list's script (``GAMES_SCRIPT``)."""
    return resources.files("league.report").joinpath(GAMES_SCRIPT).read_text(encoding="utf-8")


def _options(select_id: str, label: str, every: str, values: Sequence[str]) -> str:
    options = "".join(f'<option value="{html.escape(v)}">{html.escape(v)}</option>' for v in values)
    return f'<label>{label} <select id="{select_id}"><option value="">{every}</option>{options}</select></label>'


def _script_json(data: Any) -> str:
    """JSON that cannot end or alter the <script> element holding it."""
    text = json.dumps(data, ensure_ascii=True, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def games_html(
    records: Sequence[GameRecord] | Sequence[GameRow],
    replay_command: ReplayCommand | None = None,
    max_rows: int = HTML_MAX_ROWS,
    page_rows: int = HTML_PAGE_ROWS,
    watch: frozenset[str] | None = None,
) -> str:
    """The list of games for ``index.html``: filters, a count, pages of ``page_rows`` rows.

    The fragment's elements: selects ``#games-bot``, ``#games-variant`` and ``#games-termination``
    (value "" keeps every game), ``#games-count`` ("showing N of M games"), buttons
    ``#games-previous`` and ``#games-next`` with ``#games-page`` ("page P of Q"), the table
    ``#games-table`` whose body ``#games-rows`` holds one ``tr.games-row`` (``data-game-id``) per
    game shown, each followed, when there is a replay command, by a ``tr.games-replay-row`` (the
    same ``data-game-id``) whose ``code.games-replay`` holds the command whole and whose
    ``button.games-copy`` copies it, and the rows as JSON in ``script#games-data``.

    Args:
        records: Scored game records, or their rows (``game_rows``) when the caller has them.
        replay_command: A record's ``league play`` command; None leaves the replay column out.
        max_rows: The most games embedded in the page (every faulted game first).
        page_rows: Games shown at a time.
        watch: The games with a replay page in ``replays/`` (a "watch" link each); None leaves the column out.
    """
    rows = _as_rows(records, replay_command)
    if not rows:
        return "<p>(no games)</p>"
    shown = listed_rows(rows, max_rows)
    data = {
        "page_rows": page_rows,
        "replay": replay_command is not None,
        "watch": watch is not None,
        "rows": [
            [r.index, r.game_id, r.variant, r.seats, r.scores, r.ranks, r.winner, r.termination, r.reason_code]
            + [inert_line(r.detail), r.offenders, r.plies_text if r.opening_plies else r.plies, r.seed, r.replay]
            + [int(r.game_id in (watch or ()))]
            for r in shown
        ],
    }
    bots = sorted({name for row in shown for name in row.seats})
    variants = sorted({row.variant for row in shown})
    endings = sorted({row.termination for row in shown}, key=lambda ending: (ending != NORMAL, ending))
    header = ["#", "game", "variant", "seats", "scores", "ranks", "winner", "termination", "plies", "seed"]
    header += ["replay page"] if watch is not None else []
    cut = cut_sentence(shown, rows, "This page")
    return "".join(
        [
            f"<style>{_STYLE}</style>",
            f"<p>{len(rows):,} games in schedule order; choose a bot, a variant or a termination to see only"
            " those games. A bot's games are those where it sat; faulted seats are marked.</p>",
            f'<p id="games-cut">{html.escape(cut)}</p>' if cut else "",
            '<div class="games-filters">',
            _options("games-bot", "Bot", "every bot", bots),
            _options("games-variant", "Variant", "every variant", variants),
            _options("games-termination", "Termination", "every termination", endings),
            f'<span id="games-count">showing {len(shown)} of {len(shown)} games</span>',
            '<span><button type="button" id="games-previous">previous</button> <span id="games-page"></span>'
            ' <button type="button" id="games-next">next</button></span></div>',
            '<div class="scroll"><table id="games-table"><thead><tr>',
            "".join(f"<th>{html.escape(name)}</th>" for name in header),
            '</tr></thead><tbody id="games-rows"></tbody></table></div>',
            "<noscript><p>The list of games needs JavaScript; games.csv holds the same list.</p></noscript>",
            f'<script type="application/json" id="games-data">{_script_json(data)}</script>',
            f"<script>{_script()}</script>",
        ]
    )
