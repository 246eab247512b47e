"""What a worker does with one game: build the game and the bots, referee the match, return data.

Plain functions with no Ray import: the workers of ``league.cluster.pool`` (long-lived Ray actors) call
``play_game`` once a game, and tests can call it directly. A failure of ours (a bug, a program
missing on this worker, a jail that cannot be made) comes back as an ``INFRA_ERROR`` record, which
the runner plays again and never scores; a bot's misbehaviour is a result like any other.

Every record a worker returns says what was played, as the league file gave it (``as_played``): its spec
names the game (``spec.game``, on the store's results line), and beside its moves (in the store's move
log, which reports of a folder with ``league.json`` never read) it keeps the variant's rules
(``rules``), each seat's bot spec as data (``bots``) and its place in the league file's list
(``bot_numbers``, 0 first), and the league's rules of play (``play``: clock, sandbox, limits), in the
manifest's shapes. So a store copied without ``league.json`` still names its
game, replays and gives every game's ``league play`` command (``league.replay.recorded``).
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from engine import get_game
from league.cluster.shipping import ShippedPath, localized
from league.match.bot_spec import BotSpec, spec_from_data, spec_to_data
from league.match.players import check_command, make_launcher
from league.match.record import ClockSettings, Move
from league.match.referee import Referee
from league.plan.openings import opening_of
from sandbox.cpus import pinned_to_cores
from sandbox.jail import Sandbox
from sandbox.limits import Limits, SandboxMode


@dataclass(frozen=True)
class LeagueSetup:
    """Everything a worker needs besides the GameSpec, shipped once per league.

    Attributes:
        game: The game's name.
        variants: Per variant name, its parameters.
        bots: Per bot name, its spec as data (``BotSpec`` fields).
        limits: Resource limits as data.
        sandbox: The sandbox mode.
        clock: ``ClockSettings`` as data.
        shipped: Bot folders and variant files packed for a cluster's nodes, by the driver's path
            (``league.cluster.shipping``); paths under them are rewritten to this node's copy.
        pin_cores: Cores each game's bots are pinned to (``pin_cpus``: the cores a game needs); 0 pins nothing.
        versions: Per bot name, its version (``league.plan.bot_version``), written into each record's spec.
    """

    game: str
    variants: dict[str, dict[str, Any]]
    bots: dict[str, dict[str, Any]]
    limits: dict[str, Any] = field(default_factory=dict)
    sandbox: str = "auto"
    clock: dict[str, Any] = field(default_factory=dict)
    shipped: dict[str, ShippedPath] = field(default_factory=dict)
    pin_cores: int = 0
    versions: dict[str, str] = field(default_factory=dict)


MovesWatcher = Callable[[dict[str, Any], list[Move]], None]
"""Told of a game as its referee starts: the record's spec and rules (``as_played``), and the referee's own list of
moves, which grows as the game is played (``league.cluster.pool.GameWorker.live`` reads it while someone watches)."""


def play_game(
    spec: dict[str, Any], setup: LeagueSetup, sandbox: Sandbox | None = None, watch: MovesWatcher | None = None
) -> dict[str, Any]:
    """Play one scheduled game and return its record (JSON-ready).

    When the referee or the sandbox fails (not a bot), the record says ``INFRA_ERROR`` and why.

    Args:
        spec: The game (``GameSpec.to_json()``).
        setup: What every game of the league needs besides its spec.
        sandbox: ``setup``'s sandbox, made once by a worker that plays many games (None: made here).
        watch: Told of the game and its referee's moves as the referee starts (None: nobody is told). The
            referee does nothing more for it: its moves are a list it keeps anyway.
    """
    played: dict[str, Any] = {}
    try:
        played = as_played(spec, setup)
        game = get_game(setup.game)(**localized(setup.variants[spec["variant"]], setup.shipped))
        sandbox = sandbox or Sandbox(SandboxMode(setup.sandbox), Limits(**setup.limits))
        bots = [spec_from_data(localized(setup.bots[name], setup.shipped)) for name in spec["seats"]]
        for bot in bots:
            check_command(bot)  # a program missing on this worker is our problem, not the bot's
        with pinned_to_cores(setup.pin_cores):  # the bots it starts inherit the cores
            launchers = [make_launcher(game, bot, seat, spec["seed"], sandbox) for seat, bot in enumerate(bots)]
            opening = opening_of(spec.get("opening"), spec["seed"])
            referee = Referee(game, launchers, spec["seed"], ClockSettings(**setup.clock), opening)
            if watch is not None:
                watch(played, referee.moves)
            record = referee.play()
    except Exception as error:  # noqa: BLE001 - anything escaping the referee is ours, never a bot's
        return {**infra_record(spec, failure_detail(error)), **played, "worker": _worker_name()}
    return {
        "game_id": spec["game_id"],
        **played,
        "result": record.result.to_json(),
        "time_used_ms": record.time_used_ms,
        "moves": [stored_move(move) for move in record.moves],
        "stderr": [asdict(tail) for tail in record.stderr],
        "worker": _worker_name(),
        **({"opening": record.opening} if record.opening is not None else {}),
    }


def as_played(spec: dict[str, Any], setup: LeagueSetup) -> dict[str, Any]:
    """What a record says of the game it played: its spec naming the game, the variant's rules, the bots, the play.

    The bots' numbers (their places in the league file's list) let a report list them in the file's order.
    The spec (on the store's results line) names each seated bot's version (``versions``), so a
    report tells the games of a bot's earlier versions apart (``league.report.earlier_versions``).

    The rules and bot specs are the driver's (``setup`` before ``localized``): paths as the league file
    resolved them, never a node's copy.
    """
    numbers = {name: number for number, name in enumerate(setup.bots)}
    seated = [name for name in spec["seats"] if name in setup.bots]
    versions = {name: setup.versions[name] for name in seated if name in setup.versions}
    return {
        "spec": {**spec, "game": setup.game, **({"versions": versions} if versions else {})},
        "rules": setup.variants.get(spec["variant"], {}),
        "bots": {name: compact_bot(setup.bots[name]) for name in seated},
        "bot_numbers": {name: numbers[name] for name in seated},
        "play": play_rules(setup),
    }


def compact_bot(data: dict[str, Any]) -> dict[str, Any]:
    """A bot spec as data without the fields at their defaults (``spec_from_data`` fills them in again)."""
    defaults = spec_to_data(BotSpec(name=data["name"]))
    kept = {key: value for key, value in data.items() if key == "name" or value != defaults.get(key)}
    if kept.get("roles"):
        kept["roles"] = {role: compact_bot(side) for role, side in kept["roles"].items()}
    return kept


def play_rules(setup: LeagueSetup) -> dict[str, Any]:
    """The league's rules of play as the manifest writes them (``play``): clock, margin, sandbox, limits set.

    The limits are those the bots' jails had: the league file's ``sandbox.read_only`` paths are among
    their ``read_only`` paths.
    """
    return {
        "clock": setup.clock.get("kind", "own"),
        "time_margin_ms": setup.clock.get("margin_ms", 0),
        "sandbox": setup.sandbox,
        "limits": Limits(**setup.limits).model_dump(mode="json", exclude_defaults=True),
    }


def stored_move(move: Move) -> list[Any]:
    """A move as the store keeps it: ``[seat, role, reply, elapsed_ms, fault]``, then its event unless a line."""
    stored = [move.seat, move.role, _stored_reply(move.reply), move.elapsed_ms, move.fault]
    return stored if move.event == "line" else [*stored, move.event]


def _worker_name() -> str:
    """Which worker played a game: host and process."""
    return f"{socket.gethostname()}:{os.getpid()}"


def failure_detail(error: BaseException) -> str:
    """The one line of detail an INFRA_ERROR record keeps about a failure of ours."""
    return f"{type(error).__name__}: {error}".splitlines()[0]


STORED_REPLY_CHARS = 256


def _stored_reply(reply: str) -> str:
    """A reply as stored: cut to a few hundred characters, so a bot cannot bloat the store."""
    if len(reply) <= STORED_REPLY_CHARS:
        return reply
    return f"{reply[:STORED_REPLY_CHARS]}... ({len(reply)} characters)"


def infra_record(spec: dict[str, Any], detail: str) -> dict[str, Any]:
    """The record of a game that could not be played (stored, replayed by the next run, never scored)."""
    seats = len(spec["seats"])
    return {
        "game_id": spec["game_id"],
        "spec": spec,
        "result": {
            "scores": [0] * seats,
            "ranks": [1] * seats,
            "termination": "INFRA_ERROR",
            "offenders": [],
            "reason_code": "INFRA_ERROR",
            "detail": detail,
            "plies": 0,
            "extra": {},
            "winner": None,
        },
        "time_used_ms": [0] * seats,
        "moves": [],
    }
