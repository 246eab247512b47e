"""assess: the tables and sentences the report shows, for pairs, tables, two bots, idle bots and no games."""

from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from benchmarks.simulated_records import record, tables
from league.stats.analysis import NEIGHBOUR_COLUMNS, STRENGTH_COLUMNS, assess
from league.stats.pairwise import pairwise_results
from league.stats.placing import rank_points

from .simulated_leagues import elo_model, round_robin

SKILLS = {"strong": 200, "middle": 0, "weak": -200}


def test_assess_gives_the_tables_the_report_writes():
    names = [*SKILLS, "idle"]
    found = assess(names, round_robin(elo_model(SKILLS), list(SKILLS), rounds=10), ["middle", "strong", "weak"])
    assert found.strength.columns.tolist() == STRENGTH_COLUMNS
    assert found.strength["bot"].tolist() == ["strong", "middle", "weak"]
    assert found.strength["place"].tolist() == [1, 2, 3]
    assert found.strength["games"].tolist() == [40, 40, 40]
    assert found.unrated == ["idle"]
    assert found.los.index.tolist() == found.los.columns.tolist() == ["strong", "middle", "weak"]
    assert found.rank_probabilities.index.tolist() == ["strong", "middle", "weak"]
    assert found.rank_probabilities.columns.tolist() == [1, 2, 3]
    assert found.rank_probabilities.sum(axis=1).tolist() == pytest.approx([1, 1, 1], abs=2e-3)
    assert found.strength["p_first"].tolist() == found.rank_probabilities[1].tolist()
    assert found.neighbours.columns.tolist() == NEIGHBOUR_COLUMNS
    assert found.neighbours[["higher", "lower"]].values.tolist() == [["strong", "middle"], ["middle", "weak"]]
    assert found.agreement.discordant == [("middle", "strong")]
    assert len(found.figures) == 6 and all(sentence.endswith(".") for sentence in found.figures)
    assert found.verdict.endswith(".") and found.method


def test_the_same_games_in_any_order_give_the_same_figures():
    records = round_robin(elo_model(SKILLS, 30), list(SKILLS), rounds=6, seed=2)
    first = assess(list(SKILLS), records, list(SKILLS))
    again = assess(list(SKILLS), records[::-1], list(SKILLS))
    for name in ("strength", "los", "rank_probabilities", "neighbours"):
        pd.testing.assert_frame_equal(getattr(first, name), getattr(again, name))
    assert first.figures == again.figures and first.verdict == again.verdict
    assert first.games_needed == again.games_needed


def test_every_variant_of_a_pair_is_one_resampling_unit():
    one = pairwise_results(list(SKILLS), round_robin(elo_model(SKILLS), list(SKILLS), rounds=4))
    three = pairwise_results(
        list(SKILLS), round_robin(elo_model(SKILLS), list(SKILLS), rounds=4, variants=("a", "b", "c"))
    )
    assert one.units == three.units == 4 * 3
    assert three.row_count.sum() == 3 * one.row_count.sum()


def test_two_bots_an_unbeaten_one_and_a_winless_one():
    records = round_robin(lambda a, b: 1.0 if a == "champion" else 0.0, ["champion", "victim"], rounds=30)
    found = assess(["champion", "victim"], records, ["champion", "victim"])
    champion, victim = found.strength.iloc[0], found.strength.iloc[1]
    # the games bound the gap from below only (30 pairs all won: 0.05^(1/30) of the points, 400 log10(s / (1 - s)))
    assert champion["bot"] == "champion" and np.isnan(champion["high_95"]) and np.isfinite(champion["low_95"])
    assert np.isnan(victim["low_95"]) and np.isfinite(victim["high_95"])
    share = 0.05 ** (1 / 30)
    assert champion["gap_below_at_least"] == pytest.approx(400 * np.log10(share / (1 - share)), abs=0.05)
    assert "one pair" in found.transitivity.meaning
    assert found.cycles.meaning == "With 2 rated bots there can be no 3-cycle."
    assert found.verdict == (
        "Every place (1-2) is settled at 95%; the bots fall into 2 groups (champion | victim): where one never lost"
        " a point to another, their gap is a lower bound, not measured."
    )
    assert found.strength["group"].tolist() == [1, 2]
    pair = found.neighbours.iloc[0]
    assert pair["separated"] and pair["settled"] and pair["more_games_per_pair"] == 0
    assert found.games_needed == ["Every neighbour's order is settled at 95%: no more games are needed."]


def test_a_league_without_games_says_so():
    found = assess(["a", "b"], [], ["a", "b"])
    assert found.strength.empty and found.los.empty and found.unrated == ["a", "b"]
    assert found.verdict == "With fewer than two rated bots there is no ranking to settle."
    assert "no first-seat advantage" in found.seat_advantage.meaning


