"""Rule variants compared on the same seeds: paired differences, intervals, rank correlation, charts, CLI."""

import json
import random
import time
from fractions import Fraction
from pathlib import Path

import matplotlib.pyplot
import numpy as np
import pytest
import yaml

from engine.attack2048 import Attack2048
from engine.nimmt import Nimmt
from engine.pk2048 import PK2048
from league.plan.schedule import round_robin, solo, tables
from league.report.page import render_markdown
from league.report.variant_charts import chart_differences, chart_scores, differences_figure, write_charts
from league.report.variants import variants_report
from league.stats.variant_cells import figures_as_text
from league.stats.variant_compare import compare_variants
from league.stats.variant_sentences import amount
from league.stats.variant_stats import cluster_interval, exact_quantile, kendall_tau
from league.store.results import ResultStore
from tests.conftest import play_in_process, typed

BOTS = ["weak", "middle", "strong"]
STRENGTH = {"weak": 0, "middle": 400, "strong": 800}


def pair_records(variants, effects, rounds=10, noise=200, order=None, seed=1):
    """A round robin of BOTS on real schedule specs; each game's figures share their noise across variants.

    ``effects[variant]`` = (score shift per seat, plies shift); ``order[variant]`` reverses the bots'
    strengths when "reversed". A game's common part comes from its (round, seats), so the same game
    under two variants differs by the effect and a little noise of its own.
    """
    specs = round_robin("syn", BOTS, variants, 2 * rounds, seed)
    records = []
    for spec in specs:
        common = random.Random(f"{seed} {spec.round} {spec.seats}")
        own = random.Random(f"{seed} {spec.variant} {spec.round} {spec.seats}")
        shift, plies_shift = effects[spec.variant]
        strength = dict(STRENGTH)
        if (order or {}).get(spec.variant) == "reversed":
            strength = {name: 800 - value for name, value in STRENGTH.items()}
        scores = [
            1500 + strength[name] + shift + common.randint(-noise, noise) + own.randint(-20, 20) for name in spec.seats
        ]
        plies = 600 + plies_shift + common.randint(-100, 100) + own.randint(-10, 10)
        ranks = [1 + sum(other > mine for other in scores) for mine in scores]
        records.append(record(spec, scores, ranks, plies))
    return records


def record(spec, scores, ranks, plies, offenders=()):
    result = {"scores": scores, "ranks": ranks, "termination": "NORMAL", "offenders": list(offenders), "plies": plies}
    return {"game_id": spec.game_id, "spec": spec.to_json(), "result": {**result, "extra": {}}}


def paired_truth(records, variant, baseline, figure):
    """The exact mean paired difference, computed here by brute force over (round, seats)."""
    by_key = {(r["spec"]["variant"], r["spec"]["round"], tuple(r["spec"]["seats"])): r for r in records}
    differences = []
    for (name, round_, seats), mine in by_key.items():
        other = by_key.get((baseline, round_, seats))
        if name != variant or other is None:
            continue
        if figure == "score":
            differences.append(Fraction(sum(mine["result"]["scores"]) - sum(other["result"]["scores"]), len(seats)))
        else:
            differences.append(Fraction(mine["result"]["plies"] - other["result"]["plies"]))
    return float(sum(differences) / len(differences)), len(differences)


def row(comparison, variant, figure):
    frame = comparison.differences
    return frame[(frame["variant"] == variant) & (frame["figure"] == figure)].iloc[0].to_dict()


