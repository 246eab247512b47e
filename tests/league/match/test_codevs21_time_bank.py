"""A codevs21 built-in whose time bank runs out keeps the score of the moves it made, as any solo bot does.

``chains`` needs far more than a few seconds for the 1000 moves of a Large game (about 30 s of its
own time on an idle machine, so a machine ten times faster still runs out at 3 s). Each move is
charged as it comes, so a bank of 3 s ends the game some moves in, with what they scored, rather
than at move 1 with nothing (as when every move was decided before the first was printed).
"""

import pytest

TINY_BANK = ["--set", "case=large", "--set", "time_total_s=3"]


@pytest.mark.parametrize("programs", [False, True], ids=["in_process", "as_a_program"])
def test_a_spent_time_bank_keeps_the_score_so_far(play_json, programs):
    data = play_json("codevs21", "chains", *TINY_BANK, *(["--programs"] if programs else []))
    result = data["result"]
    [record] = result["extra"]["records"]
    assert (result["termination"], result["reason_code"], record["end"]) == ("TIMEOUT", "timeout", "fault:timeout")
    assert "ran out of its 3000 ms time bank at move" in result["detail"]
    assert 1 <= record["turns"] < 1000 and data["plies"] == record["turns"]
    assert result["scores"] == [record["score"]] and record["score"] > 0, result
