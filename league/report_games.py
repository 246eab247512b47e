"""The report's list of games: every game as a CSV row, a Markdown table, and a filterable HTML table.

Each game shows its id, variant, seats, scores, ranks, winner, how it ended (termination, the
game's reason code, the detail sentence), its length in plies, its seed and, when the league's
manifest allows, the ``league play`` command that plays it again, and a link to its replay page
where the report wrote one (league/report_replays.py). ``games.csv`` holds every game.
The page embeds the rows as one JSON blob and a small inline script shows them a page at a time,
filtered by bot (games where it sat), variant and termination; a league of 100,000 games is cut
to ``HTML_MAX_ROWS`` rows on the page (every faulted game kept), and ``report.md`` to
``MARKDOWN_MAX_ROWS``, each saying so. Scores and seeds are text: they may pass 2**53.
Everything a bot's author wrote (names, details) is escaped (league/inert.py), and the script only
sets text; in ``games.csv`` such a cell never starts a spreadsheet formula.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from league.inert import inert_line, markdown_code, markdown_text, spreadsheet_text

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
        winner: Who won: a name, "draw", or "shared: NAME, NAME" for a first place shared by some.
        termination: How the game ended (NORMAL, CRASH, ...).
        reason_code: The game's own code for it ("" when none).
        detail: The sentence that explains it.
        offenders: The seats that faulted.
        plies: The game's length.
        seed: The match seed as text (exact).
        replay: The command that replays the game ("" when unknown).
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

    @property
    def faulted(self) -> bool:
        """Whether the game ended otherwise than by its rules."""
        return bool(self.offenders) or self.termination != NORMAL


def winner_text(seats: Sequence[str], ranks: Sequence[int]) -> str:
    """The winner's name; "draw" when every seat shares first place; "shared: A, B" when some do."""
    first = [name for name, rank in zip(seats, ranks, strict=True) if rank == 1]
    if len(first) == 1:
        return first[0]
    if len(first) == len(seats):
        return "draw"
    return "shared: " + ", ".join(first)


def game_rows(records: Sequence[dict[str, Any]], replay_command: ReplayCommand | None = None) -> list[GameRow]:
    """Every game as a row, in schedule order.

    Args:
        records: Scored game records (``game_id``, ``spec``, ``result``).
        replay_command: A record's ``league play`` command; None when the league cannot say.
    """
    rows = []
    for record in sorted(records, key=lambda r: r["spec"]["index"]):
        spec, result = record["spec"], record["result"]
        seats = tuple(str(name) for name in spec["seats"])
        ranks = tuple(int(rank) for rank in result["ranks"])
        rows.append(
            GameRow(
                index=int(spec["index"]),
                game_id=str(record["game_id"]),
                variant=str(spec["variant"]),
                seats=seats,
                scores=tuple(str(score) for score in result["scores"]),
                ranks=ranks,
                winner=winner_text(seats, ranks),
                termination=str(result["termination"]),
                reason_code=str(result.get("reason_code") or ""),
                detail=str(result.get("detail") or ""),
                offenders=tuple(int(seat) for seat in result.get("offenders") or ()),
                plies=int(result.get("plies", 0)),
                seed=str(spec["seed"]),
                replay=replay_command(record) if replay_command is not None else "",
            )
        )
    return rows


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
    records: Sequence[dict[str, Any]] | Sequence[GameRow], replay_command: ReplayCommand | None = None
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
    records: Sequence[dict[str, Any]] | Sequence[GameRow],
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
            str(row.plies),
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
    ".games-filters{display:flex;flex-wrap:wrap;gap:.5em 1.2em;align-items:center;margin:.5em 0}"
    ".games-faulted{color:#a00}.games-small{display:block;font-size:.8em;color:#555}"
    ".games-seats span{white-space:nowrap}"
    "code.games-replay{display:block;min-width:28em;user-select:all;overflow-wrap:anywhere}"
)

