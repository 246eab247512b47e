"""Are strong programs strong? Reliability, prediction, transitivity, cycles, seat advantage, agreement, verdict."""

from dataclasses import replace

import numpy as np
import pytest

from benchmarks.simulated_records import record, tables
from league.stats.analysis import assess
from league.stats.bradley_terry import fit
from league.stats.cycles import logit_variance, pair_evidence, pair_scores, significant_cycles, transitivity
from league.stats.evidence import agreement, kendall_tau, prediction, reliability
from league.stats.pairwise import pairwise_results
from league.stats.strength import wilson_interval
from league.stats.verdict import Neighbours, league_games_needed, settled_places

from .simulated_leagues import elo_model, rock_paper_scissors, round_robin

SIX = {f"bot{k}": -300 + 120 * k for k in range(6)}
RPS = ["rock", "paper", "scissors"]


def counts_from_rates(rates, games=100):
    """Count tables in which i scores rates[i][j] against j (half of the games from each seat)."""
    size = len(rates)
    counts = np.zeros((size, size, 3))
    for i in range(size):
        for j in range(size):
            if i != j:
                wins = rates[i][j] * games / 2
                counts[i, j] = [wins, 0, games / 2 - wins]
    return counts


def test_a_league_ordered_by_strength_is_transitive_reliable_and_predictable():
    names = list(SIX)
    found = assess(names, round_robin(elo_model(SIX, 40), names, rounds=20, seed=3), names[::-1])
    assert found.transitivity.share > 0.9 and not found.transitivity.noisy
    assert found.reliability.tau >= 0.8
    assert found.prediction.better and found.prediction.log_loss < found.prediction.baseline_log_loss
    assert found.prediction.accuracy > found.prediction.baseline_accuracy + 0.1
    assert found.cycles.total == 0
    assert found.agreement.tau == 1.0 and not found.agreement.discordant
    assert found.strength["bot"].tolist() == names[::-1]
    assert found.verdict.startswith("General strength explains 9")


def test_rock_paper_scissors_is_cyclic_and_its_cycle_is_named():
    found = assess(RPS, round_robin(rock_paper_scissors(), RPS, rounds=20, seed=1), RPS)
    assert found.transitivity.share < 0.15
    assert found.cycles.total == 1
    assert found.cycles.cycles == [("rock", "scissors", "paper")]
    assert "rock beats scissors, scissors beats paper, paper beats rock" in found.cycles.meaning
    assert not found.prediction.better
    assert "no place is settled" in found.verdict
    assert "a significant 3-cycle (rock beats scissors, scissors beats paper, paper beats rock)" in found.verdict


def test_coin_flips_predict_nothing_and_settle_no_place():
    names = list("abcdef")
    for seed in range(3):
        found = assess(names, round_robin(lambda a, b: 0.5, names, rounds=10, seed=seed), names)
        assert not found.prediction.better
        assert found.prediction.gain < 0.02
        assert not found.neighbours["settled"].any()
        assert found.transitivity.noisy
        assert found.verdict.startswith("The results are mostly sampling noise; no place is settled at 95%")


def test_the_hodge_share_is_one_for_a_potential_and_zero_for_a_pure_cycle():
    ordered = counts_from_rates([[0.5, 0.8, 0.9], [0.2, 0.5, 0.8], [0.1, 0.2, 0.5]])
    potential = np.array([1.0, 0.0, -1.5])  # logit(rate) = potential difference: exactly transitive
    rates = 1 / (1 + np.exp(-(potential[:, None] - potential[None, :])))
    exact = counts_from_rates(rates, games=10**6)
    assert transitivity(list("abc"), exact).share == pytest.approx(1.0, abs=1e-4)
    assert 0.9 < transitivity(list("abc"), ordered).share < 1.0
    cycle = counts_from_rates([[0.5, 0.8, 0.2], [0.2, 0.5, 0.8], [0.8, 0.2, 0.5]])
    assert transitivity(list("abc"), cycle).share == pytest.approx(0.0, abs=1e-9)
    assert transitivity(list("abc"), cycle).cycle_rank == 1


