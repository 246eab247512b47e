"""The league seed: the league file's, or one drawn from the OS at the first run and kept in the league's folder.

Every game's seed derives from the league seed by a public derivation (``engine.core.derive_seed``),
so whoever knows the league seed knows every hidden draw of every game: a built-in's geister
setup, a nimmt hand, a 2048 tile. A seed written in the league file is known to anyone who reads
that file. A league file without ``seed`` gets one drawn from the OS (``secrets``) at its first
``league run``, stored in its output folder (``seed.json``, written whole and fsynced, readable by
the league's user alone: jailed bots run as other users) before any game is played, and reused by
every later run, so that a resume plays nothing twice. This module alone reads and writes it.

Until every game of the league is stored, no other file holds the seed: ``league.json`` says only
that it is kept secret (``manifest_seed``); once they are, ``league.json`` and the report state it,
so every game stays replayable. ``--fresh`` starts over with a new one.

A folder played by an earlier version (no ``seed.json``; its ``league.json`` records the seed it
used, 0 for a file without one) goes on with that seed, so its stored games are resumed.

A stored seed that cannot be read or is damaged, and a league file's seed that differs from the
stored one, stop ``league run`` and ``league validate`` in one line naming the file and the fix,
before anything is written: a league never goes on under another seed unasked.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from league.plan.config import ConfigError, League
from league.store.faults import StoreWriteError, write_failure
from league.store.folder import MANIFEST

SEED_FILE = "seed.json"
SEED_SECRET = "seed_secret"
"""The key of ``league.json`` that says its league's seed is kept secret until the league's games are played."""
SEED_BOUND = 2**63
"""Seeds are 0 to 2**63 - 1, as every match seed."""


@dataclass(frozen=True)
class LeagueSeed:
    """A league's seed and where it came from.

    Attributes:
        value: The seed (0 <= value < 2**63).
        drawn: When the league drew it (``2024-05-01 12:00 UTC``); None: the league file gives it.
        stored: Whether the league's folder holds it (``seed.json``).
    """

    value: int
    drawn: str | None = None
    stored: bool = False


def league_seed(league: League, fresh: bool = False) -> LeagueSeed:
    """The league's seed: the file's, the one its folder stores, or a new draw.

    Settled once per command and passed on (``league.plan.league_schedule.league_plan``): each call
    reads the folder again, and a league without a seed gets a new draw each time, which
    ``keep_seed`` stores once a run holds the folder.

    Args:
        league: The league.
        fresh: Start over (``league run --fresh``): the stored seed is neither read nor reused, so a
            league file without ``seed`` gets a new one.

    Raises:
        ConfigError: The stored seed cannot be read or is damaged, or the league file gives another.
    """
    given = league.config.seed
    stored = None if fresh else read_stored_seed(league)
    if given is not None:
        if stored is not None and stored.value != given:
            raise ConfigError(
                f"{league.path}: seed: the file says {given} but {stored_seed_path(league)} holds {stored.value},"
                f" the seed this league's games were played with; leave seed out of the file (or write"
                f" seed: {stored.value}) to go on, or run `league run {league.path} --fresh` to start over"
                f" on seed {given}"
            )
        return LeagueSeed(given, stored=stored is not None)
    settled = stored or (None if fresh else _earlier_versions_seed(league))
    return settled or LeagueSeed(secrets.randbelow(SEED_BOUND), _now())


def keep_seed(league: League, seed: LeagueSeed | None = None, fresh: bool = False) -> LeagueSeed:
    """Store a newly drawn seed in the league's folder (whole, fsynced), before any game is played.

    Starting over on the league file's seed (``fresh``) removes a seed stored by an earlier run,
    which no game stored now was played with. Call it while the run holds the folder (its store
    locked, and reset first when ``fresh``): a seed that another run stored since this league's was
    drawn is taken instead of the new draw (the caller plays on the seed returned).

    Args:
        league: The league.
        seed: Its seed as the run settled it (``league_seed``); None: settled here.
        fresh: The run starts over (``--fresh``).

    Returns:
        The league's seed, stored where it was drawn: the one to play on.

    Raises:
        ConfigError: A seed another run stored since cannot be read or is damaged.
        StoreWriteError: The folder refused the write; no seed file is left half written.
    """
    seed = seed or league_seed(league, fresh)
    path = stored_seed_path(league)
    earlier = read_stored_seed(league) if seed.drawn is not None and not seed.stored and not fresh else None
    if earlier is not None:
        return earlier
    if seed.drawn is not None and not seed.stored:
        _write_durably(path, json.dumps({"seed": seed.value, "drawn": seed.drawn}) + "\n")
        return replace(seed, stored=True)
    if seed.drawn is None and fresh:
        try:
            path.unlink(missing_ok=True)
        except OSError as error:
            raise StoreWriteError(write_failure(path, error)) from error
    return seed


def manifest_seed(seed: LeagueSeed, played: bool) -> dict[str, Any]:
    """What ``league.json`` says of the league's seed: the seed itself only once every game is played.

    Args:
        seed: The league's seed, as the run settled it (``league_seed``, ``keep_seed``).
        played: Every game of the league is stored (or its test has decided): the seed is published.

    Returns:
        ``seed`` and ``seed_drawn`` (None where the league file gives it); before the games are
        played ``seed_drawn`` and ``SEED_SECRET`` instead, the seed left out.
    """
    return {"seed": seed.value, "seed_drawn": seed.drawn} if played else {"seed_drawn": seed.drawn, SEED_SECRET: True}


def stored_seed_path(league: League) -> Path:
    """Where the league's folder keeps a drawn seed."""
    return league.output / SEED_FILE


