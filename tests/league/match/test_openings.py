"""Openings (league/plan/openings.py, engine/openings.py): deterministic bots repeat without them and differ with them.

Two program bots that never randomise (tests/bots/v2048_fixed_order.py with two slide orders)
play versus2048, which has no randomness: without openings every pair of games repeats the first;
with ``openings: {plies: 4}`` the pairs differ, both games of a pair start from the same opening,
the same seed gives the same openings, an openings file is read in order, a bad ``openings`` is one
line and exit 2 with nothing written, and a bot of an opened game receives exactly the bytes of the
protocol (engine/versus2048/README.md, section 2.5's worked example) from the position it leads to.
"""

import json
import shlex
import sys
from pathlib import Path

import pytest

from engine import get_game
from engine.openings import Opening, OpeningError, OpeningPlay, check_moves, opening_rules
from league.cluster.runner import schedule
from league.plan.config import load_league
from league.plan.manifest import read_manifest
from league.replay.command import replay_command
from league.replay.rebuild import replay_game
from league.report.games import game_rows
from league.stats.game_record import GameRecord
from league.store.results import ResultStore
from tests.browser import page_log
from tests.conftest import BOTS, play_in_process, write_league

BOT = [sys.executable, str(BOTS / "v2048_fixed_order.py")]
DETERMINISTIC = [
    {"name": "up", "command": [*BOT, "URDL"]},
    {"name": "left", "command": [*BOT, "LDRU", "last"]},
]
WORKED_EXAMPLE = "3 2; 1 1; R 1 1 3 3; L 1 2 2 5"
"""The first plies of engine/versus2048/README.md, section 2.5, as an openings file's line."""


def league_file(folder: Path, **overrides) -> Path:
    """A versus2048 league of the two deterministic bots: 3 seat-swapped pairs of short games, unjailed."""
    config = {
        "bots": DETERMINISTIC,
        "variants": {"short": {"turns_per_player": 8}},
        "games_per_pair": 6,
        "sandbox": "none",
        "concurrency": 1,
        **overrides,
    }
    folder.mkdir(parents=True, exist_ok=True)
    return write_league(folder, **config)


def played(folder: Path, **overrides) -> list[dict]:
    """Play the league in this process; its records (results line and details) in schedule order."""
    _, specs = play_in_process(league_file(folder, **overrides))
    store = ResultStore(folder / "out" / "games.jsonl")
    lines = {record.game_id: record.to_json() for record in store.records()}
    details = store.details(lines)
    return [{**lines[spec.game_id], **details[spec.game_id]} for spec in specs]


def by_seats(records: list[dict]) -> dict[tuple[str, ...], list[dict]]:
    seated: dict[tuple[str, ...], list[dict]] = {}
    for record in records:
        seated.setdefault(tuple(record["spec"]["seats"]), []).append(record)
    return seated


def test_deterministic_bots_repeat_every_pair_without_openings_and_differ_with_four_random_plies(tmp_path):
    plain = played(tmp_path / "plain")
    for games in by_seats(plain).values():
        assert len(games) == 3 and len({game["fingerprint"] for game in games}) == 1, "no randomness: each repeats"
        assert all("opening" not in game and "opening" not in game["spec"] for game in games)
    opened = played(tmp_path / "opened", openings={"plies": 4})
    for games in by_seats(opened).values():
        assert len({game["fingerprint"] for game in games}) == 3, "every pair of games is its own"
        assert len({json.dumps(game["opening"]) for game in games}) == 3
    rounds: dict[int, list[dict]] = {}
    for record in opened:
        assert record["spec"]["opening"] == {"plies": 4}
        assert len(record["opening"]) == 4 and record["result"]["plies"] > 4
        rounds.setdefault(record["spec"]["round"], []).append(record)
    assert len(rounds) == 3
    for pair in rounds.values():
        first, second = pair
        assert first["spec"]["seats"] == second["spec"]["seats"][::-1]
        assert first["spec"]["seed"] == second["spec"]["seed"]
        assert first["opening"] == second["opening"], "both games of a pair start from one position"
    assert len({tuple(pair[0]["opening"]) for pair in rounds.values()}) == 3
    ids = {record["game_id"] for record in plain}
    assert not ids & {record["game_id"] for record in opened}, "an opening is part of what the game is"


def test_a_replay_of_an_opened_game_is_the_stored_game_and_marks_where_the_opening_ended(tmp_path):
    record = played(tmp_path, openings={"plies": 4}, games_per_pair=2)[0]
    replay = replay_game(get_game("versus2048")(turns_per_player=8), GameRecord.from_json(record), record)
    assert replay.diverged == ""
    opening_moves = [move["reply"] for frame in replay.frames for move in frame.moves if move.get("opening")]
    assert opening_moves == record["opening"]
    ends = [number for number, frame in enumerate(replay.frames) if frame.opening_end]
    assert len(ends) == 1
    later = [move for frame in replay.frames[ends[0] + 1 :] for move in frame.moves]
    assert later and not any(move.get("opening") for move in later), "after the opening's end only bots move"


