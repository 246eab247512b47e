"""The leaderboard of a live contest: its entries by the standings' rule, their ratings and whether each is settled.

The board counts the games of the league the contest plays now (``league.contest.field``): the games its
format counts (``FormatRun.counted``) that are stored, so the games of a replaced version, which are
another bot's, leave it while they stay in the store. Places and ratings follow the standings' one rule
(``league.stats.ranking.rank_league``: Bradley-Terry with bootstrap intervals); an entry is settled when
the adaptive league's claims on it (``league.stats.active_ranking``: ordered or tied with each neighbour)
hold, and warming up while it has played fewer than the warm-up's games against some bot of the field.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime

from league.contest.model import Board, BoardRow, Submission
from league.plan.config import League
from league.plan.formats.adaptive import AdaptiveRun
from league.plan.formats.base import FormatRun
from league.stats.active_ranking import Claim, Neighbours, ranking_line
from league.stats.game_record import GameRecord
from league.stats.ranking import rank_league
from league.store.results import INFRA_ERROR

BOOTSTRAP_SAMPLES = 100
"""Resamples drawn first for the board's intervals (more follow until they are steady, as the report's)."""


def board_games(run: FormatRun | None, records: Sequence[GameRecord]) -> list[GameRecord]:
    """The stored games the board counts: those the format's play counts now, scored (not INFRA_ERROR)."""
    if run is None:
        return []
    counted = {spec.game_id for spec in run.counted}
    return [r for r in records if r.game_id in counted and r.result.termination != INFRA_ERROR]


def make_board(
    serial: int,
    league: League | None,
    run: FormatRun | None,
    records: Sequence[GameRecord],
    entries: Mapping[str, Submission],
    state: str,
) -> Board:
    """The board of the league the contest plays now.

    Args:
        serial: The board's number (one more than the last board's).
        league: The league played now (None before the first field is read).
        run: Its format's play over the stored games (None before it started).
        records: Every stored game of the contest's store.
        entries: Per author, their entry (newest valid version).
        state: What the contest is doing, a sentence.
    """
    updated = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    if league is None:
        return Board(serial=serial, games=len(records), state=state, updated=updated)
    bots = list(league.bots)
    counted = board_games(run, records)
    ranked = rank_league(bots, counted, samples=BOOTSTRAP_SAMPLES)
    games = Counter(name for record in counted for name in set(record.spec.seats))
    claims = neighbour_claims(run)
    warm = warming_up(league, run, counted)
    by_author = {entry.author: entry for entry in entries.values()}
    rows = []
    for place, name in zip(ranked.places, ranked.order, strict=True):
        elo, low, high = ranked.strength(name)
        entry = by_author.get(name)
        rows.append(
            BoardRow(
                place=place,
                bot=name,
                author=entry.author if entry else "",
                version=entry.version if entry else "",
                games=games[name],
                rating=elo,
                low=low,
                high=high,
                settled=_settled(name, claims) and not math.isnan(elo),
                warming_up=name in warm,
            )
        )
    line = ranking_line(claims) if claims else ""
    return Board(serial, tuple(rows), len(records), state, line, updated)


def neighbour_claims(run: FormatRun | None) -> list[Neighbours]:
    """What an adaptive league says of each pair of neighbours now; none for other formats."""
    if not isinstance(run, AdaptiveRun):
        return []
    return run.tracker.batches.ranking.claims()


def warming_up(league: League, run: FormatRun | None, counted: Sequence[GameRecord]) -> set[str]:
    """The bots with fewer games against some other bot than an adaptive league's warm-up plays a pair."""
    if not isinstance(run, AdaptiveRun):
        return set()
    warmup = league.config.adaptive_settings().warmup_games
    met = Counter(tuple(sorted(set(record.spec.seats))) for record in counted)
    bots = sorted(league.bots)
    return {bot for bot in bots for other in bots if other != bot and met[tuple(sorted((bot, other)))] < warmup}


def _settled(name: str, claims: Sequence[Neighbours]) -> bool:
    """Whether every claim about ``name`` and a neighbour holds (ordered or tied); False with none."""
    about = [c for c in claims if name in (c.upper, c.lower)]
    return bool(about) and all(c.claim is not Claim.OPEN for c in about)