def test_two_bots_and_a_tree_of_pairs_cannot_show_cycles():
    two = counts_from_rates([[0.5, 0.7], [0.3, 0.5]])
    assert transitivity(["a", "b"], two).cycle_rank == 0
    assert "by construction" in transitivity(["a", "b"], two).meaning
    pair = pairwise_results(["a", "b"], round_robin(lambda a, b: 0.7, ["a", "b"], rounds=5))
    assert significant_cycles(pair).meaning == "With 2 rated bots there can be no 3-cycle."
    chain = counts_from_rates([[0.5, 0.9, 0], [0.1, 0.5, 0.9], [0, 0.1, 0.5]])
    chain[0, 2] = chain[2, 0] = 0  # a and c never met
    assert transitivity(list("abc"), chain).cycle_rank == 0


def test_a_cycle_needs_every_edge_significant():
    beats = {("a", "b"), ("b", "c"), ("c", "a")}
    clear = round_robin(lambda x, y: 0.85 if (x, y) in beats else 0.15, list("abc"), rounds=40, seed=3)
    assert significant_cycles(pairwise_results(list("abc"), clear)).cycles == [("a", "b", "c")]
    even = {("c", "a"), ("a", "c")}  # c against a: a coin toss
    weak = round_robin(lambda x, y: 0.5 if (x, y) in even else 0.85 if (x, y) in beats else 0.15, list("abc"), 40, 3)
    assert significant_cycles(pairwise_results(list("abc"), weak)).total == 0


CYCLIC_ORDERS = [["a", "b", "c"], ["b", "c", "a"], ["c", "a", "b"]]
RPS_TABLE = ["a", "b", "c"]


def alike_tables(count):
    """Tables of a, b, c whose games all end alike: every rotation and variant in the same finishing order.

    The orders take turns table by table, so a beats b, b beats c and c beats a at 2 tables in 3:
    a cycle, but each table's 6 games are one outcome, not 6.
    """
    records = []
    for table in range(count):
        order = CYCLIC_ORDERS[table % 3]
        for variant in ("v", "w"):
            for rotation in range(3):
                seats = RPS_TABLE[rotation:] + RPS_TABLE[:rotation]
                records.append(record(len(records), seats, [order.index(name) + 1 for name in seats], table, variant))
    return records


def test_a_cycle_at_few_tables_whose_games_end_alike_is_not_significant_counted_on_tables():
    few = pairwise_results(RPS_TABLE, alike_tables(9))
    independent_wilson = wilson_interval(*pair_scores(few.counts()))[0] > 0.5  # every result counted alone
    assert independent_wilson[0, 1] and independent_wilson[1, 2] and independent_wilson[2, 0], "54 results call it"
    assert significant_cycles(few).total == 0, "9 tables do not"
    rates, effective = pair_evidence(few)
    assert rates[0, 1] == pytest.approx(2 / 3) and effective[0, 1] == pytest.approx(8)  # 54 / deff, deff 6 * 9 / 8
    many = pairwise_results(RPS_TABLE, alike_tables(90))
    found = significant_cycles(many)
    assert found.cycles == [("a", "b", "c")]
    assert "each result at 95% (a table's games counted as one unit): a beats b, b beats c, c beats a" in found.meaning


def test_seat_swapped_twins_count_once_and_independent_games_fully():
    twins = round_robin(rock_paper_scissors(), RPS, rounds=12, seed=1)
    twins = [  # the swapped game ends as the first did
        game
        for first, second in zip(twins[::2], twins[1::2], strict=True)
        for game in (first, replace(second, result=replace(second.result, ranks=first.result.ranks[::-1])))
    ]
    rates, effective = pair_evidence(pairwise_results(RPS, twins))
    varied = ~np.isin(rates, [0.0, 1.0]) & ~np.isnan(rates)
    assert varied.sum() == 6 and effective[varied].max() <= 12, "24 games in 12 seat-swapped pairs: 12 outcomes"
    independent = pairwise_results(RPS, round_robin(rock_paper_scissors(), RPS, rounds=40, seed=2))
    _, effective = pair_evidence(independent)
    assert effective[0, 1] > 50  # 80 games, about as many outcomes
    assert significant_cycles(independent).cycles == [("rock", "scissors", "paper")]


