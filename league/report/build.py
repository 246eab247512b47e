"""The ranking report of a league: tables (CSV), charts (PNG), ``report.md`` and ``index.html``.

Everything is computed from the folder alone: ``games.jsonl`` (the stored games, in schedule
order) and ``league.json`` (what the league is: game, rules, bots, seed, runs), or without it what
the stored games say of their league (``league.replay.recorded``: game, rules, bots, rules of play).
The same games give the same report byte for byte, whoever played them and in whatever order they
finished, except the header's dates and wall time. Scores stay exact integers (codevs21 scores pass 2**53).
"""

from __future__ import annotations

import gc
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import GAMES
from league.plan.manifest import read_manifest, scheduled_games
from league.replay.command import ReplayCommands
from league.replay.recorded import recorded_league
from league.report import charts
from league.report.adaptive import ADAPTIVE_CHARTS, ADAPTIVE_TABLES
from league.report.all_faults import every_game_faulted, fault_order, no_ratings_sentence, unrated_standings
from league.report.earlier_versions import earlier_games, earlier_lines, latest_versions, of_versions
from league.report.faults import faults_blocks
from league.report.format_sections import format_parts
from league.report.games import game_rows, games_frame, games_html, games_markdown
from league.report.header import header_section, subtitle
from league.report.knockout import KNOCKOUT_CHARTS, KNOCKOUT_TABLES
from league.report.page import (
    Bullets,
    Chart,
    Paragraph,
    Raw,
    ReportParts,
    Section,
    Table,
    render_html,
    render_markdown,
)
from league.report.replays import write_replays
from league.report.solo import SOLO_CHARTS, solo_sections
from league.report.standings_rule import standings_rule
from league.report.strength import strength_report
from league.report.tables import (
    STANDINGS_NOTES,
    cross_table,
    fault_list,
    faults_by_bot,
    ratings_frame,
    standings_frame,
    standings_notes,
)
from league.report.variants import VARIANT_CHARTS, variants_report
from league.stats.distinct import count_distinct
from league.stats.game_record import GameRecord
from league.stats.ranking import RULE, TIE_WHAT, Ranking, manifest_order, rank_league
from league.stats.ratings import LeagueTable, league_table, trueskill_order
from league.stats.ties import tie_sentence
from league.store.results import INFRA_ERROR, ResultStore, league_store

TABLES = (
    "standings.csv",
    "ratings.csv",
    "strength.csv",
    "los.csv",
    "rank_probabilities.csv",
    "cross_table.csv",
    "variants.csv",
    "variant_differences.csv",
    "faults.csv",
    "games.csv",
    *ADAPTIVE_TABLES,
    *KNOCKOUT_TABLES,
)
CHARTS = (
    "strength.png",
    "los.png",
    "ratings.png",
    "matrix.png",
    "convergence.png",
    *VARIANT_CHARTS,
    *SOLO_CHARTS,
    *ADAPTIVE_CHARTS,
    *KNOCKOUT_CHARTS,
)
PAGES = ("report.md", "index.html")


def remove_report(folder: Path) -> list[Path]:
    """Delete the report files of ``folder`` (not the store, not the manifest); returns those that were there."""
    removed = []
    for name in (*TABLES, *CHARTS, *PAGES):
        path = folder / name
        if path.exists():
            path.unlink()
            removed.append(path)
    return removed


@dataclass
class LeagueGames:
    """The games a report is about, and what the folder says of them.

    Attributes:
        folder: The report folder.
        name: The league.
        bots: Every bot, in the config's order.
        variants: Every variant.
        records: Scored games in schedule order.
        manifest: ``league.json``; without one, what the stored games tell (``recorded_league``: empty
            when they name no game, or several).
        store: The store, for the details of some games (stderr tails).
        score_label: What the game's scores count.
        earlier: One line a bot and earlier version whose stored games are not rated
            (``league.report.earlier_versions``).
    """

    folder: Path
    name: str
    bots: Sequence[str]
    variants: Sequence[str]
    records: list[GameRecord]
    manifest: dict[str, Any]
    store: ResultStore
    score_label: str | None
    earlier: list[str] = field(default_factory=list)

    @property
    def game_name(self) -> str:
        """The game's name ("" when unknown)."""
        return str(self.manifest.get("game", ""))

    def distinct(self) -> int:
        """How many distinct games there are (identical games between deterministic bots count once)."""
        return count_distinct(self.records)


