"""``league authors add|list|remove LEAGUE.yaml``: a contest's authors, kept in its report folder.

The authors live in the league's output folder (``league.store.authors``: ``contest.sqlite``), so
these commands work whether a contest server runs or not. ``add`` prints the new author's token
once, on a line of its own on stdout (only its hash is kept); ``add --organiser`` makes an organiser
(who sees every page and every bot's stderr); ``list`` prints names, when each was added and who
organises, never a token. A bad league file, author name or a taken name is one line, exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from league.cli.args import UsageError
from league.store.authors import AuthorError, add_author, list_authors, remove_author


def contest_folder(text: str, create: bool) -> Path:
    """The report folder of the league file ``text``: where its contest keeps its authors.

    Args:
        text: The league file, as given.
        create: The folder will be written (``add``): it must be the league's own or new.

    Raises:
        UsageError: No such file, a file that is not a league, or a folder the contest cannot use.
    """
    from league.plan.config import ConfigError, load_league

    path = Path(text)
    if not path.is_file():
        raise UsageError(f"{text}: no such league file; give the contest's league file (e.g. configs/quickstart.yaml)")
    try:
        league = load_league(path)
        if create:
            league.check_output(create=True)
    except ConfigError as error:
        raise UsageError(str(error)) from None
    return league.output


def cmd_add(args: argparse.Namespace) -> int:
    """Add an author; their token on stdout, once."""
    folder = contest_folder(args.file, create=True)
    try:
        token = add_author(folder, args.name, organiser=args.organiser)
    except AuthorError as error:
        raise UsageError(str(error)) from None
    print(token)
    role = "organiser" if args.organiser else "author"
    print(
        f"league: {role} {args.name} added; the token above is shown only this once (the contest keeps only its"
        " hash): give it to them privately, or remove and add them again if it is lost",
        file=sys.stderr,
    )
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    """Print each author, when they were added and whether they organise (never their token)."""
    folder = contest_folder(args.file, create=False)
    try:
        authors = list_authors(folder)
    except AuthorError as error:
        raise UsageError(str(error)) from None
    if not authors:
        print(f"league: no authors yet; `league authors add {args.file} NAME` adds one", file=sys.stderr)
        return 0
    width = max(len("author"), *(len(author.name) for author in authors))
    print(f"{'author':<{width}}  added (UTC)")
    for author in authors:
        print(f"{author.name:<{width}}  {author.created}" + ("  organiser" if author.organiser else ""))
    return 0


def cmd_remove(args: argparse.Namespace) -> int:
    """Remove an author: their token stops working."""
    folder = contest_folder(args.file, create=False)
    try:
        remove_author(folder, args.name)
    except AuthorError as error:
        raise UsageError(str(error)) from None
    print(f"league: author {args.name} removed; their token no longer works", file=sys.stderr)
    return 0


def add_commands(commands: Any) -> None:
    """Register ``authors`` (``add``, ``list``, ``remove``) on the ``league`` parser."""
    authors = commands.add_parser("authors", help="add, list or remove a contest's authors (their tokens)")
    actions = authors.add_subparsers(dest="action", required=True)
    add = actions.add_parser("add", help="add an author and print their token, once")
    add.add_argument("file", metavar="FILE.yaml", help="the contest's league file (its output keeps the authors)")
    add.add_argument("name", metavar="NAME", help="the author's name: letters, digits, '_', '.', '-'")
    add.add_argument(
        "--organiser", action="store_true", help="an organiser: sees every page, every submission and every stderr"
    )
    add.set_defaults(handler=cmd_add)
    listing = actions.add_parser("list", help="list the authors, when each was added and who organises (never a token)")
    listing.add_argument("file", metavar="FILE.yaml", help="the contest's league file")
    listing.set_defaults(handler=cmd_list)
    remove = actions.add_parser("remove", help="remove an author: their token stops working")
    remove.add_argument("file", metavar="FILE.yaml", help="the contest's league file")
    remove.add_argument("name", metavar="NAME", help="the author's name")
    remove.set_defaults(handler=cmd_remove)
