"""League formats, one module a format behind ``base.Format``, registered in ``FORMATS`` (one line a format).

``round_robin``, ``gauntlet``, ``tables``, ``solo``, ``sprt``, ``adaptive``, ``knockout`` and ``swiss`` (each a module
of its name); ``base`` (the interface: ``Format``, ``FormatRun``, ``FormatInputs``; ``ScheduledFormat`` and
``ScheduledRun`` for a schedule fixed in advance);
``seats`` (whether a format seats a variant's games); ``finals`` (a qualifier's best
going on to finals: ``league_format`` gives a league's format with them).

May import what ``league.plan`` may.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from league.plan.formats.adaptive import Adaptive
from league.plan.formats.base import Format, registry
from league.plan.formats.finals import Staged
from league.plan.formats.gauntlet import Gauntlet
from league.plan.formats.knockout import KnockoutFormat
from league.plan.formats.round_robin import RoundRobin
from league.plan.formats.seats import format_problem
from league.plan.formats.solo import Solo
from league.plan.formats.sprt import Sprt
from league.plan.formats.swiss import SwissFormat
from league.plan.formats.tables import Tables

if TYPE_CHECKING:
    from league.plan.config_schema import LeagueConfig

FORMATS: dict[str, Format] = registry(
    [
        RoundRobin(),
        Gauntlet(),
        Tables(),
        Solo(),
        Sprt(),
        Adaptive(),
        KnockoutFormat(),
        SwissFormat(),
    ]
)
"""Every format by its name in the league file, in the order an unknown format's refusal lists them."""


def league_format(config: LeagueConfig) -> Format:
    """The league's format: ``FORMATS``'s by its ``format``, followed by its ``finals`` where it has them."""
    own = FORMATS[config.format]
    finals = config.finals
    return own if finals is None else Staged(own, FORMATS[finals.format], finals.best)


__all__ = ["FORMATS", "Format", "format_problem", "league_format"]
