"""``league validate``'s estimate counts the replay pages the report writes (``league.report.replay_size``)."""

import sys
from pathlib import Path

from league.cluster.estimate import size
from league.plan.config import load_league
from league.plan.league_schedule import planned_schedule
from league.report.replay_size import estimate_with_replays as estimate
from tests.conftest import BOTS, play_in_process, write_league


def folder_bytes(folder: Path) -> int:
    """The bytes of every file under ``folder``."""
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())


def test_the_estimate_counts_the_replay_pages_the_report_writes(tmp_path):
    """Once 546 kB estimated and 7.9 MB written: the store alone was estimated, not the pages beside it.

    A program bot of tests/bots (judge style) plays built-ins; the estimate from 3 sample games is
    held against the league's own report folder once every game is played and reported.
    """
    from league.report.build import write_report

    judge = {"name": "judge", "command": [sys.executable, "v2048_judge_style.py"], "cwd": str(BOTS)}
    bots = [
        judge,
        {"name": "greedy", "builtin": "versus2048.greedy"},
        {"name": "random", "builtin": "versus2048.random"},
    ]
    path = write_league(tmp_path, bots=bots, games_per_pair=6, variants={"short": {"turns_per_player": 25}})
    sized = estimate(league := load_league(path), planned_schedule(league))
    assert (sized.played, sized.games, sized.replay_pages) == (3, 18, 18)
    played, _ = play_in_process(path)
    write_report(played.output, played.config.name, list(played.bots), list(played.games))
    replays = folder_bytes(played.output / "replays")
    assert len(list((played.output / "replays").glob("*.html"))) == 18 + 1  # a page a game and the highlights
    assert 0.5 * replays < sized.replays_bytes < 2 * replays, f"estimated {sized.replays_bytes:.0f}, wrote {replays}"
    written = replays + sum((played.output / name).stat().st_size for name in ("games.jsonl", "moves.jsonl"))
    assert 0.5 * written < sized.folder_bytes < 2 * written, f"estimated {sized.folder_bytes:.0f}, wrote {written}"
    assert sized.games_bytes + sized.moves_bytes < 0.5 * written, "the pages are most of it: the store alone is short"
    assert (
        f"estimated replay pages: about {size(sized.replays_bytes)} (18 game pages and highlights.html"
        in (sized.lines()[2])
    )


def test_a_league_past_the_pages_of_every_game_is_estimated_with_its_faulted_games_only(tmp_path):
    """Past ``ALL_GAMES`` games the report writes pages for faulted games only: a crasher's, here."""
    from league.report.replays import ALL_GAMES, FAULTED_GAMES

    crasher = {"name": "crasher", "command": [sys.executable, "v2048_crasher.py"], "cwd": str(BOTS)}
    bots = [
        crasher,
        {"name": "greedy", "builtin": "versus2048.greedy"},
        {"name": "two", "builtin": "versus2048.greedy"},
    ]
    path = write_league(tmp_path, bots=bots, games_per_pair=200, variants={"short": {"turns_per_player": 5}})
    sized = estimate(league := load_league(path), planned_schedule(league), samples=6)
    assert sized.games == 600 > ALL_GAMES
    assert sized.replay_pages == min(FAULTED_GAMES, 400), "two pairings of three hold the crasher's faults"