def test_the_same_seed_gives_the_same_openings_and_ids_and_another_seed_others(tmp_path):
    def specs(folder: Path, seed: int, plies: int = 4):
        return schedule(load_league(league_file(folder, seed=seed, openings={"plies": plies})))

    one, other = specs(tmp_path / "a", 7), specs(tmp_path / "c", 8)
    again = schedule(load_league(tmp_path / "a" / "league.yaml"))
    assert [spec.game_id for spec in one] == [spec.game_id for spec in again]
    game = get_game("versus2048")(turns_per_player=8)

    def openings(specs) -> list[list[str]]:
        drawn = []
        for spec in specs:
            state = game.new_state(spec.seed)
            play = OpeningPlay(opening_rules(game), Opening(plies=4, seed=spec.seed), game.referee_protocol())
            while play.pending(state):
                play.play_ply(state)
            drawn.append(play.played)
        return drawn

    assert openings(one) == openings(again)
    assert openings(one) != openings(other)
    longer = specs(tmp_path / "d", 7, plies=6)
    assert not {spec.game_id for spec in one} & {spec.game_id for spec in longer}, "the plies are part of the id"


def test_an_openings_file_is_read_in_order_pair_k_taking_line_k_and_wrapping_round(tmp_path):
    book = tmp_path / "book.txt"
    lines = ["3 2; 1 1", "# a comment", "", WORKED_EXAMPLE, "5 5; 2 4; U 1 1 1 1"]
    book.write_text("\n".join(lines) + "\n")
    records = played(tmp_path, openings={"file": "book.txt"}, games_per_pair=8)
    want = [["3 2", "1 1"], WORKED_EXAMPLE.split("; "), ["5 5", "2 4", "U 1 1 1 1"], ["3 2", "1 1"]]
    numbers = [1, 4, 5, 1]
    for record in records:
        k = record["spec"]["round"]
        assert record["opening"] == want[k]
        assert record["spec"]["opening"] == {"file": "book.txt", "line": numbers[k], "moves": want[k]}


BAD = [
    ({"plies": -1}, ["openings.plies", "-1 plies: give 0 or more"]),
    (4, ["openings", "give {plies: N}", "{file: PATH}"]),
    ({"plies": 2, "file": "book.txt"}, ["exactly one of plies", "file"]),
    ({"file": "missing.txt"}, ["missing.txt", "cannot read"]),
    ({"file": "illegal.txt"}, ["illegal.txt, line 2", "ply 3", "'U 1 1 1 1'", "changes nothing"]),
    ({"file": "malformed.txt"}, ["malformed.txt, line 1", "ply 1", "expected 2 integers"]),
    ({"file": "empty.txt"}, ["holds no openings"]),
    ({"depth": 3}, ["openings.depth", "unknown key"]),
]


@pytest.mark.parametrize(("openings", "words"), BAD)
def test_a_bad_openings_key_is_one_line_exit_2_and_nothing_written(league_cli, tmp_path, openings, words):
    (tmp_path / "illegal.txt").write_text("1 1; 2 2\n1 1; 1 1; U 1 1 1 1\n")  # seat 0's one tile at (1,1) cannot go up
    (tmp_path / "empty.txt").write_text("# only a comment\n\n")
    (tmp_path / "malformed.txt").write_text("1\n")
    path = league_file(tmp_path, openings=openings)
    for command in ("validate", "run"):
        status, _, err = league_cli(command, str(path))
        assert status == 2, err
        assert err.startswith("league: error: ") and err.count("\n") == 1, err
        for word in words:
            assert word in err, err
        assert not (tmp_path / "out").exists(), f"{command} wrote nothing"


def test_a_game_whose_own_randomness_varies_every_game_refuses_openings_saying_why(league_cli, tmp_path):
    config = {"game": "nimmt", "variants": {"default": {}}, "openings": {"plies": 2}}
    config["bots"] = [{"name": "a", "builtin": "nimmt.random"}, {"name": "b", "builtin": "nimmt.greedy"}]
    path = write_league(tmp_path, **config)
    status, _, err = league_cli("validate", str(path))
    assert status == 2 and err.count("\n") == 1, err
    assert "nimmt takes no openings" in err and "deal is drawn from the match seed" in err, err


