"""Bots kept apart: no folder a bot's jail shows may hold another bot's, the league file or the report folder.

A jailed bot reads all of its own folders (``sandbox.folders.own_folders``: the ``cwd`` given as
its own, else the folder of each file its command names). So where one bot's folder holds or is
another bot's, it reads that bot's files (an opening book, its source); where it holds the league
file, it reads the league's seed; where it holds the report folder, the store of every game played
before (setups, every bot's stderr). ``league validate``, ``league run`` and ``league play`` refuse
such bots before anything is written, in one line that says how to put the bot apart, unless the
organiser accepts it knowingly: ``shared_folder: true`` on the bot in a league file, the
``--shared-folder`` flag of ``league play``.

Every other path a jail shows is held against the same, whatever the reason it is shown
(league/plan/shown_paths.py): its program's installation and each interpreter's a ``#!`` line
names, the folder of a file its command names that is not its own, the TCP relay's files, this
project's packages, and the organiser's ``read_only`` paths. Such a path may neither hold nor lie
in another bot's folder, the league file or the report folder, nor be or hold the folder the league
runs from (the current folder of ``league run`` or ``league play``, unless it is a system folder);
``shared_folder`` accepts only the first of these knowingly. A ``#!`` line that names its
interpreter by a relative path is looked up by the kernel from the folder the bot runs in: unless
that place lies in the bot's own folders, the bot is refused, sandbox strict or auto alike.

The same bot seated twice is no overlap: commands that name the same files (options and modes aside)
in the same own folder; nor are the roles of one attack2048 bot. Built-ins run in the league's own
process and have no folder.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from league.match.bot_spec import BotSpec
from league.plan.shown_paths import (
    HERE,
    INSTALLATION,
    Shown,
    interpreter_problem,
    marking,
    marks,
    meeting,
    read_only_problem,
    side_shown,
)
from sandbox.access import broad, named_paths
from sandbox.folders import own_folders, within

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
        shown: The other host paths its jail shows (none in its own folders).
    """

    label: str
    folders: tuple[Path, ...]
    runs: frozenset[tuple[str, tuple[str, ...]]]
    shared: bool = False
    shown: tuple[Shown, ...] = ()


def entrant(label: str, spec: BotSpec) -> Entrant | None:
    """The folders of ``spec``'s program sides, or None for a bot that runs no program of its own (a built-in)."""
    sides = [side for side in spec.sides() if side.command is not None]
    if not sides:
        return None
    folders: set[Path] = set()
    runs = set()
    shown: dict[Path, Shown] = {}
    for side in sides:
        assert side.command is not None
        cwd = Path(side.cwd or ".").resolve()
        own = own_folders(side.command, cwd, side.own_folder)
        folders.update(own)
        files = tuple(sorted({str(path.resolve()) for _, path in named_paths(side.command, cwd)}))
        runs.add((str(cwd) if side.own_folder else "", files))
        shown.update((item.path, item) for item in side_shown(side, spec.transport, own) if item.path not in shown)
    outer = sorted(path for path in folders if not any(other in path.parents for other in folders))
    beside = tuple(item for path, item in sorted(shown.items()) if not any(within(path, f) for f in outer))
    return Entrant(label, tuple(outer), frozenset(runs), spec.shared_folder, beside)


@dataclass(frozen=True)
class Overlap:
    """A bot whose folder holds what it must not see.

    Attributes:
        entrant: The bot that would see it.
        folder: Its folder that holds it.
        what: What it holds, for people: ``bots[0] (a)'s folder /x/a``, ``the league file /x/l.yaml``.
        other: The other bot, where the folder holds one's; None for a path.
        both: The two bots' folders are the same (each sees the other's).
        shown: The path its jail shows that is not its own, where that is what holds it (``folder``
            is then its path, and ``what`` says how it meets it: ``holds the league file /x/l.yaml``,
            ``lies in bots[1] (b)'s folder /x/b``); None for one of its own folders.
        mark: Of a shown path that meets a guarded path, that path's description (``LEAGUE_FILE``, ``HERE``...).
    """

    entrant: Entrant
    folder: Path
    what: str
    other: Entrant | None = None
    both: bool = False
    shown: Shown | None = None
    mark: str | None = None


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


def first_shown_overlap(entrants: Sequence[Entrant], guarded: Sequence[tuple[str, Path]] = ()) -> Overlap | None:
    """The first path a bot's jail shows beside its own folders that meets what it must not see, or None.

    Such a path may neither hold nor lie in another bot's folder (unless the bot's folder is shared
    knowingly, or the two run the same) nor a ``guarded`` path, and may not hold ``HERE``.

    Args:
        entrants: The bots, in order.
        guarded: (what it is, resolved path) of what no bot may see: the league file, the report
            folder, the folder the league runs from (``league.plan.shown_paths.marks``).
    """
    for mine in entrants:
        for shown in mine.shown:
            for other in () if mine.shared else entrants:
                if other is mine or other.runs == mine.runs:
                    continue
                for theirs in other.folders:
                    how = meeting(shown.path, theirs)
                    if how is not None:
                        return Overlap(mine, shown.path, f"{how} {other.label}'s folder {theirs}", other, shown=shown)
            for what, path in guarded:
                how = marking(shown.path, what, path)
                if how is not None:
                    return Overlap(mine, shown.path, f"{how} {what} {path}", shown=shown, mark=what)
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
    if found.shown is not None:
        return shown_message(found, own_folder_fix, shared_fix, path_fixes)
    if other is not None and found.both:
        head = f"{mine.label} and {other.label} share the folder {found.folder}: each bot reads the other's files"
        fix = f"give each bot a folder of its own ({own_folder_fix}), or {shared_fix.format(bots='both')}"
        return f"{head}; {fix}"
    head = f"{mine.label}: its folder {found.folder} holds {found.what}, and a jailed bot reads all of its folder"
    moves = [fix for what, fix in path_fixes.items() if found.what.startswith(what)]
    fix = f"give the bot a folder of its own ({own_folder_fix})" + (f", or {moves[0]}" if moves else "")
    return f"{head}; {fix}, or {shared_fix.format(bots=mine.label)}"


