"""Loading a league for ``league run`` and ``league validate``: its file checked whole, each problem one line.

Before anything plays, a league is checked whole: the file, every bot's command, parameters and
files (readable by the jailed bot), the jail itself, what a cluster would need shipped, the report
folder (the league's own: ``league.store.folder``) and the seed it stores (``league.plan.seed``).
A problem is one line (``UsageError``: exit status 2, ``league.cli.main``) with nothing written.
"""

from __future__ import annotations

import argparse

from engine import GAMES
from league.cli.args import UsageError, parse_assignment, validated
from league.cli.cluster_join import on_cluster
from league.cluster.shipping import shipping_problem
from league.plan.config import ConfigError, League, load_league
from league.plan.seed import league_seed
from sandbox.jail import Sandbox, SandboxError


def load(args: argparse.Namespace, create_output: bool) -> League:
    """The league of ``args.file`` with ``--set`` applied to every variant, checked whole, its seed settled.

    Args:
        args: The command's arguments.
        create_output: Make the report folder and try writing in it (``run``); ``validate``
            only looks, and writes nothing.

    Raises:
        UsageError: Anything that would stop the league, with the file, the key and the fix.
    """
    try:
        league = load_league(args.file)
        assignments = dict(parse_assignment(text) for text in getattr(args, "set", None) or [])
        if assignments:  # named as --set if they are wrong on their own, not blamed on the file
            validated(GAMES[league.config.game], assignments, "--set", f"the {league.config.game} variant")
            variants = {name: {**params, **assignments} for name, params in league.config.variants.items()}
            league = load_league(args.file, {"variants": variants})
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
    return league