def load_games(
    folder: Path,
    league_name: str,
    bots: Sequence[str],
    variants: Sequence[str],
    game_ids: Iterable[str] | None = None,
    score_label: str | None = None,
    store: ResultStore | None = None,
) -> LeagueGames:
    """The scored games of ``folder`` (those of ``game_ids`` only, when given) with the folder's manifest.

    Games of a bot's earlier versions are never among them (without ``game_ids``: games seating
    another version of a bot than its last stored game's); they are counted apart (``earlier``).
    """
    store = store or league_store(folder)
    stored = scored_in_store_order(store.records())
    records = scheduled_games(stored, game_ids)
    if game_ids is None:
        latest = latest_versions(stored)
        records = [record for record in records if of_versions(record, latest)]
    earlier = earlier_lines(earlier_games(stored, records, bots), bots)
    manifest = read_manifest(folder) or recorded_league(store, records)
    game = GAMES.get(manifest.get("game", ""))
    label = score_label or (game.score_label if game is not None else None)
    return LeagueGames(folder, league_name, bots, variants, records, manifest, store, label, earlier)


def scored_in_store_order(records: Iterable[GameRecord]) -> list[GameRecord]:
    """The scored ``records`` (INFRA_ERROR games left out) in the order they were stored."""
    return [record for record in records if record.result.termination != INFRA_ERROR]


@contextmanager
def rare_collections() -> Iterator[None]:
    """Run Python's cyclic garbage collector rarely for a while (the previous thresholds come back after).

    A report of 100,000 games holds millions of acyclic objects (the records and their rows); at
    the default thresholds the collector traverses them again and again, a fifth of the report's
    time. Cycles (matplotlib figures) are still collected, in bigger batches.
    """
    thresholds = gc.get_threshold()
    gc.set_threshold(100_000, 50, 1000)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)