def test_infra_errors_and_solo_games_are_left_out_and_strangers_refused():
    records = round_robin(elo_model(SKILLS), list(SKILLS), rounds=2)
    broken = replace(records[0], result=replace(records[0].result, termination="INFRA_ERROR", ranks=[2, 1]))
    solo = record(99, ["strong"], [1], round_=0)
    assert pairwise_results(list(SKILLS), [*records, broken, solo]).row_count.sum() == len(records)
    with pytest.raises(ValueError, match="stranger"):
        pairwise_results(list(SKILLS), [record(0, ["strong", "stranger"], [1, 2], round_=0)])


def test_tables_of_mixed_sizes_are_assessed():
    ratings = {name: 100 * k for k, name in enumerate("abcde")}
    records = tables(ratings, count=20, size=3) + tables(ratings, count=20, size=4, seed=9)
    records = [
        replace(game, spec=replace(game.spec, round=number // 3 if number < 60 else 20 + (number - 60) // 4))
        for number, game in enumerate(records)
    ]
    found = assess(list(ratings), records, list("edcba"))
    assert pairwise_results(list(ratings), records).units == 40
    assert found.strength["games"].sum() == 60 * 3 + 80 * 4
    assert found.seat_advantage.tables


def test_pairwise_results_split_a_table_into_wins_draws_and_losses():
    results = pairwise_results(["a", "b", "c"], [record(0, ["b", "a", "c"], [1, 1, 3], round_=0)])
    counts = results.counts()
    a, b, c = (results.bots.index(name) for name in "abc")
    assert counts[b, a].tolist() == [0, 1, 0], "equal ranks draw"
    assert counts[b, c].tolist() == [1, 0, 0] and counts[a, c].tolist() == [1, 0, 0]
    assert counts.sum() == 3


def test_draws_count_half_a_point():
    records = round_robin(lambda first, second: 1.0 if first == "a" else 0.0, ["a", "b"], rounds=10, draws=0.5)
    a_points = sum(rank_points(r.result.ranks, r.spec.seats.index("a")) for r in records)
    assert any(r.result.ranks == [1, 1] for r in records) and 0.6 < a_points / 20 < 0.9
    found = assess(["a", "b"], records, ["a", "b"])
    assert found.strength.set_index("bot").loc["a", "score_rate"] == pytest.approx(a_points / 20, abs=1e-3)


def test_place_probabilities_do_not_claim_what_every_resample_repeats():
    # a and b split every seat-swapped pair (seat 0 always wins): every bootstrap resample is the
    # same 4-4, yet that tells nothing about which of the two is stronger.
    records = []
    for round_ in range(4):
        for variant in ("v", "w"):
            records.append(record(len(records), ["a", "b"], [1, 2], round_, variant))
            records.append(record(len(records), ["b", "a"], [1, 2], round_, variant))
        records.append(record(len(records), ["a", "c"], [1, 2], round_))
        records.append(record(len(records), ["c", "a"], [2, 1], round_))
    found = assess(["a", "b", "c"], records, ["a", "b", "c"])
    places = found.rank_probabilities
    assert 0.2 < places.loc["a", 1] < 0.8 and 0.2 < places.loc["b", 1] < 0.8
    los = found.los.loc["a", "b"]
    assert 0.2 < los < 0.8
    assert "No place is settled" in found.verdict or "not" in found.verdict
    assert ((places.sum(axis=1) - 1).abs() <= 0.002).all()


def test_games_needed_count_per_pair_and_variant_and_name_neighbours_that_never_meet():
    # a gauntlet: x plays a and b (4 games a pair in each of 2 variants); a and b never meet. a wins
    # two games of 8: had it won none, x's and b's group would be separated from a's (test_separation).
    records = []
    for variant in ("v", "w"):
        for round_ in range(2):
            for other, x_wins in (("a", variant == "v" or round_ == 0), ("b", round_ == 0)):
                records.append(record(len(records), ["x", other], [1, 2] if x_wins else [2, 1], round_, variant))
                records.append(record(len(records), [other, "x"], [2, 1] if x_wins else [1, 2], round_, variant))
    found = assess(["x", "a", "b"], records, ["x", "b", "a"])
    needed = " ".join(found.games_needed)
    assert "per pair and variant" in needed and "(4 so far)" in needed, needed
    field = found.neighbours[found.neighbours["higher"].isin(["a", "b"]) & found.neighbours["lower"].isin(["a", "b"])]
    assert len(field) == 1
    assert any("never play each other here" in line for line in found.games_needed if "b above a" in line)
