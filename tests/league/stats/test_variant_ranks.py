"""Does a rule variant change who is strong? Kendall's tau between variants with its paired bootstrap interval."""

import json
import random
from dataclasses import replace

import numpy as np
import pytest

from benchmarks.simulated_records import tables
from league.report.page import render_markdown
from league.report.variants import variants_report
from league.stats.pairwise import pairwise_results
from league.stats.variant_compare import compare_variants
from league.stats.variant_ranks import kendall_taus, resampled_taus, unit_identities
from league.stats.variant_stats import kendall_tau

from .simulated_leagues import elo_model, round_robin

FIVE = {"ace": 800, "bishop": 600, "castle": 400, "duke": 200, "earl": 0}


class Game:
    name = "synthetic"
    score_label = "score"
    scores_spread = False


def relabelled(records, variant):
    """The same games under another variant's name."""
    return [replace(game, spec=replace(game.spec, variant=variant)) for game in records]


def league(second, ratings=FIVE, rounds=8, seed=3):
    """Five bots under "base" (ratings as given), and under ``second``: "same" replays base's games, "reversed"
    reverses the strengths, "fresh" plays new games from the same strengths."""
    names = list(ratings)
    base = round_robin(elo_model(ratings), names, rounds, seed=seed, variants=("base",))
    if second == "same":
        other = relabelled(base, "other")
    else:
        flipped = {name: -elo for name, elo in ratings.items()} if second == "reversed" else ratings
        other = round_robin(elo_model(flipped), names, rounds, seed=seed + 1, variants=("other",))
    return names, base + other


def correlation(names, records, **options):
    return compare_variants(names, records, ["base", "other"], Game, **options).correlation.iloc[0].to_dict()


def test_the_same_games_under_both_variants_give_tau_one_and_an_interval_at_one():
    names, records = league("same")
    comparison = compare_variants(names, records, ["base", "other"], Game)
    found = comparison.correlation.iloc[0]
    assert (found["kendall_tau"], found["tau_low_95"], found["tau_high_95"]) == (1, 1, 1)
    assert found["baseline_order"] == found["variant_order"] == list(FIVE)
    assert (
        "the rule keeps the order in every resample (Kendall tau 1.00, 95%: 1.00 to 1.00, over 5 bots;"
        in (comparison.sentences[-1])
    )


def test_a_variant_that_reverses_a_clear_order_gives_tau_near_minus_one_and_an_interval_below_zero():
    names, records = league("reversed")
    comparison = compare_variants(names, records, ["base", "other"], Game)
    found = comparison.correlation.iloc[0]
    assert found["kendall_tau"] <= -0.8 and found["tau_low_95"] <= found["kendall_tau"] <= found["tau_high_95"] < 0
    assert found["variant_order"] == list(FIVE)[::-1]
    sentence = comparison.sentences[-1]
    assert "the rule reorders the bots clearly, the orders disagree beyond noise (Kendall tau" in sentence
    assert f"95%: {found['tau_low_95']:.2f} to {found['tau_high_95']:.2f}, over 5 bots;" in sentence


def test_even_bots_leave_the_data_unable_to_tell():
    names, records = league("fresh", ratings=dict.fromkeys(FIVE, 0), rounds=4)
    comparison = compare_variants(names, records, ["base", "other"], Game)
    found = comparison.correlation.iloc[0]
    assert found["tau_low_95"] < 0 < found["tau_high_95"]
    assert "the data cannot tell whether the rule keeps or reorders who is strong" in comparison.sentences[-1]


def test_the_same_strengths_on_new_games_agree_beyond_noise_without_claiming_a_change():
    ratings = {name: elo / 2 for name, elo in FIVE.items()}  # neighbours 100 Elo apart: some swap on new games
    swapped = 0
    for seed in range(3, 9):
        names, records = league("fresh", ratings=ratings, rounds=6, seed=seed)
        comparison = compare_variants(names, records, ["base", "other"], Game)
        found, sentence = comparison.correlation.iloc[0], comparison.sentences[-1]
        assert found["tau_low_95"] <= found["kendall_tau"] <= found["tau_high_95"] <= 1 and found["tau_low_95"] < 1
        assert "reorders the bots clearly" not in sentence and "in every resample" not in sentence
        if found["tau_low_95"] > 0 and found["variant_order"] != found["baseline_order"]:
            swapped += 1
            assert "the orders agree beyond noise (Kendall tau" in sentence
            assert "where they differ, that may be noise alone" in sentence
        elif found["tau_low_95"] > 0:
            assert "the rule keeps the order, the orders agreeing beyond noise (Kendall tau 1.00" in sentence
        else:
            assert "the data cannot tell" in sentence
    assert swapped >= 2


