"""``league replay``: a stored game as a page to play in the browser, or move by move in the terminal.

* ``league replay DIR GAME_ID`` writes ``DIR/replays/GAME_ID.html`` (or ``-o FILE``) and prints its path.
* ``league replay DIR GAME_ID --print`` prints the game move by move.
* ``league replay DIR --highlights N`` writes the league's N most tense stretches as one page.

What ``--print`` shows of what a bot wrote (replies, the detail, names) has its control characters
escaped (league/match/inert.py): nothing a bot sent reaches the terminal raw.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from league.cli.args import UsageError
from league.match.inert import inert_block, inert_line
from league.replay.files import HIGHLIGHT_CANDIDATES, HIGHLIGHT_WINDOW, LeagueReplays, ReplayNotFound
from league.replay.page import summary
from league.replay.rebuild import Replay, view_module


def cmd_replay(args: argparse.Namespace) -> int:
    """Write (or print) a stored game's replay, or the league's highlights."""
    try:
        return _replay(args)
    except ReplayNotFound as error:
        raise UsageError(str(error)) from None


def _replay(args: argparse.Namespace) -> int:
    """``cmd_replay``'s work; a folder or game it cannot find raises ``ReplayNotFound``."""
    if (args.game_id is None) == (args.highlights is None):
        raise UsageError("name one game (league replay DIR GAME_ID) or ask for --highlights N, not both")
    if args.output:
        _check_output(Path(args.output))
    replays = LeagueReplays(Path(args.folder))
    if args.highlights is not None:
        if args.highlights < 1:
            raise UsageError(f"--highlights {args.highlights}: ask for at least 1")
        if args.print:
            raise UsageError("--print shows one game; leave it out with --highlights")
        path, replayed = replays.highlights(args.highlights, Path(args.output) if args.output else None)
        cut = (
            f" (the {HIGHLIGHT_CANDIDATES} longest and closest of {len(replays.records)})"
            if replayed < len(replays.records)
            else ""
        )
        print(f"{replayed} games replayed{cut}; stretches of {HIGHLIGHT_WINDOW} frames")
        print(path)
        return 0
    if args.print:
        record = replays.find(args.game_id)
        print_replay(replays.game, replays.title(record), replays.replay(record))
        return 0
    print(replays.write(args.game_id, Path(args.output) if args.output else None))
    return 0


def _check_output(path: Path) -> None:
    """Refuse an ``-o`` that names a folder or lies in a folder that is missing or not writable."""
    if path.is_dir():
        raise UsageError(f"-o {path}: that is a folder; name the page's file, e.g. {path / 'replay.html'}")
    folder = path.resolve().parent
    if not folder.is_dir() or not os.access(folder, os.W_OK):
        raise UsageError(f"-o {path}: {folder} does not exist or is not writable; give a writable path")


def print_replay(game: str, title: str, replay: Replay) -> None:
    """The game move by move: each step's replies, then the position they led to."""
    view = view_module(game)
    print(inert_line(f"{game} replay: {title}"))
    print(inert_line(summary(replay)))
    if replay.diverged:
        print(f"note: {inert_line(replay.diverged)}")
    for number, frame in enumerate(replay.frames):
        moves = "; ".join(_move_text(move, replay.seats) for move in frame.moves) or "the start"
        print(
            f"\n-- {number + 1}/{len(replay.frames)} · ply {frame.view.get('plies', '')} · tension "
            f"{frame.tension:.2f} · {inert_line(moves)}"
        )
        print(inert_block(view.text(frame.view)))


def _move_text(move: dict[str, Any], seats: list[str]) -> str:
    event = move.get("event", "line")
    what = repr(move["reply"]) if event == "line" else f"({event})"
    fault = f" FAULT {move['fault']}" if move.get("fault") else ""
    role = "" if move["role"] == "play" else f" as {move['role']}"
    return f"seat {move['seat']} ({seats[move['seat']]}){role}: {what} in {move['ms']} ms{fault}"


def add_commands(commands: Any) -> None:
    """Register ``replay`` on the ``league`` parser."""
    replay = commands.add_parser("replay", help="replay a stored game in the browser or the terminal")
    replay.add_argument("folder", metavar="DIR", help="the league's output folder")
    replay.add_argument("game_id", metavar="GAME_ID", nargs="?", help="the game (its id, or a unique start of it)")
    replay.add_argument("-o", "--output", metavar="FILE", help="write the page here (default DIR/replays/...)")
    replay.add_argument("--print", action="store_true", help="print the game move by move instead")
    replay.add_argument(
        "--highlights", type=int, metavar="N", help="write the league's N most tense stretches as one page"
    )
    replay.set_defaults(handler=cmd_replay)
