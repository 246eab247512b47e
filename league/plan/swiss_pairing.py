"""The next round of a Swiss league, paired from its standings by maximum-weight matching (pure).

The bots are ranked by score, then by the league's draw order (``swiss.seeding``). An odd field
gives one bot a bye: the lowest-ranked among those with the fewest byes, so nobody sits out twice
while another has not sat out; among those, the next one up where the rest could not then all meet
new opponents. The others are paired by ``networkx.max_weight_matching`` (``maxcardinality=True``:
everyone is paired) on the graph of the pairs that have not met, each edge weighted, in integers,

    (K - met) * R + fits * S + D - d**2

where ``met`` is how often the two met (edges of pairs that met are in the graph only when no
pairing without them exists; ``K`` one more than the most), ``fits`` is 0 when both are owed the
same seat (both sat first more often than second, or both less) and 1 otherwise, ``d`` is the two
scores' difference in half points and ``D`` one more than the largest ``d**2``. With ``P`` the
pairings of the round, ``S = P * D + 1`` and ``R = P * (S + D) + 1``, so each term outweighs the sum
of the terms after it over a whole round: the matching has first the fewest repeated pairings, then
the fewest pairs owed the same seat (with one game a round no bot's firsts and seconds then differ
by more than 1 while the field allows; with two, each pairing's seat-swapped pair balances them
anyway), then the least sum of squared score differences (equal scores paired, the squares making
one large jump cost more than two small ones). Nodes and edges go in in ranking order, so the
blossom algorithm, deterministic given that order, gives the same pairings from the same standings
whatever the order of the mapping passed in.

Seats: in each pairing the bot that has sat first less often (``Standing.seat_lean``) sits first in
the round's first game; when level, a coin from the league seed, the round and the pair decides.

A field of N bots pairs without a repeat for at most N - 1 rounds (N for an odd field, each round
one bot sitting out): ``rounds_problem`` refuses more. Pairing round by round can still run into a
corner (6 bots whose first three rounds left the unmet pairs two triangles), so given the league's
``rounds`` the round takes the best of its pairings (tried best first, ``LOOKAHEAD_MATCHINGS`` at
most) that leaves the rounds after it a pairing without repeats (``league.plan.swiss_lookahead``).
Where none is found, the round takes its best pairing, and where even that does not exist, it
repeats the fewest pairings it can and says which (``RoundPairing.repeats``); ``pair_round`` with
``allow_repeats=False`` raises ``SwissPairingError`` instead.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

import networkx as nx

from engine.core import derive_seed, plural
from league.plan.swiss_lookahead import LOOKAHEAD_MATCHINGS, LOOKAHEAD_STEPS, leaves_rounds, surely_pairs
from league.plan.swiss_standings import Standing


class SwissPairingError(ValueError):
    """No pairing of the round without a repeat (with ``allow_repeats=False``)."""


@dataclass(frozen=True)
class RoundPairing:
    """One round's pairings.

    Attributes:
        pairings: Each pairing's bots, the one that sits first in its first game first; in ranking
            order of their higher-ranked bot.
        bye: The bot that sits out, None for an even field.
        repeats: The pairings that met before (none unless the field had no pairing without).
    """

    pairings: tuple[tuple[str, str], ...]
    bye: str | None
    repeats: tuple[tuple[str, str], ...] = ()


def max_rounds(field: int) -> int:
    """The most rounds a field of ``field`` bots plays without a repeat: N - 1, or N when N is odd."""
    return field if field % 2 else field - 1


def rounds_problem(rounds: int, field: int) -> str | None:
    """``swiss.rounds: ...`` when ``rounds`` cannot pair ``field`` bots without a repeat, else None."""
    most = max_rounds(field)
    if rounds <= most:
        return None
    needs = f"{plural(rounds, 'round')} need {rounds} opponents for each bot"
    if field % 2:
        needs = f"{plural(rounds, 'round')} need {rounds} opponents or byes for each bot, a bye at most once"
        allows = f"this field of {field} bots allows at most {most} (N, as the field is odd: each bot sits out once)"
    else:
        allows = f"this field of {field} bots allows at most {most} (N - 1)"
    return f"swiss.rounds: {needs}; {allows}: give rounds: {most} or fewer, or add bots"


def ranking(table: Mapping[str, Standing], draw_order: Sequence[str]) -> list[str]:
    """The bots as the pairing ranks them: by score, then by ``draw_order``."""
    place = {bot: number for number, bot in enumerate(draw_order)}
    return sorted(table, key=lambda bot: (-table[bot].score, place[bot]))


def pair_round(
    table: Mapping[str, Standing],
    draw_order: Sequence[str],
    seed: int,
    round_number: int,
    rounds: int | None = None,
    allow_repeats: bool = True,
) -> RoundPairing:
    """The pairings of the next round (see the module docstring).

    Args:
        table: Every bot's standing after the rounds played.
        draw_order: Every bot, in the league's draw order (the last tie-break of the ranking).
        seed: The league seed (the coin for level seats).
        round_number: The round being paired (1 for the first).
        rounds: The rounds the league plays, for the look-ahead (None: this round alone).
        allow_repeats: Whether a round that cannot pair without repeats repeats the fewest it can
            (else ``SwissPairingError``).
    """
    ranked = ranking(table, draw_order)
    if len(ranked) < 2:
        raise SwissPairingError(f"round {round_number}: a Swiss pairs two bots or more, not {len(ranked)}")
    candidates = _bye_candidates(ranked, table) if len(ranked) % 2 else [None]
    left = 0 if rounds is None else rounds - round_number
    looking = left > 0 and not surely_pairs(len(ranked), rounds or 0)
    budget = [LOOKAHEAD_STEPS]
    greedy = None
    for bye in candidates:
        for paired in _matchings([bot for bot in ranked if bot != bye], table, LOOKAHEAD_MATCHINGS if looking else 1):
            greedy = greedy or (paired, bye)
            if not looking or leaves_rounds(table, ranked, paired, bye, left, budget) is not False:
                return _round(paired, bye, table, seed, round_number)
    if greedy is not None:  # no pairing looked at leaves the later rounds a pairing without repeats: the best now
        return _round(*greedy, table, seed, round_number)
    if not allow_repeats:
        raise SwissPairingError(
            f"round {round_number}: the {len(ranked)} bots cannot all meet new opponents after the pairings of the"
            f" rounds before; a field of {len(ranked)} allows at most {max_rounds(len(ranked))} rounds without a"
            " repeat, and fewer when earlier pairings leave none"
        )
    bye = candidates[0]
    found = _matching([bot for bot in ranked if bot != bye], table, allow_met=True)
    assert found is not None  # every pair is an edge: the complete graph has a perfect matching
    return _round(found[0], bye, table, seed, round_number)


def _bye_candidates(ranked: list[str], table: Mapping[str, Standing]) -> list[str]:
    """Who may sit out, in turn: those with the fewest byes, the lowest-ranked first."""
    fewest = min(table[bot].byes for bot in ranked)
    return [bot for bot in reversed(ranked) if table[bot].byes == fewest]


def _matchings(ranked: list[str], table: Mapping[str, Standing], most: int) -> Iterator[list[tuple[str, str]]]:
    """Perfect matchings of ``ranked`` without repeats, the best first, from at most ``most`` matchings computed.

    After the best, the matchings with one more of a found matching's pairs left out, those left out
    of better matchings first (Murty's ranking of assignments, without its partition: a matching
    found twice is given once), ties in the order found: deterministic, and close to best first.
    """
    queue: list[tuple[int, int, frozenset[frozenset[str]]]] = [(0, 0, frozenset())]
    tried, given = {frozenset()}, set()
    count = 0
    while queue and count < most:
        _, _, left_out = heapq.heappop(queue)
        found = _matching(ranked, table, allow_met=False, left_out=left_out)
        count += 1
        if found is None:
            continue
        paired, weight = found
        key = frozenset(frozenset(pair) for pair in paired)
        if key not in given:
            given.add(key)
            yield paired
        for pair in paired:
            more = left_out | {frozenset(pair)}
            if more not in tried:
                tried.add(more)
                heapq.heappush(queue, (-weight, len(tried), more))


def _matching(
    ranked: list[str],
    table: Mapping[str, Standing],
    allow_met: bool,
    left_out: frozenset[frozenset[str]] = frozenset(),
) -> tuple[list[tuple[str, str]], int] | None:
    """A perfect matching of ``ranked`` by the module docstring's weights, its pairs in ranking order, and its weight.

    None when none exists (without the pairs that met unless ``allow_met``, and without ``left_out``).
    """
    pairings = len(ranked) // 2
    halves = {bot: round(2 * table[bot].score) for bot in ranked}
    spread = max(halves.values()) - min(halves.values())
    square_room = spread * spread + 1
    seat_room = pairings * square_room + 1
    repeat_room = pairings * (seat_room + square_room) + 1
    met = {(a, b): table[a].opponents.count(b) for i, a in enumerate(ranked) for b in ranked[i + 1 :]}
    most_met = max(met.values(), default=0) + 1
    graph = nx.Graph()
    graph.add_nodes_from(ranked)
    for (a, b), times in met.items():
        if (times and not allow_met) or frozenset((a, b)) in left_out:
            continue
        fits = 0 if table[a].seat_lean * table[b].seat_lean > 0 else 1
        squares = (halves[a] - halves[b]) ** 2
        graph.add_edge(a, b, weight=(most_met - times) * repeat_room + fits * seat_room + square_room - squares)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if len(matching) < pairings:
        return None
    place = {bot: number for number, bot in enumerate(ranked)}
    ordered = [tuple(sorted(pair, key=place.__getitem__)) for pair in matching]
    weight = sum(graph.edges[pair]["weight"] for pair in matching)
    return sorted(ordered, key=lambda pair: place[pair[0]]), weight  # type: ignore[return-value]


def _round(
    paired: list[tuple[str, str]], bye: str | None, table: Mapping[str, Standing], seed: int, round_number: int
) -> RoundPairing:
    """The round of these pairings, each seated (the one owed a first seat first; level: the seeded coin)."""
    seated = []
    for high, low in paired:
        lean = table[high].seat_lean - table[low].seat_lean
        if lean == 0:
            coin = derive_seed(seed, "swiss seats", round_number, ",".join(sorted((high, low)))) % 2
            lean = 1 if coin else -1
        seated.append((low, high) if lean > 0 else (high, low))
    repeats = tuple(pair for pair in seated if pair[1] in table[pair[0]].opponents)
    return RoundPairing(tuple(seated), bye, repeats)