def read_stored_seed(league: League) -> LeagueSeed | None:
    """The seed the league's folder stores, or None where it stores none.

    Raises:
        ConfigError: The file cannot be read or is damaged; the message names it and the fix.
    """
    path = stored_seed_path(league)
    fix = (
        "put it back (league.json beside it records the seed as `seed` once every game is stored), or start"
        " over on a new seed with"
        f" `league run {league.path} --fresh` (every game is played again)"
    )
    try:
        text = path.read_text()
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as error:
        raise ConfigError(f"{path}: cannot read the league's stored seed ({error.strerror or error}); {fix}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: the league's stored seed is damaged (not text); {fix}") from None
    problem = _seed_problem(text)
    if problem is not None:
        raise ConfigError(f"{path}: the league's stored seed is damaged ({problem}); {fix}")
    data = json.loads(text)
    return LeagueSeed(data["seed"], data["drawn"], stored=True)


def _earlier_versions_seed(league: League) -> LeagueSeed | None:
    """The seed of a league folder an earlier version played (it drew no seed: a file without one meant 0).

    Its ``league.json`` records the seed but not ``seed_drawn``: going on with it resumes the games
    stored, as that version would have. None for any other folder.
    """
    try:
        data = json.loads((league.output / MANIFEST).read_text())
    except (OSError, ValueError):
        return None
    seed = data.get("seed") if isinstance(data, dict) and "seed_drawn" not in data else None
    return LeagueSeed(seed) if type(seed) is int and 0 <= seed < SEED_BOUND else None


def describe_seed(league: League, seed: LeagueSeed) -> str:
    """The league's seed for ``league validate`` and ``league run``: its value, or that it is drawn at the first run."""
    if seed.drawn is None:
        return f"seed {seed.value}"
    if seed.stored:
        return f"seed {seed.value} (drawn at the first run, {seed.drawn}; stored in {stored_seed_path(league)})"
    return (
        f"seed drawn from the OS at the first run (kept in {stored_seed_path(league)},"
        " stated in the report once the games are played)"
    )


def _seed_problem(text: str) -> str | None:
    """What is wrong with a seed file's text, or None."""
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError:
        return "not JSON"
    if not isinstance(data, dict) or "seed" not in data:
        return "no seed in it"
    seed = data["seed"]
    if type(seed) is not int or not 0 <= seed < SEED_BOUND:
        return f"seed {json.dumps(seed)} is not a whole number from 0 to 2**63 - 1"
    if not isinstance(data.get("drawn"), str):
        return "no date of its draw in it"
    return None


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")


def _write_durably(path: Path, text: str) -> None:
    """Write ``path`` whole or not at all (a file beside it, fsynced, then renamed; the folder fsynced).

    The file is readable by its owner alone.

    Raises:
        StoreWriteError: The disk refused (full, read-only); no file is left half written.
    """
    partial = path.with_name(f".{path.name}.partial")
    try:
        descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with open(descriptor, "w") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(partial, path)
        folder = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)
    except OSError as error:
        with contextlib.suppress(OSError):
            partial.unlink()
        raise StoreWriteError(write_failure(path, error)) from error
