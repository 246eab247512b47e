"""The report of a knockout (``format: knockout``): the bracket drawn, each series' score, a replay link per game.

Drawn from the folder's manifest (its ``knockout`` key: the bracket's series, sides, winners and
games, as ``league.plan.formats.knockout.KnockoutRun.manifest`` wrote it) and the stored games: each
series' score is counted again from its stored games (``league.plan.knockout_series.series_points``),
so the page shows what the store holds. Three views of one bracket: a grid per bracket (winners',
losers', grand final) with a column per round in the HTML page, a list per round in the Markdown
file, and ``knockout.png``, boxes joined by lines from each series to the one its winner goes on to.
Every game of a series links to its replay page (``replays/<game id>.html``, ``league.report.replays``).
A knockout of tables is drawn by ``league.report.knockout_tables``, in the same section and files.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from engine.core import plural  # noqa: E402
from league.match.inert import inert_line, markdown_text  # noqa: E402
from league.plan.knockout_series import series_points  # noqa: E402
from league.report.charts import save_figure  # noqa: E402
from league.report.knockout_tables import (  # noqa: E402
    chart_label,
    scored_tables,
    tables_chart,
    tables_frame,
    tables_html,
    tables_markdown,
    tables_summary,
)
from league.report.page import Block, Chart, Paragraph, Raw, ReportParts, Section  # noqa: E402
from league.stats.game_record import GameRecord  # noqa: E402

CHART = "knockout.png"
TABLE = "knockout.csv"
KNOCKOUT_TABLES = (TABLE,)
"""The tables a knockout's report writes (``league.report.build`` removes them when stale)."""
KNOCKOUT_CHARTS = (CHART,)
"""Its charts."""
BRACKETS = (("winners", "Winners' bracket"), ("losers", "Losers' bracket"), ("final", "Grand final"))


def _points(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:.2f}".rstrip("0")


def scored_series(bracket: dict[str, Any], records: Sequence[GameRecord]) -> list[dict[str, Any]]:
    """The manifest's series, each with ``score`` (its sides' points over its stored games) and ``stored`` games."""
    by_id = {record.game_id: record for record in records if not record.infra}
    found = []
    for series in bracket["series"]:
        stored = [by_id[game] for game in series["games"] if game in by_id]
        sides = series["sides"]
        score = series_points((sides[0], sides[1]), stored) if stored and None not in sides else None
        found.append({**series, "score": score, "stored": stored})
    return found


def _side(series: dict[str, Any], side: int, seeds: Sequence[str]) -> str:
    bot = series["sides"][side]
    if bot is None:
        return series["sources"][side]
    return f"{bot} ({seeds.index(bot) + 1})" if bot in seeds else bot


def _game_title(record: GameRecord) -> str:
    ranks = record.result.ranks
    seats = list(record.spec.seats)
    first = [bot for bot, rank in zip(seats, ranks, strict=False) if rank == min(ranks)] if ranks else []
    won = "draw" if len(first) != 1 else f"{first[0]} won"
    return f"{' v '.join(seats)}: {won}"


def _links_html(series: dict[str, Any], watch: Collection[str] | None) -> str:
    links = []
    for number, record in enumerate(series["stored"], 1):
        title = html.escape(inert_line(_game_title(record)), quote=True)
        if watch is None or record.game_id in watch:
            links.append(f'<a href="replays/{html.escape(record.game_id)}.html" title="{title}">{number}</a>')
        else:
            links.append(f'<span title="{title}">{number}</span>')
    return " ".join(links)


def _box_html(series: dict[str, Any], seeds: Sequence[str], watch: Collection[str] | None) -> str:
    score = series["score"]
    rows = []
    for side in (0, 1):
        name = html.escape(inert_line(_side(series, side, seeds)))
        won = series["winner"] is not None and series["winner"] == series["sides"][side]
        points = _points(score[side]) if score else ""
        cell = f"<b>{name}</b>" if won else name
        rows.append(f"<tr><td>{cell}</td><td class='num'>{points}</td></tr>")
    how = html.escape(series["decided_by"]) if series["winner"] else "to play"
    games = _links_html(series, watch)
    return (
        f"<div class='series'><table><caption>{html.escape(series['key'])}</caption>{''.join(rows)}</table>"
        f"<small>{how}{'; games ' + games if games else ''}</small></div>"
    )


