"""What a league's replay pages will take, told by ``league validate`` beside the store's estimate.

``league.cluster.estimate`` plays a few sample games and scales the store up; here each sample
game's replay page is built as the report builds it (``league.replay.files.LeagueReplays``,
``league.replay.page``) and its bytes counted, and which games get a page follows
``league.report.replays`` (every game up to ``ALL_GAMES``, else the faulted ones up to
``FAULTED_GAMES``; ``highlights.html`` holds ``HIGHLIGHTS`` whole games). The pages are most of a
report folder: 60 games of versus2048 wrote 7.9 MB of pages beside a store of 546 kB.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from league.cluster.estimate import SAMPLE_BUDGET_S, SAMPLE_GAMES, Estimate, estimate
from league.plan.config import League
from league.plan.schedule import Schedule
from league.replay.files import LeagueReplays
from league.replay.page import Reel, page
from league.replay.rebuild import replay_game
from league.report.replays import ALL_GAMES, FAULTED_GAMES, HIGHLIGHTS
from league.store.results import split_record


def estimate_with_replays(
    league: League,
    schedule: Schedule,
    samples: int = SAMPLE_GAMES,
    budget_s: float = SAMPLE_BUDGET_S,
    on_start: Callable[[int], None] | None = None,
) -> Estimate:
    """``league.cluster.estimate.estimate`` with the report's replay pages counted (``replays_bytes``)."""
    pages = ReplayPages(league)
    sized = estimate(league, schedule, samples, budget_s, on_start, on_game=pages.add)
    replays_bytes, count = pages.total(sized.games)
    return dataclasses.replace(sized, replays_bytes=replays_bytes, replay_pages=count)


class ReplayPages:
    """The bytes of the replay pages of a league's report, from its sample games' own pages."""

    def __init__(self, league: League) -> None:
        name = league.config.game
        manifest = {"name": league.config.name, "game": name, "variants": list(league.games)}
        self.league = league
        self.titles = LeagueReplays.loaded(league.output, manifest, None, [])
        self.heading = f"{league.config.name}: {name} replay"
        self.bare = 0  # a page without a game: its player, viewer and styles
        self.weights = self.pages = self.page_weights = self.faulted = self.faulted_weights = 0.0

    def add(self, record: dict[str, Any], weight: float) -> None:
        """Count a sample game's page, the game standing for ``weight`` games of the league."""
        self.weights += weight
        line, details = split_record(record)
        if line.infra:  # no page: a game still to play
            return
        game = self.league.config.game
        replay = replay_game(self.league.games[line.spec.variant], line, details or {})
        written = len(page(game, [Reel(self.titles.title(line), replay)], self.heading).encode())
        if not self.bare:
            self.bare = len(page(game, [], self.heading).encode())
        self.pages += written * weight
        self.page_weights += weight
        if line.result.offenders:
            self.faulted += written * weight
            self.faulted_weights += weight

    def total(self, games: int) -> tuple[float, int]:
        """The bytes of ``replays/`` for a league of ``games`` games, and how many games have a page."""
        if not self.page_weights:
            return 0.0, 0
        mean = self.pages / self.page_weights
        played = games * self.page_weights / self.weights
        if played <= ALL_GAMES:
            count, each = round(played), mean
        else:
            count = round(min(games * self.faulted_weights / self.weights, FAULTED_GAMES))
            each = self.faulted / self.faulted_weights if self.faulted_weights else 0.0
        highlights = self.bare + min(HIGHLIGHTS, round(played)) * (mean - self.bare)
        return count * each + highlights, count
