"""The ranking report of a league: tables (pandas), charts (matplotlib), Markdown and HTML.

``reports/<league>/`` gets ``standings.csv``, ``ratings.csv``, PNG charts, ``report.md`` and a
self-contained ``index.html`` (charts embedded). Everything is computed from ``games.jsonl`` in
schedule order, so the same games give the same report byte for byte, whoever played them.
Scores stay exact integers (codevs21 scores pass 2**53): they are never turned into floats.
"""

from __future__ import annotations

import base64
import html
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from league.analysis import bootstrap  # noqa: E402
from league.qualifier import write_solo_report  # noqa: E402
from league.ratings import LeagueTable, exact_mean, league_table, rank_points, ranking, scored  # noqa: E402
from league.store import ResultStore  # noqa: E402


def standings_frame(table: LeagueTable, order: Sequence[str]) -> pd.DataFrame:
    """One row per bot, best first: points by rank and per game, mean rank, wins/draws/losses, faults, ratings."""
    rows = []
    for place, name in enumerate(order, start=1):
        standing, rating = table.standings[name], table.ratings[name]
        rows.append(
            {
                "place": place,
                "bot": name,
                "games": standing.games,
                "points": round(standing.points, 3),
                "points_per_game": round(standing.points_per_game, 3),
                "mean_rank": round(standing.mean_rank, 3),
                "wins": standing.wins,
                "draws": standing.draws,
                "losses": standing.losses,
                "faults": standing.faults,
                "score_sum": str(standing.score_sum),
                "mean_score": standing.mean_score,
                "mu": round(rating.mu, 3),
                "sigma": round(rating.sigma, 3),
                "conservative": round(rating.conservative, 3),
            }
        )
    return pd.DataFrame(rows)


def ratings_frame(tables: dict[str, LeagueTable], order: Sequence[str]) -> pd.DataFrame:
    """TrueSkill per bot, overall and per variant."""
    rows = []
    for variant, table in tables.items():
        for name in order:
            rating = table.ratings[name]
            rows.append(
                {
                    "variant": variant,
                    "bot": name,
                    "mu": round(rating.mu, 3),
                    "sigma": round(rating.sigma, 3),
                    "conservative": round(rating.conservative, 3),
                    "games": rating.games,
                }
            )
    return pd.DataFrame(rows)


def variant_frame(records: list[dict[str, Any]], variants: Sequence[str]) -> pd.DataFrame:
    """Variants side by side: scores, game length, first-seat advantage, draws, faults, distinct games.

    ``first_seat_win_rate`` is seat 0's share of the games with one winner; ``first_seat_points``
    its mean points by rank (1/2 is no advantage, whatever the table size); ``draw_rate`` the
    share of games whose first place is shared.
    """
    rows = []
    for variant in variants:
        games = [r for r in records if r["spec"]["variant"] == variant]
        scores = [int(s) for r in games for s in r["result"]["scores"]]
        plies = [r["result"]["plies"] for r in games]
        decided = [r for r in games if r["result"]["ranks"].count(1) == 1]
        seat0 = sum(1 for r in decided if r["result"]["ranks"][0] == 1)
        rows.append(
            {
                "variant": variant,
                "games": len(games),
                "distinct_games": len({_fingerprint(r) for r in games}),
                "mean_score": exact_mean(scores),
                "score_sd": round(pd.Series(scores, dtype="float64").std(ddof=0), 2) if scores else 0.0,
                "mean_plies": round(sum(plies) / len(plies), 2) if plies else 0.0,
                "first_seat_win_rate": round(seat0 / len(decided), 3) if decided else 0.0,
                "first_seat_points": round(sum(rank_points(r["result"]["ranks"], 0) for r in games) / len(games), 3)
                if games
                else 0.0,
                "draw_rate": round(1 - len(decided) / len(games), 3) if games else 0.0,
                "faults": sum(1 for r in games if r["result"]["offenders"]),
            }
        )
    return pd.DataFrame(rows)