def test_a_known_effect_is_recovered_with_an_interval_that_covers_it_and_excludes_zero():
    records = pair_records(["easy", "hard"], {"easy": (0, 0), "hard": (-300, -120)})
    comparison = compare_variants(BOTS, typed(records), ["easy", "hard"], Attack2048)
    score, plies = row(comparison, "hard", "score"), row(comparison, "hard", "plies")
    truth, pairs = paired_truth(records, "hard", "easy", "score")
    assert score["mean_difference"] == pytest.approx(truth) and score["pairs"] == pairs == 60
    assert score["low_95"] < -300 < score["high_95"] and score["high_95"] < 0 and score["clear"]
    assert plies["mean_difference"] == pytest.approx(paired_truth(records, "hard", "easy", "plies")[0])
    assert plies["high_95"] < 0 and plies["clear"]
    sentence = comparison.sentences[0]
    assert sentence.startswith("hard vs easy (60 paired games): defender score ")
    assert f"defender score {amount(-score['mean_difference'])} lower per bot and game (" in sentence
    assert f"games {amount(-plies['mean_difference'])} plies shorter (" in sentence
    assert f"95%: {amount(-score['high_95'])} to {amount(-score['low_95'])} lower" in sentence


def test_the_intervals_cover_the_true_effect_in_about_95_percent_of_leagues():
    covered = {"score": 0, "plies": 0}
    leagues = 40
    for seed in range(leagues):
        records = pair_records(["easy", "hard"], {"easy": (0, 0), "hard": (-300, -120)}, rounds=5, seed=seed)
        comparison = compare_variants(BOTS, typed(records), ["easy", "hard"], Attack2048, samples=500)
        for figure, truth in (("score", -300), ("plies", -120)):
            found = row(comparison, "hard", figure)
            covered[figure] += found["low_95"] <= truth <= found["high_95"]
    assert covered["score"] >= 0.85 * leagues and covered["plies"] >= 0.85 * leagues, covered


def test_no_effect_gives_an_interval_that_includes_zero_and_says_so():
    records = pair_records(["easy", "same"], {"easy": (0, 0), "same": (0, 0)})
    comparison = compare_variants(BOTS, typed(records), ["easy", "same"], Attack2048)
    for figure in ("score", "plies", "first_seat_points"):
        found = row(comparison, "same", figure)
        assert found["low_95"] <= 0 <= found["high_95"] and not found["clear"], figure
    sentence = comparison.sentences[0]
    assert "defender score" in sentence and sentence.count("not a clear difference") >= 2


def seat_and_draw_comparison():
    """Two variants on the same seeds: under hard seat 0 always wins; under easy every even round is a draw."""
    records = pair_records(["easy", "hard"], {"easy": (0, 0), "hard": (0, 0)}, rounds=6)
    for game in records:
        spec, result = game["spec"], game["result"]
        if spec["variant"] == "hard":
            result["ranks"] = [1, 2]
        elif spec["round"] % 2 == 0:
            result["ranks"] = [1, 1]
    return compare_variants(BOTS, typed(records), ["easy", "hard"], Attack2048)


def test_first_seat_advantage_and_draws_are_compared_game_by_game():
    comparison = seat_and_draw_comparison()
    easy, hard = comparison.by_variant.set_index("variant").loc[["easy", "hard"]].to_dict("records")
    assert hard["first_seat_points"] == hard["first_seat_win_rate"] == 1.0 and hard["draw_rate"] == 0
    assert easy["draw_rate"] == 0.5 and easy["first_seat_low_95"] <= easy["first_seat_points"]
    draws, first = row(comparison, "hard", "draw_rate"), row(comparison, "hard", "first_seat_points")
    assert draws["mean_difference"] == pytest.approx(-0.5) and draws["clear"]
    assert first["mean_difference"] > 0 and first["clear"]
    assert "draw rate 50.0 percentage points lower" in comparison.sentences[0]