@rare_collections()
def write_report(
    folder: Path,
    league_name: str,
    bots: Sequence[str],
    variants: Sequence[str],
    game_ids: Iterable[str] | None = None,
    score_label: str | None = None,
    store: ResultStore | None = None,
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
            better)"), said in the report; default: the manifest's game's.
        store: The folder's store, when the caller has it open (its ``problems`` then tell what
            this report's reading met); default: opened here.
    """
    games = load_games(folder, league_name, bots, variants, game_ids, score_label, store)
    solo = bool(games.records) and all(len(record.spec.seats) == 1 for record in games.records)
    parts = _solo_parts(games) if solo else _league_parts(games)
    records, manifest = games.records, games.manifest
    order = list(parts.tables["standings.csv"]["bot"])
    parts.tables["faults.csv"] = faults_by_bot(records, order)
    faulted, faulted_total, lost = fault_list(records, games.store.details)
    replay = ReplayCommands(manifest) if manifest.get("bot_specs") else None
    rows = game_rows(records, replay)
    parts.tables["games.csv"] = games_frame(rows, replay)
    links = write_replays(folder, manifest, records, games.store)
    watch = links.games if links else None
    games_blocks = [links.paragraph(len(rows), sum(row.faulted for row in rows))] if links else []
    if links:
        games_blocks.append(
            Raw(
                '<p><a href="replays/highlights.html">Watch the league\'s most tense stretches</a></p>',
                "[Watch the league's most tense stretches](replays/highlights.html)",
            )
        )
    games_blocks.append(Raw(games_html(rows, replay, watch=watch), games_markdown(rows, replay, watch=watch)))
    rule = RULE if every_game_faulted(records) else standings_rule(manifest)  # what placed the bots, in words
    own = format_parts(manifest, records)  # the format's own part (an SPRT's test, an adaptive league's batches)
    if own is not None:  # its tables and charts written with the others, its sections under the header
        parts.tables |= own.tables
        parts.charts |= own.charts
    sections = [
        header_section(manifest, records, bots, games.variants),
        *([Section("Earlier versions", [Paragraph(EARLIER_NOTE), Bullets(games.earlier)])] if games.earlier else []),
        *(own.sections if own else []),
        *([Section("Verdict", parts.verdict)] if parts.verdict else []),
        *parts.sections,
        Section("Faults", faults_blocks(parts.tables["faults.csv"], faulted, faulted_total, lost)),
        Section("Games", games_blocks),
        *([] if solo else [Section("Method", [Bullets(method_notes(records, games.score_label, rule))])]),
    ]
    written = []
    for name, frame in parts.tables.items():
        frame.to_csv(folder / name, index=name in INDEXED_TABLES)
        written.append(folder / name)
    for name, draw in parts.charts.items():
        (folder / name).unlink(missing_ok=True)  # a drawer may find nothing to draw: no earlier chart stays
        draw(folder / name)
        if (folder / name).exists():
            written.append(folder / name)
    title = f"League {games.name}"
    line = subtitle(manifest, games.game_name, records, games.distinct())
    (folder / "report.md").write_text(render_markdown(title, [Section("Summary", [Paragraph(line)]), *sections]))
    (folder / "index.html").write_text(render_html(title, line, sections, folder))
    for name in (*TABLES, *CHARTS):  # what an earlier report wrote and this one has not: stale, never kept
        if folder / name not in written:
            (folder / name).unlink(missing_ok=True)
    return [*written, folder / "report.md", folder / "index.html"]


EARLIER_NOTE = (
    "These bots changed since these games were stored: their games were played again with the version"
    " rated here, and the earlier versions' games are kept in the store but left out of every rating and table."
)
"""What the report says above the lines of earlier versions."""
INDEXED_TABLES = ("los.csv", "rank_probabilities.csv")
"""Tables whose rows are named by their index (a bot), written with it."""


def _solo_parts(games: LeagueGames) -> ReportParts:
    """A solo league's standings (the qualifier's ranking) and score distributions."""
    tables, drawers, sections = solo_sections(games.folder, games.records, games.bots, games.variants)
    return ReportParts(tables, drawers, sections)


def _league_parts(games: LeagueGames) -> ReportParts:
    """Standings (``league.stats.ranking``), cross table and TrueSkill; strengths and the evidence; the variants."""
    records, bots = games.records, games.bots
    overall = league_table(records, bots)
    if every_game_faulted(records):
        return _all_faults_parts(records, overall)
    ranked = rank_league(bots, records, final_order=manifest_order(games.manifest))
    order = ranked.order
    per_variant = {
        v: league_table([r for r in records if r.spec.variant == v], bots, keep_history=False) for v in games.variants
    }
    crosses, cross_meaning = cross_table(records, order)
    parts = ReportParts(
        tables={
            "standings.csv": standings_frame(overall, order, ranked),
            "ratings.csv": ratings_frame({"all": overall} | per_variant, order),
            "cross_table.csv": crosses,
        },
        charts={
            "ratings.png": lambda path: charts.trueskill_chart(overall, order, path),
            "matrix.png": lambda path: charts.score_rate_chart(overall, order, path),
            "convergence.png": lambda path: charts.convergence_chart(overall, order, path),
        },
    )
    parts.sections.append(
        Section(
            "Standings",
            [
                Table(parts.tables["standings.csv"], standings_notes(standings_rule(games.manifest)), name="standings"),
                *_tied_standings(ranked),
                Paragraph(cross_meaning),
                Table(crosses, name="cross"),
                Chart("ratings.png", "TrueSkill mu with 3 sigma either side (a column, not the order)."),
                Chart("matrix.png", "Each bot's score rate (points by rank) against each other bot."),
                Chart("convergence.png", "Conservative TrueSkill after every game, in schedule order."),
            ],
        )
    )
    parts.add(strength_report(bots, records, trueskill_order(overall), ranked.fitted, ranked.by_format))
    parts.add(variants_report(bots, records, games.variants, GAMES.get(games.game_name)))
    return parts


def _tied_standings(ranked: Ranking) -> list[Paragraph]:
    """The sentence naming the standings' exact ties, if there are any."""
    return [Paragraph(tie_sentence(ranked.ties, TIE_WHAT))] if ranked.ties else []


