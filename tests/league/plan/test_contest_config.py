"""The league file's ``contest:`` key: a live contest's caps and validation opponent, checked as the file is read."""

import pytest

from league.plan.config import ConfigError, load_league

BASE = """name: c
game: versus2048
bots:
  - {name: random, builtin: versus2048.random}
  - {name: greedy, builtin: versus2048.greedy}
"""


def league(tmp_path, extra=""):
    path = tmp_path / "league.yaml"
    path.write_text(BASE + extra)
    return load_league(path)


def test_a_contest_has_its_defaults_and_plays_validation_games_against_greedy(tmp_path):
    rules = league(tmp_path).config.contest
    assert (rules.daily_submissions, rules.per_minute, rules.upload_mb, rules.validate_against) == (20, 3, 16.0, None)
    assert rules.opponent("versus2048") == "versus2048.greedy"
    assert rules.opponent("synthetic") == "synthetic.model"  # no greedy: its first built-in


def test_the_contest_key_is_read_with_its_rules(tmp_path):
    rules = league(
        tmp_path, "contest: {daily_submissions: 5, per_minute: 1, validate_against: minimax, upload_mb: 2}\n"
    )
    assert (rules.config.contest.daily_submissions, rules.config.contest.per_minute) == (5, 1)
    assert rules.config.contest.opponent("versus2048") == "versus2048.minimax"
    named = league(tmp_path, "contest: {validate_against: versus2048.random}\n").config.contest
    assert named.opponent("versus2048") == "versus2048.random"


@pytest.mark.parametrize(
    ("extra", "problem"),
    [
        ("contest: {validate_against: expectimax}\n", "contest.validate_against: 'expectimax' is not a built-in of"),
        ("contest: {validate_against: pk2048.greedy}\n", "is not a built-in of versus2048"),
        ("contest: {daily: 3}\n", "contest.daily: unknown key (did you mean 'daily_submissions'?)"),
        ("contest: {per_minute: 0}\n", "contest.per_minute: Input should be greater than or equal to 1"),
        ("contest: {upload_mb: 0}\n", "contest.upload_mb"),
    ],
)
def test_a_wrong_contest_key_is_one_line_naming_it(tmp_path, extra, problem):
    with pytest.raises(ConfigError) as caught:
        league(tmp_path, extra)
    assert problem in str(caught.value) and "\n" not in str(caught.value)
