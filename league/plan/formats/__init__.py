"""League formats, one module a format behind ``base.Format``, registered in ``FORMATS`` (one line a format).

``round_robin``, ``gauntlet``, ``tables``, ``solo``, ``sprt``, ``adaptive``, ``knockout`` and ``swiss`` (each a module
of its name); ``base`` (the interface: ``Format``, ``FormatRun``, ``FormatInputs``, ``ScheduledRun``);
``seats`` (whether a format seats a variant's games).

May import what ``league.plan`` may.
"""

from league.plan.formats.adaptive import Adaptive
from league.plan.formats.base import Format, registry
from league.plan.formats.gauntlet import Gauntlet
from league.plan.formats.knockout import KnockoutFormat
from league.plan.formats.round_robin import RoundRobin
from league.plan.formats.seats import format_problem
from league.plan.formats.solo import Solo
from league.plan.formats.sprt import Sprt
from league.plan.formats.swiss import SwissFormat
from league.plan.formats.tables import Tables

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

__all__ = ["FORMATS", "Format", "format_problem"]
