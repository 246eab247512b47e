"""``league authors add|list|remove``: a token printed once on its own line, never listed; bad input one line."""

import pytest

from league.store.authors import DATABASE, author_of_token
from tests.conftest import refusal

LEAGUE = """name: contest
game: versus2048
bots:
  - {name: random, builtin: versus2048.random}
  - {name: greedy, builtin: versus2048.greedy}
format: round_robin
games_per_pair: 2
seed: 1
output: out
"""


@pytest.fixture
def league_file(tmp_path):
    path = tmp_path / "contest.yaml"
    path.write_text(LEAGUE)
    return path


def test_add_prints_the_token_once_on_a_line_of_its_own_and_list_never_shows_it(league_cli, league_file, tmp_path):
    status, out, err = league_cli("authors", "add", str(league_file), "alice")
    assert status == 0, err
    token = out.removesuffix("\n")
    assert out == token + "\n" and token and " " not in token  # stdout is the token alone
    assert "shown only this once" in err and "hash" in err and token not in err
    assert author_of_token(tmp_path / "out", token) == "alice"
    assert (tmp_path / "out" / DATABASE).exists()
    status, out, err = league_cli("authors", "add", str(league_file), "bob")
    assert status == 0, err
    other = out.strip()
    status, out, err = league_cli("authors", "list", str(league_file))
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0].split() == ["author", "added", "(UTC)"]
    assert [line.split()[0] for line in lines[1:]] == ["alice", "bob"]
    assert token not in out + err and other not in out + err


def test_a_contest_folder_is_still_the_league_s_to_run(league_cli, league_file):
    assert league_cli("authors", "add", str(league_file), "alice")[0] == 0
    status, _, err = league_cli("validate", str(league_file), "--no-estimate")
    assert status == 0, err


def test_list_without_authors_says_how_to_add_one_and_writes_nothing(league_cli, league_file, tmp_path):
    status, out, err = league_cli("authors", "list", str(league_file))
    assert (status, out) == (0, "")
    assert "league authors add" in err
    assert not (tmp_path / "out").exists()


def test_a_removed_author_s_token_no_longer_works(league_cli, league_file, tmp_path):
    token = league_cli("authors", "add", str(league_file), "alice")[1].strip()
    status, _, err = league_cli("authors", "remove", str(league_file), "alice")
    assert status == 0, err
    assert author_of_token(tmp_path / "out", token) is None


def test_bad_input_is_one_line_naming_the_fix(league_cli, league_file, tmp_path):
    assert "no such league file" in refusal(league_cli, "authors", "add", str(tmp_path / "none.yaml"), "alice")
    assert "use letters, digits" in refusal(league_cli, "authors", "add", str(league_file), "a b")
    assert not (tmp_path / "out" / DATABASE).exists()  # a bad name writes nothing
    assert league_cli("authors", "add", str(league_file), "alice")[0] == 0
    assert "choose another name" in refusal(league_cli, "authors", "add", str(league_file), "ALICE")
    assert "authors list" in refusal(league_cli, "authors", "remove", str(league_file), "nobody")
    broken = tmp_path / "broken.yaml"
    broken.write_text("name: [unclosed\n")
    assert "not valid YAML" in refusal(league_cli, "authors", "list", str(broken))
    (tmp_path / "out" / DATABASE).write_bytes(b"garbage " * 200)
    assert "move the file away" in refusal(league_cli, "authors", "list", str(league_file))


def test_a_folder_of_other_files_is_refused_for_authors_too(league_cli, league_file, tmp_path):
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "notes.txt").write_text("mine")
    assert "not a league's folder" in refusal(league_cli, "authors", "add", str(league_file), "alice")
    assert not (tmp_path / "out" / DATABASE).exists()


def test_add_organiser_makes_an_organiser_and_list_says_who_organises(league_cli, league_file, tmp_path):
    from league.store.authors import is_organiser

    assert league_cli("authors", "add", str(league_file), "alice")[0] == 0
    status, out, err = league_cli("authors", "add", str(league_file), "orga", "--organiser")
    assert status == 0, err
    assert "organiser orga added" in err and out.strip() and " " not in out.strip()
    assert is_organiser(tmp_path / "out", "orga") and not is_organiser(tmp_path / "out", "alice")
    listed = league_cli("authors", "list", str(league_file))[1].splitlines()
    assert [line.split()[0::2] for line in listed[1:]] == [["alice"], ["orga", "organiser"]]
