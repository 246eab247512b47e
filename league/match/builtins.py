"""Built-in bots: the class that plays each role, the parameters it takes, and checking what users give it.

A built-in is a class constructed as ``cls(seed=..., **params)``. Its parameters are the keyword
parameters of its ``__init__`` (following ``**kwargs`` up to the base class that takes them),
with their type hints and defaults, and their meanings from the Google-style ``Args:`` section
of the docstrings. Users' ``params`` are checked against them before anything plays, so a typo
or a wrong type is one clear line, not a forfeit in every game. A game whose bots have several
roles (attack2048) gives each role's class only the parameters that class takes.
"""

from __future__ import annotations

import inspect
import re
import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ConfigDict, ValidationError, create_model

from engine.core import Game
from league.match.did_you_mean import did_you_mean


class BuiltinError(ValueError):
    """A built-in name or its parameters cannot be used; the message says why and what is valid."""


@dataclass(frozen=True)
class Parameter:
    """One parameter of a built-in bot.

    Attributes:
        name: Its keyword.
        annotation: Its type hint.
        default: Its default value.
        meaning: The sentence its docstring gives, or "".
    """

    name: str
    annotation: Any
    default: Any
    meaning: str

    @property
    def type_name(self) -> str:
        """The type in words ("an integer", "a number or null")."""
        return type_name(self.annotation)


def builtin_names(game: type[Game]) -> list[str]:
    """The short names of a game's built-ins, sorted."""
    return sorted(game.builtin_bots())


def role_classes(game: type[Game], builtin: str) -> dict[str, type]:
    """Per role, the class of built-in ``NAME`` or ``GAME.NAME``.

    Raises:
        BuiltinError: The game has no such built-in (the message lists those it has).
    """
    short = builtin.rpartition(".")[2]
    entry = game.builtin_bots().get(short)
    if entry is None:
        raise BuiltinError(f"{short!r} is not a {game.name} built-in; its built-ins: {', '.join(builtin_names(game))}")
    if isinstance(entry, Mapping):
        return dict(entry)
    return {role: entry for role in game.roles}


def builtin_class(game: type[Game], builtin: str, role: str) -> type:
    """The class of a built-in ``GAME.NAME`` playing ``role``."""
    return role_classes(game, builtin)[role]


def parameters(cls: type) -> dict[str, Parameter]:
    """The keyword parameters of a built-in class (``seed`` excluded), in declaration order."""
    found: dict[str, Parameter] = {}
    for klass in cls.__mro__:
        init = klass.__dict__.get("__init__")
        if init is None:
            continue
        hints = typing.get_type_hints(init)
        meanings = {**_docstring_args(init.__doc__), **_docstring_args(klass.__doc__)}
        keywords = inspect.signature(init).parameters.values()
        for parameter in keywords:
            if parameter.kind in (parameter.POSITIONAL_OR_KEYWORD, parameter.KEYWORD_ONLY):
                if parameter.name not in ("self", "seed") and parameter.name not in found:
                    default = None if parameter.default is parameter.empty else parameter.default
                    meaning = meanings.get(parameter.name, "")
                    found[parameter.name] = Parameter(parameter.name, hints.get(parameter.name, Any), default, meaning)
        if not any(parameter.kind == parameter.VAR_KEYWORD for parameter in keywords):
            break
    return found


def accepted(cls: type, params: Mapping[str, Any]) -> dict[str, Any]:
    """The part of ``params`` that ``cls`` takes (a role's class in a game with several roles)."""
    known = parameters(cls)
    return {key: value for key, value in params.items() if key in known}


