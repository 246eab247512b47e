"""A league folder's manifest, ``league.json``: what the league is now, and the runs that played it.

``league run`` writes it before playing: the games that make up the league as configured now (the
report leaves out games stored under an older config), the game, each variant's rules, each bot's
spec, when the league drew its seed (if it did) and the rules of play, so that ``league report DIR``
can rebuild the whole report from the folder alone. The seed itself is kept secret until every game
is stored (``league.plan.seed.manifest_seed``); then ``publish_seed`` writes it in. Each run adds
when it started and ended, how long it took and how many games it stored. The file is replaced whole
(written beside it, then renamed), so a full disk never leaves half of it.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from league.match.bot_spec import spec_to_data
from league.plan.config import League
from league.plan.game_spec import GameSpec
from league.plan.seed import SEED_SECRET, LeagueSeed, manifest_seed
from league.stats.game_record import GameRecord
from league.stats.ratings import scored
from league.store.faults import StoreWriteError, write_failure
from league.store.folder import MANIFEST

RUN_TIME = "%Y-%m-%d %H:%M UTC"
"""How a run's start and end are written (``2024-05-01 12:00 UTC``: to the minute, in UTC)."""


def write_manifest(
    league: League,
    seed: LeagueSeed,
    specs: Sequence[GameSpec],
    extra: Mapping[str, Any] | None = None,
    growing: bool = False,
) -> None:
    """Record what the league is now: its games, game, variants' rules, bots, seed (kept secret) and rules of play.

    The report leaves out stored games that are not among these ids (games of an older config).
    The runs recorded by earlier runs of the same league (``record_run``) are kept (unless the old
    manifest is damaged: it is replaced whole). A format that plans as it goes (``growing``: an
    adaptive league's batches) has its runs kept while the earlier games are the first of the new
    ones, or the other way round. ``extra``: what the format keeps for the report (``FormatRun.manifest``:
    an SPRT's test, an adaptive league's batches; and ``final_order``, the format's own order of the bots,
    which the standings follow: ``league.stats.ranking``).

    The ``seed`` (the league's, as the run settled it) is left out (``league.plan.seed.manifest_seed``):
    a run that stores every game publishes it (``publish_seed``).

    Raises:
        StoreWriteError: The folder refused the write; the old manifest is left as it was.
    """
    config = league.config
    path = league.output / MANIFEST
    try:
        earlier = read_manifest(league.output) or {}
    except ManifestDamaged:  # rewritten whole below: only the earlier runs' times are lost
        earlier = {}
    ids = [spec.game_id for spec in specs]
    manifest = {
        "name": config.name,
        "game": config.game,
        "bots": list(league.bots),
        "variants": list(league.games),
        "format": config.format,
        **manifest_seed(seed, played=False),  # seed_drawn None: the league file gives it
        "league_file": str(league.path.resolve()),
        "settings": {name: game.variant() for name, game in league.games.items()},
        "bot_specs": {name: spec_to_data(spec) for name, spec in league.bots.items()},
        "play": {
            "clock": config.clock,
            "time_margin_ms": config.time_margin_ms,
            "sandbox": config.sandbox.mode.value,
            "limits": config.limits.model_dump(mode="json", exclude_defaults=True),
        },
        "runs": earlier.get("runs", []) if _same_league(earlier.get("game_ids"), ids, growing) else [],
        "game_ids": ids,
        **({"openings": league.openings.describe()} if league.openings is not None else {}),  # for people
        **(extra or {}),  # what the report repeats of the format's play
    }
    _replace(path, json.dumps(manifest, indent=1) + "\n")


def publish_seed(league: League, seed: LeagueSeed) -> None:
    """State the league's seed in its manifest, once every game of the league is stored (or its test decided).

    Raises:
        StoreWriteError: The folder refused the write; the old manifest is left as it was.
    """
    manifest = read_manifest(league.output)
    if manifest is None:
        return
    manifest.pop(SEED_SECRET, None)
    manifest.update(manifest_seed(seed, played=True))
    _replace(league.output / MANIFEST, json.dumps(manifest, indent=1) + "\n")


def record_run(folder: Path, started: str, ended: str, seconds: float, played: int) -> None:
    """Add one run (when it started and ended, its wall time, the games it stored) to the manifest's ``runs``."""
    manifest = read_manifest(folder)
    if manifest is None:
        return
    run = {"started": started, "ended": ended, "seconds": round(seconds, 1), "played": played}
    manifest.setdefault("runs", []).append(run)
    _replace(folder / MANIFEST, json.dumps(manifest, indent=1) + "\n")


def _replace(path: Path, text: str) -> None:
    """Write ``path`` whole or not at all: a file beside it, then a rename.

    Raises:
        StoreWriteError: The disk refused (full, read-only); the old file is left as it was.
    """
    partial = path.with_name(f".{path.name}.partial")
    try:
        partial.write_text(text)
        os.replace(partial, path)
    except OSError as error:
        with contextlib.suppress(OSError):
            partial.unlink()
        raise StoreWriteError(write_failure(path, error)) from error


class ManifestDamaged(ValueError):
    """A league folder's manifest that cannot be read or is not one; the message names it and the fix."""


def _same_league(earlier: list[str] | None, ids: list[str], growing: bool) -> bool:
    """Whether earlier runs played the league these ids make (an adaptive league's games grow, or stop short)."""
    if earlier is None or not growing:
        return earlier == ids
    shorter = min(len(earlier), len(ids))
    return earlier[:shorter] == ids[:shorter]


def read_manifest(folder: Path) -> dict[str, Any] | None:
    """The manifest of a report folder, if a run wrote one.

    Raises:
        ManifestDamaged: It cannot be read, or is not a JSON object.
    """
    path = folder / MANIFEST
    fix = "`league run` of the league's file writes it again (the games stored are kept)"
    try:
        text = path.read_text()
    except (FileNotFoundError, NotADirectoryError):
        return None
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or "not text"
        raise ManifestDamaged(f"{path}: cannot read the league's manifest ({reason}); {fix}") from None
    try:
        manifest = json.loads(text)
    except ValueError:
        manifest = None
    if not isinstance(manifest, dict):
        raise ManifestDamaged(f"{path}: the league's manifest is damaged (not a JSON object); {fix}")
    return manifest


def scheduled_games(records: Iterable[GameRecord], game_ids: Iterable[str] | None) -> list[GameRecord]:
    """The scored records among ``records`` of the games in ``game_ids`` (a manifest's), in store order.

    Args:
        records: Stored records (INFRA_ERROR games are left out, as ``league.stats.ratings.scored`` does).
        game_ids: The games of the league's schedule (``league.json``'s ``game_ids``); None: every game.
    """
    games = scored(records)
    if game_ids is None:
        return games
    wanted = set(game_ids)
    return [record for record in games if record.game_id in wanted]
