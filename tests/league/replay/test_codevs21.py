"""codevs21 replays: every stored game of a solo and a versus league with faulty programs replays exactly.

The solo league (``format: solo``) runs the built-ins beside tests/bots/codevs21_movefile.py, the
qualifier's kind of bot, with move files that break the rules, print garbage, stop early and
wait out the time bank; the versus league adds small programs that crash, print garbage or, after
eight moves, an illegal rotation, and the move-file bot, which waits for an end of input versus never sends (a
timeout). Short games (40 packs, a 10x10 well that random bots overflow) keep the file fast.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from league.cli.main import main
from league.replay.files import LeagueReplays
from tests.conftest import BOTS
from tests.league.replay.replay_checks import assert_replays_exactly, check_viewer, play_league

SHORT = {"case": "small", "H": 10, "N": 40, "A": 30, "B_obs": 30}
MOVES = [f"{x} {rotation}" for x in (0, 3, 6, 1, 4, 2, 5) for rotation in (0, 1, 2, 3)]


def movefile(name: str, moves: Path, mode: str = "") -> dict:
    """The move-file bot, run from the folder of its moves (see ``moves_folder``)."""
    command = f"{sys.executable} codevs21_movefile.py {moves.name} {mode}".strip()
    return {"name": name, "command": command, "cwd": str(moves.parent)}


LATE_ILLEGAL = """
import sys
line = sys.stdin.readline
W, H, T, S, N = map(int, line().split())
for _ in range(N * (T + 1)):
    line()
for turn in range(9):
    if turn:
        for _ in range(2 * (T + 1) + 2):
            line()
    print("0 0" if turn < 8 else "0 9", flush=True)
line()
"""
"""A versus bot that drops every pack at the left edge, then answers turn 9 with rotation 9."""


@pytest.fixture(scope="module")
def moves_folder() -> Iterator[Path]:
    """A folder the jailed bots can read (they run as a uid of their own): the bot and its move files."""
    folder = Path(tempfile.mkdtemp(prefix="codevs21-moves-"))
    folder.chmod(0o755)
    shutil.copy(BOTS / "codevs21_movefile.py", folder)
    for name, lines in {
        "cycle": MOVES * 2,
        "left": ["0 0"] * 40,
        "illegal": [*MOVES[:5], "0 4", *MOVES],
        "garbage": [*MOVES[:3], "1,2", *MOVES],
    }.items():
        (folder / f"{name}.txt").write_text("\n".join(lines) + "\n")
    for path in folder.iterdir():
        path.chmod(0o644)
    yield folder
    shutil.rmtree(folder)


def one_liner(name: str, code: str) -> dict:
    return {"name": name, "command": [sys.executable, "-c", code]}


@pytest.fixture(scope="module")
def solo(tmp_path_factory: pytest.TempPathFactory, moves_folder: Path) -> Path:
    folder = tmp_path_factory.mktemp("codevs21-solo")
    files = {name: moves_folder / f"{name}.txt" for name in ("cycle", "left", "illegal", "garbage")}
    return play_league(
        folder,
        {
            "name": "solo-replays",
            "game": "codevs21",
            "variants": {"short": {"mode": "solo", **SHORT, "time_total_s": 1.5}},
            "bots": [
                {"name": "random", "builtin": "codevs21.random"},
                {"name": "greedy", "builtin": "codevs21.greedy"},
                {"name": "chains", "builtin": "codevs21.chains"},
                movefile("cycle", files["cycle"]),
                movefile("left", files["left"]),
                movefile("illegal", files["illegal"]),
                movefile("garbage", files["garbage"]),
                movefile("short", files["cycle"], "first 6"),
                movefile("sleeper", files["cycle"], "sleep 3"),
            ],
            "format": "solo",
            "runs_per_case": 1,
        },
    )


@pytest.fixture(scope="module")
def versus(tmp_path_factory: pytest.TempPathFactory, moves_folder: Path) -> Path:
    folder = tmp_path_factory.mktemp("codevs21-versus")
    return play_league(
        folder,
        {
            "name": "versus-replays",
            "game": "codevs21",
            "variants": {"short": {"mode": "versus", **SHORT, "time_total_s": 1}},
            "bots": [
                {"name": "random", "builtin": "codevs21.random"},
                {"name": "chains", "builtin": "codevs21.chains"},
                movefile("waits-for-eof", moves_folder / "cycle.txt"),
                one_liner("crasher", "import sys; sys.stdin.readline()"),
                one_liner("garbage", "print('1,2', flush=True); input()"),
                one_liner("late-illegal", LATE_ILLEGAL),
            ],
            "games_per_pair": 2,
        },
    )


def test_every_stored_solo_game_replays_to_its_stored_result_and_moves(solo: Path):
    seen = assert_replays_exactly(solo)
    assert {"NORMAL", "TIMEOUT", "CRASH", "BAD_OUTPUT", "ILLEGAL_MOVE"} <= set(seen), seen


def test_every_stored_versus_game_replays_to_its_stored_result_and_moves(versus: Path):
    seen = assert_replays_exactly(versus)
    assert {"NORMAL", "TIMEOUT", "CRASH", "BAD_OUTPUT", "ILLEGAL_MOVE"} <= set(seen), seen


@pytest.mark.parametrize("which", ["solo", "versus"])
def test_frames_show_each_chain_step_of_the_well(which: str, request: pytest.FixtureRequest):
    """Each turn, seen again from the frames: the well before, the drop, each step's erase and fall, the well after."""
    replays = LeagueReplays(request.getfixturevalue(which))
    longest = 0
    for record in replays.records:
        frames = [frame.view for frame in replays.replay(record).frames]
        for seat, info in enumerate(frames[-1]["seats"]):
            stored = record["result"]["extra"]["records"][seat]
            assert (info["score"], info["max_chain"], info["fire"], info["end"]) == (
                str(stored["score"]),
                stored["max_chain"],
                stored["fc"],
                stored["end"],
            )
        for before, after in zip(frames, frames[1:], strict=False):
            for seat, info in enumerate(after["seats"]):
                last = info["last"]
                if last is None or "fault" in last:
                    continue
                well = [list(column) for column in before["seats"][seat]["field"]]
                assert last["pack"].count(0) + len(last["dropped"]) == after["T"] ** 2
                for x, y in last["dropped"]:
                    assert y == len(well[x]), "a dropped block lands on its column"
                    well[x].append(last["steps"][0]["field"][x][y] if last["steps"] else info["field"][x][y])
                for step in last["steps"]:
                    assert well == step["field"], "each step starts from the well the one before left"
                    assert step["erased"], "every step erases"
                    gone = {tuple(cell) for cell in step["erased"]}
                    well = [[v for y, v in enumerate(column) if (x, y) not in gone] for x, column in enumerate(well)]
                assert well == info["field"], "the turn ends in the well shown"
                longest = max(longest, len(last["steps"]))
        assert frames[0]["seats"][0]["last"] is None
    assert longest >= 2, "some turn chains"


