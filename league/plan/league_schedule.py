"""A league's schedule from its file: each game's id from what its bots and variants stand for.

``planned_schedule`` gives the games lazily (``league.plan.schedule.Schedule``: counted and indexed, made
only when asked for), so ``league validate`` can plan a million-game league without building it;
``league.cluster.runner.schedule`` is the same games as a list, for a run.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from league.match.bot_spec import spec_to_data
from league.plan.adaptive import AdaptiveTracker
from league.plan.bot_version import league_versions
from league.plan.config import League
from league.plan.schedule import Schedule, SoloSchedule, TableSchedule, gauntlet_schedule, round_robin_schedule
from league.plan.seed import league_seed


def fingerprints(league: League) -> dict[str, str]:
    """Per bot and variant name, a digest of what it stands for (with the league-wide rules of play).

    A bot stands for its version (``league.plan.bot_version``: its spec and the content of its files
    or code), so a bot edited since its games were stored plays them again under new ids.
    """
    config = league.config
    limits = config.limits.model_dump(mode="json", exclude_defaults=True)  # a new limit's default changes no id
    common = {"game": config.game, "limits": limits, "clock": config.clock}
    common |= {"margin": config.time_margin_ms, "sandbox": config.sandbox.model_dump(mode="json")}
    parts: dict[str, Any] = {name: game.variant() for name, game in league.games.items()}
    versions = league_versions(league)
    parts |= {name: {"spec": spec_to_data(spec), "version": versions[name]} for name, spec in league.bots.items()}
    return {name: _digest({"common": common, "own": value}) for name, value in parts.items()}


def _digest(data: Any) -> str:
    """32 hex digits (128 bits): no entrant can make two versions of a bot give one fingerprint."""
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()[:32]


def planned_schedule(league: League) -> Schedule:
    """The league's schedule, games made only when asked for: ``league.cluster.runner.schedule``'s games, in order.

    Each game starts from its round's opening where the league has ``openings`` (``league.plan.openings``).
    """
    schedule = _schedule_of(league)
    schedule.openings = league.openings
    return schedule


def _schedule_of(league: League) -> Schedule:
    """``planned_schedule``'s games, from the rules' start."""
    config = league.config
    names = [bot.name for bot in config.bots]
    variants = list(config.variants)
    prints = fingerprints(league)
    seed = league_seed(league).value
    if config.format == "gauntlet":
        field = [name for name in names if name not in config.candidates]
        return gauntlet_schedule(config.name, config.candidates, field, variants, config.games_per_pair, seed, prints)
    if config.format == "solo":
        return SoloSchedule(config.name, names, variants, config.runs_per_case, seed, prints)
    if config.format == "tables":
        sizes = config.players_per_table or []
        return TableSchedule(config.name, names, variants, sizes, config.tables, seed, prints)
    if config.format == "sprt" and sprt_alone(league):  # both bots alone on each seed in turn, until it decides
        return SoloSchedule(config.name, names, variants, sprt_games(config.max_games, solo=True) // 2, seed, prints)
    if config.format == "sprt":  # seat-swapped pairs on one seed each, in order, until the test decides
        return round_robin_schedule(config.name, names, variants, sprt_games(config.max_games), seed, prints)
    if config.format == "adaptive":  # the most it may play, as a round robin: a run plans batches (adaptive_tracker)
        return round_robin_schedule(config.name, names, variants, adaptive_games_per_pair(league), seed, prints)
    return round_robin_schedule(config.name, names, variants, config.games_per_pair, seed, prints)


def adaptive_games_per_pair(league: League) -> int:
    """The games per pair of a round robin as long as an adaptive league's ``max_games`` (whole seat-swapped pairs).

    What ``league validate`` counts and estimates: the most the league may play, its warm-up at least.
    """
    config = league.config
    pairs = len(config.bots) * (len(config.bots) - 1) // 2
    most = config.max_games // pairs
    return max(config.adaptive_settings().warmup_games, most - most % 2)


def adaptive_tracker(league: League) -> AdaptiveTracker:
    """The batches of an adaptive league, from its warm-up on (feed it the stored games to go on)."""
    return AdaptiveTracker.of_league(league, league_seed(league).value, fingerprints(league))


def sprt_games(max_games: int, solo: bool = False) -> int:
    """The games an SPRT league may play: ``max_games`` in whole pairs (two games seats swapped; solo, two seeds).

    A solo game's pair is both bots' runs on two seeds: four games, each bot's run being one.
    """
    per_pair = 4 if solo else 2
    return max_games - max_games % per_pair


def sprt_alone(league: League) -> bool:
    """Whether an SPRT league's game is played alone (its variant seats one bot: codevs21's solo mode)."""
    return all(list(game.seat_counts()) == [1] for game in league.games.values())
