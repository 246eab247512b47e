"""The Swiss section of the report (league.report.swiss): standings with tie-breaks, rounds with results.

One league is worked by hand (its figures in the comments); another is a SwissRun's, whose section
must say what the run says whatever order its games come in.
"""

from league.plan.formats.swiss import SwissFormat
from league.report.page import Table, render_markdown
from league.report.swiss import swiss_section
from league.stats.game_record import GameRecord
from tests.league.plan.test_swiss_format import inputs_of, play_through


def game(game_id, seats, ranks, index):
    spec = {"game_id": game_id, "index": index, "league": "l", "variant": "default", "seats": seats, "seed": 1}
    result = {"scores": [0, 0], "ranks": ranks, "termination": "NORMAL", "offenders": []}
    return GameRecord.from_json({"game_id": game_id, "spec": spec, "result": result})


MANIFEST = {
    "format": "swiss",
    "bots": ["a", "b", "c"],
    "swiss": {
        "rounds": 3,
        "games_per_round": 1,
        "seeding": "file",
        "draw_order": ["a", "b", "c"],
        "rounds_paired": [
            {"round": 1, "pairings": [["a", "b"]], "game_ids": [["g1"]], "bye": "c", "repeats": []},
            {"round": 2, "pairings": [["c", "a"]], "game_ids": [["g2"]], "bye": "b", "repeats": []},
            {"round": 3, "pairings": [["b", "c"]], "game_ids": [["g3"]], "bye": "a", "repeats": []},
        ],
    },
}
# g1: a beats b; g2: c draws a; g3: b beats c. Each bye scores 1 (a win of the round's one game).
RECORDS = [game("g1", ["a", "b"], [1, 2], 0), game("g2", ["c", "a"], [1, 1], 1), game("g3", ["b", "c"], [1, 2], 2)]


def tables_of(section):
    return [block.frame for block in section.blocks if isinstance(block, Table)]


def test_standings_and_rounds_of_a_hand_worked_swiss():
    # Scores: a 1 + 1/2 + 1 (bye) = 2.5, b 0 + 1 (bye) + 1 = 2, c 1 (bye) + 1/2 + 0 = 1.5.
    # Buchholz: a b+c = 3.5, b a+c = 4, c a+b = 4.5.
    # Sonneborn-Berger: a 1*2 + 1/2*1.5 = 2.75, b 0*2.5 + 1*1.5 = 1.5, c 1/2*2.5 + 0*2 = 1.25.
    section = swiss_section(MANIFEST, list(reversed(RECORDS)))
    standings, rounds = tables_of(section)
    assert standings[["bot", "score", "Buchholz", "Sonneborn-Berger", "byes"]].values.tolist() == [
        ["a", "2.5", "3.5", "2.75", 1],
        ["b", "2", "4", "1.5", 1],
        ["c", "1.5", "4.5", "1.25", 1],
    ]
    assert rounds.values.tolist() == [
        ["1", "a - b", "1 - 0"],
        ["1", "c (bye)", "1"],
        ["2", "c - a", "0.5 - 0.5"],
        ["2", "b (bye)", "1"],
        ["3", "b - c", "1 - 0"],
        ["3", "a (bye)", "1"],
    ]
    text = render_markdown("League l", [section])
    assert "A Swiss of all 3 rounds played, 1 game a pairing each round" in text
    assert "then Buchholz, then Sonneborn-Berger, then the draw order (the file's order)" in text
    assert "a bye scores 1 point" in text


def test_a_swiss_not_all_played_counts_the_rounds_whose_games_are_all_stored():
    # Without g3: a 1 + 1/2 = 1.5, b 0 + 1 (bye) = 1, c 1 (bye) + 1/2 = 1.5; a above c on Buchholz
    # (a: b+c = 2.5, c: a = 1.5); b met a alone: 1.5.
    section = swiss_section(MANIFEST, RECORDS[:2])
    standings, rounds = tables_of(section)
    assert standings[["bot", "score", "Buchholz"]].values.tolist() == [
        ["a", "1.5", "2.5"],
        ["c", "1.5", "1.5"],
        ["b", "1", "1.5"],
    ]
    assert rounds.values.tolist()[-2:] == [["3", "b - c", "not all played yet"], ["3", "a (bye)", ""]]
    assert "2 of 3 rounds played (run the league again to go on)" in render_markdown("l", [section])


def test_other_formats_have_no_swiss_section():
    assert swiss_section({"format": "round_robin"}, RECORDS) is None


def test_the_section_says_what_the_run_says_whatever_order_the_games_come_in(tmp_path):
    run = SwissFormat().start(inputs_of(tmp_path, swiss={"rounds": 4}))
    records = play_through(run, order_seed=3)
    manifest = {"format": "swiss", "bots": run.bots, **run.manifest()}
    standings, rounds = tables_of(swiss_section(manifest, list(reversed(records))))
    assert list(standings["bot"]) == run.final_order()
    assert list(standings["Buchholz"]) == [f"{row['buchholz']:g}" for row in run.standings()]
    assert len(rounds) == 4 * 3  # 2 pairings and a bye a round
