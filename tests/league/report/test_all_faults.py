"""A league whose every game ended in a fault: standings and a sentence, no ratings invented; no stale files kept."""

from dataclasses import replace

import pandas as pd

from league.report.all_faults import every_game_faulted, no_ratings_sentence
from league.report.build import write_report
from league.stats.game_record import GameRecord
from league.store.results import league_store

from .made_up_games import made_up_records

BOTS = ["greedy", "minimax", "random"]


def faulted_records(count: int = 12) -> list[GameRecord]:
    """Games of three bots in which seat 0 crashes or seat 1 times out, every one (a forfeit each)."""
    records = []
    for record in made_up_records(count):
        if set(record.spec.seats) - set(BOTS):
            continue
        crash = len(records) % 3 != 0
        termination, offenders, ranks = ("CRASH", [0], [2, 1]) if crash else ("TIMEOUT", [1], [1, 2])
        records.append(
            replace(record, result=replace(record.result, termination=termination, offenders=offenders, ranks=ranks))
        )
    return records


def written(folder, records, bots=BOTS):
    store = league_store(folder)
    store.extend(records)
    store.close()
    write_report(folder, "faulty", bots, ["long", "short"])


def test_a_league_of_faults_only_gets_standings_and_a_sentence_and_no_ratings(tmp_path):
    records = faulted_records(60)
    assert every_game_faulted(records) and len(records) > 10
    written(tmp_path, records)
    for rating_file in ("ratings.csv", "strength.csv", "los.csv", "rank_probabilities.csv", "ratings.png"):
        assert not (tmp_path / rating_file).exists(), rating_file
    standings = pd.read_csv(tmp_path / "standings.csv")
    assert sorted(standings["bot"]) == BOTS
    assert standings[["mu", "sigma", "conservative"]].isna().all().all()
    assert standings["faults"].sum() == len(records) and standings["games"].sum() == 2 * len(records)
    # ordered by points, then fewer faults, then name: what the forfeits gave, nothing rated
    keys = list(zip(-standings["points"], standings["faults"], standings["bot"], strict=True))
    assert keys == sorted(keys)
    report = (tmp_path / "report.md").read_text()
    sentence = no_ratings_sentence(records)
    assert sentence.startswith(f"Every one of the {len(records)} games ended in a fault (")
    assert "crashes" in sentence and "timeouts" in sentence and "no ratings are given" in sentence
    assert report.count(sentence) == 2  # the verdict and the standings
    assert "Bradley-Terry strengths from all games" not in report


def test_one_game_played_out_brings_the_ratings_back_and_the_report_drops_no_stale_file(tmp_path):
    records = faulted_records(60)
    written(tmp_path, records)
    result = replace(records[0].result, termination="NORMAL", offenders=[], ranks=[1, 2])
    played = replace(records[0], game_id="played-out", result=result)
    assert not every_game_faulted([*records, played])
    store = league_store(tmp_path)
    store.append(played)
    store.close()
    write_report(tmp_path, "faulty", BOTS, ["long", "short"])
    assert (tmp_path / "strength.csv").exists() and (tmp_path / "ratings.csv").exists()
    assert pd.read_csv(tmp_path / "standings.csv")["mu"].notna().all()
    # and back: the ratings of the earlier report are removed, not left beside a report that has none
    (tmp_path / "games.jsonl").unlink()
    written(tmp_path, records)
    assert not (tmp_path / "strength.csv").exists() and not (tmp_path / "ratings.csv").exists()


def test_a_table_played_on_by_the_seats_without_a_fault_measured_them():
    table = GameRecord.from_json(
        {"game_id": "t", "spec": {"seats": ["a", "b", "c"]}, "result": {"termination": "CRASH", "offenders": [2]}}
    )
    both = GameRecord.from_json(
        {"game_id": "b", "spec": {"seats": ["a", "b", "c"]}, "result": {"termination": "CRASH", "offenders": [1, 2]}}
    )
    assert not every_game_faulted([table])  # a and b played on (nimmt's fallback for c): a real result
    assert every_game_faulted([both]) and every_game_faulted([both, faulted_records(12)[0]])
