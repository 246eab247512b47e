"""The strength model of synthetic: BayesElo's win, draw and loss chances of one game.

With d = Elo(seat 0) - Elo(seat 1) + ``first_seat_elo`` + the cycle term (``cycle_elo`` when seat
0's style beats seat 1's, minus it when it loses to it, else 0), and ``draw_elo`` >= 0:

* P(seat 0 wins) = 1 / (1 + 10^((draw_elo - d) / 400))
* P(seat 0 loses) = 1 / (1 + 10^((draw_elo + d) / 400))
* P(draw) = the rest.

At d = 0 both decisive chances are w = 1 / (1 + 10^(draw_elo / 400)) and the draw rate is
r = 1 - 2w, so 10^(draw_elo / 400) = 2 / (1 - r) - 1 = (1 + r) / (1 - r):
draw_elo = 400 log10((1 + r) / (1 - r)) (Coulom, "Bayesian Elo Rating", 2005).

Pure functions of numbers: the planner can draw outcomes with them without any game at all.
"""

from __future__ import annotations

import math

STYLES = ("rock", "paper", "scissors")
"""The styles of the non-transitive cycle: rock beats scissors, scissors beats paper, paper beats rock."""
BEATS = {"rock": "scissors", "paper": "rock", "scissors": "paper"}
"""Each style and the style it beats."""

_MAX_EXPONENT = 300.0
"""Past 10^300 a chance is 0 for a float: larger powers of 10 would overflow."""


def draw_elo(draw_rate: float) -> float:
    """The BayesElo ``draw_elo`` whose draw chance at d = 0 is ``draw_rate`` (0 <= draw_rate < 1)."""
    if not 0.0 <= draw_rate < 1.0:
        raise ValueError(f"draw_rate must be in [0, 1), not {draw_rate}")
    return 400.0 * math.log10((1.0 + draw_rate) / (1.0 - draw_rate))


def cycle_term(style_0: str | None, style_1: str | None, cycle_elo: float) -> float:
    """What the cycle adds to d: ``cycle_elo`` if seat 0's style beats seat 1's, minus it if it loses, else 0."""
    if style_0 is None or style_1 is None or style_0 == style_1:
        return 0.0
    return cycle_elo if BEATS[style_0] == style_1 else -cycle_elo


def elo_difference(
    elos: tuple[float, float],
    styles: tuple[str | None, str | None],
    first_seat_elo: float = 0.0,
    cycle_elo: float = 0.0,
) -> float:
    """d: seat 0's Elo minus seat 1's, plus the first seat's advantage and the cycle term."""
    return elos[0] - elos[1] + first_seat_elo + cycle_term(styles[0], styles[1], cycle_elo)


def _below(exponent_elo: float) -> float:
    """1 / (1 + 10^(exponent_elo / 400)), without overflow for any finite argument."""
    exponent = exponent_elo / 400.0
    return 0.0 if exponent > _MAX_EXPONENT else 1.0 / (1.0 + 10.0**exponent)


def outcome_probabilities(d: float, draw_elo_value: float = 0.0) -> tuple[float, float, float]:
    """Seat 0's chances to win, draw and lose at Elo difference ``d`` (see the module docstring).

    Args:
        d: The Elo difference, seat 0's side (``elo_difference``).
        draw_elo_value: BayesElo's draw parameter (``draw_elo(draw_rate)``), at least 0.
    """
    win = _below(draw_elo_value - d)
    loss = _below(draw_elo_value + d)
    # 1 - win - loss = (10^(draw_elo / 200) - 1) * win * loss: exactly 0 without draw_elo, no rounding residue.
    draw = math.expm1(draw_elo_value / 200.0 * math.log(10.0)) * win * loss
    return win, draw, loss


def pick_outcome(uniform: float, probabilities: tuple[float, float, float]) -> int:
    """The outcome a uniform draw in [0, 1) picks: 1 seat 0 wins, 0 a draw, -1 seat 0 loses."""
    win, _, loss = probabilities
    if uniform < win:
        return 1
    if uniform < win + loss:
        return -1
    return 0
