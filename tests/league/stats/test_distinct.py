"""Identical games and identical pairs count once (league.stats.distinct), and a sweep is a bound (one_way).

The records are shaped as the store keeps them (fingerprint, spec, result); the bounds are checked
against hand computations.
"""

import math
from dataclasses import replace

import pytest

from league.stats.distinct import (
    MIN_UNITS_TO_JUDGE,
    OLD_FINGERPRINT_DIGITS,
    UnitLog,
    count_distinct,
    distinct_units,
    first_units,
    game_key,
)
from league.stats.game_record import GameRecord
from league.stats.one_way import bound_words, elo_bound, score_bound, t_bound
from league.stats.pairwise import pairwise_results
from league.stats.separation import lower_bound
from league.stats.sprt import H1, NELO_PER_T, SprtSettings, SprtState, elo_estimate, verdict_sentence
from league.store.results import fingerprint, record_fingerprint


def game(number, seats, moves, ranks, seed=0, game_name="versus2048", round_=0):
    """A stored record of two seats whose seat 0 replied ``moves`` (a word), fingerprinted as the store does."""
    spec = {"game": game_name, "variant": "v", "seats": list(seats), "seed": seed, "round": round_, "index": number}
    result = {"scores": [3 - r for r in ranks], "ranks": list(ranks), "termination": "NORMAL", "offenders": []}
    played = {"spec": spec, "rules": {}, "moves": [[0, "main", f"{seats[0]}-{moves}", 1, None]]}
    line = {"game_id": f"g{number}", "spec": spec, "result": result, "fingerprint": record_fingerprint(played)}
    return GameRecord.from_json(line)


def pair(number, first_moves, second_moves, winner="a", seed=0, **more):
    """A seat-swapped pair of a against b: ``winner`` wins both games (None: each seat 0 wins)."""
    first_ranks = [1, 2] if winner in ("a", None) else [2, 1]
    second_ranks = [1, 2] if winner in ("b", None) else [2, 1]
    return [
        game(2 * number, ("a", "b"), first_moves, first_ranks, seed, round_=number, **more),
        game(2 * number + 1, ("b", "a"), second_moves, second_ranks, seed, round_=number, **more),
    ]


def test_identical_pairs_count_once_and_a_pair_with_one_new_game_is_new():
    units = [pair(0, "x", "y"), pair(1, "x", "y"), pair(2, "x", "z"), pair(3, "w", "y"), pair(4, "x", "z")]
    assert distinct_units(units) == [True, False, True, True, False]
    log = UnitLog()
    for unit in units:
        log.take(unit)
    assert (log.units, log.repeated, log.distinct) == (5, 2, 3)
    assert log.distinct_games == 4  # a-x, b-y, b-z, a-w
    assert distinct_units([list(reversed(pair(0, "x", "y"))), pair(1, "x", "y")]) == [True, False]


def test_a_game_is_its_seats_moves_result_and_for_a_seeded_game_its_seed():
    one, again = game(0, ("a", "b"), "x", [1, 2], seed=1), game(1, ("a", "b"), "x", [1, 2], seed=2)
    assert game_key(one) == game_key(again), "versus2048 draws nothing from the seed: the same game"
    other_result = game(2, ("a", "b"), "x", [2, 1], seed=1)
    assert game_key(one) != game_key(other_result)
    dealt = [game(k, ("a", "b"), "x", [1, 2], seed=k, game_name="nimmt") for k in (3, 4)]
    assert game_key(dealt[0]) != game_key(dealt[1]), "the deal comes from the seed: the same replies, other games"
    assert count_distinct([one, again, other_result, *dealt]) == 4
    stored_before = [replace(record, fingerprint="0" * OLD_FINGERPRINT_DIGITS) for record in (*dealt, one, again)]
    assert count_distinct(stored_before) == 3, "an old fingerprint lacks the seed: a seeded game's key adds it"


def test_a_fingerprint_holds_each_seats_replies_in_their_order_the_opening_and_a_seeded_games_seed():
    setups = [[0, "setup", "SET:ABCD", 3, None], [1, "setup", "SET:EFGH", 5, None], [0, "play", "MOV:A,N", 1, None]]
    swapped = [setups[1], setups[0], setups[2]]
    assert fingerprint(["a", "b"], setups) == fingerprint(["a", "b"], swapped), "simultaneous replies, either order"
    assert fingerprint(["a", "b"], setups) != fingerprint(["b", "a"], setups)
    assert fingerprint(["a", "b"], setups) != fingerprint(["a", "b"], setups, opening=["MOV:B,N"])
    assert fingerprint(["a", "b"], setups) != fingerprint(["a", "b"], setups[:2] + [[0, "play", "MOV:A,E", 1, None]])
    for name, rules, seeded in [
        ("versus2048", {}, False),
        ("geister", {}, False),
        ("attack2048", {}, False),
        ("attack2048", {"opening": "random_two"}, True),
        ("pk2048", {}, True),
        ("nimmt", {}, True),
    ]:
        prints = {
            record_fingerprint(
                {"spec": {"game": name, "seats": ["a", "b"], "seed": seed}, "rules": rules, "moves": setups}
            )
            for seed in (1, 2)
        }
        assert len(prints) == (2 if seeded else 1), (name, rules)


