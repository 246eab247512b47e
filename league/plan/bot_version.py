"""A bot is its content: each bot's version, a digest of what plays it, part of its games' ids and records.

A program bot's version digests its spec as data (command, ``cwd``, parameters, transport, roles),
the league's limits, and for each side that runs the ``league.plan.file_digests.TreeDigest`` of
its folder's files as ``league.plan.bot_files`` chooses them: names, bytes, permission bits and
link targets, the very entries (and so the very digest) that ``league.cluster.shipping`` packs for
a cluster's nodes. So an edited file, a new or removed one, or a changed mode bit is a new version;
what a run writes (stores, reports, ``__pycache__``) and what is never shipped (``.git``, ``.venv``)
is not.

A built-in's version digests its spec as data and the source of the code that plays it: every
``.py`` file of the package of each class that plays one of its roles (``engine/<game>/``: its
``bots.py``, the rules it calls), and every module of ``engine`` those files import by name
(``engine.core``, ``engine.slide``...). A changed built-in is a new version too.

Versions are 32 hex digits (128 bits of BLAKE2b, too many to make two versions meet; the names,
kinds, modes and contents are fed with separators no name can hold), and so are the fingerprints
that put them in the games' ids (``league.plan.league_schedule``); reports and messages show their
first ``SHOWN`` digits. Files are read through a ``DigestCache``, so an unchanged bot costs only
its ``lstat`` calls. A league takes its versions once (``league_versions``): its ids and its
records say the same, even if a file is edited while it runs (the next run finds the change).

What a version does not cover: what a bot's folder holds that is never shipped (``.venv``,
``.git``, ``__pycache__``...; on a cluster it is not there at all, and a command that names such a
path is refused there), programs installed outside it, and the league file's folder beyond the
folders its command names. A jailed bot sees its folders read-only, so it cannot change its own
version during a game; with ``sandbox: none`` nothing stops it, and its next run is a new version.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import os
import re
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

import engine
from engine import get_game
from league.match.bot_spec import BotSpec, spec_to_data
from league.match.builtins import role_classes
from league.plan.bot_files import command_parts, members
from league.plan.file_digests import DigestCache, cache_path, tree_digest
from league.stats.game_record import GameRecord

if TYPE_CHECKING:
    from league.plan.config import League

SHOWN = 8
"""How many hex digits of a version reports and messages show."""
ENGINE = Path(engine.__file__).resolve().parent
"""The ``engine`` package's folder."""
_ENGINE_IMPORT = re.compile(r"^\s*(?:from|import)\s+engine\.(\w+)", re.MULTILINE)
_taken: WeakKeyDictionary[League, dict[str, str]] = WeakKeyDictionary()
"""Each league's versions, taken once (its first ``league_versions``): what its schedule and records say."""


def league_versions(league: League) -> dict[str, str]:
    """The league's bots' versions (``bot_versions``), taken once per ``League``: its ids and records agree."""
    known = _taken.get(league)
    if known is None:
        known = _taken[league] = bot_versions(league)
    return known


def bot_versions(league: League, cache: DigestCache | None = None) -> dict[str, str]:
    """Per bot name (in the league file's order), its version.

    Args:
        league: The checked league.
        cache: Where file digests are looked up and kept, saved by the caller (default: the user's,
            ``cache_path``, saved here).
    """
    mine = cache is None
    cache = cache or DigestCache(cache_path())
    skip = (league.output.resolve(),)
    limits = league.config.limits.model_dump(mode="json", exclude_defaults=True)
    versions = {name: _version(spec, league.config.game, limits, skip, cache) for name, spec in league.bots.items()}
    if mine:
        cache.save()
    return versions


def folder_digest(side: BotSpec, skip: tuple[Path, ...], cache: DigestCache) -> str | None:
    """The tree digest of what a program side runs of its folder (None: a built-in, or no folder).

    Its own folder (``cwd``) whole, else the folders of the files its command names in the folder it
    runs in (``league.plan.bot_files``): the entries, and the digest, that ``league.cluster.shipping`` packs.
    """
    if side.command is None or side.cwd is None:
        return None
    folder = Path(side.cwd)
    parts = None if side.own_folder else command_parts(side.command, folder)
    if parts is not None and folder in parts:
        parts = None
    return tree_digest(folder, members(folder, skip, parts), cache)


def builtin_code(builtin: str, game: str) -> str:
    """The digest of the source of the code that plays built-in ``builtin`` (see the module's docstring)."""
    classes = role_classes(get_game(game), builtin)
    folders = sorted({Path(inspect.getfile(cls)).resolve().parent for cls in classes.values()})
    return _code_digest(tuple(folders))


def changed_bots(league: League, records: Iterable[GameRecord]) -> list[str]:
    """``changed_lines`` of the league's bots now (``league_versions``) against its stored games' ``records``."""
    return changed_lines(league_versions(league), records)


def changed_lines(versions: dict[str, str], records: Iterable[GameRecord]) -> list[str]:
    """One line per bot whose stored games are all of other versions than its own now: it changed since.

    Args:
        versions: Per bot, its version now (``bot_versions``).
        records: The stored games' results lines (``spec.versions``: each seat's version when played;
            none in a store written before bots had versions).
    """
    stored: dict[str, Counter[str]] = {name: Counter() for name in versions}
    last: dict[str, str] = {}
    for record in records:
        played = record.spec.versions or {}
        for name in record.spec.seats:
            if name in stored:
                was = played.get(name) or ""
                stored[name][was] += 1
                last[name] = was
    lines = []
    for name, counts in stored.items():
        if not counts or versions[name] in counts:
            continue
        total = sum(counts.values())
        was = last[name][:SHOWN] if last[name] else "unknown: stored before bots had versions"
        lines.append(
            f"{name} changed since its {total} stored game{'s' * (total != 1)} (version {was} ->"
            f" {versions[name][:SHOWN]}): they are kept apart and its games are played again"
        )
    return lines


def _version(spec: BotSpec, game: str, limits: dict[str, Any], skip: tuple[Path, ...], cache: DigestCache) -> str:
    sides = []
    for side in spec.sides():
        if side.builtin is not None:
            sides.append({"code": builtin_code(side.builtin, game)})
        else:
            sides.append({"files": folder_digest(side, skip, cache)})
    data = {"spec": spec_to_data(spec), "limits": limits, "sides": sides}
    text = json.dumps(data, sort_keys=True, default=str)
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


@lru_cache(maxsize=64)
def _code_digest(folders: tuple[Path, ...]) -> str:
    """The digest of every ``.py`` file of ``folders`` and of every ``engine`` module they import by name."""
    files = {path for folder in folders for path in folder.glob("*.py")}
    for path in list(files):
        for module in _ENGINE_IMPORT.findall(path.read_text()):
            candidate = ENGINE / f"{module}.py"
            if candidate.is_file():
                files.add(candidate)
    digest = hashlib.blake2b(digest_size=16)
    for path in sorted(files):
        digest.update(f"{os.path.relpath(path, ENGINE.parent)}\0".encode())
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()