def test_pairing_is_by_round_and_seats_whatever_the_order_and_indices_of_the_records():
    records = pair_records(["easy", "hard"], {"easy": (0, 0), "hard": (-300, -120)}, rounds=4)
    hard = [r for r in records if r["spec"]["variant"] == "hard"]
    for index, game in zip(sorted(r["spec"]["index"] for r in hard), reversed(hard), strict=True):
        game["spec"]["index"] = index  # hard's games now come in the reverse order of easy's
    reference = compare_variants(BOTS, typed(records), ["easy", "hard"], Attack2048)
    truth, pairs = paired_truth(records, "hard", "easy", "score")
    score = row(reference, "hard", "score")
    assert score["mean_difference"] == pytest.approx(truth) and pairs == 24
    # A game and its twin differ by -300 and their own noise (at most 20 a seat): so does every resample.
    assert -320 <= score["low_95"] <= score["high_95"] <= -280
    shuffled = list(records)
    random.Random(5).shuffle(shuffled)
    assert compare_variants(BOTS, typed(shuffled), ["easy", "hard"], Attack2048).to_json() == reference.to_json()
    unmatched = [r for r in records if not (r["spec"]["variant"] == "hard" and r["spec"]["round"] == 0)]
    partial = row(compare_variants(BOTS, typed(unmatched), ["easy", "hard"], Attack2048), "hard", "score")
    assert (partial["mean_difference"], partial["pairs"]) == pytest.approx(
        paired_truth(unmatched, "hard", "easy", "score")
    )
    assert partial["pairs"] == 18


def test_infra_errors_are_not_compared():
    records = pair_records(["easy", "hard"], {"easy": (0, 0), "hard": (-300, -120)}, rounds=2)
    records[0]["result"]["termination"] = "INFRA_ERROR"
    comparison = compare_variants(BOTS, typed(records), ["easy", "hard"], Attack2048)
    assert comparison.by_variant.set_index("variant").loc["easy", "games"] == 11
    assert row(comparison, "hard", "score")["pairs"] == 11


def test_the_rank_correlation_says_whether_the_rule_changes_who_is_strong():
    records = pair_records(["easy", "kept", "flipped"], dict.fromkeys(["easy", "kept", "flipped"], (0, 0)), rounds=4)
    records = [r for r in records if r["spec"]["variant"] != "flipped"] + [
        r for r in pair_records(["flipped"], {"flipped": (0, 0)}, rounds=4, order={"flipped": "reversed"})
    ]
    comparison = compare_variants(BOTS, typed(records), ["easy", "kept", "flipped"], Attack2048)
    taus = comparison.correlation.set_index("variant")["kendall_tau"]
    assert taus["kept"] == 1 and taus["flipped"] == -1
    kept, flipped = comparison.sentences[-2:]
    assert "Kendall tau 1.00 over 3 bots (the same order: strong > middle > weak), too few bots to say" in kept
    assert "Kendall tau -1.00 over 3 bots (easy: strong > middle > weak; flipped: weak > middle > strong)" in flipped
    assert "too few bots to say whether the rule changes who is strong" in flipped
    assert comparison.correlation[["tau_low_95", "tau_high_95"]].isna().all(axis=None), "no interval from 3 bots"
    spread = comparison.by_variant.set_index("variant")["rating_spread"]
    assert spread["easy"] > 100 and spread["easy"] == pytest.approx(spread["kept"])


