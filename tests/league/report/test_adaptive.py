"""The report of an adaptive league: why it stopped, games per pair, the settling, all from the folder alone.

Two real leagues of the synthetic game's built-ins play on the shared Ray cluster: one settles, one
reaches a small ``max_games``. Their reports are checked against the leagues' own manifests and
stores, and the history the report rests on against the tracker that ran them.
"""

import json
import random

import pandas as pd
import pytest

from league.cluster.runner import run_league, start_run
from league.plan.adaptive import adaptive_batch_sizes, adaptive_history
from league.plan.adaptive_batches import STOP_CAPPED, STOP_SETTLED
from league.plan.config import load_league
from league.plan.league_schedule import league_inputs
from league.report.adaptive import ADAPTIVE_CHARTS, ADAPTIVE_TABLES, adaptive_report
from league.report.build import remove_report, write_report
from league.stats.active_ranking import Claim
from league.store.results import league_store
from tests.league.plan.test_adaptive import adaptive_file


def played(folder, **overrides):
    """Run an adaptive league in ``folder`` and write its report; the league, its manifest and its records."""
    path = adaptive_file(folder, **overrides)
    league = load_league(path)
    summary = run_league(league)
    counted = [spec.game_id for spec in summary.run.tracker.counted_games]
    write_report(league.output, league.config.name, list(league.bots), list(league.games), counted)
    manifest = json.loads((league.output / "league.json").read_text())
    return path, league, manifest, league_store(league.output).records()


@pytest.fixture(scope="module")
def leagues(tmp_path_factory):
    """A league that settles and one that reaches max_games: 30 before it does."""
    import ray

    if not ray.is_initialized():
        ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    return {
        "settled": played(tmp_path_factory.mktemp("settled")),
        "capped": played(tmp_path_factory.mktemp("capped"), max_games=30),
    }


def csv(league, name):
    return pd.read_csv(league.output / name, keep_default_na=False)


def test_a_settled_leagues_report_says_so_and_its_figures_add_up(leagues):
    _, league, manifest, _ = leagues["settled"]
    counted, batches = len(manifest["game_ids"]), manifest["adaptive"]["batches"]
    report = (league.output / "report.md").read_text()
    assert report.index("## Adaptive league") < report.index("## Standings")
    assert f"It stopped settled after {counted:,} games in {len(batches)} batches (the warm-up and" in report

    pairs = csv(league, "adaptive_pairs.csv")
    assert len(pairs) == 3 and pairs["games"].sum() == counted  # the heatmap's games: every counted game, once
    assert (pairs["games"] == 2 * pairs["units"]).all()
    settling = csv(league, "adaptive_batches.csv")
    assert list(settling["games"]) == batches and settling["games_played"].iloc[-1] == counted
    assert settling["open_neighbours"].iloc[-1] == 0 and settling["open_neighbours"].iloc[0] > 0
    neighbours = csv(league, "adaptive_neighbours.csv")
    assert set(neighbours["claim"]) <= {"ordered", "tied"} and neighbours["upper"].iloc[0] == "top"
    assert (neighbours["score_low"] <= neighbours["score_high"]).all()
    assert (neighbours.loc[neighbours["claim"] == "ordered", "score_low"] > 0.5).all()

    page = (league.output / "index.html").read_text()
    for chart in ADAPTIVE_CHARTS:
        assert f"({chart})" in report and f'alt="{chart}"' in page
    removed = {path.name for path in remove_report(league.output)}
    assert removed >= {*ADAPTIVE_TABLES, *ADAPTIVE_CHARTS}


def test_a_capped_leagues_report_names_the_neighbours_still_open(leagues):
    _, league, manifest, _ = leagues["capped"]
    report = (league.output / "report.md").read_text()
    neighbours = csv(league, "adaptive_neighbours.csv")
    still = neighbours[neighbours["claim"] == "open"]
    assert len(still) > 0  # 30 games settle nothing between 290 and 300 Elo
    named = ", ".join(f"{upper} ? {lower}" for upper, lower in zip(still["upper"], still["lower"], strict=True))
    assert (
        f"It stopped at max_games (30) after {len(manifest['game_ids'])} games in"
        f" {len(manifest['adaptive']['batches'])} batches, with {len(still)} of 2 pairs of neighbours not settled"
        f" ({named}): raise max_games to go on." in report
    )
    assert csv(league, "adaptive_batches.csv")["open_neighbours"].iloc[-1] == len(still)
    assert csv(league, "adaptive_pairs.csv")["games"].sum() == len(manifest["game_ids"]) == 30


@pytest.mark.parametrize("name", ["settled", "capped"])
def test_the_history_from_the_folder_agrees_with_the_tracker(leagues, name):
    path, _, manifest, records = leagues[name]
    random.Random(1).shuffle(records)
    history = adaptive_history(manifest, records)
    tracker = start_run(league_inputs(load_league(path))).tracker
    tracker.add(records)
    assert history.stop == tracker.batches.stop == (STOP_SETTLED if name == "settled" else STOP_CAPPED)
    assert history.claims == tracker.batches.ranking.claims()
    assert [batch.open for batch in history.batches] == tracker.batches.open_after
    assert [batch.games for batch in history.batches] == adaptive_batch_sizes(tracker)
    assert history.units == {pair: units.count for pair, units in tracker.batches.ranking.pairs.items()}


def test_a_league_missing_a_game_has_not_stopped_and_agrees_with_the_tracker(leagues):
    path, _, manifest, records = leagues["settled"]
    batches = manifest["adaptive"]["batches"]
    cut = len(batches) // 2
    missing = manifest["game_ids"][sum(batches[:cut]) + 1]  # a game of batch cut + 1
    kept = [record for record in records if record["game_id"] != missing]
    history = adaptive_history(manifest, kept)
    tracker = start_run(league_inputs(load_league(path))).tracker
    tracker.add(kept)
    assert history.stop is None and len(history.batches) == cut == tracker.batches.taken
    assert [batch.open for batch in history.batches] == tracker.batches.open_after
    assert history.claims == tracker.batches.ranking.claims()
    assert sum(history.games.values()) == len(manifest["game_ids"]) - 1  # stored games beyond the batches taken too
    parts = adaptive_report(manifest, kept)
    [section] = parts.sections
    still = sum(neighbours.claim is Claim.OPEN for neighbours in history.claims)
    assert section.blocks[0].text.startswith(
        f"It has not stopped yet: after {history.games_taken:,} games in {cut} batches, {still} of 2 pairs"
    )
    assert section.blocks[0].text.endswith("Run the league again to go on.")


def test_other_leagues_have_no_adaptive_section():
    assert adaptive_report({"format": "round_robin", "game_ids": []}, []) is None