def _all_faults_parts(records: list[GameRecord], overall: LeagueTable) -> ReportParts:
    """Standings and the cross table of a league whose every game ended in a fault, and why nobody is rated."""
    order = fault_order(overall)
    crosses, cross_meaning = cross_table(records, order)
    sentence = f"{no_ratings_sentence(records)} The Faults section says who faulted and why."
    parts = ReportParts(
        tables={"standings.csv": unrated_standings(standings_frame(overall, order)), "cross_table.csv": crosses},
        verdict=[Paragraph(sentence)],
    )
    standings = Table(parts.tables["standings.csv"], STANDINGS_NOTES, name="standings")
    parts.sections.append(
        Section("Standings", [Paragraph(sentence), standings, Paragraph(cross_meaning), Table(crosses, name="cross")])
    )
    return parts


def method_notes(records: list[GameRecord], score_label: str | None = None, rule: str = RULE) -> list[str]:
    """How the standings and ratings were computed, in sentences for the report (``rule``: what placed the bots)."""
    tables = any(len(record.spec.seats) > 2 for record in records)
    named = score_label and score_label != "score"
    scores = f"the game's own score, here {score_label}" if named else "the game's own score"
    placed = (
        f"place is {RULE}. Where every pair of bots met equally often in both seats (a round robin), that is"
        " the order of the points; in a gauntlet or an adaptive league it weighs whom the points were taken from."
        if rule == RULE
        else f"place is {rule}. The league's format has a result of its own, and the standings follow it; the"
        f" strength table's order is {RULE}."
    )
    return [
        placed,
        "Points by rank: 1 for first, 0 for last, linear between; seats that tie share the places they"
        " span (between two seats: win 1, draw 1/2, loss 0); points_per_game is 1/2 for an average"
        " bot at any table size. Wins are games ranked first alone, draws first with others, losses"
        " every other game" + (" (at a table, any place below first)" if tables else "") + "; mean_rank is"
        f" the mean of the ranks the games gave (1 is first); score_sum and mean_score are {scores}.",
        "Ranks are the games' own, with one rule of the league's for faults: a seat that faulted ranks below"
        " every seat that did not, and faulted seats that tie (several failing the same request, a double"
        " fault) all take the last place their tie spans, with that place's points: two seats that fault at"
        " the same moment in a game of two both rank 2, a loss and no points for each. Between them such a tie"
        " is a draw: in the cross table, TrueSkill and the Bradley-Terry strengths, which read the same ranks."
        " The faults column and the Faults section charge each seat its own fault.",
        "TrueSkill (mu, sigma, conservative = mu - 3 sigma) is a column for comparison, never the order: it is"
        " updated game by game in schedule order"
        + (", with its multi-player update from every seat's rank (equal ranks are ties)" if tables else "")
        + ", so the same games fed in another order would give other figures.",
        "Games that failed for reasons of ours (INFRA_ERROR) are never scored; the next run plays them again.",
    ]


__all__ = ["LeagueTable", "remove_report", "write_report", "load_games", "method_notes"]