def test_kendall_tau_b():
    assert kendall_tau([1, 2, 3], [10, 20, 30]) == 1 and kendall_tau([1, 2, 3], [3, 2, 1]) == -1
    assert kendall_tau([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(4 / 6)
    assert kendall_tau([1, 1, 2], [1, 2, 3]) == pytest.approx(2 / 6**0.5)
    assert np.isnan(kendall_tau([1, 1], [1, 2])) and np.isnan(kendall_tau([1], [1]))


def test_the_bootstrap_resamples_whole_clusters():
    values = [float(v) for v in random.Random(3).choices(range(100), k=15)]
    alone = cluster_interval(values, list(range(15)), np.random.default_rng(9), samples=300)
    twins = cluster_interval(
        [v for v in values for _ in (0, 1)],
        [k for k in range(15) for _ in (0, 1)],
        np.random.default_rng(9),
        samples=300,
    )
    assert twins == alone and alone[0] < sum(values) / 15 < alone[1]  # twin games add no information


def test_scores_beyond_two_to_the_53_stay_exact():
    big = 2**60
    assert exact_quantile([big + 1, big + 2], Fraction(1, 2)) == Fraction(2 * big + 3, 2)
    specs = solo("q", ["a"], ["v1", "v2"], 3, 1)
    records = [record(spec, [big + 2 * spec.round + (spec.variant == "v2")], [1], 10) for spec in specs]
    comparison = compare_variants(["a"], typed(records), ["v1", "v2"], Attack2048)
    figures = comparison.by_variant.set_index("variant")
    assert figures.loc["v1", "mean_score"] == big + 2 and figures.loc["v2", "median_score"] == big + 3
    assert figures.loc["v1", "score_q1"] == big + 1 and figures.loc["v1", "score_q3"] == big + 3
    shown = figures_as_text(comparison.by_variant).set_index("variant")  # what people read: exact, two places
    assert shown.loc["v1", "mean_score"] == f"{big + 2}.00" and shown.loc["v2", "median_score"] == f"{big + 3}.00"
    assert shown.loc["v1", "score_q1"] == f"{big + 1}.00" and shown.loc["v1", "score_q3"] == f"{big + 3}.00"
    data = json.loads(json.dumps(comparison.to_json()))
    v1 = data["by_variant"][0]
    assert (v1["mean_score"], v1["median_score"], v1["score_q1"], v1["score_q3"]) == (
        big + 2,
        big + 2,
        big + 1,
        big + 3,
    )
    assert all(type(v1[key]) is int for key in ("mean_score", "median_score", "score_q1", "score_q3"))
    assert row(comparison, "v2", "score")["mean_difference"] == 1.0


def test_a_solo_league_compares_scores_and_lengths_per_run_without_ratings():
    specs = solo("q", BOTS, ["small", "large"], 5, 3)
    records = [
        record(spec, [1000 * (spec.variant == "large") + STRENGTH[spec.seats[0]] + 7 * spec.round], [1], 50)
        for spec in specs
    ]
    comparison = compare_variants(BOTS, typed(records), ["small", "large"], Codevs21Like)
    assert comparison.layout == "solo" and comparison.correlation.empty
    assert "draw_rate" not in comparison.by_variant and "rating_spread" not in comparison.by_variant
    assert "elo" not in comparison.by_bot
    means = comparison.by_bot.set_index(["variant", "bot"])["mean_score"]
    assert means[("large", "strong")] == 1814 and means[("small", "weak")] == 14
    assert set(comparison.differences["figure"]) == {"score", "plies"}
    score = row(comparison, "large", "score")
    assert score["mean_difference"] == 1000 and score["pairs"] == 15 and score["low_95"] == score["high_95"] == 1000
    assert comparison.sentences[0].startswith("large vs small (15 paired games): score 1,000 higher per game (")
    assert "games the same in every paired game" in comparison.sentences[0]
    assert "no ratings" in comparison.sentences[-1]


class Codevs21Like:
    name = "codevs21"
    score_label = "score"
    scores_spread = True


def test_tables_are_paired_by_table_and_rotation():
    specs = tables("t", ["a", "b", "c", "d"], ["base", "fewer"], [3], 8, 2)
    records = []
    for spec in specs:
        scores = [(10 + 3 * seat + spec.round) - 2 * (spec.variant == "fewer") for seat in range(3)]
        ranks = [1 + sum(other < mine for other in scores) for mine in scores]  # nimmt: fewer is better
        if spec.variant == "fewer" and spec.round % 2:
            ranks = [1, 1, 3]
        records.append(record(spec, scores, ranks, 30 + spec.round))
    comparison = compare_variants(["a", "b", "c", "d"], typed(records), ["base", "fewer"], Nimmt)
    assert comparison.layout == "tables"
    score = row(comparison, "fewer", "score")
    assert score["mean_difference"] == -2 and score["pairs"] == 24 and score["low_95"] == score["high_95"] == -2
    assert row(comparison, "fewer", "draw_rate")["mean_difference"] == pytest.approx(0.5)
    assert comparison.sentences[0].startswith("fewer vs base (24 paired games): bullheads 2.00 lower per bot and game")
    assert comparison.correlation.iloc[0]["bots"] == 4


def test_a_game_whose_scores_do_not_spread_compares_rates_only():
    records = pair_records(["a", "b"], {"a": (0, 0), "b": (0, 0)}, rounds=2)
    comparison = compare_variants(BOTS, typed(records), ["a", "b"], PK2048)
    assert "score_sd" not in comparison.by_variant and "mean_score" in comparison.by_variant
    assert "score" not in set(comparison.differences["figure"])
    assert chart_scores(comparison, Path("/nonexistent/never.png")) is None


def test_one_variant_has_nothing_to_compare():
    records = pair_records(["only"], {"only": (0, 0)}, rounds=1)
    comparison = compare_variants(BOTS, typed(records), ["only"], Attack2048)
    assert comparison.sentences == ["Only one variant (only): nothing to compare."]
    assert comparison.differences.empty and len(comparison.by_variant) == 1


def test_the_baseline_can_be_chosen_and_an_unknown_one_is_refused():
    records = pair_records(["easy", "hard"], {"easy": (0, 0), "hard": (-300, -120)}, rounds=2)
    flipped = compare_variants(BOTS, typed(records), ["easy", "hard"], Attack2048, baseline="hard")
    assert row(flipped, "easy", "score")["mean_difference"] > 0 and "higher per bot and game" in flipped.sentences[0]
    with pytest.raises(ValueError, match="unknown baseline variant 'nope'; variants: easy, hard"):
        compare_variants(BOTS, typed(records), ["easy", "hard"], Attack2048, baseline="nope")


def test_the_same_games_give_the_same_figures_and_charts_byte_for_byte(tmp_path):
    records = pair_records(["easy", "hard"], {"easy": (0, 0), "hard": (-300, -120)}, rounds=3)
    first, second = (compare_variants(BOTS, typed(records), ["easy", "hard"], Attack2048) for _ in range(2))
    assert first.to_json() == second.to_json()
    written = [write_charts(comparison, tmp_path / name) for comparison, name in ((first, "a"), (second, "b"))]
    assert [path.name for path in written[0]] == [
        "variant_scores.png",
        "variant_lengths.png",
        "variant_differences.png",
    ]
    for one, other in zip(*written, strict=True):
        assert one.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and one.read_bytes() == other.read_bytes()
    alone = compare_variants(BOTS, typed(records), ["easy"], Attack2048)
    assert [path.name for path in write_charts(alone, tmp_path / "c")] == ["variant_scores.png", "variant_lengths.png"]


def stored_league(folder, records, variants, game="attack2048", bots=BOTS):
    folder.mkdir(parents=True, exist_ok=True)
    store = ResultStore(folder / "games.jsonl")
    for game_record in records:
        store.append(game_record)
    store.close()
    manifest = {"name": "syn", "game": game, "bots": bots, "variants": variants}
    manifest["game_ids"] = [r["game_id"] for r in records]
    (folder / "league.json").write_text(json.dumps(manifest))
    return folder


def test_league_compare_prints_the_tables_and_sentences(tmp_path, league_cli):
    records = pair_records(["easy", "hard"], {"easy": (0, 0), "hard": (-300, -120)}, rounds=3)
    folder = stored_league(tmp_path / "out", records, ["easy", "hard"])
    status, out, err = league_cli("compare", str(folder))
    assert status == 0, err
    expected = compare_variants(BOTS, typed(records), ["easy", "hard"], Attack2048)
    for sentence in expected.sentences:
        assert sentence in out
    assert "Paired differences from easy" in out and "first_seat_points" in out
    status, out, _ = league_cli("compare", str(folder), "--json", "--baseline", "hard", "--charts", str(tmp_path / "c"))
    data = json.loads(out)
    assert status == 0 and data["baseline"] == "hard" and data["differences"][0]["variant"] == "easy"
    assert sorted(path.name for path in (tmp_path / "c").iterdir())[0] == "variant_differences.png"


@pytest.mark.parametrize(
    "setup, args, message",
    [
        ("empty", [], "no league here (no league.json); run `league run CONFIG` first"),
        ("no games", [], "no scored games yet; run `league run CONFIG` first"),
        ("one variant", [], "nothing to compare: the league has one variant (easy)"),
        ("two variants", ["--baseline", "nope"], "--baseline nope: no such variant; variants: easy, hard"),
    ],
)
def test_league_compare_refuses_in_one_line(tmp_path, league_cli, setup, args, message):
    folder = tmp_path / "out"
    folder.mkdir()
    records = pair_records(["easy", "hard"], {"easy": (0, 0), "hard": (0, 0)}, rounds=1)
    if setup == "no games":
        stored_league(folder, [], ["easy", "hard"])
    elif setup == "one variant":
        stored_league(folder, [r for r in records if r["spec"]["variant"] == "easy"], ["easy"])
    elif setup == "two variants":
        stored_league(folder, records, ["easy", "hard"])
    status, out, err = league_cli("compare", str(folder), *args)
    assert status == 2 and out == ""
    expected = message if args else f"{folder}: {message}"
    assert err.strip().splitlines() == [f"league: error: {expected}"]


def play_attack2048_variants(folder, games_per_pair, seed=2016):
    """The paper's two rules (2-only, 2-or-4) with the built-ins, played in-process (no Ray), stored as a league."""
    config = {
        "name": "paper",
        "game": "attack2048",
        "variants": {"two_only": {"tiles": [2]}, "two_or_four": {"tiles": [2, 4]}},
        "bots": [
            {"name": "random", "builtin": "attack2048.random"},
            {"name": "greedy", "builtin": "attack2048.greedy"},
        ],
        "games_per_pair": games_per_pair,
        "seed": seed,
        "sandbox": "none",
        "output": str(folder / "out"),
    }
    (folder / "paper.yaml").write_text(yaml.safe_dump(config))
    league, _ = play_in_process(folder / "paper.yaml")
    return league.output


def test_the_paper_finding_two_or_four_gives_lower_defender_scores_and_shorter_games(tmp_path, league_cli):
    started = time.monotonic()
    folder = play_attack2048_variants(tmp_path, games_per_pair=24)
    status, out, err = league_cli("compare", str(folder), "--json")
    assert status == 0, err
    data = json.loads(out)
    rows = {(r["variant"], r["figure"]): r for r in data["differences"]}
    score, plies = rows[("two_or_four", "score")], rows[("two_or_four", "plies")]
    assert score["pairs"] == plies["pairs"] == 24
    assert score["high_95"] < 0 and score["clear"] and plies["high_95"] < 0 and plies["clear"]
    sentence = data["sentences"][0]
    assert sentence.startswith("two_or_four vs two_only (24 paired games): defender score ")
    score_clause, plies_clause = sentence.split("; games ")[0], sentence.split("; games ")[1].split(";")[0]
    assert " lower per bot and game (" in score_clause and "not a clear difference" not in score_clause
    assert " plies shorter (" in plies_clause and "not a clear difference" not in plies_clause
    print(f"played and compared in {time.monotonic() - started:.1f} s: {sentence}")


def test_the_first_seat_interval_keeps_the_width_the_games_allow_when_every_pair_splits_alike():
    records = pair_records(["v", "w"], {"v": (0, 0), "w": (0, 0)}, rounds=6)
    for game in records:  # the stronger bot wins from both seats: seat 0 scores exactly 1/2 in every pair
        scores = [STRENGTH[name] for name in game["spec"]["seats"]]
        game["result"]["ranks"] = [1 + sum(other > mine for other in scores) for mine in scores]
    variant = compare_variants(BOTS, typed(records), ["v", "w"], Attack2048).by_variant.iloc[0]
    assert variant["first_seat_points"] == 0.5
    assert variant["first_seat_low_95"] < 0.4 and variant["first_seat_high_95"] > 0.6, "36 games are no certainty"


def test_a_paired_difference_over_too_few_independent_units_gets_no_interval():
    specs = solo("q", BOTS, ["small", "large"], 2, 3)  # two runs: two independent units
    records = [
        record(spec, [1000 * (spec.variant == "large") + STRENGTH[spec.seats[0]] * spec.round], [1], 50)
        for spec in specs
    ]
    comparison = compare_variants(BOTS, typed(records), ["small", "large"], Codevs21Like)
    score = row(comparison, "large", "score")
    assert np.isnan(score["low_95"]) and np.isnan(score["high_95"]) and not score["clear"]
    assert "too few independent games for an interval" in comparison.sentences[0]


def cut_short(records, variant, cuts):
    """Cut games of ``variant`` short as faults do: ``cuts`` maps (round, seats) to (termination, offenders, plies)."""
    for game in records:
        spec, result = game["spec"], game["result"]
        key = (spec["round"], tuple(spec["seats"]))
        if spec["variant"] == variant and key in cuts:
            result["termination"], result["offenders"], result["plies"] = cuts[key]
            result["scores"] = [4, 0]
            result["ranks"] = [2, 1] if result["offenders"] == [0] else [1, 2]
    return list(cuts)


def without_pairs(records, keys):
    """The records but the games, under every variant, of the pairs ``keys``."""
    return [r for r in records if (r["spec"]["round"], tuple(r["spec"]["seats"])) not in set(keys)]


FAULTS = {
    "hard": {(0, ("weak", "middle")): ("CRASH", [0], 3), (1, ("strong", "weak")): ("TIMEOUT", [1], 5)},
    "easy": {(2, ("middle", "strong")): ("MAX_PLIES", [], 591)},  # our safety cap: cut short, nobody's fault
}


def faulty_records():
    records = pair_records(["easy", "hard"], {"easy": (0, 0), "hard": (-300, -120)}, rounds=4)
    keys = [key for variant, cuts in FAULTS.items() for key in cut_short(records, variant, cuts)]
    return records, keys


def test_pairs_where_a_game_was_cut_short_by_a_fault_are_left_out_and_counted():
    records, keys = faulty_records()
    comparison = compare_variants(BOTS, typed(records), ["easy", "hard"], Attack2048)
    clean = without_pairs(records, keys)
    for figure in ("score", "plies"):
        found = row(comparison, "hard", figure)
        truth, pairs = paired_truth(clean, "hard", "easy", figure)
        assert (found["pairs"], found["faulted_pairs"]) == (pairs, 3) == (21, 3)
        assert found["mean_difference"] == pytest.approx(truth)
    assert set(comparison.differences["faulted_pairs"]) == {3}
    easy_plies = [r["result"]["plies"] for r in clean if r["spec"]["variant"] == "easy"]
    assert row(comparison, "hard", "plies")["baseline_mean"] == pytest.approx(sum(easy_plies) / len(easy_plies))
    faults = comparison.by_variant.set_index("variant")["faults"]
    assert (faults["easy"], faults["hard"]) == (1, 2), "the per-variant table still counts every fault"
    assert comparison.sentences[0].startswith(
        "hard vs easy (21 paired games; 3 pairs left out, where either game ended by a fault): defender score "
    )


def test_when_every_pair_has_a_game_cut_short_there_is_nothing_to_compare(tmp_path):
    records = pair_records(["easy", "hard"], {"easy": (0, 0), "hard": (0, 0)}, rounds=1)
    for game in records:
        if game["spec"]["variant"] == "hard":
            game["result"].update(termination="CRASH", offenders=[0], plies=3)
    comparison = compare_variants(BOTS, typed(records), ["easy", "hard"], Attack2048)
    assert set(comparison.differences["pairs"]) == {0} and set(comparison.differences["faulted_pairs"]) == {6}
    assert comparison.sentences[0] == (
        "hard vs easy: nothing to compare: in every pair of games played under both, a game ended by a fault"
        " (6 pairs left out)."
    )
    assert chart_differences(comparison, tmp_path / "never.png") is None


def refuse_constants(name):
    raise AssertionError(f"{name} is not JSON that every reader takes")


LABELS = {"variant", "baseline", "figure", "bot"}
ORDERS = {"baseline_order", "variant_order"}


def test_league_compare_json_gives_every_figure_as_a_number_exactly_where_it_can(tmp_path, league_cli):
    records, _ = faulty_records()
    big = 2**60
    for game in records:  # past 2**53, as codevs21's scores go: a float would lose the last digits
        game["result"]["scores"] = [big + score for score in game["result"]["scores"]]
    folder = stored_league(tmp_path / "out", records, ["easy", "hard"])
    status, out, err = league_cli("compare", str(folder), "--json")
    assert status == 0, err
    data = json.loads(out, parse_constant=refuse_constants)
    checked = 0
    for table in ("by_variant", "by_bot", "differences", "correlation"):
        assert data[table], table
        for cells in data[table]:
            for key, value in cells.items():
                if key in LABELS:
                    assert isinstance(value, str), (table, key, value)
                elif key in ORDERS:
                    assert all(isinstance(name, str) for name in value), (table, key, value)
                elif key == "clear":
                    assert isinstance(value, bool)
                else:
                    assert value is None or type(value) in (int, float), (table, key, value)
                    checked += 1
    assert checked > 60
    for cells in data["by_variant"]:  # exact figures: an int when whole (exact), else the nearest float
        scores = [s for r in records if r["spec"]["variant"] == cells["variant"] for s in r["result"]["scores"]]
        exact = {"mean_score": Fraction(sum(scores), len(scores))}
        exact |= {
            key: exact_quantile(scores, Fraction(k, 4))
            for key, k in (("median_score", 2), ("score_q1", 1), ("score_q3", 3))
        }
        for key, value in exact.items():
            whole = value.denominator == 1
            assert cells[key] == (value.numerator if whole else float(value)), (key, cells[key], value)
            assert type(cells[key]) is (int if whole else float) and cells[key] > big
    assert {cells["faulted_pairs"] for cells in data["differences"]} == {3}
    status, out, err = league_cli("compare", str(folder))
    assert status == 0, err
    assert "left out" in out and "(21 paired games; 3 pairs left out, where either game ended by a fault)" in out


def test_the_paired_chart_draws_rates_in_percentage_points():
    comparison = seat_and_draw_comparison()
    figure = differences_figure(comparison)
    panels = {axes.get_title(): axes for axes in figure.axes}
    assert list(panels) == [
        "defender score per bot and game",
        "game length",
        "draw rate",
        "first seat's share of the points",
    ]
    assert panels["defender score per bot and game"].get_xlabel() == "difference, defender score"
    assert panels["game length"].get_xlabel() == "difference, plies"
    for title, figure_name in (("draw rate", "draw_rate"), ("first seat's share of the points", "first_seat_points")):
        axes = panels[title]
        assert axes.get_xlabel() == "difference, percentage points"
        mean = row(comparison, "hard", figure_name)["mean_difference"]
        dots = [line.get_xdata()[0] for line in axes.get_lines() if line.get_marker() == "o"]
        assert dots == [pytest.approx(100 * mean)] and abs(100 * mean) >= 10, (title, dots)
    matplotlib.pyplot.close(figure)


def test_the_reports_variant_tables_show_scores_past_two_to_the_53_exactly():
    big = 2**60
    specs = solo("q", ["a"], ["v1", "v2"], 3, 1)
    records = [record(spec, [big + 2 * spec.round + (spec.variant == "v2")], [1], 10) for spec in specs]
    parts = variants_report(["a"], typed(records), ["v1", "v2"], Codevs21Like)
    markdown = render_markdown("report", parts.sections)
    assert f"| mean_score     | {big + 2}.00 | {big + 3}.00 |" in markdown, markdown
    assert f"| a     |       3 | {big + 2}.00 |" in markdown and "e+18" not in markdown
    variants = parts.tables["variants.csv"].set_index("variant")
    assert variants.loc["v2", "score_q3"] == f"{big + 4}.00"
    differences = parts.tables["variant_differences.csv"].set_index("figure")
    assert differences.loc["score", "baseline_mean"] == f"{big + 2}.00"