def test_a_pair_that_always_wins_counts_its_units_not_its_games():
    records = [
        record(index, seats, [1, 2] if seats[0] == "a" else [2, 1], index // 2)
        for index, seats in enumerate([("a", "b"), ("b", "a")] * 3)
    ]
    rates, effective = pair_evidence(pairwise_results(["a", "b"], records))
    assert rates[0, 1] == 1 and effective[0, 1] == 3  # 6 games won, 3 seat-swapped pairs


def test_logit_variance_is_that_of_the_smoothed_logit():
    rng = np.random.default_rng(0)
    draws = rng.binomial(10, 0.8, 200_000)
    smoothed = (draws + 1) / 12
    assert logit_variance(np.array([10.0]), np.array([0.8]))[0] == pytest.approx(
        np.var(np.log(smoothed / (1 - smoothed))), rel=0.02
    )


def test_kendall_tau_b_counts_ties():
    assert kendall_tau([1, 2, 3], [1, 2, 3]) == 1.0
    assert kendall_tau([1, 2, 3], [3, 2, 1]) == -1.0
    assert kendall_tau([1, 2, 2], [1, 2, 3]) == pytest.approx(2 / 6**0.5)
    assert kendall_tau([1, 1], [1, 2]) is None


def test_agreement_names_the_neighbours_the_two_orders_swap():
    found = agreement(["a", "b", "c", "d"], [300.0, 100.0, 200.0, 0.0], ["a", "b", "c", "d"])
    assert found.discordant == [("b", "c")]
    assert found.tau == pytest.approx(4 / 6)
    assert "b/c" in found.meaning


def test_prediction_holds_out_whole_rounds_and_needs_two():
    one_round = pairwise_results(list(SIX), round_robin(elo_model(SIX), list(SIX), rounds=1))
    assert prediction(one_round).log_loss is None
    assert "this league has 1" in prediction(one_round).meaning
    many = pairwise_results(list(SIX), round_robin(elo_model(SIX, 100), list(SIX), rounds=10, seed=2))
    found = prediction(many)
    assert found.folds == 5 and found.results == 10 * 30


def test_the_baseline_knows_the_first_seat_rate():
    found = assess(RPS, round_robin(lambda a, b: 0.9, RPS, rounds=20, seed=4), RPS)  # only the seat matters
    assert found.prediction.baseline_accuracy > 0.85
    assert found.prediction.baseline_log_loss < 0.45
    assert not found.prediction.better
    assert found.seat_advantage.elo_low > 200 and "a clear first-seat advantage" in found.seat_advantage.meaning


def test_a_known_first_seat_advantage_is_measured_in_elo_and_as_a_rate():
    names = list(SIX)
    seat = assess(names, round_robin(elo_model(SIX, 100), names, rounds=30, seed=6), names).seat_advantage
    assert seat.elo_low <= 100 <= seat.elo_high and seat.elo_low > 0
    assert seat.rate_low <= 1 / (1 + 10 ** (-100 / 400)) <= seat.rate_high
    assert seat.score_rate == pytest.approx(1 / (1 + 10 ** (-seat.elo / 400)))


def test_tables_get_the_same_evidence_without_a_seat_term():
    ratings = {name: 120 * k for k, name in enumerate("abcdef")}
    found = assess(list(ratings), tables(ratings, count=60, size=4), list("fedcba"))
    assert found.strength["bot"].tolist() == list("fedcba")
    assert found.reliability.tau >= 0.8 and "odd and from even tables" in found.reliability.meaning
    assert found.prediction.better and "held-out tables" in found.prediction.meaning
    assert found.seat_advantage.tables and found.seat_advantage.elo == 0.0
    assert "points by rank" in found.seat_advantage.meaning
    assert found.transitivity.share > 0.9


def test_more_games_by_the_factor_given_settle_the_pair():
    names = list(SIX)
    records = round_robin(elo_model(SIX), names, rounds=2, seed=5)
    found = assess(names, records, names)
    open_pairs = found.neighbours[~found.neighbours["settled"] & ~found.neighbours["tie"]]
    assert len(open_pairs), "two rounds leave some order open"
    pair = open_pairs.iloc[0]
    copies = int(np.ceil(pair["factor"]))
    more = [  # each copy a game of its own (its own id): identical games would count once (league.stats.distinct)
        replace(r, game_id=f"{r.game_id}-{copy}", spec=replace(r.spec, round=r.spec.round + 2 * copy))
        for copy in range(copies)
        for r in records
    ]
    again = assess(names, more, names, samples=50)
    assert again.los.loc[pair["higher"], pair["lower"]] >= 0.94  # the pair's LOS, neighbours still or not


def test_games_needed_are_said_per_pair_and_for_the_league():
    def pair(higher, lower, difference, settled, factor):
        tie = difference < 20
        return Neighbours(higher, lower, difference, 10.0, 0.9, settled, factor, 0, tie, "")

    pairs = [pair("a", "b", 100, True, 1.0), pair("b", "c", 30, False, 3.0), pair("c", "d", 5, False, 9.0)]
    sentence = league_games_needed(pairs, games_per_pair=10)
    assert sentence.startswith("Settling every neighbour but the possible ties at 95% needs about 3.0 times the games")
    assert "20 more per pair (10 so far)" in sentence and "(c/d)" in sentence
    assert settled_places(pairs) == [True, False, False, False]
    assert "no more games" in league_games_needed(pairs[:1], 10)


def test_halves_that_disagree_give_a_negative_reliability():
    names = ["a", "b", "c", "d"]
    forward = elo_model({"a": 300, "b": 100, "c": -100, "d": -300})
    backward = elo_model({"a": -300, "b": -100, "c": 100, "d": 300})
    records = [
        game
        for round_ in range(20)
        for game in round_robin(forward if round_ % 2 else backward, names, rounds=1, seed=round_)
    ]
    records = [  # one id per game: games sharing an id are one game (league.stats.distinct)
        replace(game, game_id=f"g{number}", spec=replace(game.spec, round=number // 12))
        for number, game in enumerate(records)
    ]
    found = reliability(pairwise_results(names, records))
    assert found.tau < -0.5 and found.bots == 4


def test_prediction_scores_held_out_rounds_with_ratings_fitted_on_the_others():
    names = list(SIX)
    records = round_robin(elo_model(SIX, 50), names, rounds=10, seed=9)
    found = prediction(pairwise_results(names, records))
    loss = base_loss = 0.0
    for fold in range(5):
        train = [game for game in records if game.spec.round % 5 != fold]
        counts = pairwise_results(names, train).counts()
        points, games = counts[..., 0] + counts[..., 1] / 2, counts.sum(axis=-1)
        fitted = fit(points[None], games[None], seat_advantage=True)
        rating = dict(zip(names, fitted.ratings[0], strict=True))
        baseline = (points.sum() + 0.5) / (games.sum() + 1)
        for game in records:
            if game.spec.round % 5 == fold:
                first, second = game.spec.seats
                expected = 1 / (1 + 10 ** (-(rating[first] - rating[second] + fitted.seat[0]) / 400))
                won = game.result.ranks == [1, 2]
                loss -= np.log(expected if won else 1 - expected)
                base_loss -= np.log(baseline if won else 1 - baseline)
    assert found.log_loss == pytest.approx(loss / len(records))
    assert found.baseline_log_loss == pytest.approx(base_loss / len(records))


def test_agreement_names_bots_that_bradley_terry_rates_alike_rather_than_claiming_the_same_order():
    found = agreement(["a", "b", "c"], [50.0, 50.0, -100.0], ["b", "a", "c"])
    assert found.tau < 1 and not found.discordant
    assert "the same way" not in found.meaning and "rates alike: b/a" in found.meaning
