"""A Swiss round's pairing (league.plan.swiss_pairing) and the standings' tie-breaks (league.plan.swiss_standings).

Leagues are simulated here without games: each pairing's points are drawn from a seeded random
source, so the pairing meets standings of every shape; the hand cases are worked in the comments.
"""

import itertools
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from league.plan.swiss_lookahead import leaves_rounds, surely_pairs
from league.plan.swiss_pairing import SwissPairingError, max_rounds, pair_round, rounds_problem
from league.plan.swiss_standings import Meeting, PlayedRound, Standing, decided_by, final_order, standings


def simulate(field, rounds, games, seed, look_ahead=True):
    """A Swiss of ``field`` bots over ``rounds`` rounds, each pairing's points drawn at random; the rounds paired."""
    bots = [f"b{number}" for number in range(field)]
    draw = random.Random(seed)
    played, paired = [], []
    for number in range(rounds):
        pairing = pair_round(standings(bots, played, games), bots, seed, number + 1, rounds if look_ahead else None)
        paired.append(pairing)
        meetings = []
        for first, second in pairing.pairings:
            points = sum(draw.choice([0, 0.5, 1]) for _ in range(games))
            meetings.append(Meeting((first, second), (points, games - points), ((games + 1) // 2, games // 2)))
        played.append(PlayedRound(tuple(meetings), pairing.bye))
    return bots, played, paired


def meetings_of(paired):
    return [frozenset(pair) for pairing in paired for pair in pairing.pairings]


@pytest.mark.parametrize(("field", "rounds"), [(8, 4), (7, 3), (16, 5), (4, 3)])
def test_no_pair_meets_twice_while_the_field_surely_allows(field, rounds):
    # rounds <= N/2 (N even) or (N - 1)/2 (odd): each bot still has at least half the field unmet, so a
    # pairing without repeats always exists (Dirac); 4 bots in 3 rounds: the pairs left after two rounds
    # are the third round's.
    for seed in range(15):
        _, _, paired = simulate(field, rounds, 1, seed)
        met = meetings_of(paired)
        assert len(met) == len(set(met)) == rounds * (field // 2)
        assert all(not pairing.repeats for pairing in paired)


@pytest.mark.parametrize("field", [5, 6, 7, 8, 10])
def test_the_look_ahead_plays_as_many_rounds_as_the_field_allows_without_a_repeat(field):
    rounds = max_rounds(field)
    cornered = 0
    for seed in range(12):
        _, _, paired = simulate(field, rounds, 1, seed)
        met = meetings_of(paired)
        assert len(met) == len(set(met)) == rounds * (field // 2)  # every pair once: a whole round robin
        cornered += any(pairing.repeats for pairing in simulate(field, rounds, 1, seed, look_ahead=False)[2])
    if field in (5, 6):
        assert cornered  # round by round alone, some of these leagues ran into a corner


def test_the_look_ahead_sees_a_corner_coming():
    # After rounds a-d b-e c-f and a-e b-f c-d, the third round a-f b-d c-e leaves two triangles
    # (a b c, d e f): no fourth round without a repeat. Another third round leaves two rounds.
    rounds = [[("a", "d"), ("b", "e"), ("c", "f")], [("a", "e"), ("b", "f"), ("c", "d")]]
    played = [PlayedRound(tuple(Meeting(pair, (0.5, 0.5), (1, 0)) for pair in round_)) for round_ in rounds]
    table = standings("abcdef", played, 1)
    assert leaves_rounds(table, list("abcdef"), [("a", "f"), ("b", "d"), ("c", "e")], None, 2, [10_000]) is False
    assert leaves_rounds(table, list("abcdef"), [("a", "b"), ("c", "e"), ("d", "f")], None, 2, [10_000]) is True
    assert leaves_rounds(table, list("abcdef"), [("a", "b"), ("c", "e"), ("d", "f")], None, 2, [1]) is None
    third = pair_round(table, "abcdef", 1, 3, rounds=5)
    assert {frozenset(pair) for pair in third.pairings} != {frozenset("af"), frozenset("bd"), frozenset("ce")}
    assert surely_pairs(8, 4) and not surely_pairs(8, 5) and surely_pairs(7, 4) and surely_pairs(40, 39)


def test_a_field_left_without_new_pairings_repeats_the_fewest_and_says_which():
    # 6 bots whose three rounds met every pair across {a, b, c} x {d, e, f}: the unmet pairs are two
    # triangles, and a triangle of 3 cannot pair within itself, so round 4 repeats one pairing, no more.
    rounds = [
        [("a", "d"), ("b", "e"), ("c", "f")],
        [("a", "e"), ("b", "f"), ("c", "d")],
        [("a", "f"), ("b", "d"), ("c", "e")],
    ]
    played = [PlayedRound(tuple(Meeting(pair, (0.5, 0.5), (1, 0)) for pair in round_)) for round_ in rounds]
    table = standings("abcdef", played, 1)
    pairing = pair_round(table, "abcdef", 1, 4)
    assert len(pairing.repeats) == 1
    crossing = pairing.repeats[0]
    assert (set(crossing) & set("abc")) and (set(crossing) & set("def"))
    with pytest.raises(SwissPairingError, match="round 4: the 6 bots cannot all meet new opponents"):
        pair_round(table, "abcdef", 1, 4, rounds=5, allow_repeats=False)


def test_equal_scores_meet_and_two_small_jumps_beat_one_large_one():
    # a and b lead with 2 points each but met; c, d have 1, e, f none. Pairing a and b down to c and d
    # costs (2 half points)^2 twice; e and f stay together.
    table = {
        "a": Standing(2.0, (("b", 1.0),)),
        "b": Standing(2.0, (("a", 1.0),)),
        "c": Standing(1.0),
        "d": Standing(1.0),
        "e": Standing(0.0),
        "f": Standing(0.0),
    }
    pairs = {frozenset(pair) for pair in pair_round(table, "abcdef", 3, 2).pairings}
    assert frozenset("ef") in pairs
    assert {frozenset(pair) for pair in pairs if pair & {"a", "b"}} in (
        {frozenset("ac"), frozenset("bd")},
        {frozenset("ad"), frozenset("bc")},
    )
    # scores 2, 1, 1, 0: (a,b)+(c,d) and (a,c)+(b,d) cost 4 + 4 = 8 squared half points, (a,d)+(b,c)
    # 16 + 0: the same 4 half points in a plain sum, but the squares keep a off the bottom.
    table = {"a": Standing(2.0), "b": Standing(1.0), "c": Standing(1.0), "d": Standing(0.0)}
    pairs = {frozenset(pair) for pair in pair_round(table, "abcd", 3, 2).pairings}
    assert frozenset("ad") not in pairs


def test_the_bye_goes_to_the_lowest_ranked_bot_without_one():
    table = {"a": Standing(2.0), "b": Standing(1.0), "c": Standing(1.0), "d": Standing(0.0, byes=1), "e": Standing(1.0)}
    # ranked a, then b, c, e (level on 1 point, by the draw order a..e), then d, who had a bye: e sits out
    pairing = pair_round(table, "abcde", 5, 3)
    assert pairing.bye == "e"
    assert sorted(itertools.chain(*pairing.pairings)) == ["a", "b", "c", "d"]


@pytest.mark.parametrize("field", [5, 7])
def test_nobody_sits_out_twice_before_everyone_has_sat_out(field):
    for seed in range(10):
        bots, played, _ = simulate(field, field, 2, seed)
        byes = [round_.bye for round_ in played]
        assert sorted(byes) == sorted(bots)  # N rounds of N bots: one bye each
        table = standings(bots, played, 2)
        assert {standing.byes for standing in table.values()} == {1}


def test_seats_stay_balanced_within_one_with_one_game_a_round_and_exactly_with_two():
    for seed in range(15):
        bots, played, _ = simulate(16, 5, 1, seed)
        assert max(abs(standing.seat_lean) for standing in standings(bots, played, 1).values()) <= 1
        bots, played, _ = simulate(8, 4, 2, seed)
        assert {standing.seat_lean for standing in standings(bots, played, 2).values()} == {0}


def test_the_bot_that_sat_first_less_sits_first_and_a_level_pair_tosses_the_seeded_coin():
    table = {"a": Standing(1.0, firsts=1), "b": Standing(1.0, seconds=1)}
    assert pair_round(table, "ab", 0, 2).pairings == (("b", "a"),)
    level = {"a": Standing(), "b": Standing()}
    firsts = {pair_round(level, "ab", seed, 1).pairings[0][0] for seed in range(20)}
    assert firsts == {"a", "b"}  # the coin is the seed's, not a fixed side
    assert pair_round(level, "ab", 7, 1) == pair_round(level, "ab", 7, 1)


def test_the_same_standings_give_the_same_pairings_whatever_the_order_they_come_in():
    bots, played, paired = simulate(12, 4, 1, seed=3)
    table = standings(bots, played, 1)
    shuffled = list(table.items())
    for turn in range(5):
        random.Random(turn).shuffle(shuffled)
        assert pair_round(dict(shuffled), bots, 3, 5) == pair_round(table, bots, 3, 5)
    again = simulate(12, 4, 1, seed=3)[2]
    assert again == paired


def test_the_pairings_are_the_same_whatever_python_s_hash_seed():
    # networkx's matching is deterministic given the order nodes and edges go in; sets of names (whose
    # order moves with the hash seed) must never choose between equally good pairings.
    script = (
        "from tests.league.plan.test_swiss_pairing import simulate;"
        "print(repr([simulate(9, 9, 1, 4)[2], simulate(12, 6, 1, 2)[2], simulate(6, 5, 2, 1)[2]]))"
    )
    root = Path(__file__).resolve().parents[3]
    outputs = {
        subprocess.run(
            [sys.executable, "-c", script],
            env={**os.environ, "PYTHONHASHSEED": str(hash_seed), "PYTHONPATH": str(root)},
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for hash_seed in (1, 2)
    }
    here = repr([simulate(9, 9, 1, 4)[2], simulate(12, 6, 1, 2)[2], simulate(6, 5, 2, 1)[2]])
    assert outputs == {here + "\n"}


def test_too_many_rounds_are_refused_with_how_many_the_field_allows():
    assert (max_rounds(6), max_rounds(5), max_rounds(2)) == (5, 5, 1)
    assert rounds_problem(5, 6) is None and rounds_problem(5, 5) is None
    assert rounds_problem(6, 6) == (
        "swiss.rounds: 6 rounds need 6 opponents for each bot; this field of 6 bots allows at most 5 (N - 1):"
        " give rounds: 5 or fewer, or add bots"
    )
    assert rounds_problem(6, 5) == (
        "swiss.rounds: 6 rounds need 6 opponents or byes for each bot, a bye at most once; this field of 5 bots"
        " allows at most 5 (N, as the field is odd: each bot sits out once): give rounds: 5 or fewer, or add bots"
    )


def test_tie_breaks_on_a_hand_worked_league():
    # One game a round (a win 1, a draw 1/2):
    #   round 1: a beats b, c draws d;   round 2: a draws c, b beats d;   round 3: a beats d, b draws c.
    # Scores: a 1 + 1/2 + 1 = 2.5, b 0 + 1 + 1/2 = 1.5, c 1/2 + 1/2 + 1/2 = 1.5, d 1/2 + 0 + 0 = 0.5.
    # Buchholz (opponents' scores): a b+c+d = 3.5, b a+d+c = 4.5, c d+a+b = 4.5, d c+b+a = 5.5.
    # Sonneborn-Berger (own points x opponent's score):
    #   a 1*1.5 + 1/2*1.5 + 1*0.5 = 2.75, b 0*2.5 + 1*0.5 + 1/2*1.5 = 1.25,
    #   c 1/2*0.5 + 1/2*2.5 + 1/2*1.5 = 2.25, d 1/2*1.5 + 0 + 0 = 0.75.
    # Order: a; b and c level on score and Buchholz, c above on Sonneborn-Berger; d.
    def game(first, second, points):
        return Meeting((first, second), (points, 1 - points), (1, 0))

    rounds = [
        PlayedRound((game("a", "b", 1), game("c", "d", 0.5))),
        PlayedRound((game("a", "c", 0.5), game("b", "d", 1))),
        PlayedRound((game("a", "d", 1), game("b", "c", 0.5))),
    ]
    table = standings("abcd", rounds, 1)
    order = final_order(table, "dcba")
    assert [(tie.bot, tie.score, tie.buchholz, tie.sonneborn_berger) for tie in order] == [
        ("a", 2.5, 3.5, 2.75),
        ("c", 1.5, 4.5, 2.25),
        ("b", 1.5, 4.5, 1.25),
        ("d", 0.5, 5.5, 0.75),
    ]
    assert decided_by(order[1], order[2]) == "Sonneborn-Berger"
    assert decided_by(order[0], order[1]) == "score"


def test_a_bye_scores_a_win_of_each_game_and_adds_nothing_to_the_tie_breaks():
    # Two games a round, 3 bots: round 1 a takes 1.5 of 2 from b, c sits out (2 points);
    # round 2 c takes 1 from a, b sits out (2 points). Scores: a 2.5, b 2.5, c 3.
    # Buchholz: a b+c = 5.5, b a = 2.5, c a = 2.5. Sonneborn-Berger: a 1.5*2.5 + 1*3 = 6.75,
    # b 0.5*2.5 = 1.25, c 1*2.5 = 2.5. Order: c, then a above b on Buchholz.
    rounds = [
        PlayedRound((Meeting(("a", "b"), (1.5, 0.5), (1, 1)),), "c"),
        PlayedRound((Meeting(("c", "a"), (1.0, 1.0), (1, 1)),), "b"),
    ]
    table = standings("abc", rounds, 2)
    assert (table["c"].byes, table["b"].byes, table["a"].byes) == (1, 1, 0)
    order = final_order(table, "abc")
    assert [(tie.bot, tie.score, tie.buchholz, tie.sonneborn_berger) for tie in order] == [
        ("c", 3.0, 2.5, 2.5),
        ("a", 2.5, 5.5, 6.75),
        ("b", 2.5, 2.5, 1.25),
    ]
    assert decided_by(order[1], order[2]) == "Buchholz"