def test_tension_climbs_with_the_stack(solo: Path):
    """A well that fills up to overflow is at its tensest when it overflows; every game starts calm."""
    replays = LeagueReplays(solo)
    for record in replays.records:
        tensions = [frame.tension for frame in replays.replay(record).frames]
        assert tensions[0] == 0.0
        if record["result"]["extra"]["records"][0]["end"] == "overflow":
            assert tensions[-1] == max(tensions) > 0.6
    assert any(r["result"]["extra"]["records"][0]["end"] == "overflow" for r in replays.records)


def test_league_replay_print_shows_moves_wells_and_steps(versus: Path, capsys: pytest.CaptureFixture[str]):
    replays = LeagueReplays(versus)
    record = max(replays.records, key=lambda r: (r["result"]["plies"], r["game_id"]))
    assert main(["replay", str(versus), record["game_id"], "--print"]) == 0
    out = capsys.readouterr().out
    replay = replays.replay(record)
    assert out.count("\n-- ") == len(replay.frames)
    assert repr(replay.frames[1].moves[0]["reply"]) in out
    assert "seat 1: score" in out and "dropped at X=" in out and "step 1: erases" in out


def test_the_viewer_plays_a_solo_game_in_chromium(solo: Path, page):
    replays = LeagueReplays(solo)
    record = max(replays.records, key=lambda r: (r["result"]["scores"][0], r["game_id"]))
    replay = replays.replay(record)
    step_to = max(
        range(len(replay.frames)), key=lambda i: len((replay.frames[i].view["seats"][0]["last"] or {}).get("steps", []))
    )
    seen = check_viewer(page, solo, record["game_id"], "replay-codevs21-solo.png", step_to=step_to)
    assert seen["frames"] == len(replay.frames)


def test_the_viewer_plays_a_versus_game_in_chromium(versus: Path, page):
    replays = LeagueReplays(versus)
    record = max(replays.records, key=lambda r: (r["result"]["plies"], r["game_id"]))
    replay = replays.replay(record)
    chains = [sum(len((s["last"] or {}).get("steps", [])) for s in f.view["seats"]) for f in replay.frames]
    seen = check_viewer(page, versus, record["game_id"], "replay-codevs21.png", step_to=chains.index(max(chains)))
    assert seen["frames"] == len(replay.frames)
