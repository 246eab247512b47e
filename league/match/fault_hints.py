"""Hints for bot authors, added to a fault's detail where the bot's own output shows a usual mistake.

A detail says what happened ("seat 0 exited with status 1 before answering turn 1"). Where what the
bot wrote shows why, and the why is a mistake bot authors often make, a sentence with the fix
follows it:

* a write the jail refused (``Read-only file system`` in its stderr): a jailed bot may write only
  in its scratch folder ``/tmp``, which is also its ``$HOME`` and ``$TMPDIR`` (``sandbox.jail``);
  its own folder, its working folder and the system are read-only;
* a reach for the network (a socket refused: ``Address family not supported by protocol``; a failed
  name lookup, an unreachable network or a refused connection in its stderr) while ``limits.network``
  is off: the jail has no network, and its bot may open only ``AF_UNIX`` sockets (``sandbox.seccomp``);
* debug text on stdout (a reply line that does not parse and reads like words): stdout carries
  the replies, debug output belongs on stderr.

Hints only add to the detail: the result, its offenders and its codes stay as they were. A hint
quotes none of the bot's text (the reply line is quoted once, by the detail itself), only the
system's own words it recognised, so it needs no escaping of its own.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence

from engine.core import Result
from sandbox.jail import SCRATCH

READ_ONLY = ("Read-only file system", "EROFS")
"""How a refused write reads in a bot's stderr (strerror of EROFS, and its name as Node and Go print it)."""
NETWORK = (
    "Address family not supported by protocol",
    "EAFNOSUPPORT",
    "Network is unreachable",
    "ENETUNREACH",
    "Temporary failure in name resolution",
    "EAI_AGAIN",
    "Name or service not known",
    "UnknownHostException",
    "Connection refused",
    "ECONNREFUSED",
)
"""How a reach for the network reads in a bot's stderr inside a jail without it (C, Python, Java, Node)."""
_WORDS = re.compile(r"[A-Za-z]{2,}\W+[A-Za-z]{2,}")
_LOWER = re.compile(r"[a-z]")


def stderr_hints(seat: int, text: str, network: bool) -> list[str]:
    """The hints a jailed bot's stderr gives: a refused write, a reach for a network it does not have.

    Args:
        seat: The bot's seat (each hint names it: a detail may speak of several seats).
        text: What the bot wrote to stderr (its tail).
        network: Whether its jail kept the host's network (``limits.network``); if so, no network hint.

    Returns:
        The hint sentences, in a fixed order (none when its stderr shows neither mistake).
    """
    hints = []
    written = _first_found(text, READ_ONLY)
    if written is not None:
        hints.append(
            f"seat {seat}'s stderr shows a write refused ({written!r}): a bot may write only in its scratch"
            f" folder {SCRATCH} (also its $HOME and $TMPDIR); its own folder, its working folder and the"
            " system are read-only"
        )
    reached = None if network else _first_found(text, NETWORK)
    if reached is not None:
        hints.append(
            f"seat {seat}'s stderr shows it tried the network ({reached!r}): a bot has no network"
            " (limits.network is off) and may open no sockets but AF_UNIX ones"
        )
    return hints


def reply_hint(line: str) -> str:
    """The hint for a reply line that does not parse, when it reads like words (debug text); "" otherwise.

    The detail quotes the line already; the hint does not quote it again.
    """
    if _WORDS.search(line) and _LOWER.search(line):
        return "; debug output belongs on stderr (kept with the game): stdout carries the replies only"
    return ""


def with_hints(result: Result, hints: Mapping[int, Sequence[str]]) -> Result:
    """``result`` with the hints of its offending seats after its detail (itself when there are none).

    Args:
        result: The match's result.
        hints: Per seat, the hints its processes' output gave (``stderr_hints``).
    """
    found = [hint for seat in result.offenders for hint in hints.get(seat, ())]
    if not found:
        return result
    detail = "; ".join([result.detail, *found]) if result.detail else "; ".join(found)
    return dataclasses.replace(result, detail=detail)


def _first_found(text: str, needles: Sequence[str]) -> str | None:
    """The first of ``needles`` that ``text`` holds, or None."""
    return next((needle for needle in needles if needle in text), None)