def _fingerprint(record: dict[str, Any]) -> str:
    return json.dumps([record["spec"]["seats"], [move[:3] for move in record.get("moves", [])]])


def _chart_ratings(table: LeagueTable, order: Sequence[str], path: Path) -> None:
    figure, axes = plt.subplots(figsize=(7, 0.5 + 0.45 * len(order)))
    names = list(reversed(order))
    mus = [table.ratings[n].mu for n in names]
    errors = [3 * table.ratings[n].sigma for n in names]
    axes.errorbar(mus, range(len(names)), xerr=errors, fmt="o", capsize=4)
    axes.set_yticks(range(len(names)), names)
    axes.set_xlabel("TrueSkill mu (bars: 3 sigma)")
    axes.set_title("Ratings")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def _chart_matrix(table: LeagueTable, order: Sequence[str], path: Path) -> None:
    size = len(order)
    matrix = [[float("nan")] * size for _ in range(size)]
    for i, bot in enumerate(order):
        for j, other in enumerate(order):
            points, games = table.pair_points.get((bot, other), [0.0, 0])
            if games:
                matrix[i][j] = points / games
    figure, axes = plt.subplots(figsize=(1.5 + 0.7 * size, 1.2 + 0.6 * size))
    image = axes.imshow(matrix, vmin=0, vmax=1, cmap="RdYlGn")
    axes.set_xticks(range(size), order, rotation=45, ha="right")
    axes.set_yticks(range(size), order)
    for i in range(size):
        for j in range(size):
            if matrix[i][j] == matrix[i][j]:
                axes.text(j, i, f"{matrix[i][j]:.2f}", ha="center", va="center", fontsize=8)
    axes.set_title("Score rate, row bot vs column bot")
    figure.colorbar(image, ax=axes)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def _chart_convergence(table: LeagueTable, order: Sequence[str], path: Path) -> None:
    figure, axes = plt.subplots(figsize=(7, 4))
    frame = pd.DataFrame(table.history, columns=["game", "bot", "mu", "sigma"])
    for name in order:
        mine = frame[frame["bot"] == name]
        axes.plot(mine["game"], mine["mu"] - 3 * mine["sigma"], label=name)
    axes.set_xlabel("games rated (schedule order)")
    axes.set_ylabel("mu - 3 sigma")
    axes.set_title("Rating convergence")
    axes.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def _chart_scores(records: list[dict[str, Any]], variants: Sequence[str], path: Path) -> None:
    figure, axes = plt.subplots(figsize=(7, 4))
    data = [[float(s) for r in records if r["spec"]["variant"] == v for s in r["result"]["scores"]] for v in variants]
    axes.boxplot(data, showfliers=True)
    axes.set_xticks(range(1, len(variants) + 1), list(variants), rotation=30, ha="right")
    axes.set_ylabel("score per seat and game")
    axes.set_title("Score distributions per variant")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


@dataclass
class ReportData:
    """Everything the Markdown and HTML pages show.

    Attributes:
        name: The league.
        records: Scored games in schedule order.
        variants: Variant names.
        standings: One row per bot.
        ratings: TrueSkill overall and per variant.
        by_variant: Variants side by side.
        strength: Bradley-Terry Elo with bootstrap intervals.
        verdicts: A sentence per pair of neighbours in the ranking: is the order real?
        charts: Chart file names.
        method: How the standings and the strengths were computed, a sentence each.
    """

    name: str
    records: list[dict[str, Any]]
    variants: Sequence[str]
    standings: pd.DataFrame
    ratings: pd.DataFrame
    by_variant: pd.DataFrame
    strength: pd.DataFrame
    verdicts: list[str]
    charts: list[str]
    method: list[str]


CONFIDENT = 0.95


