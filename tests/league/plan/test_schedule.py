"""Schedules are pure and fair: every pair meets equally often, seats balance, ids are stable."""

from collections import Counter

import pytest

from league.plan.schedule import gauntlet, round_robin

BOTS = ["a", "b", "c", "d", "e"]


@pytest.mark.parametrize("games_per_pair", [1, 2, 4, 6])
def test_every_pair_meets_equally_often_per_variant(games_per_pair):
    games = round_robin("L", BOTS, ["v1", "v2"], games_per_pair, seed=1)
    assert len(games) == 10 * games_per_pair * 2
    meetings = Counter((g.variant, frozenset(g.seats)) for g in games)
    assert set(meetings.values()) == {games_per_pair}


def test_seats_are_balanced_with_an_even_count():
    games = round_robin("L", BOTS, ["v"], 4, seed=1)
    first = Counter(g.seats[0] for g in games)
    second = Counter(g.seats[1] for g in games)
    assert first == second
    for pair in {frozenset(g.seats) for g in games}:
        orders = Counter(g.seats for g in games if frozenset(g.seats) == pair)
        assert len(orders) == 2 and set(orders.values()) == {2}


def test_a_seat_swapped_pair_shares_its_seed_and_variants_share_seeds():
    games = round_robin("L", BOTS, ["v1", "v2"], 2, seed=3)
    by_key = {}
    for g in games:
        by_key.setdefault((frozenset(g.seats), g.round), set()).add(g.seed)
    assert all(len(seeds) == 1 for seeds in by_key.values())
    assert len({g.seed for g in games}) == len(by_key)
    assert all(0 <= g.seed < 2**63 for g in games)


def test_ids_are_unique_and_stable():
    first = round_robin("L", BOTS, ["v1", "v2"], 4, seed=9)
    again = round_robin("L", BOTS, ["v1", "v2"], 4, seed=9)
    assert [g.game_id for g in first] == [g.game_id for g in again]
    assert len({g.game_id for g in first}) == len(first)
    assert [g.index for g in first] == list(range(len(first)))
    other_league = round_robin("M", BOTS, ["v1", "v2"], 4, seed=9)
    assert not {g.game_id for g in first} & {g.game_id for g in other_league}


def test_a_different_seed_or_content_makes_other_games():
    one, two = round_robin("L", BOTS, ["v"], 2, seed=1), round_robin("L", BOTS, ["v"], 2, seed=2)
    assert not {g.game_id for g in one} & {g.game_id for g in two}
    assert [g.seed for g in one] != [g.seed for g in two]
    changed_bot = round_robin("L", BOTS, ["v"], 2, seed=1, fingerprints={"a": "new command"})
    unchanged = {g.game_id for g in one if "a" not in g.seats}
    assert {g.game_id for g in changed_bot if "a" not in g.seats} == unchanged
    assert not {g.game_id for g in changed_bot if "a" in g.seats} & {g.game_id for g in one}


def test_gauntlet_pairs_candidates_with_the_field_only():
    games = gauntlet("L", ["a"], ["b", "c", "d"], ["v"], 2, seed=1)
    assert len(games) == 6
    assert all("a" in g.seats for g in games)
    assert Counter(frozenset(g.seats) for g in games) == {frozenset("ab"): 2, frozenset("ac"): 2, frozenset("ad"): 2}
