"""What a bot writes is inert wherever people see it: the terminal, report.md, index.html and CSV files.

The bot (tests/bots/v2048_text_attack.py) plays legal moves, then writes to stderr terminal
escapes, a fake "wins" line after a carriage return, a Markdown fence with a heading and a table
behind it and a spreadsheet formula, and faults with a reply that holds escapes too. Each test
fails if its trick works; the stored records keep its bytes as it wrote them.
"""

import csv
import io
import json
import re
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from markdown_it import MarkdownIt  # a dependency of rich: parses report.md as a reader's viewer would

from league.match.inert import inert_block, inert_line, markdown_block, spreadsheet_text
from league.report.games import games_frame
from league.store.results import ResultStore
from tests.conftest import BOTS, bot_command, play_in_process, write_league
from tests.league.report.made_up_games import made_up_records

ATTACK = "v2048_text_attack.py"
SHORT = ["--set", "turns_per_player=10"]
RAW_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
"""Control characters that must never reach a reader raw (line breaks and tabs of blocks aside)."""
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
NUMBER = re.compile(r"-?\d+(\.\d+)?(e-?\d+)?")


def test_league_play_prints_a_bots_escapes_as_text_never_as_bytes(league_cli):
    status, out, _ = league_cli("play", "versus2048", "greedy", bot_command(ATTACK), *SHORT)
    assert status == 0 and "BAD_OUTPUT" in out
    assert RAW_CONTROLS.search(out) is None, f"raw control characters reached the terminal: {out!r}"
    assert "\\x1b[2J" in out and "\\x1b]0;pwned\\x07" in out and "\\x9b31m" in out


def test_a_fake_result_line_after_a_carriage_return_stays_on_the_bots_stderr_line(league_cli):
    _, out, _ = league_cli("play", "versus2048", "greedy", bot_command(ATTACK), *SHORT)
    lines = out.splitlines()
    verdicts = [line for line in lines if " wins: " in line and not line.startswith("  | ")]
    assert len(verdicts) == 1 and verdicts[0].startswith("seat 0 (greedy) wins: BAD_OUTPUT")
    [fake] = [line for line in lines if "v2048_text_attack) wins" in line]
    assert fake.startswith("  | thinking...\\x0d"), "the carriage return is shown, on the bot's own stderr line"


def test_json_output_stays_exact_json_with_the_bots_bytes(league_cli):
    _, out, _ = league_cli("play", "versus2048", "greedy", bot_command(ATTACK), *SHORT, "--json")
    assert RAW_CONTROLS.search(out) is None, "JSON escapes control characters itself"
    [tail] = json.loads(out)["stderr"]
    assert tail["text"].startswith("\x1b[2J\x1b[H\x1b]0;pwned\x07\u009b31m")


@pytest.fixture(scope="module")
def attacked_league(tmp_path_factory) -> Path:
    """The output folder of a small league (played here, without Ray) with the text attacker in it, and its report."""
    from league.report.build import write_report

    folder = tmp_path_factory.mktemp("text-attack")
    bots = [
        {"name": "greedy", "builtin": "versus2048.greedy"},
        {"name": "text_attack", "command": [sys.executable, ATTACK], "cwd": str(BOTS)},
    ]
    league, specs = play_in_process(write_league(folder, bots=bots, variants={"short": {"turns_per_player": 10}}))
    write_report(league.output, league.config.name, list(league.bots), list(league.games), [s.game_id for s in specs])
    return league.output


def test_the_stored_records_keep_the_bots_bytes(attacked_league):
    store = ResultStore(attacked_league / "games.jsonl")
    records = store.records()
    assert len(records) == 2 and all(r.result.termination == "BAD_OUTPUT" for r in records)
    tails = [tail["text"] for d in store.details([r.game_id for r in records]).values() for tail in d["stderr"]]
    assert tails and all(text.startswith("\x1b[2J\x1b[H\x1b]0;pwned\x07") for text in tails)


def test_report_md_keeps_the_injected_heading_and_table_inside_a_code_block(attacked_league):
    report = (attacked_league / "report.md").read_text()
    tokens = MarkdownIt("commonmark").enable("table").parse(report)
    headings = [tokens[i + 1].content for i, token in enumerate(tokens) if token.type == "heading_open"]
    assert not [heading for heading in headings if "Injected" in heading], "the bot's heading became a heading"
    cells = [token.content for token in tokens if token.type == "inline" and token.content == "v2048_text_attack"]
    assert not cells, "the bot's table became a table"
    fences = [token.content for token in tokens if token.type in ("fence", "code_block")]
    held = [fence for fence in fences if "# Injected heading" in fence]
    assert held and all("=HYPERLINK(" in fence and "| v2048_text_attack | 99 |" in fence for fence in held)
    assert all("\\x1b[2J" in fence for fence in held)


