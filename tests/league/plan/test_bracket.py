"""The knockout's bracket (league.plan.bracket): placement, byes, single and double elimination, placings."""

from __future__ import annotations

import itertools

import pytest

from league.plan.bracket import Bracket, placement, seed_order


def names(count: int) -> list[str]:
    return [f"s{number}" for number in range(1, count + 1)]


def test_placement_puts_seeds_one_and_two_in_opposite_halves_and_pairs_seeds_adding_up_to_lines_plus_one():
    assert placement(2) == [1, 2]
    assert placement(4) == [1, 4, 2, 3]
    assert placement(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    order = placement(16)
    assert sorted(order) == list(range(1, 17))
    assert all(order[i] + order[i + 1] == 17 for i in range(0, 16, 2))
    assert 1 in order[:8] and 2 in order[8:]  # 1 and 2 meet only in the final
    assert {1, 2, 3, 4} == {min(order[q : q + 4]) for q in range(0, 16, 4)}  # 1..4 only in the semi-finals


def play_chalk(bracket: Bracket, upset: set[str] = frozenset()) -> dict[str, str]:
    """Winners where the higher seed wins every series, except in the series named in ``upset``."""
    seed_of = {bot: n for n, bot in enumerate(bracket.seeds)}
    winners: dict[str, str] = {}
    while ready := bracket.ready(winners):
        series = ready[0]
        pair = bracket.sides(winners)[series.key]
        ordered = sorted(pair, key=seed_of.__getitem__)
        winners[series.key] = ordered[1] if series.key in upset else ordered[0]
    return winners


@pytest.mark.parametrize("count", range(2, 10))
def test_single_elimination_plays_one_series_fewer_than_the_field_and_every_bot_loses_once_but_the_champion(count):
    bracket = Bracket.build(names(count), "single")
    assert len(bracket.series) == count - 1
    lines = 1 << (count - 1).bit_length()
    assert bracket.byes() == names(count)[: lines - count]  # the top seeds get the byes
    first = {bot for series in bracket.series for side in series.sides if side.kind == "seed" for bot in [side.value]}
    assert first == set(range(1, count + 1))  # every bot enters exactly one series from its seed
    winners = play_chalk(bracket)
    assert bracket.champion(winners) == "s1"
    assert len(winners) == count - 1 and not bracket.ready(winners)
    placing = bracket.placing(winners)
    assert placing[:2] == ["s1", "s2"] and sorted(placing) == sorted(names(count))
    # each series' two bots were both known when it was ready, and no bot played two series at one level
    sides = bracket.sides(winners)
    for level, group in itertools.groupby(bracket.series, key=lambda s: s.level):
        bots = [bot for series in group for bot in sides[series.key]]
        assert len(bots) == len(set(bots)), level


@pytest.mark.parametrize("count", range(2, 10))
def test_double_elimination_puts_out_every_bot_but_the_champion_after_two_losses_with_one_grand_final(count):
    bracket = Bracket.build(names(count), "double")
    assert len(bracket.series) == 2 * count - 2  # no bracket reset: one series more than two losses each
    assert bracket.final.key == "GF"
    for upsets in (set(), {"W1.1", "W2.1", "GF"}, {series.key for series in bracket.series}):
        winners = play_chalk(bracket, upsets)
        assert len(winners) == len(bracket.series)
        sides = bracket.sides(winners)
        losses = dict.fromkeys(bracket.seeds, 0)
        for series in bracket.series:
            loser = next(bot for bot in sides[series.key] if bot != winners[series.key])
            losses[loser] += 1
        champion = bracket.champion(winners)
        others = [losses[bot] for bot in bracket.seeds if bot != champion]
        assert all(n == 2 for n in others) or (count == 2 and sorted(losses.values()) == [1, 1])
        assert losses[champion] <= 1
        placing = bracket.placing(winners)
        assert placing[0] == champion and sorted(placing) == sorted(names(count))


def test_double_elimination_of_eight_drops_the_winners_losers_into_the_losers_bracket_in_reverse_order():
    bracket = Bracket.build(names(8), "double")
    words = {s.key: tuple(side.words(bracket.seeds) for side in s.sides) for s in bracket.series}
    assert words["L1.1"] == ("loser of W1.1", "loser of W1.2")
    assert words["L2.1"] == ("winner of L1.1", "loser of W2.2")  # reversed: the other half's loser
    assert words["L2.2"] == ("winner of L1.2", "loser of W2.1")
    assert words["L3.1"] == ("winner of L2.1", "winner of L2.2")
    assert words["L4.1"] == ("winner of L3.1", "loser of W3.1")
    assert words["GF"] == ("winner of W3.1", "winner of L4.1")


def test_a_bye_sends_nobody_to_the_losers_bracket_and_its_bot_waits_for_the_next_round():
    bracket = Bracket.build(names(3), "double")
    words = {s.key: tuple(side.words(bracket.seeds) for side in s.sides) for s in bracket.series}
    assert words == {
        "W1.2": ("s2", "s3"),
        "W2.1": ("s1", "winner of W1.2"),
        "L2.1": ("loser of W1.2", "loser of W2.1"),
        "GF": ("winner of W2.1", "winner of L2.1"),
    }
    assert [s.key for s in bracket.ready({})] == ["W1.2"]
    assert [s.key for s in bracket.ready({"W1.2": "s3"})] == ["W2.1"]
    assert bracket.sides({"W1.2": "s3", "W2.1": "s3"})["L2.1"] == ("s2", "s1")


def test_placing_orders_the_bots_out_by_the_round_that_put_them_out_then_by_seed():
    bracket = Bracket.build(names(8), "single")
    winners = play_chalk(bracket, {"W1.2"})  # s5 beats s4, then loses to s1
    assert bracket.placing(winners) == ["s1", "s2", "s3", "s5", "s4", "s6", "s7", "s8"]
    assert bracket.placing({"W1.1": "s1"}) == ["s1", *[f"s{n}" for n in range(2, 8)], "s8"]


def test_a_winner_who_is_not_a_side_of_its_series_is_refused():
    with pytest.raises(ValueError, match="not one of its sides"):
        Bracket.build(names(4)).sides({"W1.1": "s2"})
    with pytest.raises(ValueError, match="at least two"):
        Bracket.build(["alone"])


def test_seeding_by_order_rating_and_at_random_from_the_seed():
    bots = ["a", "b", "c", "d", "e"]
    assert seed_order(bots, "order", 1) == bots
    assert seed_order(bots, "rating", 1, {"a": 1, "b": 5, "c": 3, "d": 5, "e": 0}) == ["b", "d", "c", "a", "e"]
    drawn = seed_order(bots, "random", 7)
    assert drawn == seed_order(bots, "random", 7) and sorted(drawn) == bots
    assert len({tuple(seed_order(bots, "random", seed)) for seed in range(20)}) > 1
    with pytest.raises(ValueError, match="rating for every bot"):
        seed_order(bots, "rating", 1, {"a": 1})
