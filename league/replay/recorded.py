"""What a league's stored games say of it, for a folder without ``league.json``.

Every game a worker stores names its game (``spec.game``, on the results line) and keeps beside its
moves, in the move log, its variant's rules (``rules``), its seats' bot specs (``bots``) and the
league's rules of play (``play``), as the league file gave them (``league.cluster.worker.as_played``).
``recorded_league`` gathers them into the manifest's shape, reading the move-log lines of the few games
that cover every variant and bot, so a report or a replay of a copied store is what the manifest would
give. What only the manifest holds stays unknown, and is said so (``MANIFEST_ONLY``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from league.match.bot_spec import spec_from_data, spec_to_data
from league.stats.game_record import GameRecord
from league.store.results import ResultStore

FROM_RECORDS = "from_records"
"""The key that marks a manifest made by ``recorded_league`` (its value: True)."""
MANIFEST_ONLY = (
    "the format, the league seed, the games scheduled, the league file, the runs' dates and wall time"
    " (and an SPRT's or adaptive league's settings)"
)
"""What a league's stored games do not hold: a report without ``league.json`` says it is unknown."""


class GameUnknown(ValueError):
    """A folder without ``league.json`` whose games name no game, or several; the message says the fix."""


def named_game(folder: Path, records: Sequence[GameRecord]) -> str:
    """The one game the stored games name.

    Raises:
        GameUnknown: None names its game (stored by a version before records named it), or they name several.
    """
    games = sorted({game for record in records if (game := record.spec.game)})
    if not games:
        raise GameUnknown(
            f"{folder}: no league.json, and its games do not name their game (stored by an older version);"
            " put the league's league.json back in the folder, or `league run` the league's file with this"
            " folder as its output to write it (the stored games are kept)"
        )
    if len(games) > 1:
        raise GameUnknown(
            f"{folder}: its games name {len(games)} games ({', '.join(games)}): a folder holds one league's games;"
            " give each league's games.jsonl and moves.jsonl a folder of their own"
        )
    return games[0]


def recorded_league(store: ResultStore, records: Sequence[GameRecord]) -> dict[str, Any]:
    """The manifest's facts the stored games hold: name, game, bots, variants, rules, bot specs, rules of play.

    Returns ``{}`` when the games name no game, or several (``named_game`` says why). Rules, bot specs,
    the bots' places in the league file and the rules of play come from the move-log lines of the first
    games that cover every variant and bot; one whose line is lost leaves what only it held unknown
    (bot specs are given only when every bot's and every variant's rules are known: a replay command
    needs them all).

    Args:
        store: The folder's store (``records`` are its results lines).
        records: The stored games, in schedule order.
    """
    games = {game for record in records if (game := record.spec.game)}
    if len(games) != 1:
        return {}
    seen = list(dict.fromkeys(name for record in records for name in record.spec.seats))
    variants = list(dict.fromkeys(record.spec.variant for record in records))
    settings: dict[str, Any] = {}
    specs: dict[str, Any] = {}
    numbers: dict[str, int] = {}
    play: dict[str, Any] = {}
    covering = _covering([record for record in records if record.spec.game])  # an older game keeps none
    for game_id, details in store.details(covering).items():
        if "rules" in details:
            settings.setdefault(covering[game_id], details["rules"])
        for name, spec in details.get("bots", {}).items():
            specs.setdefault(name, spec_to_data(spec_from_data(spec)))  # the manifest's shape, defaults filled in
        numbers |= details.get("bot_numbers", {})
        play = play or details.get("play", {})
    first = {name: place for place, name in enumerate(seen)}
    bots = sorted(seen, key=lambda name: (numbers.get(name, len(seen)), first[name]))  # the league file's order
    manifest = {FROM_RECORDS: True, "name": records[0]["spec"]["league"], "game": games.pop()}
    manifest |= {"bots": bots, "variants": variants, "settings": settings}
    # a replay command needs every bot's spec, every variant's rules and the rules of play: never a wrong one
    replayable = play and set(specs) >= set(bots) and set(settings) >= set(variants)
    return manifest | ({"bot_specs": specs, "play": play} if replayable else {})


def _covering(records: Sequence[GameRecord]) -> dict[str, str]:
    """The first games that hold, between them, every variant and every bot: each one's variant, by game id."""
    seen: set[tuple[str, str]] = set()
    chosen = {}
    for record in records:
        spec = record.spec
        new = {("variant", spec.variant), *(("bot", name) for name in spec.seats)} - seen
        if new:
            seen |= new
            chosen[record.game_id] = spec.variant
    return chosen
