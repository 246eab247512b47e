"""Whether a Swiss round's pairing leaves the rounds after it a pairing without repeats: the pairing's look-ahead.

Pairing round by round can run into a corner: 6 bots whose first three rounds leave the unmet pairs
two triangles cannot pair round 4 without a repeat, though a field of 6 plays 5 rounds without one.
So ``league.plan.swiss_pairing`` tries a round's pairings best first and takes the first that
leaves the rounds still to come a pairing each without repeats, found by a depth-first search:
``left`` disjoint perfect matchings of the graph of unmet pairs, the bot with the fewest unmet
partners paired first. An odd field's byes join the graph as a phantom bot that each bot meets at
most once (no bye twice). The search is bounded (``LOOKAHEAD_STEPS``, counted, so the same standings
give the same answer everywhere) and made only where needed: never for a field above
``LOOKAHEAD_FIELD`` bots, nor when every round surely pairs whatever came before (``surely_pairs``:
every bot then has at least half the field unmet, and by Dirac's theorem the unmet pairs hold a
Hamiltonian cycle, so a perfect matching).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping

from league.plan.swiss_standings import Standing

LOOKAHEAD_MATCHINGS = 64
"""The most pairings of one round the look-ahead tries before taking the best one as it is."""

LOOKAHEAD_STEPS = 20_000
"""The most search steps of one round's look-ahead, all its tries together (a step pairs one bot)."""

LOOKAHEAD_FIELD = 24
"""The largest field the look-ahead searches (its depth grows with the field times the rounds left)."""

_BYE = "\x00bye"
"""The phantom an odd field's bye pairs a bot with (no bot's name: names are letters, digits, ``_.-``)."""


def surely_pairs(field: int, rounds: int) -> bool:
    """Whether every one of ``rounds`` rounds pairs ``field`` bots without a repeat whatever the earlier pairings.

    With the phantom of an odd field, n = N or N + 1 bots each keep n - k unmet partners before round
    k; Dirac's theorem gives a perfect matching while that is at least n / 2, that is for k <= n / 2.
    Beyond ``LOOKAHEAD_FIELD`` bots the look-ahead is not made either.
    """
    return rounds <= (field + field % 2) // 2 or field > LOOKAHEAD_FIELD


def leaves_rounds(
    table: Mapping[str, Standing],
    ranked: list[str],
    paired: list[tuple[str, str]],
    bye: str | None,
    left: int,
    budget: list[int],
) -> bool | None:
    """Whether ``left`` more rounds pair without a repeat after this round's ``paired`` (and ``bye``).

    Args:
        table: Every bot's standing before this round.
        ranked: The bots in ranking order (the search's order).
        paired: This round's pairings.
        bye: This round's bye, None for an even field.
        left: Rounds still to pair after this one.
        budget: Search steps left (one number, decreased here): None once it runs out.
    """
    now = {frozenset(pair) for pair in paired}
    adjacent: dict[str, set[str]] = {bot: set() for bot in ranked}
    for a, b in itertools.combinations(ranked, 2):
        if b not in table[a].opponents and frozenset((a, b)) not in now:
            adjacent[a].add(b)
            adjacent[b].add(a)
    if len(ranked) % 2:
        byes = {bot: table[bot].byes + (bot == bye) for bot in ranked}
        fewest = min(byes.values())
        adjacent[_BYE] = {bot for bot in ranked if byes[bot] == fewest}
        for bot in adjacent[_BYE]:
            adjacent[bot].add(_BYE)
    order = {bot: number for number, bot in enumerate([*ranked, _BYE])}
    return _fits(adjacent, left, order, budget)


def _fits(adjacent: dict[str, set[str]], left: int, order: dict[str, int], budget: list[int]) -> bool | None:
    """Whether ``adjacent`` holds ``left`` disjoint perfect matchings (None: the budget ran out first)."""
    if left == 0:
        return True
    if any(len(others) < left for others in adjacent.values()):
        return False
    return _complete(adjacent, frozenset(adjacent), {}, left, order, budget)


def _complete(
    adjacent: dict[str, set[str]],
    free: frozenset[str],
    partner: dict[str, str],
    left: int,
    order: dict[str, int],
    budget: list[int],
) -> bool | None:
    """Pair the ``free`` bots of this round, then the rounds after it (``_fits``)."""
    budget[0] -= 1
    if budget[0] < 0:
        return None
    if not free:
        rest = {bot: others - {partner[bot]} for bot, others in adjacent.items()}
        return _fits(rest, left - 1, order, budget)
    bot = min(free, key=lambda name: (len(adjacent[name] & free), order[name]))
    for other in sorted(adjacent[bot] & free, key=order.__getitem__):
        partner[bot], partner[other] = other, bot
        found = _complete(adjacent, free - {bot, other}, partner, left, order, budget)
        if found is not False:
            return found
    return False
