"""What a league's format plays from, computed from its file: each game's id from what its bots and variants stand for.

``league_inputs`` settles it once per command (``league.plan.formats.base.FormatInputs``: the seed,
the fingerprints, the openings); ``planned_schedule`` gives the games its format may play lazily
(``league.plan.schedule.Schedule``: counted and indexed, made only when asked for), so ``league
validate`` can plan a million-game league without building it; ``league.cluster.runner`` plays the
format's ``FormatRun``.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from league.match.bot_spec import spec_to_data
from league.plan.bot_version import league_versions
from league.plan.config import League
from league.plan.formats import FORMATS
from league.plan.formats.base import FormatInputs
from league.plan.schedule import Schedule
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


def league_inputs(league: League, fresh: bool = False) -> FormatInputs:
    """What the league's format plays from: its file, variants, seed (``league.plan.seed``), fingerprints, openings."""
    seed = league_seed(league, fresh).value
    return FormatInputs(league.config, league.games, seed, fingerprints(league), league.openings)


def planned_schedule(league: League) -> Schedule:
    """The most the league's format may play, games made only when asked for (``Format.planned``)."""
    return FORMATS[league.config.format].planned(league_inputs(league))