def method_notes(records: list[dict[str, Any]], score_label: str | None = None) -> list[str]:
    """How the standings, ratings and strengths were computed, in sentences for the report."""
    tables = any(len(record["spec"]["seats"]) > 2 for record in records)
    scores = f"the game's own score, here {score_label}" if score_label else "the game's own score"
    notes = [
        "place is the order by conservative TrueSkill (below), which weighs whom each game was won"
        " against; points, mean_rank and the Bradley-Terry strengths may order close bots otherwise.",
        "Points by rank: 1 for first, 0 for last, linear between; seats that tie share the places they"
        " span (between two seats: win 1, draw 1/2, loss 0); points_per_game is 1/2 for an average"
        " bot at any table size. Wins are games ranked first alone, draws first with others, losses"
        " every other game" + (" (at a table, any place below first)" if tables else "") + "; mean_rank is"
        " the mean of the ranks the games gave (1 is first, faulted seats rank last as each game's"
        f" rules say); score_sum and mean_score are {scores}.",
        "TrueSkill (mu, sigma, conservative = mu - 3 sigma) is updated game by game in schedule order"
        + (", with its multi-player update from every seat's rank (equal ranks are ties)." if tables else "."),
    ]
    if tables:
        notes.append(
            "Bradley-Terry treats a game of n seats as its n(n-1)/2 pairwise results (the better rank"
            " wins, equal ranks draw); its intervals resample whole tables (every rotation and variant"
            " of a table together), since results from one table are not independent."
        )
    else:
        notes.append(
            "Bradley-Terry fits every pair's wins, draws and losses; its intervals resample each pair's games."
        )
    return notes


def strength_frame(bots: Sequence[str], records: list[dict[str, Any]]) -> tuple[pd.DataFrame, list[str]]:
    """Bradley-Terry strengths with 95% intervals, and whether each neighbour's order is settled."""
    strengths, shares = bootstrap(bots, records)
    frame = pd.DataFrame(
        [
            {"bot": s.name, "elo": round(s.elo, 1), "low_95": round(s.low, 1), "high_95": round(s.high, 1)}
            for s in strengths
        ]
    )
    rated = {strength.name for strength in strengths}
    verdicts = [f"{name}: no scored games yet, so no strength." for name in bots if name not in rated]
    for (higher, lower), share in shares.items():
        settled = "the games support this order" if share >= CONFIDENT else "not settled: play more games"
        verdicts.append(f"{higher} above {lower} in {share:.0%} of resamples: {settled}.")
    return frame, verdicts


TABLES = ("standings.csv", "ratings.csv", "variants.csv", "strength.csv")
CHARTS = ("ratings.png", "matrix.png", "convergence.png", "scores.png")
PAGES = ("report.md", "index.html")


def remove_report(folder: Path) -> list[Path]:
    """Delete the report files of ``folder`` (not the store); returns those that were there."""
    removed = []
    for name in (*TABLES, *CHARTS, *PAGES):
        path = folder / name
        if path.exists():
            path.unlink()
            removed.append(path)
    return removed