def test_three_bots_are_too_few_to_say():
    ratings = {"ace": 800, "bishop": 400, "castle": 0}
    names, records = league("reversed", ratings=ratings)
    comparison = compare_variants(names, records, ["base", "other"], Game)
    found = comparison.correlation.iloc[0]
    assert found["kendall_tau"] == -1 and np.isnan(found["tau_low_95"]) and np.isnan(found["tau_high_95"])
    assert comparison.sentences[-1].startswith(
        "Who is strong, other vs base: Kendall tau -1.00 over 3 bots (base: ace > bishop > castle;"
        " other: castle > bishop > ace), too few bots to say whether the rule changes who is strong"
    )
    assert json.loads(json.dumps(comparison.to_json()))["correlation"][0]["tau_low_95"] is None


def test_the_interval_does_not_depend_on_the_order_of_the_bots_or_of_the_records():
    ratings = {f"bot{k}": 60 * k for k in range(8)}  # close neighbours: a wide interval, no two draws alike
    names, records = league("fresh", ratings=ratings, rounds=4)
    reference = correlation(names, records, samples=400)
    shuffled = records[:]
    random.Random(5).shuffle(shuffled)
    for order in (names[::-1], random.Random(6).sample(names, len(names))):
        found = correlation(order, shuffled, samples=400)
        assert (found["kendall_tau"], found["tau_low_95"], found["tau_high_95"]) == (
            reference["kendall_tau"],
            reference["tau_low_95"],
            reference["tau_high_95"],
        )
    mine = [game for game in records if game.spec.variant == "other"]
    theirs = [game for game in records if game.spec.variant == "base"]
    taus = resampled_taus(names, mine, theirs, np.random.default_rng(2), 300)
    assert len(set(taus.tolist())) > 5  # each resample its own order
    theirs_shuffled = random.Random(7).sample(theirs, len(theirs))
    again = resampled_taus(names[::-1], mine[::-1], theirs_shuffled, np.random.default_rng(2), 300)
    assert again.tolist() == taus.tolist()  # resample by resample, whatever the order of bots and games


def test_tables_resample_whole_tables_alike_under_both_variants():
    ratings = {name: 150 * k for k, name in enumerate("abcdef")}
    base = tables(ratings, 40, 3, seed=3)
    records = relabelled(base, "base") + relabelled(base, "other")
    for at in range(len(base), len(records), 7):  # the variant changes a few results at a few tables
        game = records[at]
        records[at] = replace(game, result=replace(game.result, ranks=game.result.ranks[::-1]))
    found = correlation(list(ratings), records)
    assert found["bots"] == 6 and -1 <= found["tau_low_95"] <= found["kendall_tau"] <= found["tau_high_95"] <= 1
    identities = unit_identities(pairwise_results(list(ratings), base))
    assert len(identities) == 40 and identities == sorted(identities)  # a table is its round and its bots


def test_too_few_units_give_no_interval():
    names, records = league("fresh", rounds=1)
    kept = [{"ace", "bishop"}, {"bishop", "castle"}, {"castle", "duke"}, {"duke", "ace"}]  # 4 units a variant
    few = [game for game in records if set(game.spec.seats) in kept]
    comparison = compare_variants(names, few, ["base", "other"], Game)
    found = comparison.correlation.iloc[0]
    assert found["bots"] == 4 and np.isnan(found["tau_low_95"])
    assert "too few independent games for an interval" in comparison.sentences[-1]


def test_kendall_taus_is_kendall_tau_row_by_row_leaving_out_missing_items():
    rng = np.random.default_rng(4)
    first = rng.integers(0, 4, size=(50, 6)).astype(float)  # ties on purpose
    second = rng.integers(0, 4, size=(50, 6)).astype(float)
    first[rng.random((50, 6)) < 0.1] = np.nan
    found = kendall_taus(first, second)
    for row in range(50):
        keep = ~(np.isnan(first[row]) | np.isnan(second[row]))
        expected = kendall_tau(first[row, keep].tolist(), second[row, keep].tolist())
        assert found[row] == pytest.approx(expected, nan_ok=True), row


def test_the_report_shows_the_interval_and_says_what_it_means():
    names, records = league("reversed")
    parts = variants_report(names, records, ["base", "other"], Game)
    markdown = render_markdown("report", parts.sections)
    assert "tau_low_95" in markdown and "tau_high_95" in markdown and "the rule reorders the bots clearly" in markdown
    assert "Below 0: the rule reorders the bots clearly" in markdown