def test_which_copy_counts_depends_on_the_units_order_never_on_the_records_order():
    records = [*pair(0, "x", "y"), *pair(1, "x", "y"), *pair(2, "p", "q")]
    kept = first_units(records, lambda record: record["spec"]["round"])
    assert [record["game_id"] for record in kept] == ["g0", "g1", "g4", "g5"]
    shuffled = first_units(records[::-1], lambda record: record["spec"]["round"])
    assert sorted(record["game_id"] for record in shuffled) == ["g0", "g1", "g4", "g5"]


def test_the_ratings_count_a_repeated_pair_once_and_say_how_many_went():
    once = pairwise_results(["a", "b"], [*pair(0, "x", "y", winner=None), *pair(1, "p", "q")])
    copies = [record for number in range(2, 12) for record in pair(number, "x", "y", winner=None)]
    many = pairwise_results(["a", "b"], [*pair(0, "x", "y", winner=None), *pair(1, "p", "q"), *copies])
    assert many.units == once.units == 2
    assert (many.counts() == once.counts()).all()
    assert (many.repeated_units, many.repeated_games) == (10, 20)


def test_an_sprt_on_repeated_pairs_does_not_decide_and_says_why():
    state = SprtState(SprtSettings(0, 20), game="versus2048")
    for number in range(40):
        first, second = pair(number, "x", "y", seed=number)
        assert state.take(first, second, "a") is None
        if state.over:
            break
    assert state.repeated and state.verdict is None
    assert state.seen.units == MIN_UNITS_TO_JUDGE and state.pairs == 1 and state.counts == [0, 0, 0, 0, 1]
    assert verdict_sentence(state, "a", "b", capped=False) == (
        "SPRT: no verdict: a and b played 2 distinct games in 8 pairs (7 repeated earlier ones, counted once):"
        " both bots are deterministic and versus2048 draws nothing from the seed; add `openings: {plies: 4}` to"
        " the league file so that each pair starts from its own position"
    )


def test_an_sprt_whose_openings_repeat_asks_for_more_of_them():
    state = SprtState(SprtSettings(0, 20), game="versus2048")
    for number in range(MIN_UNITS_TO_JUDGE):
        first, second = (replace(r, spec=replace(r.spec, opening={"plies": 1})) for r in pair(number, "x", "y", number))
        state.take(first, second, "a")
    assert state.repeated and state.seen.opened
    assert verdict_sentence(state, "a", "b", capped=False).endswith(
        "versus2048 draws nothing from the seed; its openings give too few positions: give more plies"
        " (`openings: {plies: 8}`) or an openings file with more lines"
    )


@pytest.mark.parametrize(
    ("played", "said"),
    [
        ("xyxzy", "3 pairs, 6 games distinct (2 more pairs repeated earlier ones and count for nothing)"),
        ("xyx", "2 pairs, 4 games distinct (1 more pair repeated earlier ones and count for nothing)"),
    ],
)
def test_an_sprt_says_how_many_pairs_it_did_not_count(played, said):
    state = SprtState(SprtSettings(0, 20), game="versus2048")
    for number, moves in enumerate(played):
        state.take(*pair(number, moves, moves, winner=None), "a")
    assert said in verdict_sentence(state, "a", "b", False)


def test_an_sprt_on_distinct_pairs_decides_as_before():
    settings = SprtSettings(0, 20)
    by_score, by_games = SprtState(settings), SprtState(settings)
    outcomes = ["a", "a", None, "a", "b", "a", None, "a"] * 20
    for number, winner in enumerate(outcomes):
        expected = by_score.take_score({"a": 1.0, "b": 0.0, None: 0.5}[winner])
        assert by_games.take(*pair(number, f"x{number}", f"y{number}", winner=winner), "a") == expected
        if expected is not None:
            break
    assert by_games.verdict == by_score.verdict == H1
    assert by_games.counts == by_score.counts and by_games.llr == by_score.llr and by_games.pairs > MIN_UNITS_TO_JUDGE
    assert not by_games.repeated and by_games.seen.repeated == 0