def bracket_html(bracket: dict[str, Any], series: Sequence[dict[str, Any]], watch: Collection[str] | None) -> str:
    """Each bracket as a grid: a column per round, its series' boxes (sides, score, games linked) in it."""
    parts = ["<style>.knockout td{vertical-align:top}.series{margin:0 0 .8em}.series table{min-width:12em}</style>"]
    for name, title in BRACKETS:
        mine = [item for item in series if item["bracket"] == name]
        if not mine:
            continue
        rounds = sorted({item["round"] for item in mine})
        head = "".join(f"<th>{'Round ' + str(r) if name != 'final' else 'Final'}</th>" for r in rounds)
        cells = "".join(
            "<td>" + "".join(_box_html(item, bracket["seeds"], watch) for item in mine if item["round"] == r) + "</td>"
            for r in rounds
        )
        parts.append(f"<h3>{title}</h3><table class='knockout'><tr>{head}</tr><tr>{cells}</tr></table>")
    return "".join(parts)


def bracket_markdown(bracket: dict[str, Any], series: Sequence[dict[str, Any]], watch: Collection[str] | None) -> str:
    """Each bracket as a list per round: ``W1.2: d (4) 3-1 e (5), d on (points); games 1 2 3 4`` (linked)."""
    lines = []
    for name, title in BRACKETS:
        mine = [item for item in series if item["bracket"] == name]
        for round_ in sorted({item["round"] for item in mine}):
            lines += [f"**{title}{', round ' + str(round_) if name != 'final' else ''}**", ""]
            for item in (item for item in mine if item["round"] == round_):
                score = item["score"]
                upper, lower = (markdown_text(_side(item, side, bracket["seeds"])) for side in (0, 1))
                middle = f" {_points(score[0])}-{_points(score[1])} " if score else " v "
                result = (
                    f", {markdown_text(item['winner'])} on ({item['decided_by']})" if item["winner"] else ", to play"
                )
                games = " ".join(
                    f"[{n}](replays/{record.game_id}.html)" if watch is None or record.game_id in watch else str(n)
                    for n, record in enumerate(item["stored"], 1)
                )
                lines.append(f"- {item['key']}: {upper}{middle}{lower}{result}{'; games ' + games if games else ''}")
            lines.append("")
    return "\n".join(lines).rstrip()


def _layout(series: Sequence[dict[str, Any]]) -> dict[str, tuple[float, float]]:
    """Each series' place in the chart: its level across, and down a slot of its own or between those feeding it."""
    place: dict[str, tuple[float, float]] = {}
    top = 0.0
    for name in ("winners", "losers"):
        mine = [item for item in series if item["bracket"] == name]
        slots = 0
        for item in sorted(mine, key=lambda s: (s["level"], s["round"], s["number"])):
            fed = [
                place[source.removeprefix("winner of ")][1]
                for source in item["sources"]
                if source.startswith("winner of ") and source.removeprefix("winner of ") in place
            ]
            if fed:
                y = sum(fed) / len(fed)
            else:
                y = top + slots
                slots += 1
            place[item["key"]] = (float(item["level"]), y)
        top += slots + 0.5
    for item in series:
        if item["bracket"] == "final":
            fed = [
                place[s.removeprefix("winner of ")][1] for s in item["sources"] if s.removeprefix("winner of ") in place
            ]
            place[item["key"]] = (float(item["level"]), sum(fed) / len(fed) if fed else 0.0)
    return place


def bracket_chart(bracket: dict[str, Any], series: Sequence[dict[str, Any]], path: Path) -> None:
    """The bracket as boxes (a series: its key, sides and score, the winner in bold), lines to where winners go."""
    place = _layout(series)
    levels = max(x for x, _ in place.values())
    depth = max(y for _, y in place.values()) + 1
    figure, axes = plt.subplots(figsize=(1.2 + 2.6 * levels, 0.8 + 0.9 * depth))
    for item in series:
        x, y = place[item["key"]]
        for source in item["sources"]:
            key = source.removeprefix("winner of ")
            if source.startswith("winner of ") and key in place:
                sx, sy = place[key]
                axes.plot([sx + 0.8, x - 0.1, x - 0.1, x], [sy, sy, y, y], color="#999", linewidth=0.8)
        axes.add_patch(plt.Rectangle((x, y - 0.4), 0.8, 0.8, fill=False, edgecolor="#333", linewidth=0.8))
        axes.text(x + 0.02, y - 0.3, item["key"], fontsize=7, color="#666", va="center")
        score = item["score"]
        for side, dy in ((0, -0.05), (1, 0.25)):
            won = item["winner"] is not None and item["winner"] == item["sides"][side]
            label = chart_label(item["sides"][side] or item["sources"][side], bracket["seeds"])
            points = _points(score[side]) if score else ""
            axes.text(x + 0.04, y + dy, label, fontsize=8, va="center", weight="bold" if won else "normal")
            axes.text(x + 0.76, y + dy, points, fontsize=8, va="center", ha="right", weight="bold" if won else "normal")
    axes.set_xlim(0.8, levels + 1.0)
    axes.set_ylim(depth, -1)
    axes.axis("off")
    champion = bracket.get("champion")
    axes.set_title(f"Knockout: champion {inert_line(champion)}" if champion else "Knockout (not over)")
    save_figure(figure, path)


