"""What a league's format plays from, computed from its file: each game's id from what its bots and variants stand for.

``league_plan`` settles it once per command and passes it on, the ``League`` left as it was read:
the seed (``league.plan.seed``) and what the format plays from (``league.plan.formats.base.FormatInputs``:
the seed's value, the fingerprints, the openings). ``planned_schedule`` gives the games its format
may play lazily (``league.plan.schedule.Schedule``: counted and indexed, made only when asked for),
so ``league validate`` can plan a million-game league without building it; ``league.cluster.runner``
plays the format's ``FormatRun``.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from typing import Any

from league.match.bot_spec import spec_to_data
from league.plan.bot_version import league_versions
from league.plan.config import League
from league.plan.formats import league_format
from league.plan.formats.base import Format, FormatInputs
from league.plan.schedule import Schedule
from league.plan.seed import LeagueSeed, league_seed


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


@dataclass(frozen=True)
class LeaguePlan:
    """What one command computed from a league file, once: its seed and what its format plays from.

    Attributes:
        league: The league as its file was read.
        seed: Its seed, settled (``league.plan.seed.league_seed``).
        inputs: What its format plays from, on that seed.
    """

    league: League
    seed: LeagueSeed
    inputs: FormatInputs

    @property
    def format(self) -> Format:
        """The league's format (``league.plan.formats.FORMATS``)."""
        return league_format(self.league.config)

    def planned(self) -> Schedule:
        """The most its format may play, counted, not built (``Format.planned``)."""
        return self.format.planned(self.inputs)

    def on_seed(self, seed: LeagueSeed) -> LeaguePlan:
        """The same plan on another seed (one that another run stored since this one's was drawn)."""
        return replace(self, seed=seed, inputs=replace(self.inputs, seed=seed.value))


def league_plan(league: League, fresh: bool = False) -> LeaguePlan:
    """The league's seed settled (``league.plan.seed``; ``fresh``: a stored one is not reused) and its format's inputs.

    Raises:
        ConfigError: The folder's stored seed is damaged or differs from the league file's.
    """
    seed = league_seed(league, fresh)
    return LeaguePlan(
        league, seed, FormatInputs(league.config, league.games, seed.value, fingerprints(league), league.openings)
    )


def league_inputs(league: League, fresh: bool = False) -> FormatInputs:
    """What the league's format plays from: its file, variants, seed (``league.plan.seed``), fingerprints, openings."""
    return league_plan(league, fresh).inputs


def planned_schedule(league: League) -> Schedule:
    """The most the league's format may play, games made only when asked for (``Format.planned``)."""
    return league_plan(league).planned()