# Renders the embedded rows a page at a time; it only ever sets text (textContent), never markup.
_SCRIPT = """(function () {
  var data = JSON.parse(document.getElementById("games-data").textContent);
  var pageRows = data.page_rows, rows = data.rows, shown = rows, page = 0;
  var byId = function (id) { return document.getElementById(id); };
  var body = byId("games-rows"), bot = byId("games-bot"), variant = byId("games-variant");
  var termination = byId("games-termination");
  function cell(tr, lines, className) {
    var td = document.createElement("td");
    if (className) td.className = className;
    lines.forEach(function (line) {
      var span = document.createElement("span");
      span.textContent = line[0];
      span.className = line[1] || "";
      if (lines.length > 1) span.style.display = "block";
      td.appendChild(span);
    });
    tr.appendChild(td);
    return td;
  }
  function render() {
    var pages = Math.max(1, Math.ceil(shown.length / pageRows));
    page = Math.min(Math.max(page, 0), pages - 1);
    body.textContent = "";
    shown.slice(page * pageRows, (page + 1) * pageRows).forEach(function (row) {
      var index = row[0], id = row[1], name = row[2], seats = row[3], scores = row[4], ranks = row[5];
      var winner = row[6], ending = row[7], reason = row[8], detail = row[9], offenders = row[10];
      var tr = document.createElement("tr");
      tr.className = "games-row";
      tr.dataset.gameId = id;
      cell(tr, [[String(index)]], "games-number");
      cell(tr, [[id]]).firstChild.className = "games-id";
      cell(tr, [[name]]);
      cell(tr, seats.map(function (seat, i) {
        return offenders.indexOf(i) < 0 ? [seat] : [seat + " (faulted)", "games-faulted"];
      }), "games-seats");
      cell(tr, scores.map(function (score) { return [score]; }), "games-number");
      cell(tr, ranks.map(function (rank) { return [String(rank)]; }), "games-number");
      cell(tr, [[winner]]);
      var end = [[ending, ending === "NORMAL" ? "" : "games-faulted"]];
      if (reason) end.push([reason, "games-small"]);
      if (detail) end.push([detail, "games-small"]);
      cell(tr, end, "games-termination");
      cell(tr, [[String(row[11])]], "games-number");
      cell(tr, [[row[12]]], "games-number");
      if (data.watch) {
        var watch = cell(tr, []);
        if (row[14]) {
          var link = document.createElement("a");
          link.href = "replays/" + encodeURIComponent(id) + ".html";
          link.textContent = "watch";
          link.className = "games-watch";
          watch.appendChild(link);
        }
      }
      if (data.replay) {
        var code = document.createElement("code");
        code.className = "games-replay";
        code.textContent = row[13];
        cell(tr, []).appendChild(code);
      }
      body.appendChild(tr);
    });
    byId("games-count").textContent = "showing " + shown.length + " of " + rows.length + " games";
    byId("games-page").textContent = "page " + (page + 1) + " of " + pages;
    byId("games-previous").disabled = page === 0;
    byId("games-next").disabled = page >= pages - 1;
  }
  function filter() {
    shown = rows.filter(function (row) {
      return (!bot.value || row[3].indexOf(bot.value) >= 0) && (!variant.value || row[2] === variant.value) &&
        (!termination.value || row[7] === termination.value);
    });
    page = 0;
    render();
  }
  [bot, variant, termination].forEach(function (select) { select.addEventListener("change", filter); });
  byId("games-previous").addEventListener("click", function () { page -= 1; render(); });
  byId("games-next").addEventListener("click", function () { page += 1; render(); });
  render();
})();"""


def _options(select_id: str, label: str, every: str, values: Sequence[str]) -> str:
    options = "".join(f'<option value="{html.escape(v)}">{html.escape(v)}</option>' for v in values)
    return f'<label>{label} <select id="{select_id}"><option value="">{every}</option>{options}</select></label>'


def _script_json(data: Any) -> str:
    """JSON that cannot end or alter the <script> element holding it."""
    text = json.dumps(data, ensure_ascii=True, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def games_html(
    records: Sequence[dict[str, Any]] | Sequence[GameRow],
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
    game shown, and the rows as JSON in ``script#games-data``.

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
            + [inert_line(r.detail), r.offenders, r.plies, r.seed, r.replay, int(r.game_id in (watch or ()))]
            for r in shown
        ],
    }
    bots = sorted({name for row in shown for name in row.seats})
    variants = sorted({row.variant for row in shown})
    endings = sorted({row.termination for row in shown}, key=lambda ending: (ending != NORMAL, ending))
    header = ["#", "game", "variant", "seats", "scores", "ranks", "winner", "termination", "plies", "seed"]
    header += ["replay page"] if watch is not None else []
    header += ["replay (select to copy)"] if replay_command is not None else []
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
            f"<script>{_SCRIPT}</script>",
        ]
    )
