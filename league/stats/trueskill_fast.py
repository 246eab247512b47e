"""TrueSkill updates for one game, without building the ``trueskill`` package's factor graph.

The package builds a factor graph of objects for every game it rates, which costs about half a
millisecond a game: minutes for a league of 100,000 table games. These classes send the same
messages in the same order on plain numbers (natural parameters: precision ``pi`` and
precision-adjusted mean ``tau``), with the package's own v/w formulas, cdf, pdf and draw margin,
and give its numbers (tests compare them to ``env.rate`` and ``env.rate_1vs1``). Players are teams of one
with weight 1, as in our leagues.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import trueskill

MIN_DELTA = 0.0001
"""When the chain's messages change less than this, they have converged (the package's ``DELTA``)."""
MAX_PASSES = 10
"""Passes over the chain at most (as in the package)."""


class OneVsOne:
    """TrueSkill's two-player update in closed form, with the package's own v/w formulas.

    The same numbers as ``env.rate_1vs1`` (the factor graph of two players converges in one
    pass), without building a graph per game: a league of 100,000 games is rated in seconds.
    """

    def __init__(self, env: trueskill.TrueSkill) -> None:
        self.env = env
        self.draw_margin = trueskill.calc_draw_margin(env.draw_probability, 2, env)

    def rate(
        self, first: trueskill.Rating, second: trueskill.Rating, first_rank: int, second_rank: int
    ) -> tuple[trueskill.Rating, trueskill.Rating]:
        """New ratings of two players after one game (lower rank better, equal ranks a draw)."""
        if first_rank > second_rank:
            loser, winner = self.rate(second, first, second_rank, first_rank)
            return winner, loser
        env = self.env
        tau2, beta2 = env.tau**2, env.beta**2
        var1, var2 = first.sigma**2 + tau2, second.sigma**2 + tau2
        c = math.sqrt(2 * beta2 + var1 + var2)
        diff, margin = (first.mu - second.mu) / c, self.draw_margin / c
        v, w = v_and_w(env, diff, margin, first_rank == second_rank)
        new_first = env.create_rating(first.mu + var1 / c * v, math.sqrt(var1 * (1 - var1 / c**2 * w)))
        new_second = env.create_rating(second.mu - var2 / c * v, math.sqrt(var2 * (1 - var2 / c**2 * w)))
        return new_first, new_second


Message = tuple[float, float]
"""A Gaussian in natural parameters: (pi, tau) = (1 / variance, mean / variance)."""


def v_and_w(env: trueskill.TrueSkill, diff: float, margin: float, tie: bool) -> tuple[float, float]:
    """TrueSkill's v and w of a truncation, as ``env.v_win``/``env.w_win`` (``_draw`` for a tie) compute them.

    The same formulas on the package's own ``cdf`` and ``pdf``, each evaluated once instead of
    once for v and again for w (they are most of the time a rating takes).

    Raises:
        FloatingPointError: Where the package raises it (an upset too extreme for floats).
    """
    if not tie:
        x = diff - margin
        denom = env.cdf(x)
        v = env.pdf(x) / denom if denom else -x
        w = v * (v + x)
        if not 0 < w < 1:
            raise FloatingPointError("a result too unlikely for TrueSkill's floating point (a win)")
        return v, w
    a, b = margin - abs(diff), -margin - abs(diff)
    denom = env.cdf(a) - env.cdf(b)
    if not denom:
        raise FloatingPointError("a result too unlikely for TrueSkill's floating point (a draw)")
    pdf_a, pdf_b = env.pdf(a), env.pdf(b)
    v = (pdf_b - pdf_a) / denom
    return v * (-1 if diff < 0 else 1), v**2 + (a * pdf_a - b * pdf_b) / denom


def _mean(pi: float, tau: float) -> float:
    return tau / pi if pi else 0.0


def _sum(first: Message, second: Message, sign: float) -> Message:
    """The message for ``x + sign * y`` from messages of ``x`` and ``y`` (a sum factor's update)."""
    if not first[0] or not second[0]:
        return 0.0, 0.0  # an unknown term: nothing known of the sum
    pi = 1.0 / (1.0 / first[0] + 1.0 / second[0])
    return pi, pi * (_mean(*first) + sign * _mean(*second))


class Multiplayer:
    """TrueSkill's update of a game of several players, each alone, ranked (ties allowed).

    Players in rank order form a chain: a performance each, a difference between neighbours, and
    on each difference a truncation (the better won, or a draw within the draw margin). Expectation
    propagation runs forward and back along the chain until it settles, as the package does.
    """

    def __init__(self, env: trueskill.TrueSkill) -> None:
        self.env = env
        self.draw_margin = trueskill.calc_draw_margin(env.draw_probability, 2, env)

    def rate(self, ratings: Sequence[trueskill.Rating], ranks: Sequence[int]) -> list[trueskill.Rating]:
        """New ratings after one game; ``ranks`` lower is better, equal ranks tie."""
        env = self.env
        order = sorted(range(len(ratings)), key=lambda seat: ranks[seat])
        priors: list[Message] = []  # each player's skill, with the dynamics added
        performances: list[Message] = []  # into each performance from its skill
        for seat in order:
            variance = ratings[seat].sigma ** 2 + env.tau**2
            priors.append((1 / variance, ratings[seat].mu / variance))
            performances.append((1 / (variance + env.beta**2), ratings[seat].mu / (variance + env.beta**2)))
        links = len(order) - 1
        ties = [ranks[order[k]] == ranks[order[k + 1]] for k in range(links)]
        left = [(0.0, 0.0)] * links  # from difference k into performance k
        right = [(0.0, 0.0)] * links  # from difference k into performance k + 1
        down = [(0.0, 0.0)] * links  # from difference k's sum into the difference
        cut = [(0.0, 0.0)] * links  # from difference k's truncation into the difference

        def without(k: int, message: Message) -> Message:
            """Performance k's belief less ``message`` (one of the messages into it)."""
            pi = performances[k][0] + (left[k][0] if k < links else 0) + (right[k - 1][0] if k else 0)
            tau = performances[k][1] + (left[k][1] if k < links else 0) + (right[k - 1][1] if k else 0)
            return pi - message[0], tau - message[1]

        def settle(k: int) -> float:
            """Difference k: its sum, then its truncation; returns how much the difference moved."""
            down[k] = _sum(without(k, left[k]), without(k + 1, right[k]), -1.0)
            pi, tau = down[k]
            before = (pi + cut[k][0], tau + cut[k][1])
            root = math.sqrt(pi)
            args = (tau / root, self.draw_margin * root)
            v, w = v_and_w(env, *args, ties[k])
            after = (pi / (1 - w), (tau + root * v) / (1 - w))
            cut[k] = (after[0] - pi, after[1] - tau)
            moved = abs(before[0] - after[0])
            return 0.0 if math.isinf(moved) else max(abs(before[1] - after[1]), math.sqrt(moved))

        def send_left(k: int) -> None:  # the difference less the sum's own message is its truncation's
            left[k] = _sum(cut[k], without(k + 1, right[k]), 1.0)

        def send_right(k: int) -> None:
            right[k] = _sum(without(k, left[k]), cut[k], -1.0)

        for _ in range(MAX_PASSES):
            moved = 0.0
            if links == 1:
                moved = settle(0)
            else:
                for k in range(links - 1):
                    moved = max(moved, settle(k))
                    send_right(k)
                for k in range(links - 1, 0, -1):
                    moved = max(moved, settle(k))
                    send_left(k)
            if moved <= MIN_DELTA:
                break
        send_left(0)
        send_right(links - 1)
        rated: list[trueskill.Rating | None] = [None] * len(ratings)
        for k, seat in enumerate(order):
            pi = (left[k][0] if k < links else 0) + (right[k - 1][0] if k else 0)
            tau = (left[k][1] if k < links else 0) + (right[k - 1][1] if k else 0)
            scale = 1 / (1 + env.beta**2 * pi)  # through the performance's noise to the skill
            skill = (priors[k][0] + scale * pi, priors[k][1] + scale * tau)
            rated[seat] = env.create_rating(skill[1] / skill[0], math.sqrt(1 / skill[0]))
        return rated  # type: ignore[return-value]
