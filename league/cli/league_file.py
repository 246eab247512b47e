"""Loading a league for ``league run`` and ``league validate``: its file checked whole, each problem one line.

Before anything plays, a league is checked whole: the file, every bot's command, parameters and
files (readable by the jailed bot), the jail itself, what a cluster would need shipped, the report
folder (the league's own: ``league.store.folder``) and the seed it stores (``league.plan.seed``).
A problem is one line (``UsageError``: exit status 2, ``league.cli.main``) with nothing written.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from engine import GAMES
from league.cli.args import UsageError, parse_assignment, validated
from league.cli.cluster_join import on_cluster
from league.cluster.shipping import shipping_problem
from league.plan.config import ConfigError, League, load_league
from league.plan.seed import league_seed
from sandbox.jail import Sandbox, SandboxError


def load(args: argparse.Namespace, create_output: bool) -> League:
    """The league of ``args.file`` with ``--set`` applied to every variant, checked whole, its stored seed too.

    ``--output`` and ``--concurrency`` (``league run``'s) replace the file's ``output`` and ``concurrency``.

    Args:
        args: The command's arguments.
        create_output: Make the report folder and try writing in it (``run``); ``validate``
            only looks, and writes nothing.

    Raises:
        UsageError: Anything that would stop the league, with the file, the key and the fix.
    """
    flags = flag_overrides(args)
    try:
        league = load_league(args.file, flags)
        assignments = dict(parse_assignment(text) for text in getattr(args, "set", None) or [])
        if assignments:  # named as --set if they are wrong on their own, not blamed on the file
            validated(GAMES[league.config.game], assignments, "--set", f"the {league.config.game} variant")
            variants = {name: {**params, **assignments} for name, params in league.config.variants.items()}
            league = load_league(args.file, {**flags, "variants": variants})
        try:
            sandbox = Sandbox(league.config.sandbox.mode, league.config.limits)
        except SandboxError as error:
            raise ConfigError(f"{league.path}: {error}") from None
        league.check_bots(sandbox)
        problem = shipping_problem(league) if on_cluster(args) else None
        if problem is not None:
            raise ConfigError(f"{league.path}: {problem}")
        league.check_output(create=create_output)
        league_seed(league, fresh=getattr(args, "fresh", False))  # the folder's stored seed checked, nothing written
    except ConfigError as error:
        raise UsageError(str(error)) from None
    if "concurrency" in flags:
        league.concurrency_source = "--concurrency"
    return league


def flag_overrides(args: argparse.Namespace) -> dict[str, Any]:
    """The league file's keys that ``--output DIR`` and ``--concurrency N`` replace (none when not given).

    ``--output`` is a path from the folder ``league`` runs in, as any path on its command line (the
    file's ``output`` is from the file's folder), so it is made absolute here.

    Raises:
        UsageError: ``--concurrency`` is not a whole number above 0, or ``--output`` is empty.
    """
    overrides: dict[str, Any] = {}
    output = getattr(args, "output", None)
    if output is not None:
        if not output.strip():
            raise UsageError("--output '': give the folder for the league's report, e.g. --output reports/mine")
        overrides["output"] = os.path.abspath(output)
    concurrency = getattr(args, "concurrency", None)
    if concurrency is not None:
        text = concurrency.strip()
        if not text.isdecimal() or not text.isascii() or int(text) < 1:
            raise UsageError(
                f"--concurrency {concurrency!r}: give how many games to play at once, a whole number above 0"
                " (e.g. --concurrency 4)"
            )
        overrides["concurrency"] = int(text)
    return overrides
