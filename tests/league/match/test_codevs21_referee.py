"""codevs21 through the real referee: the official move lists played by a real program, both sides
of the protocol, and faults (rules/codevs21.md sections 8, 9 and V7).

The program (tests/bots/codevs21_movefile.py) reads its whole input to EOF, as the qualifier's
bots did, so it only answers if the referee closes its stdin after the initial input.
"""

import hashlib
from pathlib import Path

import pytest

from engine.codevs21 import Codevs21
from engine.codevs21.packs import CASES, generate, initial_input
from engine.codevs21.protocol import Codevs21Referee, SoloDriver
from league.match.bot_spec import parse_bot_argument
from league.match.players import make_launcher
from league.match.referee import play_match
from tests.conftest import bot_command

DATA = Path(__file__).resolve().parents[2] / "engine" / "data" / "codevs21"
CASE_OF = {"1371500651": "small", "1371738939": "medium", "1371660068": "large"}


def play(game, bot, seed=1):
    launcher = make_launcher(game, parse_bot_argument(Codevs21, bot), 0, seed)
    return play_match(game, [launcher], seed)


def official(problem, mode="plain", *args, **variant):
    game = Codevs21(case=CASE_OF[problem], packs_file=str(DATA / "input" / f"{problem}.txt"), **variant)
    moves = DATA / "output" / f"{problem}.txt"
    return play(game, bot_command(f"codevs21_movefile.py {moves} {mode} {' '.join(args)}".strip()))


EOF_AT_1000 = {"turns": 999, "end": "fault:eof"}
CLEAR = {"turns": 1000, "end": "clear"}


@pytest.mark.parametrize(
    ("problem", "record", "termination"),
    [
        ("1371500651", {"score": 4284865096235, "max_chain": 9, "fc": 100, **EOF_AT_1000}, "CRASH"),
        ("1371738939", {"score": 259788840097133, "max_chain": 17, "fc": 82, **EOF_AT_1000}, "CRASH"),
        ("1371660068", {"score": 17931682000516294, "max_chain": 18, "fc": 94, **CLEAR}, "NORMAL"),
    ],
)
def test_v7_the_official_move_lists_played_by_a_program(problem, record, termination):
    result = official(problem).result
    assert result.extra["records"] == [record]
    assert result.scores == [record["score"]] and isinstance(result.scores[0], int)
    assert result.termination.name == termination
    if termination == "CRASH":
        assert result.reason_code == "eof" and "before answering move 1000" in result.detail


def test_a_bot_that_stops_early_keeps_what_it_earned():
    result = official("1371660068", "first", "10").result
    [record] = result.extra["records"]
    assert (record["turns"], record["end"], record["score"]) == (10, "fault:eof", 49220)


def test_a_spent_time_bank_is_a_timeout():
    result = official("1371660068", "sleep", "2", time_total_s=0.5).result
    assert (result.termination.name, result.reason_code) == ("TIMEOUT", "timeout")
    assert result.extra["records"][0]["turns"] == 0 and "time bank at move 1" in result.detail


@pytest.mark.parametrize(
    ("line", "code", "words"),
    [
        ("0 4", "illegal_move", "rotation 4 is not 0, 1, 2 or 3"),
        ("1,2", "format", "malformed reply to move 7 ('1,2'): '1,2' is not 'X R'"),
        ("+1 0", "format", "is not 'X R'"),
        ("", "format", "is not 'X R'"),
        ("1 " + "0" * 1000, "format", "a line over 1000 bytes for move 7"),
    ],
)
def test_v8_a_bad_line_ends_the_game_with_the_rules_code(tmp_path, line, code, words):
    moves = tmp_path / "moves.txt"
    lines = (DATA / "output" / "1371660068.txt").read_text().splitlines()
    moves.write_text("\n".join([*lines[:6], line, *lines[7:]]) + "\n")
    game = Codevs21(case="large", packs_file=str(DATA / "input" / "1371660068.txt"))
    result = play(game, bot_command(f"codevs21_movefile.py {moves}")).result
    assert result.reason_code == code, result.detail
    assert result.extra["records"][0]["turns"] == 6 and result.extra["records"][0]["end"] == f"fault:{code}"
    assert words in result.detail, result.detail


def test_the_greeting_is_the_initial_input_byte_for_byte():
    game = Codevs21(case="small")
    state = game.new_state(1, 1)
    greeting = Codevs21Referee().greeting(state, None)
    assert hashlib.sha256(greeting).hexdigest() == "d562679ec6b749cd346134506e4cbb00a11f81279c5bbaea9cc531920cdb069e"
    assert greeting.decode() == initial_input(CASES["small"], generate(CASES["small"], 1))
    head = Codevs21Referee().greeting(Codevs21(case="small", send_params=True).new_state(1, 1), None)
    assert head.startswith(b"10 16 4 10 1000 25 100\n0 0 3 11\n")


class FirstLegal:
    """A scripted built-in: always the leftmost legal position, no rotation."""

    def act(self, observation):
        from engine.codevs21.packs import legal_positions

        pack = observation.packs[observation.turn]
        return legal_positions(pack, observation.params.T, observation.params.W)[0], 0


def test_the_bot_side_reads_the_greeting_and_answers_every_turn_at_the_end():
    game = Codevs21(case="small", N=30, A=10, B_obs=5)
    state = game.new_state(4, 1)
    driver = SoloDriver(FirstLegal(), cap=25, threshold=100)
    lines = Codevs21Referee().greeting(state, None).decode().splitlines()
    answers = [driver.feed(line) for line in lines]
    assert answers[:-1] == [None] * (len(lines) - 1)
    moves = answers[-1].split("\n")
    assert 1 <= len(moves) <= 30 and all(move.endswith(" 0") for move in moves)


def test_the_readme_minimal_bot_plays_until_it_overflows(tmp_path):
    readme = (Path(__file__).resolve().parents[3] / "engine" / "codevs21" / "README.md").read_text()
    code = readme.split("## 7. A minimal bot (solo)\n\n```python\n")[1].split("```")[0]
    (tmp_path / "bot.py").write_text(code)
    result = play(Codevs21(case="small"), f"python3 {tmp_path / 'bot.py'}", seed=3).result
    [record] = result.extra["records"]
    assert result.termination.name == "NORMAL" and record["end"] == "overflow" and record["turns"] > 10


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("10 16 4 10 2\n" + "1 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\nEND\n" * 2, "but the game is 10 16 4 10 1000"),
        ("10 16 4 10 1000\n" + "0 0 0 0\n" * 4 + "END\n", "pack 0 holds no block"),
    ],
)
def test_a_packs_file_that_does_not_fit_is_one_line_and_exit_2(tmp_path, league_cli, content, words):
    (tmp_path / "problem.txt").write_text(content)
    status, out, err = league_cli("play", "codevs21", "random", "--set", f"packs_file={tmp_path / 'problem.txt'}")
    assert status == 2 and out == "" and err.count("\n") == 1 and words in err, err


def test_a_built_in_that_answers_every_move_at_once_is_charged_its_thinking(play_json):
    small = ["--set", "N=40", "--set", "A=15", "--set", "B_obs=40"]
    data = play_json("codevs21", "chains", *small, "--set", "time_total_s=0.001")
    assert (data["result"]["termination"], data["result"]["reason_code"]) == ("TIMEOUT", "timeout")
    data = play_json("codevs21", "chains", *small)
    assert data["result"]["termination"] == "NORMAL" and data["time_used_ms"][0] > 1