def test_report_md_holds_no_raw_control_characters(attacked_league):
    report = (attacked_league / "report.md").read_text()
    assert RAW_CONTROLS.search(report) is None
    assert "\\x1b]0;pwned\\x07" in report


def test_index_html_shows_the_stderr_escaped_in_its_block(attacked_league):
    page = (attacked_league / "index.html").read_text()
    assert RAW_CONTROLS.search(page) is None
    blocks = re.findall(r"<pre>(.*?)</pre>", page, re.S)
    assert any("# Injected heading" in block and "\\x1b[2J" in block for block in blocks)
    assert "<h1>Injected" not in page


def csv_cells(folder: Path) -> list[tuple[str, str]]:
    """(file name, cell) for every cell of every CSV file of ``folder``, headers included."""
    cells = []
    for path in sorted(folder.glob("*.csv")):
        for row in csv.reader(io.StringIO(path.read_text(), newline="")):
            cells += [(path.name, cell) for cell in row]
    return cells


def test_no_csv_cell_of_the_report_starts_a_formula_or_holds_a_control(attacked_league):
    cells = csv_cells(attacked_league)
    assert any(name == "games.csv" and "malformed reply" in cell for name, cell in cells)
    formulas = [(name, cell) for name, cell in cells if cell.startswith(FORMULA_STARTS) and not NUMBER.fullmatch(cell)]
    assert formulas == []
    assert [(name, cell) for name, cell in cells if RAW_CONTROLS.search(cell)] == []


def test_games_csv_defuses_bot_text_that_starts_a_formula_and_keeps_negative_scores_numbers():
    [record] = made_up_records(1)
    detail = '=HYPERLINK("http://attacker.invalid","click")\x1b[2J'
    record = replace(
        record,
        spec=replace(record.spec, seats=["@SUM(1+1)", "+cmd"]),
        result=replace(record.result, scores=[-5, 3], detail=detail),
    )
    text = games_frame([record]).to_csv(index=False)
    [row] = list(csv.DictReader(io.StringIO(text, newline="")))
    assert row["detail"] == '\'=HYPERLINK("http://attacker.invalid","click")\\x1b[2J'
    assert row["seats"] == "'@SUM(1+1) vs +cmd"
    assert row["scores"] == "-5 3" and row["index"] == "0"


def test_league_replay_print_shows_no_raw_control_characters(attacked_league, league_cli):
    [record] = ResultStore(attacked_league / "games.jsonl").records()[:1]
    status, out, err = league_cli("replay", str(attacked_league), record.game_id, "--print")
    assert status == 0, err
    assert RAW_CONTROLS.search(out) is None
    assert "\\x1b[2J=HYPERLINK(1)" in out


def test_every_kind_of_control_character_is_escaped_and_blocks_keep_their_lines():
    text = "a\x00b\x1bc\x7fd\x9be\u202ef\u2028g\rh\ti\nj"
    assert inert_line(text) == "a\\x00b\\x1bc\\x7fd\\x9be\\u202ef\\u2028g\\x0dh\\x09i\\x0aj"
    assert inert_block(text + "\r\nk") == "a\\x00b\\x1bc\\x7fd\\x9be\\u202ef\\u2028g\\x0dh\ti\nj\nk"


def test_a_markdown_block_is_fenced_past_every_run_of_backticks_inside_it():
    lines = markdown_block("```\n# heading\n``````` x")
    assert lines[0] == lines[-1] == "`" * 8 and lines[1:-1] == ["```", "# heading", "``````` x"]
    assert markdown_block("plain")[0] == "```"


@pytest.mark.parametrize("cell", ["=1+1", "+1", "-1", "@SUM(A1)", "\t=1", "\r=1"])
def test_a_text_cell_that_would_start_a_formula_starts_with_a_quote(cell):
    shown = spreadsheet_text(cell)
    assert shown.startswith(("'", "\\x")) and not shown.startswith(FORMULA_STARTS)
    assert spreadsheet_text("seat 0 crashed") == "seat 0 crashed"
