"""The report of a knockout of tables (``league.plan.table_knockout``): its rounds drawn, each table's points, replays.

Drawn from the manifest's ``knockout`` key (``kind: tables``: every round's tables, their bots, order,
who went on and their games) and the stored games, each table's points counted again from its stored
games: a grid of tables per round in the HTML page, a list per round in the Markdown file and
``knockout.png`` (a box a table, lines from each table to the tables its bots went on to). Every game
of a table links to its replay page (``replays/<game id>.html``).
"""

from __future__ import annotations

import html
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from engine.core import plural  # noqa: E402
from league.match.inert import inert_line, markdown_text  # noqa: E402
from league.report.charts import save_figure  # noqa: E402
from league.stats.game_record import GameRecord  # noqa: E402
from league.stats.placing import place_points, places  # noqa: E402


def _points(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:.2f}".rstrip("0")


def scored_tables(bracket: dict[str, Any], records: Sequence[GameRecord]) -> list[list[dict[str, Any]]]:
    """The manifest's rounds, each table with ``score`` (per bot, its points over the stored games) and ``stored``."""
    by_id = {record.game_id: record for record in records if not record.infra}
    rounds = []
    for tables in bracket["rounds"]:
        found = []
        for table in tables:
            stored = [by_id[game] for game in table["games"] if game in by_id]
            score = dict.fromkeys(table["bots"], 0.0)
            for record in stored:
                ranks, offenders = places(record.result), record.result.offenders or []
                for seat, bot in enumerate(record.spec.seats):
                    score[bot] += place_points(ranks, offenders, seat)
            found.append({**table, "score": score if stored else None, "stored": stored})
        rounds.append(found)
    return rounds


def _shown(table: dict[str, Any]) -> list[str]:
    return list(table["order"] or table["bots"])


def _name(bot: str, seeds: Sequence[str]) -> str:
    return f"{bot} ({seeds.index(bot) + 1})" if bot in seeds else bot


def _title(record: GameRecord) -> str:
    ranks = places(record.result)
    return ", ".join(f"{bot} {rank}" for bot, rank in zip(record.spec.seats, ranks, strict=False))


def _links(table: dict[str, Any], watch: Collection[str] | None, markdown: bool) -> str:
    links = []
    for number, record in enumerate(table["stored"], 1):
        linked = watch is None or record.game_id in watch
        if markdown:
            links.append(f"[{number}](replays/{record.game_id}.html)" if linked else str(number))
        elif linked:
            title = html.escape(inert_line(_title(record)), quote=True)
            links.append(f'<a href="replays/{html.escape(record.game_id)}.html" title="{title}">{number}</a>')
        else:
            links.append(str(number))
    return " ".join(links)


def tables_html(
    bracket: dict[str, Any], rounds: Sequence[Sequence[dict[str, Any]]], watch: Collection[str] | None
) -> str:
    """A grid: a column per round, a box per table (its bots by place, points, who went on in bold, games linked)."""
    seeds, head, cells = bracket["seeds"], [], []
    for number, tables in enumerate(rounds, 1):
        head.append("<th>Final table</th>" if tables and tables[0]["key"] == "F" else f"<th>Round {number}</th>")
        boxes = []
        for table in tables:
            rows = []
            for bot in _shown(table):
                name = html.escape(inert_line(_name(bot, seeds)))
                points = _points(table["score"][bot]) if table["score"] else ""
                cell = f"<b>{name}</b>" if bot in table["went_on"] else name
                rows.append(f"<tr><td>{cell}</td><td class='num'>{points}</td></tr>")
            how = html.escape(table["decided_by"]) if table["went_on"] else "to play"
            games = _links(table, watch, markdown=False)
            boxes.append(
                f"<div class='series'><table><caption>{html.escape(table['key'])}</caption>{''.join(rows)}</table>"
                f"<small>{how}{'; games ' + games if games else ''}</small></div>"
            )
        cells.append(f"<td>{''.join(boxes)}</td>")
    return (
        "<style>.knockout td{vertical-align:top}.series{margin:0 0 .8em}.series table{min-width:12em}</style>"
        f"<table class='knockout'><tr>{''.join(head)}</tr><tr>{''.join(cells)}</tr></table>"
    )


def tables_markdown(
    bracket: dict[str, Any], rounds: Sequence[Sequence[dict[str, Any]]], watch: Collection[str] | None
) -> str:
    """A list per round: ``T1.1: b1 (1) 6, b6 (6) 3, b7 (7) 0; b1 on (points); games 1 2 3``."""
    lines = []
    for number, tables in enumerate(rounds, 1):
        final = tables and tables[0]["key"] == "F"
        lines += ["**Final table**" if final else f"**Round {number}**", ""]
        for table in tables:
            score = table["score"]
            bots = ", ".join(
                markdown_text(_name(bot, bracket["seeds"])) + (f" {_points(score[bot])}" if score else "")
                for bot in _shown(table)
            )
            went = (
                f"; {', '.join(markdown_text(b) for b in table['went_on'])} on ({table['decided_by']})"
                if table["went_on"]
                else "; to play"
            )
            games = _links(table, watch, markdown=True)
            lines.append(f"- {table['key']}: {bots}{went}{'; games ' + games if games else ''}")
        lines.append("")
    return "\n".join(lines).rstrip()


