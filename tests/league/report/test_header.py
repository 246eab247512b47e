"""The report's header: when the league was played, from the first run's start to the last run's end."""

from league.cluster.runner import run_league
from league.plan.config import load_league
from league.plan.manifest import read_manifest
from league.report.build import write_report
from league.report.header import header_section
from tests.conftest import write_league


def facts(manifest: dict) -> list[str]:
    """The header's bullet points for ``manifest`` (no games, no bots, no variants)."""
    return list(header_section(manifest, [], [], []).blocks[0].items)


def played(manifest: dict) -> str:
    return next(fact for fact in facts(manifest) if fact.startswith("played: "))


def test_the_header_runs_from_the_first_start_to_the_last_end():
    runs = [
        {"started": "2024-05-01 09:01 UTC", "ended": "2024-05-01 09:12 UTC", "seconds": 695.0, "played": 10},
        {"started": "2024-05-02 14:00 UTC", "ended": "2024-05-02 15:30 UTC", "seconds": 5400.0, "played": 90},
    ]
    assert played({"runs": runs[:1]}) == "played: 2024-05-01 09:01 UTC to 2024-05-01 09:12 UTC in 1 run"
    assert played({"runs": runs}) == "played: 2024-05-01 09:01 UTC to 2024-05-02 15:30 UTC in 2 runs"


def test_a_manifest_of_an_older_version_gives_its_start_plus_its_seconds_as_about():
    old = {"runs": [{"started": "2024-05-01 09:01 UTC", "seconds": 695.0, "played": 10}]}  # no "ended"
    assert played(old) == "played: 2024-05-01 09:01 UTC to about 2024-05-01 09:12 UTC in 1 run"
    assert played(old) == played(old), "the same data, the same words"
    garbled = {"runs": [{"started": "yesterday", "seconds": 695.0, "played": 10}]}
    assert played(garbled) == "played: yesterday to an end not recorded in 1 run"


def test_a_run_records_its_end_and_the_report_says_it(ray_local, tmp_path):
    league = load_league(write_league(tmp_path, games_per_pair=2))
    run_league(league)
    [run] = read_manifest(league.output)["runs"]
    assert run["ended"] >= run["started"], run  # both "YYYY-MM-DD HH:MM UTC": ordered as text
    write_report(league.output, league.config.name, list(league.bots), list(league.games))
    report = (league.output / "report.md").read_text()
    assert f"- played: {run['started']} to {run['ended']} in 1 run" in report
