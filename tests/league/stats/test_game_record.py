"""The stored game's type: older stores' lines read with defaults, exact integers, the line's own JSON back."""

import json

import pytest

from league.stats.game_record import GameRecord, RecordResult, RecordSpec, StoredFault


def line(data: dict) -> bytes:
    return json.dumps(data, separators=(",", ":")).encode()


OLD_LINE = (
    b'{"game_id":"a1","spec":{"game_id":"a1","index":3,"league":"old","variant":"default","seats":["x","y"],'
    b'"seed":7,"round":1},"result":{"scores":[2,1],"ranks":[1,2],"termination":"NORMAL","offenders":[],'
    b'"reason_code":"MORE","detail":"2 to 1","plies":9,"extra":{},"winner":0},"time_used_ms":[5,6],"worker":"h:1"}'
)
"""A results line of a store written before fingerprints, versions, openings, faults and nodes."""


def test_an_old_stores_line_is_read_with_defaults_and_written_back_as_it_was():
    record = GameRecord.from_json(json.loads(OLD_LINE))
    assert record.game_id == "a1" and record.spec.seats == ["x", "y"] and record.spec.index == 3
    assert record.spec.game is None and record.spec.versions is None and record.spec.opening is None
    assert record.result.faults is None and record.result.winner == 0 and record.result.scores == [2, 1]
    assert record.fingerprint is None and record.node is None and record.log is None
    assert line(record.to_json()) == OLD_LINE, "no key added, none reordered"


def test_a_line_missing_whole_parts_gets_defaults():
    record = GameRecord.from_json({"game_id": "bare"})
    assert record.spec == RecordSpec() and record.result == RecordResult() and record.time_used_ms == []
    assert not record.infra and line(record.to_json()) == b'{"game_id":"bare"}'


def test_huge_integer_scores_stay_exact_integers():
    big = [2**53 + 1, -(10**30) - 7]
    data = json.loads(line({"game_id": "g", "result": {"scores": big, "ranks": [1, 2], "plies": 2**70}}))
    record = GameRecord.from_json(data)
    assert record.result.scores == big and all(type(score) is int for score in record.result.scores)
    assert record.result.plies == 2**70 and type(record.result.plies) is int
    assert json.loads(line(record.to_json()))["result"]["scores"] == big


def test_faults_are_typed_and_keys_this_code_does_not_know_are_kept_in_place():
    data = {
        "game_id": "g",
        "spec": {"game_id": "g", "seats": ["a", "b"], "later_key": [1]},
        "result": {"termination": "CRASH", "offenders": [1], "faults": [{"seat": 1, "termination": "CRASH"}]},
        "future": {"x": 1},
        "fingerprint": "f" * 24,
    }
    record = GameRecord.from_json(json.loads(line(data)))
    assert record.result.faults == [StoredFault(1, "CRASH")] and record.spec.other == {"later_key": [1]}
    assert record.other == {"future": {"x": 1}} and record.fingerprint == "f" * 24
    assert line(record.to_json()) == line(data)
    assert line(record.with_log([10, 20]).to_json()) == line({**data, "log": [10, 20]})


def test_an_infra_error_record_says_so():
    record = GameRecord.from_json({"game_id": "g", "result": {"termination": "INFRA_ERROR"}})
    assert record.infra


@pytest.mark.parametrize("data", [[1, 2], {"spec": {}}, {"game_id": 3}, {"game_id": "g", "spec": [1]}])
def test_what_is_not_a_game_record_is_refused(data):
    with pytest.raises(ValueError):
        GameRecord.from_json(data)


def test_records_are_read_only():
    record = GameRecord.from_json({"game_id": "g"})
    with pytest.raises(AttributeError):
        record.game_id = "h"  # type: ignore[misc]
