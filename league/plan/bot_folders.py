"""Bots kept apart: no bot's folder may hold another bot's, the league file or the report folder.

A jailed bot reads all of its own folders (``sandbox.folders.own_folders``: the ``cwd`` given as
its own, else the folder of each file its command names). So where one bot's folder holds or is
another bot's, it reads that bot's files (an opening book, its source); where it holds the league
file, it reads the league's seed; where it holds the report folder, the store of every game played
before (setups, every bot's stderr). ``league validate``, ``league run`` and ``league play`` refuse
such bots before anything is written, in one line that says how to put the bot apart, unless the
organiser accepts it knowingly: ``shared_folder: true`` on the bot in a league file, the
``--shared-folder`` flag of ``league play``.

The same bot seated twice is no overlap: commands that name the same files (options and modes aside)
in the same own folder; nor are the roles of one attack2048 bot. Built-ins run in the league's own
process and have no folder.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from league.match.bot_spec import BotSpec
from sandbox.access import broad, named_paths
from sandbox.folders import own_folders, within

if TYPE_CHECKING:
    from league.plan.config import League

LEAGUE_FILE, REPORT_FOLDER = "the league file", "the report folder"


@dataclass(frozen=True)
class Entrant:
    """One bot as far as its folders go.

    Attributes:
        label: How a message names it: ``bots[1] (b)``, ``seat 1 (b)``.
        folders: Its own folders (resolved), none inside another.
        runs: What it runs: per program side, its own working folder ("" if it has none) and the
            files its command names; two entrants that run the same are one bot seated twice.
        shared: Its folder is shared knowingly (``shared_folder: true``, ``--shared-folder``).
    """

    label: str
    folders: tuple[Path, ...]
    runs: frozenset[tuple[str, tuple[str, ...]]]
    shared: bool = False


def entrant(label: str, spec: BotSpec) -> Entrant | None:
    """The folders of ``spec``'s program sides, or None for a bot that runs no program of its own (a built-in)."""
    sides = [side for side in spec.sides() if side.command is not None]
    if not sides:
        return None
    folders: set[Path] = set()
    runs = set()
    for side in sides:
        assert side.command is not None
        cwd = Path(side.cwd or ".").resolve()
        folders.update(own_folders(side.command, cwd, side.own_folder))
        files = tuple(sorted({str(path.resolve()) for _, path in named_paths(side.command, cwd)}))
        runs.add((str(cwd) if side.own_folder else "", files))
    outer = sorted(path for path in folders if not any(other in path.parents for other in folders))
    return Entrant(label, tuple(outer), frozenset(runs), spec.shared_folder)


@dataclass(frozen=True)
class Overlap:
    """A bot whose folder holds what it must not see.

    Attributes:
        entrant: The bot that would see it.
        folder: Its folder that holds it.
        what: What it holds, for people: ``bots[0] (a)'s folder /x/a``, ``the league file /x/l.yaml``.
        other: The other bot, where the folder holds one's; None for a path.
        both: The two bots' folders are the same (each sees the other's).
    """

    entrant: Entrant
    folder: Path
    what: str
    other: Entrant | None = None
    both: bool = False


def first_overlap(entrants: Sequence[Entrant], guarded: Sequence[tuple[str, Path]] = ()) -> Overlap | None:
    """The first bot whose folder holds another bot's folder, or one of the ``guarded`` paths, or None.

    A bot whose folder is shared knowingly is let be; so are two entrants that run the same.

    Args:
        entrants: The bots, in order.
        guarded: (what it is, resolved path) of what no bot may see: the league file, the report folder.
    """
    for mine in entrants:
        if mine.shared:
            continue
        for folder in mine.folders:
            for other in entrants:
                if other is mine or other.runs == mine.runs:
                    continue
                for theirs in other.folders:
                    if within(theirs, folder):
                        both = theirs == folder
                        what = f"{other.label}'s folder" + ("" if both else f" {theirs}")
                        return Overlap(mine, folder, what, other, both and not other.shared)
            for what, path in guarded:
                if within(path, folder):
                    return Overlap(mine, folder, f"{what} {path}")
    return None


