"""League formats, one module a format behind ``base.Format``; ``seats`` (which formats seat a variant).

May import what ``league.plan`` may.
"""

from league.plan.formats.seats import PAIRS, format_problem, seats_needed

__all__ = ["PAIRS", "format_problem", "seats_needed"]