def test_all_ten_won_is_a_bound_checked_by_hand():
    # 0.05 ** (1 / 10) = exp(ln 0.05 / 10) = exp(-0.2995732) = 0.7411344
    assert score_bound(10) == pytest.approx(0.7411344, abs=1e-7)
    # 400 log10(0.7411344 / 0.2588656) = 400 log10(2.862999) = 400 * 0.4568227 = 182.729
    assert elo_bound(10) == pytest.approx(182.729, abs=1e-3)
    assert lower_bound(10) == elo_bound(10) and lower_bound(4) is None  # 4 games bound nothing above 0
    assert bound_words(elo_bound(10), won=True) == "at least +182.7 Elo at 95%"
    assert bound_words(elo_bound(10), won=False) == "at most -182.7 Elo at 95%"


def test_ten_pentanomial_pairs_all_won_are_a_normalized_elo_bound_checked_by_hand():
    # share s = 0.7411344 of pairs won, the rest lost: t = (s - 1/2) / sqrt(s (1 - s)) = 0.2411344 / 0.4380109
    t = 0.2411344 / 0.4380109
    assert t_bound(10, 1.0) == pytest.approx(t, abs=1e-6)
    nelo = t / math.sqrt(2) * NELO_PER_T  # a game's t-value is a pair's over sqrt(2): about 135.2
    won, lost = elo_estimate([0, 0, 0, 0, 10]), elo_estimate([10, 0, 0, 0, 0])
    assert won == f"at least {nelo:+.1f} normalized Elo at 95% (all 10 pairs won both games for the candidate)"
    assert lost == f"at most {-nelo:+.1f} normalized Elo at 95% (all 10 pairs lost both games for the candidate)"
    assert nelo == pytest.approx(135.25, abs=0.01)
    assert "±" not in elo_estimate([0, 0, 0, 0, 38]) and "+393.7" in elo_estimate([0, 0, 0, 0, 38])
    assert "±" in elo_estimate([0, 1, 3, 4, 2])  # results that differ have a fit and an interval


def test_an_adaptive_league_of_repeated_units_stops_without_claims_and_says_why():
    from league.plan.adaptive import repetition_line, take_batch
    from league.plan.adaptive_batches import STOP_REPEATED, AdaptiveBatches, AdaptiveSettings

    league = AdaptiveBatches(["a", "b"], AdaptiveSettings(warmup_units=4, batch_units=4, max_units=400))
    seen: dict = {}
    take_batch(league, [record for number in range(4) for record in pair(number, "x", "y", winner=None)], seen)
    assert league.stop is None and league.ranking.pairs[("a", "b")].count == 1, "the warm-up's copies count once"
    number = 4
    while league.stop is None:
        units = sum(league.batches[league.taken].values())
        batch = [record for k in range(units) for record in pair(number + k, "x", "y", winner=None)]
        number += units
        take_batch(league, batch, seen)
    assert league.stop == STOP_REPEATED and league.ranking.pairs[("a", "b")].count == 1
    assert repetition_line(seen, "versus2048").startswith(
        f"a and b played 2 distinct games in {number} seat-swapped pairs ({number - 1} repeated earlier ones"
    )


def test_league_compare_counts_repeated_clusters_once():
    from engine.attack2048 import Attack2048
    from league.stats.variant_compare import compare_variants
    from tests.conftest import typed
    from tests.league.stats.test_variant_compare import BOTS, pair_records

    records = typed(pair_records(["easy", "hard"], {"easy": (0, 0), "hard": (-300, -120)}, rounds=6))
    rounds = 1 + max(record.spec.round for record in records)
    records = [  # a game without randomness: the same moves on another seed are the same game
        replace(
            r, spec=replace(r.spec, game="versus2048"), fingerprint=f"{r.spec.variant}-{r.spec.round}-{r.spec.seats}"
        )
        for r in records
    ]
    copies = [
        replace(r, game_id=f"{r.game_id}-again", spec=replace(r.spec, round=rounds + r.spec.round)) for r in records
    ]
    once = compare_variants(BOTS, records, ["easy", "hard"], Attack2048, samples=200)
    twice = compare_variants(BOTS, records + copies, ["easy", "hard"], Attack2048, samples=200)
    assert twice.differences.equals(once.differences)
    assert twice.by_variant["games"].tolist() == [2 * games for games in once.by_variant["games"]]
    assert twice.by_variant["distinct_games"].tolist() == once.by_variant["distinct_games"].tolist()
    shown = ["mean_score", "first_seat_points", "first_seat_low_95", "first_seat_high_95"]
    assert twice.by_variant[shown].equals(once.by_variant[shown])
