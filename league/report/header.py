"""The report's first section: what was played, by whom, under which rules, when and for how long.

Everything comes from the league's manifest (``league.json``, written by ``league run``) and the
stored games; a folder without a manifest gets what the games alone tell (``league.replay.recorded``:
the game, its rules, the bots and the rules of play), and the header says what only the manifest holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pandas as pd

from engine import GAMES
from engine.core import plural
from league.match.bot_spec import spec_from_data
from league.plan.manifest import RUN_TIME
from league.plan.seed import SEED_SECRET
from league.replay.recorded import FROM_RECORDS, MANIFEST_ONLY
from league.report.page import Bullets, Section, Table
from league.stats.game_record import GameRecord

RECORDED_ONLY = (
    "no league.json here: the game, its rules, the bots and the rules of play are those its stored games keep;"
    f" {MANIFEST_ONLY} are kept in league.json alone, so unknown here"
)
"""The header's line for a folder without a manifest whose games name their game."""


def subtitle(manifest: dict[str, Any], game_name: str, records: Sequence[GameRecord], distinct: int) -> str:
    """One line under the title: the game, the games scored and the distinct ones (``league.stats.distinct``).

    Where some games repeat others, the line says that every statistic counts them once.
    """
    game = GAMES.get(game_name)
    what = f"{game_name}: {game.title}" if game is not None and game.title else game_name or "unknown game"
    repeats = " (identical games count once in every statistic)" if distinct < len(records) else ""
    return f"{what}. {plural(len(records), 'game')} scored ({distinct} distinct){repeats}."


def header_section(
    manifest: dict[str, Any], records: Sequence[GameRecord], bots: Sequence[str], variants: Sequence[str]
) -> Section:
    """The league at a glance: game, format, seed, dates, wall time, each variant's rules and each bot."""
    runs = manifest.get("runs", [])
    facts = [
        f"game: {manifest.get('game', 'unknown (no league.json)')}",
        *(
            [RECORDED_ONLY]  # what only the manifest holds, format and seed among it, said once
            if manifest.get(FROM_RECORDS)
            else [f"format: {str(manifest.get('format', 'unknown')).replace('_', ' ')}", seed_fact(manifest)]
        ),
        f"games scored: {len(records)}"
        + (f" of {len(manifest['game_ids'])} scheduled" if "game_ids" in manifest else ""),
    ]
    if runs:
        seconds = sum(run["seconds"] for run in runs)
        facts.append(f"played: {runs[0]['started']} to {run_end(runs[-1])} in {plural(len(runs), 'run')}")
        rate = f" ({len(records) / seconds:.1f} games/s)" if seconds else ""
        facts.append(f"wall time: {seconds:.0f} s{rate}")
    play = manifest.get("play")
    if play:
        limits = ", ".join(f"{key}={value}" for key, value in play.get("limits", {}).items()) or "defaults"
        facts.append(f"clock: {play['clock']}, sandbox: {play['sandbox']}, limits: {limits}")
    if manifest.get("openings"):
        facts.append(f"openings: {manifest['openings']} (the list of games says how many plies of each they played)")
    if manifest.get("league_file"):
        facts.append(f"league file: {manifest['league_file']}")
    return Section(
        "League",
        [
            Bullets(facts),
            Table(variant_settings(manifest, variants), text=True),
            Table(bot_descriptions(manifest, bots), text=True),
        ],
    )


def run_end(run: dict[str, Any]) -> str:
    """When a run of the manifest ended: as recorded, else (a manifest of an older version) its start plus its seconds.

    Starts are recorded to the minute, so an end worked out from one is told as "about".
    """
    if "ended" in run:
        return str(run["ended"])
    try:
        start = datetime.strptime(run["started"], RUN_TIME).replace(tzinfo=UTC)
        end = start + timedelta(seconds=float(run["seconds"]))
    except (KeyError, TypeError, ValueError, OverflowError):
        return "an end not recorded"
    return f"about {end.strftime(RUN_TIME)}"


def seed_fact(manifest: dict[str, Any]) -> str:
    """The league seed and where it came from: drawn by the league and kept secret until now, or the file's.

    A league with games left to play keeps it secret (``league.plan.seed.manifest_seed``): the report says so.
    """
    if manifest.get(SEED_SECRET):
        return "seed: kept secret until every game of the league is played (then stated here)"
    if "seed" not in manifest:
        return "seed: unknown"
    seed = manifest["seed"]
    if "seed_drawn" not in manifest:  # a manifest of an older version
        return f"seed: {seed}"
    if manifest["seed_drawn"] is None:
        return f"seed: {seed} (written in the league file: known to anyone who read it)"
    return (
        f"seed: {seed} (drawn from the OS at the first run, {manifest['seed_drawn']}, and kept secret in the league's"
        " folder until the games were played; every game can be replayed from it)"
    )


def variant_settings(manifest: dict[str, Any], variants: Sequence[str]) -> pd.DataFrame:
    """One row per variant: the rules that differ from the game's defaults (every rule is in league.json)."""
    game = GAMES.get(manifest.get("game", ""))
    defaults = game().variant() if game is not None else {}
    settings = manifest.get("settings", {})
    rows = []
    for variant in variants:
        if variant not in settings:
            text = (
                "unknown (its games keep no rules)"
                if manifest.get(FROM_RECORDS)
                else "unknown (no league.json from `league run` here)"
            )
        else:
            changed = {key: value for key, value in settings[variant].items() if defaults.get(key) != value}
            text = ", ".join(f"{key}={value}" for key, value in changed.items()) or "the defaults"
        rows.append({"variant": variant, "rules (differences from the game's defaults)": text})
    return pd.DataFrame(rows)


def bot_descriptions(manifest: dict[str, Any], bots: Sequence[str]) -> pd.DataFrame:
    """One row per bot: its command, or the built-in and its parameters."""
    specs = manifest.get("bot_specs", {})
    rows = []
    for name in bots:
        data = specs.get(name)
        described = spec_from_data(data).describe() if data else "(not recorded)"
        folder = data.get("cwd") if data else None
        rows.append({"bot": name, "what it is": described, "folder": folder or ""})
    return pd.DataFrame(rows)