def chart_label(name: str, seeds: Sequence[str]) -> str:
    """A bot's name cut to fit a chart's box, with its seed: ``minimax-shall… (4)``."""
    shown = inert_line(name)
    shown = shown if len(shown) <= 16 else shown[:15] + "\u2026"
    return f"{shown} ({seeds.index(name) + 1})" if name in seeds else shown


def tables_chart(bracket: dict[str, Any], rounds: Sequence[Sequence[dict[str, Any]]], path: Path) -> None:
    """A box a table (its bots by place and points, who went on in bold), lines to where its bots went on."""
    height = max(len(table["bots"]) for tables in rounds for table in tables) * 0.3 + 0.4
    depth = max(len(tables) for tables in rounds)
    figure, axes = plt.subplots(figsize=(1.0 + 2.8 * len(rounds), 0.8 + (height + 0.3) * depth))
    place: dict[str, tuple[float, float]] = {}
    for column, tables in enumerate(rounds):
        offset = (depth - len(tables)) * (height + 0.3) / 2
        for row, table in enumerate(tables):
            x, y = float(column), offset + row * (height + 0.3)
            place[table["key"]] = (x, y)
            axes.add_patch(plt.Rectangle((x, y), 0.8, height, fill=False, edgecolor="#333", linewidth=0.8))
            axes.text(x + 0.02, y + 0.15, table["key"], fontsize=7, color="#666", va="center")
            for line, bot in enumerate(_shown(table)):
                weight = "bold" if bot in table["went_on"] else "normal"
                at = y + 0.45 + 0.3 * line
                axes.text(x + 0.04, at, chart_label(bot, bracket["seeds"]), fontsize=8, va="center", weight=weight)
                if table["score"]:
                    axes.text(
                        x + 0.76, at, _points(table["score"][bot]), fontsize=8, va="center", ha="right", weight=weight
                    )
    for before, after in zip(rounds, rounds[1:], strict=False):
        for table in before:
            for later in after:
                if set(table["went_on"]) & set(later["bots"]):
                    (x0, y0), (x1, y1) = place[table["key"]], place[later["key"]]
                    axes.plot([x0 + 0.8, x1], [y0 + height / 2, y1 + height / 2], color="#999", linewidth=0.8)
    axes.set_xlim(-0.1, len(rounds))
    axes.set_ylim(depth * (height + 0.3), -0.3)
    axes.axis("off")
    champion = bracket.get("champion")
    axes.set_title(
        f"Knockout of tables: champion {inert_line(champion)}" if champion else "Knockout of tables (not over)"
    )
    save_figure(figure, path)


def tables_frame(rounds: Sequence[Sequence[dict[str, Any]]]) -> pd.DataFrame:
    """``knockout.csv``: one row a table, round by round."""
    rows = []
    for number, tables in enumerate(rounds, 1):
        for table in tables:
            score = table["score"]
            rows.append(
                {
                    "round": number,
                    "table": table["key"],
                    "bots": " ".join(_shown(table)),
                    "points": " ".join(_points(score[bot]) for bot in _shown(table)) if score else "",
                    "games": len(table["stored"]),
                    "went_on": " ".join(table["went_on"]),
                    "decided_by": table["decided_by"],
                }
            )
    return pd.DataFrame(rows, columns=["round", "table", "bots", "points", "games", "went_on", "decided_by"])


def tables_summary(bracket: dict[str, Any]) -> str:
    """The knockout of tables in a few sentences."""
    seeds = bracket["seeds"]
    then = "the higher seed" if bracket["then"] == "higher_seed" else "their places in the table's last game"
    extra = bracket["extra_pairs"]
    level = (
        f" (a tie at the cut plays up to {extra} more sets one at a time, then {then})" if extra else f" (then {then})"
    )
    champion = bracket.get("champion")
    end = f" Champion: {champion}." if champion else " It is not over: run the league again to go on."
    return (
        f"A knockout of tables of at most {bracket['players_per_table']}: {len(seeds)} bots, seeded"
        f" {', '.join(f'{n} {bot}' for n, bot in enumerate(seeds, 1))}, dealt to tables in snake order; each table"
        f" plays {plural(bracket['pairs_per_series'], 'set')} of games, one game per rotation of its seats on one seed,"
        f" and the best {bracket['advance']} by points go on{level}, down to a final table.{end}"
    )
