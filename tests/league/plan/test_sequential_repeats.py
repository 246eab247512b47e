"""An SPRT of deterministic program bots in versus2048 (no randomness) stops without a verdict; openings let it decide.

The two bots (tests/bots/v2048_steady.py, and a variant of it: another slide order, the other attack
cell) play the same pair of games on every seed. The test counts that pair once, stops once most
pairs it took repeat earlier ones, and the run, the CLI line and the report say why and what to do
(issue 32: before, it accepted H1 at 38 pairs with ``+17486.6 ± 339912.8`` normalized Elo).
"""

import sys

import yaml

from league.cluster.runner import run_league, schedule
from league.plan.config import load_league
from league.report.build import write_report
from league.stats.distinct import MIN_UNITS_TO_JUDGE
from league.stats.sprt import H1
from tests.conftest import BOTS, write_league

STEADY = str(BOTS / "v2048_steady.py")
BOT = {"name": "mybot", "command": [sys.executable, STEADY], "cwd": str(BOTS)}
VARIANT = {"name": "mybot-w8", "command": [sys.executable, STEADY, "LDRU", "last"], "cwd": str(BOTS)}
WHY = "mybot-w8 and mybot played 2 distinct games in"


def deterministic_sprt(tmp_path):
    """The issue's league: versus2048, format sprt, elo0 0, elo1 20, the variant tested against its bot."""
    tmp_path.chmod(0o755)  # the league file's folder is shown to the jailed bots
    path = write_league(
        tmp_path,
        bots=[VARIANT, BOT],
        format="sprt",
        sprt={"elo0": 0, "elo1": 20},
        max_games=200,
        variants={"short": {"turns_per_player": 12}},
    )
    config = yaml.safe_load(path.read_text())
    del config["games_per_pair"]
    path.write_text(yaml.safe_dump(config))
    return load_league(path)


def test_a_deterministic_sprt_stops_without_a_verdict_and_says_why(ray_local, tmp_path, league_cli):
    league = deterministic_sprt(tmp_path)
    summary = run_league(league)
    test = summary.run.tracker
    assert test is not None and test.decided and test.repeated and test.state.verdict is None
    assert test.state.pairs == 1, "every pair after the first repeats it and is not counted"
    assert test.pairs_taken == MIN_UNITS_TO_JUDGE  # the first moment "most pairs repeat" can be judged
    assert summary.played < len(summary.run.games)  # the run ended there, as at a verdict, before max_games
    ids = [spec.game_id for spec in schedule(league)]
    write_report(league.output, league.config.name, list(league.bots), list(league.games), ids)
    report = (league.output / "report.md").read_text()
    section = report[report.index("## SPRT") :]
    assert f"SPRT: no verdict: {WHY} {MIN_UNITS_TO_JUDGE} pairs" in section
    assert "versus2048 draws nothing from the seed" in section and "`openings: {plies: 4}`" in section
    assert "without a verdict: most pairs repeated earlier ones" in section
    assert "H1 accepted" not in report and "H0 accepted" not in report
    assert "2 distinct) (identical games count once in every statistic)" in report
    status, _, err = league_cli("run", str(tmp_path / "league.yaml"))  # a rerun plays nothing and says the same
    assert status == 0, err
    assert f"SPRT: no verdict: {WHY} {MIN_UNITS_TO_JUDGE} pairs" in err and "0 played" in err


def test_with_openings_an_sprt_of_deterministic_bots_decides_on_distinct_pairs(ray_local, tmp_path):
    # The candidate merges most; its baseline slides in a fixed order (tests/bots/v2048_fixed_order.py).
    league_file = deterministic_sprt(tmp_path).path
    config = yaml.safe_load(league_file.read_text())
    config["bots"] = [BOT, {"name": "fixed", "command": [sys.executable, str(BOTS / "v2048_fixed_order.py")]}]
    config |= {"openings": {"plies": 8}, "max_games": 800, "variants": {"long": {"turns_per_player": 40}}}
    league_file.write_text(yaml.safe_dump(config))
    without = yaml.safe_load(league_file.read_text())
    summary = run_league(load_league(league_file))
    test = summary.run.tracker
    assert test is not None and not test.repeated, "the openings make the pairs differ"
    state = test.state
    assert state.verdict == H1, f"the merging bot is stronger: LLR {state.llr:.2f}, pentanomial {state.counts}"
    assert state.seen.units == test.pairs_taken and state.seen.repeated < state.seen.units / 2
    assert sum(state.counts) == state.pairs == state.seen.distinct, "the verdict rests on distinct pairs alone"
    assert summary.played < len(summary.run.games), "it stopped at its verdict, before max_games"
    del without["openings"]  # the same two bots without openings: one pair over and over, no verdict
    (tmp_path / "plain").mkdir()
    plain = tmp_path / "plain" / "league.yaml"
    plain.write_text(yaml.safe_dump(without | {"output": str(tmp_path / "plain" / "out")}))
    summary = run_league(load_league(plain))
    assert (
        summary.run.tracker is not None and summary.run.tracker.repeated and summary.run.tracker.state.verdict is None
    )