def write_report(
    folder: Path,
    league_name: str,
    bots: Sequence[str],
    variants: Sequence[str],
    game_ids: Iterable[str] | None = None,
    score_label: str | None = None,
) -> list[Path]:
    """Write the report of the games stored in ``folder/games.jsonl``; returns the files written.

    Args:
        folder: The report folder.
        league_name: The league.
        bots: Every bot, in the config's order.
        variants: Every variant.
        game_ids: The games of the league as configured now (default: every stored game); games
            stored under an older config are left out.
        score_label: What the game's scores are (``Game.score_label``, e.g. "bullheads (lower is
            better)"), said in the report; None when unknown.
    """
    records = scored(ResultStore(folder / "games.jsonl").records())
    if game_ids is not None:
        wanted = set(game_ids)
        records = [record for record in records if record["game_id"] in wanted]
    if records and all(len(record["spec"]["seats"]) == 1 for record in records):
        return write_solo_report(folder, league_name, records, bots, variants)  # a solo league: no pairings
    overall = league_table(records, bots)
    order = ranking(overall)
    tables = {"all": overall} | {
        v: league_table([r for r in records if r["spec"]["variant"] == v], bots, keep_history=False) for v in variants
    }
    strength, verdicts = strength_frame(bots, records)
    drawers = (
        lambda p: _chart_ratings(overall, order, p),
        lambda p: _chart_matrix(overall, order, p),
        lambda p: _chart_convergence(overall, order, p),
        lambda p: _chart_scores(records, variants, p),
    )
    charts = dict(zip(CHARTS, drawers, strict=True))
    data = ReportData(
        name=league_name,
        records=records,
        variants=variants,
        standings=standings_frame(overall, order),
        ratings=ratings_frame(tables, order),
        by_variant=variant_frame(records, variants),
        strength=strength,
        verdicts=verdicts,
        charts=list(charts),
        method=method_notes(records, score_label),
    )
    written = []
    frames = (data.standings, data.ratings, data.by_variant, data.strength)
    for name, frame in zip(TABLES, frames, strict=True):
        frame.to_csv(folder / name, index=False)
        written.append(folder / name)
    for name, draw in charts.items():
        draw(folder / name)
        written.append(folder / name)
    (folder / "report.md").write_text(_markdown(data))
    (folder / "index.html").write_text(_html(data, folder))
    return [*written, folder / "report.md", folder / "index.html"]


def _markdown(data: ReportData) -> str:
    distinct = len({_fingerprint(r) for r in data.records})
    lines = [
        f"# League {data.name}",
        "",
        f"{len(data.records)} games scored ({distinct} distinct), {len(data.variants)} variant(s).",
        "",
        "## Standings",
        "",
        data.standings.to_markdown(index=False),
        "",
        *(f"- {note}" for note in data.method),
        "",
        "![ratings](ratings.png)",
        "",
        "![pairwise](matrix.png)",
        "",
        "![convergence](convergence.png)",
        "",
        "## Is the ranking real?",
        "",
        "Bradley-Terry strengths from all games at once (Elo scale, mean 0), with 95% bootstrap intervals:",
        "",
        data.strength.to_markdown(index=False),
        "",
        *(f"- {verdict}" for verdict in data.verdicts),
        "",
    ]
    title = "## Variants side by side" if len(data.variants) > 1 else "## Games"
    lines += [title, "", data.by_variant.to_markdown(index=False), "", "![scores](scores.png)", ""]
    if len(data.variants) > 1:
        lines += ["### Ratings per variant", "", data.ratings.to_markdown(index=False), ""]
    return "\n".join(lines)


def _html(data: ReportData, folder: Path) -> str:
    def image(chart: str) -> str:
        encoded = base64.b64encode((folder / chart).read_bytes()).decode()
        return f'<img alt="{chart}" src="data:image/png;base64,{encoded}">'

    title = html.escape(f"League {data.name}")
    verdicts = "".join(f"<li>{html.escape(v)}</li>" for v in data.verdicts)
    parts = [
        f"<!doctype html><html><head><meta charset='utf-8'><title>{title}</title>",
        "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
        "td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}img{max-width:100%}</style></head><body>",
        f"<h1>{title}</h1><p>{len(data.records)} games scored.</p><h2>Standings</h2>",
        data.standings.to_html(index=False),
        "<ul>" + "".join(f"<li>{html.escape(note)}</li>" for note in data.method) + "</ul>",
        *(image(chart) for chart in data.charts[:3]),
        "<h2>Is the ranking real?</h2><p>Bradley-Terry strengths (Elo scale), 95% bootstrap intervals:</p>",
        data.strength.to_html(index=False),
        f"<ul>{verdicts}</ul>",
        "<h2>Variants</h2>",
        data.by_variant.to_html(index=False),
        image(data.charts[3]),
    ]
    if len(data.variants) > 1:
        parts += ["<h3>Ratings per variant</h3>", data.ratings.to_html(index=False)]
    parts.append("</body></html>")
    return "\n".join(parts)
