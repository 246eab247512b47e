"""What every ``league`` command shares: the usage error and parsing of ``KEY=VALUE`` arguments.

A ``UsageError`` is a problem with what the user asked for; ``league.cli.main.main`` prints its message
as one line and exits with status 2.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from engine import get_game
from engine.core import Game, span
from league.match.did_you_mean import did_you_mean
from sandbox.limits import Limits

ModelT = TypeVar("ModelT", bound=BaseModel)
_HOST = re.compile(r"[A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\]")
DEFAULT_RAY_PORT = 6379


class UsageError(Exception):
    """A problem with what the user asked for; the message is shown as is (exit status 2)."""


def parse_assignment(text: str, flag: str = "--set") -> tuple[str, Any]:
    """``key=value`` with the value parsed as YAML (``tiles=[2, 4]``, ``turn_time_ms=500``).

    Raises:
        UsageError: No ``=``, no key, or a value that is not YAML; the message names ``flag``.
    """
    key, eq, raw = text.partition("=")
    if not eq or not key.strip():
        raise UsageError(f"{flag} {text!r}: expected key=value")
    try:
        return key.strip(), yaml.safe_load(raw)
    except yaml.YAMLError as error:
        raise UsageError(f"{flag} {text!r}: the value is not valid YAML ({getattr(error, 'problem', error)})") from None


def parse_seat_option(text: str, flag: str, seats: int) -> tuple[int, str]:
    """``SEAT:REST`` (``--cwd 1:bots/c``, ``--param 0:depth=3``) as the seat and the rest.

    Raises:
        UsageError: No seat number, or one that is not a seat of this match.
    """
    seat, colon, rest = text.partition(":")
    if not colon or not seat.strip().isdigit():
        raise UsageError(f"{flag} {text!r}: expected SEAT:{text}, e.g. {flag} 0:{text}")
    if int(seat) >= seats:
        raise UsageError(f"{flag} {text!r}: seat {int(seat)} does not exist (seats 0 to {seats - 1})")
    return int(seat), rest


def validated(model: type[ModelT], params: dict[str, Any], flag: str, what: str) -> ModelT:
    """``model(**params)``, or a UsageError naming the flag, the key and the problem."""
    try:
        return model(**params)
    except ValidationError as error:
        problem = error.errors()[0]
        key = ".".join(str(part) for part in problem["loc"]) or "?"
        if problem["type"] == "extra_forbidden":
            hint = did_you_mean(key, model.model_fields)
            raise UsageError(
                f"{flag} {key}: {what} has no key {key!r}{hint}; keys: {', '.join(model.model_fields)}"
            ) from None
        message = problem["msg"].removeprefix("Value error, ")
        if not problem["loc"]:  # a rule between keys (two ports that must differ)
            raise UsageError(f"{flag}: {message}") from None
        raise UsageError(f"{flag} {key}={params.get(key)!r}: {message}") from None


def seat_range(game: type[Game] | range) -> str:
    """How many bots play a game (or a variant's ``seat_counts``), in words: ``2``, ``2 to 10``."""
    return span(game if isinstance(game, range) else range(game.min_seats, game.max_seats + 1))


def build_game(name: str, assignments: list[str]) -> Game:
    """The game with its variant parameters from ``--set`` assignments, validated."""
    try:
        game_class = get_game(name)
    except KeyError as error:
        raise UsageError(error.args[0]) from None
    params = dict(parse_assignment(text) for text in assignments)
    return validated(game_class, params, "--set", f"the {name} variant")


def build_limits(assignments: list[str]) -> Limits:
    """Resource limits from ``--limit`` assignments, validated."""
    params = dict(parse_assignment(text, "--limit") for text in assignments)
    return validated(Limits, params, "--limit", "limits")


class RayAddress(NamedTuple):
    """Where a Ray cluster's head is: ``HOST:PORT`` (its GCS, drivers join it) or ``ray://HOST:PORT`` (Ray Client)."""

    host: str
    port: int
    client: bool = False


def parse_ray_address(text: str, flag: str) -> RayAddress | None:
    """A cluster address (``--address``, ``RAY_ADDRESS``); None for ``auto`` (Ray finds a head on this machine).

    Raises:
        UsageError: Anything else (no port, a port that is not a number, a web address such as
            the dashboard's ``http://HEAD:8265``), naming ``flag`` and the form to give.
    """
    given = text.strip()
    if given == "auto":
        return None
    scheme, sep, rest = given.partition("://")
    if not sep:
        scheme, rest = "", given
    host, colon, port = rest.rpartition(":")
    example = f"{host.strip('[]') if colon and _HOST.fullmatch(host) else 'HEAD_IP'}:{DEFAULT_RAY_PORT}"
    if scheme.lower() in ("http", "https"):
        raise UsageError(
            f"{flag} {text}: a web address (Ray's dashboard) is not where a driver joins; give the head's"
            f" HOST:PORT, e.g. {example} (the address `ray start --head` printed)"
        )
    if scheme not in ("", "ray") or not colon or not _HOST.fullmatch(host) or not port.isdigit():
        raise UsageError(
            f"{flag} {text!r}: expected the head's HOST:PORT, e.g. {example} (the address `ray start --head`"
            " printed), or ray://HOST:PORT for Ray Client"
        )
    if not 0 < int(port) < 65536:
        raise UsageError(f"{flag} {text}: port {int(port)} is not a port (1 to 65535); e.g. {example}")
    return RayAddress(host.strip("[]"), int(port), client=scheme == "ray")