def shown_message(found: Overlap, own_folder_fix: str, shared_fix: str, path_fixes: dict[str, str]) -> str:
    """One line for a path the jail shows beside the bot's own folders (``first_shown_overlap``), and the fix."""
    assert found.shown is not None
    mine, why = found.entrant, found.shown.why
    head = f"{mine.label}: its jail would show {found.folder} ({why}), which {found.what}"
    fix = f"give the bot a folder of its own that holds its files ({own_folder_fix})"
    if why == INSTALLATION:
        fix += ", or install the program where nothing of the league lies (/opt, /usr/local)"
    moves = {**path_fixes, HERE: "run league from a folder outside it"}
    fix += f", or {moves[found.mark]}" if found.mark in moves else ""
    if found.other is not None:
        fix += f", or {shared_fix.format(bots=mine.label)}"
    return f"{head}; {fix}"


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


def _labelled_entrants(
    labelled: Sequence[tuple[str, str, BotSpec]], own_folder_fix: str
) -> tuple[list[Entrant], str | None]:
    """The entrants of (label, how its folder is given, spec) triples; or the first that cannot be one, in one line.

    A folder too broad to be a bot's own (``broad_folder_problem``) and an interpreter its jail
    cannot show it (``interpreter_problem``) are refused here.
    """
    entrants: list[Entrant] = []
    for label, given, spec in labelled:
        broad_problem = broad_folder_problem(spec)
        if broad_problem is not None:
            return [], f"{given}: {broad_problem}"
        interpreter = interpreter_problem(spec, own_folder_fix)
        if interpreter is not None:
            return [], f"{label}: {interpreter}"
        found = entrant(label, spec)
        entrants += [found] if found is not None else []
    return entrants, None


def _others_folders(entrants: Sequence[Entrant]) -> list[tuple[str, Path]]:
    """Each bot's folders, as what a path every jail shows may not meet; none where one bot alone runs."""
    if len({mine.runs for mine in entrants}) < 2:
        return []
    return [(f"{mine.label}'s folder", folder) for mine in entrants for folder in mine.folders]


def league_folders_problem(
    bots: Mapping[str, BotSpec], league_file: Path, output: Path, read_only: Sequence[tuple[str, Path]]
) -> str | None:
    """Why a league's program bots are not kept apart, in one line without the file, or None.

    Checked: each bot's own folders (``first_overlap``), every other path its jail shows
    (``first_shown_overlap``), the league file's ``read_only`` paths (``read_only_problem``).

    Args:
        bots: The league's bots, in its file's order.
        league_file: The league file.
        output: Its report folder.
        read_only: (its key, resolved path) of each read-only path the league file gives.
    """
    own_fix = "cwd: in the league file"
    labelled = [(f"bots[{index}] ({spec.name})", spec) for index, spec in enumerate(bots.values())]
    entrants, refused = _labelled_entrants([(label, f"{label}: cwd", spec) for label, spec in labelled], own_fix)
    if refused is not None:
        return refused
    guarded = [(LEAGUE_FILE, league_file.resolve()), (REPORT_FOLDER, output.resolve())]
    problem = read_only_problem(read_only, _others_folders(entrants), marks(guarded))
    if problem is not None:
        return problem
    overlap = first_overlap(entrants, guarded) or first_shown_overlap(entrants, marks(guarded))
    if overlap is None:
        return None
    moves = {LEAGUE_FILE: "move the league file out of it", REPORT_FOLDER: "set output: to a folder outside it"}
    shared = "set shared_folder: true on {bots} to accept it knowingly"
    return overlap_message(overlap, own_fix, shared, moves)


def seats_folders_problem(specs: Sequence[BotSpec], shared: bool = False, read_only: Sequence[str] = ()) -> str | None:
    """Why the program seats of ``league play`` are not kept apart, in one line, or None.

    Checked as a league's bots are (``league_folders_problem``), with no league file nor report folder.

    Args:
        specs: The seats' bots.
        shared: Their folders are shared knowingly (``--shared-folder``): own folders are not compared,
            nor is another seat's folder held against what a jail shows beside a bot's own.
        read_only: The ``limits.read_only`` paths (``--limit``).
    """
    own = "--cwd SEAT:FOLDER, or scripts in folders apart"
    labelled = [(f"seat {seat} ({spec.name})", spec) for seat, spec in enumerate(specs)]
    entrants, refused = _labelled_entrants(
        [(label, f"--cwd {seat}:{spec.sides()[0].cwd}", spec) for seat, (label, spec) in enumerate(labelled)], own
    )
    if refused is not None:
        return refused
    entrants = [replace(mine, shared=True) for mine in entrants] if shared else entrants
    listed = [("limits.read_only", Path(path).resolve()) for path in read_only]
    problem = read_only_problem(listed, _others_folders(entrants), marks([]))
    if problem is not None:
        return problem
    overlap = first_overlap(entrants) or first_shown_overlap(entrants, marks([]))
    if overlap is None:
        return None
    return overlap_message(overlap, own, "add --shared-folder to accept it knowingly", {})