def overlap_message(found: Overlap, own_folder_fix: str, shared_fix: str, path_fixes: dict[str, str]) -> str:
    """One line: which bot sees what, and how to put it apart.

    Args:
        found: The overlap.
        own_folder_fix: How to give a bot a folder of its own (``cwd: in the league file``).
        shared_fix: How to accept it knowingly, with ``{bots}`` for whom (``shared_folder: true on {bots}``).
        path_fixes: Per guarded path's description, how to move it out (``move the league file elsewhere``).
    """
    mine, other = found.entrant, found.other
    if other is not None and found.both:
        head = f"{mine.label} and {other.label} share the folder {found.folder}: each bot reads the other's files"
        fix = f"give each bot a folder of its own ({own_folder_fix}), or {shared_fix.format(bots='both')}"
        return f"{head}; {fix}"
    head = f"{mine.label}: its folder {found.folder} holds {found.what}, and a jailed bot reads all of its folder"
    moves = [fix for what, fix in path_fixes.items() if found.what.startswith(what)]
    fix = f"give the bot a folder of its own ({own_folder_fix})" + (f", or {moves[0]}" if moves else "")
    return f"{head}; {fix}, or {shared_fix.format(bots=mine.label)}"


def broad_folder_problem(spec: BotSpec) -> str | None:
    """Why a folder given as ``spec``'s own cannot be one (``/``, ``/tmp``, a home folder: its jail shows it all)."""
    for side in spec.sides():
        folder = Path(side.cwd or ".").resolve()
        if side.command is not None and side.own_folder and broad(folder):
            return (
                f"{folder} is too broad to be a bot's own folder (its jail shows all of its own folder):"
                " give the bot a folder of its own that holds its files alone"
            )
    return None


def _labelled_entrants(labelled: Sequence[tuple[str, str, BotSpec]]) -> tuple[list[Entrant], str | None]:
    """The entrants of (label, how its folder is given, spec) triples; or the first folder too broad, in one line."""
    entrants: list[Entrant] = []
    for label, given, spec in labelled:
        broad_problem = broad_folder_problem(spec)
        if broad_problem is not None:
            return [], f"{given}: {broad_problem}"
        found = entrant(label, spec)
        entrants += [found] if found is not None else []
    return entrants, None


def league_folders_problem(league: League) -> str | None:
    """Why ``league``'s program bots are not kept apart (``first_overlap``), in one line without the file, or None."""
    labelled = [(f"bots[{index}] ({spec.name})", spec) for index, spec in enumerate(league.bots.values())]
    entrants, too_broad = _labelled_entrants([(label, f"{label}: cwd", spec) for label, spec in labelled])
    if too_broad is not None:
        return too_broad
    guarded = [(LEAGUE_FILE, league.path.resolve()), (REPORT_FOLDER, league.output.resolve())]
    overlap = first_overlap(entrants, guarded)
    if overlap is None:
        return None
    moves = {LEAGUE_FILE: "move the league file out of it", REPORT_FOLDER: "set output: to a folder outside it"}
    shared = "set shared_folder: true on {bots} to accept it knowingly"
    return overlap_message(overlap, "cwd: in the league file", shared, moves)


def seats_folders_problem(specs: Sequence[BotSpec]) -> str | None:
    """Why the program seats of ``league play`` are not kept apart (``first_overlap``), in one line, or None."""
    entrants, too_broad = _labelled_entrants(
        [(f"seat {seat} ({spec.name})", f"--cwd {seat}:{spec.sides()[0].cwd}", spec) for seat, spec in enumerate(specs)]
    )
    if too_broad is not None:
        return too_broad
    overlap = first_overlap(entrants)
    if overlap is None:
        return None
    own = "--cwd SEAT:FOLDER, or scripts in folders apart"
    return overlap_message(overlap, own, "add --shared-folder to accept it knowingly", {})