def test_a_bot_of_an_opened_game_is_sent_the_protocols_bytes_from_the_position_the_opening_led_to(league_cli, tmp_path):
    (tmp_path / "book.txt").write_text(WORKED_EXAMPLE + "\n")
    echo = " ".join([*BOT, "URDL", "first", "echo"])
    status, out, err = league_cli(
        "play", "versus2048", echo, echo, "--set", "turns_per_player=3", "--sandbox", "none",
        "--openings", f"file={tmp_path / 'book.txt'}", "--json",
    )  # fmt: skip
    assert status == 0, err
    match = json.loads(out)
    assert match["opening"] == WORKED_EXAMPLE.split("; ")
    received = {
        tail["seat"]: b"".join(eval(line) for line in tail["text"].splitlines())  # noqa: S307 - the bot's repr of bytes
        for tail in match["stderr"]
    }
    # Its pre-game reply "1 1" is read and judged, the opening's cell (3, 2) put; no time is charged in the opening.
    turn_2 = b"2 100000 0 4\n0 0 0 0 1\n0 0 0 0 2\n" + b"0 0 0 0 0\n" * 5 + b"2 0 0 0 0\n" + b"0 0 0 0 0\n" * 2
    assert received[0].startswith(b"0\n" + turn_2), received[0][:200]
    assert received[1].startswith(b"1\n2 "), received[1][:200]


def test_the_random_policy_plays_only_legal_plies_and_an_opening_that_ends_the_game_is_refused():
    game = get_game("versus2048")(board_size=3)
    rules = opening_rules(game)
    for seed in range(60):
        state = game.new_state(seed)
        play = OpeningPlay(rules, Opening(plies=40, seed=seed), game.referee_protocol())
        while play.pending(state):
            play.play_ply(state)  # each ply is judged by the rules (check) before it is played
        assert len(play.played) == 40 or state.is_over()
    with pytest.raises(OpeningError, match="takes no openings"):
        opening_rules(get_game("fish")())
    with pytest.raises(OpeningError, match="no moves"):
        check_moves(game, ())


@pytest.mark.parametrize("openings", [{"plies": 4}, {"file": "book.txt"}])
def test_the_report_counts_an_opened_games_opening_plies_and_its_replay_command_plays_the_same_game(
    league_cli, tmp_path, monkeypatch, openings
):
    (tmp_path / "book.txt").write_text(WORKED_EXAMPLE + "\n")
    record = played(tmp_path, openings=openings, games_per_pair=2)[1]
    (row,) = game_rows([GameRecord.from_json(record)])
    assert row.opening_plies == 4 and row.plies_text == f"{record['result']['plies']} (4 opening)"
    status, _, err = league_cli("report", str(tmp_path / "out"))
    assert status == 0, err
    report = (tmp_path / "out" / "report.md").read_text()
    assert "- openings: " + ("4 random plies" if "plies" in openings else "the 1 opening of") in report
    assert f"| {record['result']['plies']} (4 opening) |" in report
    command = replay_command(read_manifest(tmp_path / "out"), GameRecord.from_json(record))
    assert "--openings" in command, command
    where, _, line = command.rpartition(" && ")
    if where:
        monkeypatch.chdir(shlex.split(where)[1])
    status, out, err = league_cli(*shlex.split(line)[1:], "--json")
    assert status == 0, err
    again = json.loads(out)
    assert again["opening"] == record["opening"]
    assert again["result"]["scores"] == record["result"]["scores"] and again["plies"] == record["result"]["plies"]


@pytest.mark.parametrize(
    ("game", "option", "words"),
    [
        ("versus2048", "plies=-1", ["--openings", "-1 plies: give 0 or more"]),
        ("versus2048", "file=missing.txt", ["--openings", "missing.txt", "cannot read"]),
        ("versus2048", "moves=1 1; 9 9", ["--openings", "ply 2", "off the 5x5 board"]),
        ("versus2048", "pair=2", ["--openings", "with file=PATH"]),
        ("fish", "plies=2", ["--openings", "fish takes no openings", "shuffled from the match seed"]),
    ],
)
def test_league_play_refuses_a_bad_openings_option_in_one_line(league_cli, tmp_path, monkeypatch, game, option, words):
    monkeypatch.chdir(tmp_path)
    status, out, err = league_cli("play", game, "random", "random", "--openings", option)
    assert status == 2 and not out, err
    assert err.startswith("league: error: ") and err.count("\n") == 1, err
    for word in words:
        assert word in err, err


def test_the_replay_page_shows_the_openings_plies_and_where_it_ended_in_chromium(tmp_path, page):
    from league.replay.files import LeagueReplays

    record = played(tmp_path, openings={"plies": 4}, games_per_pair=2)[0]
    page.goto(LeagueReplays(tmp_path / "out").write(record["game_id"]).resolve().as_uri())
    assert page_log(page).errors() == [] and page_log(page).foreign_requests() == []
    ends = page.evaluate("replayPlayer.reels[0].frames.flatMap((f, i) => f.opening_end ? [i] : [])")
    assert len(ends) == 1
    shown = []
    for index in range(ends[0] + 2):
        page.evaluate(f"replayPlayer.show({index})")
        shown.append(page.evaluate("document.getElementById('moves').innerText"))
    marked = [text.count("(the opening's, played by the referee)") for text in shown]
    assert sum(marked) == len(record["opening"]), "each of the opening's plies is marked as the referee's"
    assert [("the opening ends here" in text) for text in shown].count(True) == 1
    assert "the opening ends here" in shown[ends[0]] and marked[ends[0] + 1] == 0