def builtin_params(game: Game, builtin: str, role: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """What a built-in playing ``role`` is given: the rules the wire does not carry, then its own ``params``."""
    return accepted(builtin_class(type(game), builtin, role), {**game.bot_rules(), **params})


def make_bot(game: Game, builtin: str, role: str, seed: int, params: Mapping[str, Any]) -> Any:
    """A built-in bot instance for ``role``, seeded, with the variant's rules and its ``params``."""
    return builtin_class(type(game), builtin, role)(seed=seed, **builtin_params(game, builtin, role, params))


def check_params(
    game: Game, sides: Mapping[str, str], params: Mapping[str, Any], rules_given: bool = False
) -> dict[str, Any]:
    """Check what a user gives built-ins; returns the parameters converted to the declared types.

    Args:
        game: The game and its variant (its ``bot_rules`` are the league's to give, not the user's).
        sides: Per role it plays, the built-in (``NAME`` or ``GAME.NAME``) that gets the parameters;
            a key must be taken by at least one of them, and each gets those it takes.
        params: What the user gave.
        rules_given: The variant's rules come with ``params`` (``league bot``, run by the league or
            by hand), rather than from the league's own variant.

    Raises:
        BuiltinError: An unknown name, a rule of the variant, a wrong type, or a value the bot
            refuses; the message names the parameter and what is valid.
    """
    classes = {role: builtin_class(type(game), builtin, role) for role, builtin in sides.items()}
    names = sorted({builtin.rpartition(".")[2] for builtin in sides.values()})
    label = "::".join(f"{type(game).name}.{name}" for name in names)
    rules = {} if rules_given else game.bot_rules()
    known: dict[str, Parameter] = {}
    for cls in classes.values():
        known = {**parameters(cls), **known}
    own = [key for key in known if key not in rules]
    for key in params:
        if key == "seed":
            raise BuiltinError(f"{label}: 'seed' is set by the league from the match seed; leave it out")
        if key in rules:
            raise BuiltinError(
                f"{label}: {key!r} is the variant's, told to built-ins by the league; set it with --set {key}=..."
                " (variants: in a league file)"
            )
        if key not in known:
            hint = did_you_mean(key, own)
            raise BuiltinError(f"{label} has no parameter {key!r}{hint}; its parameters: {', '.join(own) or 'none'}")
    fields: dict[str, Any] = {key: (known[key].annotation, ...) for key in params}
    model = create_model("BuiltinParams", __config__=ConfigDict(extra="forbid", strict=True), **fields)
    try:
        converted = model(**params).model_dump()
    except ValidationError as error:
        key = str(error.errors()[0]["loc"][0])
        raise BuiltinError(f"{label}: parameter {key} must be {known[key].type_name}, not {params[key]!r}") from None
    for role, builtin in sides.items():
        try:
            make_bot(game, builtin, role, 0, converted)
        except Exception as error:  # noqa: BLE001 - any refusal by the bot is reported as bad params
            raise BuiltinError(f"{label}: {error}") from None
    return converted


def type_name(annotation: Any) -> str:
    """A type hint in words, for messages and listings."""
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Annotated:  # a constrained type (Annotated[int, Field(ge=1)]): its base
        return type_name(args[0])
    if origin in (typing.Union, types.UnionType):
        return " or ".join(type_name(arg) for arg in args)
    if origin is typing.Literal:
        return "one of " + ", ".join(repr(arg) for arg in args)
    if origin in (list, tuple, Sequence) and args:
        return f"a list of {type_name(args[0]).removeprefix('an ').removeprefix('a ')}s"
    names = {int: "an integer", float: "a number", bool: "true or false", str: "a string", type(None): "null"}
    return names.get(annotation, getattr(annotation, "__name__", str(annotation)))


_ARG_LINE = re.compile(r"^(\s+)(\w+)(?: \([^)]*\))?:\s*(.*)$")


def _docstring_args(doc: str | None) -> dict[str, str]:
    """The ``Args:`` section of a Google-style docstring: name -> its (joined) description."""
    if not doc or "Args:" not in doc:
        return {}
    found: dict[str, str] = {}
    indent: int | None = None
    current = ""
    for line in doc.split("Args:", 1)[1].splitlines()[1:]:
        if not line.strip():
            break
        match = _ARG_LINE.match(line)
        if match and (indent is None or len(match.group(1)) == indent):
            indent, current = len(match.group(1)), match.group(2)
            found[current] = match.group(3).strip()
        elif indent is not None and len(line) - len(line.lstrip()) > indent:
            found[current] += " " + line.strip()
        else:
            break
    return found