def series_frame(series: Sequence[dict[str, Any]]) -> pd.DataFrame:
    """``knockout.csv``: one row a series, in the bracket's order."""
    return pd.DataFrame(
        {
            "series": [item["key"] for item in series],
            "bracket": [item["bracket"] for item in series],
            "round": [item["round"] for item in series],
            "upper": [item["sides"][0] or item["sources"][0] for item in series],
            "lower": [item["sides"][1] or item["sources"][1] for item in series],
            "upper_points": [item["score"][0] if item["score"] else None for item in series],
            "lower_points": [item["score"][1] if item["score"] else None for item in series],
            "games": [len(item["stored"]) for item in series],
            "winner": [item["winner"] or "" for item in series],
            "decided_by": [item["decided_by"] for item in series],
        }
    )


def summary(bracket: dict[str, Any]) -> str:
    """The knockout in a few sentences: its kind, field, series' rule, byes and champion."""
    seeds = bracket["seeds"]
    then = "the higher seed" if bracket["then"] == "higher_seed" else "the last game's winner (the game's tie rule)"
    extra = bracket["extra_pairs"]
    level = f", up to {extra} more pairs one at a time while level, then {then}" if extra else f", then {then}"
    byes = f" Byes in the first round: {', '.join(bracket['byes'])}." if bracket["byes"] else ""
    champion = bracket.get("champion")
    end = f" Champion: {champion}." if champion else " It is not over: run the league again to go on."
    double = " (a losers' bracket and one grand final, no bracket reset)" if bracket["elimination"] == "double" else ""
    return (
        f"{bracket['elimination'].capitalize()} elimination{double} of {len(seeds)} bots, seeded"
        f" {', '.join(f'{n} {bot}' for n, bot in enumerate(seeds, 1))}. Every series is"
        f" {plural(bracket['pairs_per_series'], 'pair')} of games, each pair on one seed with the seats swapped;"
        f" the bot with more points over the series goes on{level}.{byes}{end}"
    )


def knockout_games(manifest: dict[str, Any]) -> set[str]:
    """The ids of every game of the manifest's knockout (its series' or tables'), none for a league without one."""
    bracket = manifest.get("knockout") or {}
    series = bracket.get("series") or [table for tables in bracket.get("rounds") or [] for table in tables]
    return {game for item in series for game in item.get("games", [])}


def knockout_report(
    manifest: dict[str, Any], records: Sequence[GameRecord], watch: Collection[str] | None = None
) -> ReportParts | None:
    """The knockout's section, ``knockout.csv`` and ``knockout.png``; None for a league without a knockout.

    Args:
        manifest: The folder's manifest.
        records: Its stored games.
        watch: The games with a replay page (None: every game of the bracket).
    """
    bracket = manifest.get("knockout")
    if not bracket or not (bracket.get("series") or bracket.get("rounds")):
        return None
    if bracket.get("kind") == "tables":
        rounds = scored_tables(bracket, records)
        frame = tables_frame(rounds)
        drawn = [
            Paragraph(tables_summary(bracket)),
            Chart(CHART, "The rounds: each table's bots by place (seed in brackets) and points, who went on in bold."),
            Raw(tables_html(bracket, rounds, watch), tables_markdown(bracket, rounds, watch)),
        ]
        return _parts(bracket, drawn, frame, lambda path: tables_chart(bracket, rounds, path), _title(manifest))
    series = scored_series(bracket, records)
    drawn = [
        Paragraph(summary(bracket)),
        Chart(CHART, "The bracket: each series' sides (seed in brackets) and points, the winner in bold."),
        Raw(bracket_html(bracket, series, watch), bracket_markdown(bracket, series, watch)),
    ]
    return _parts(
        bracket, drawn, series_frame(series), lambda path: bracket_chart(bracket, series, path), _title(manifest)
    )


def _title(manifest: dict[str, Any]) -> str:
    """``Knockout``, or for the finals of a qualifier (``league.plan.formats.finals``) ``Finals: ...``."""
    finals = manifest.get("finals")
    if not finals:
        return "Knockout"
    qualifier = str(manifest.get("format", "")).replace("_", " ")
    return f"Finals: a knockout of the best {finals['best']} of the {qualifier}"


def _parts(
    bracket: dict[str, Any], drawn: list[Block], frame: pd.DataFrame, draw: Callable[[Path], None], title: str
) -> ReportParts:
    placing = bracket.get("placing") or []
    blocks = [
        *drawn,
        Paragraph(
            ("Placing: " if bracket.get("champion") else "Placing so far (bots still in first, by seed): ")
            + ", ".join(f"{n} {bot}" for n, bot in enumerate(placing, 1))
            + "."
        ),
    ]
    return ReportParts(tables={TABLE: frame}, charts={CHART: draw}, sections=[Section(title, blocks)])
