"""The Bradley-Terry fit recovers known strengths, and the bootstrap says when an order is real."""

import random

import pytest

from league.analysis import bootstrap, fit, pair_counts


def games(skills, count, seed=1):
    rng = random.Random(seed)
    names = list(skills)
    records = []
    for index in range(count):
        a, b = rng.sample(names, 2)
        p_a = 1 / (1 + 10 ** ((skills[b] - skills[a]) / 400))
        ranks = [1, 2] if rng.random() < p_a else [2, 1]
        records.append({"spec": {"index": index, "seats": [a, b]}, "result": {"ranks": ranks}})
    return records


def test_fit_recovers_elo_differences():
    skills = {"weak": -150, "middle": 0, "strong": 150}
    elo = fit(pair_counts(list(skills), games(skills, 30_000)))
    assert elo[2] - elo[1] == pytest.approx(150, abs=15)
    assert elo[1] - elo[0] == pytest.approx(150, abs=15)
    assert abs(sum(elo)) < 1e-6


def test_draws_count_half_and_unbeaten_bots_stay_finite():
    records = [{"spec": {"seats": ["a", "b"]}, "result": {"ranks": [1, 1]}}] * 10
    assert fit(pair_counts(["a", "b"], records)).tolist() == pytest.approx([0.0, 0.0])
    records = [{"spec": {"seats": ["a", "b"]}, "result": {"ranks": [1, 2]}}] * 10
    strong, weak = fit(pair_counts(["a", "b"], records))
    assert strong > 200 and weak < -200 and strong < 2000  # 10-0 with half a virtual draw: 21 to 1


def test_bootstrap_separates_a_real_gap_and_not_a_coin_flip():
    skills = {"a": 200, "b": 0, "c": 0}
    strengths, shares = bootstrap(list(skills), games(skills, 3000))
    assert strengths[0].name == "a" and strengths[0].low > max(s.high for s in strengths[1:])
    assert shares[("a", strengths[1].name)] >= 0.95
    assert 0.05 < shares[(strengths[1].name, strengths[2].name)] < 0.95


def test_bootstrap_is_the_same_for_the_same_games():
    skills = {"a": 50, "b": 0, "c": -50}
    records = games(skills, 500)
    assert bootstrap(list(skills), records) == bootstrap(list(skills), records)
