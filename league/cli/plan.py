"""``league plan``: a league's design simulated on guessed strengths, beside the other designs that fit its bots.

``league plan LEAGUE.yaml --simulate N`` runs the league's design N times without playing it
(``league.plan.design_simulation``) and, to compare, the other formats that fit its bots (round
robin, adaptive, and SPRT for two bots), and prints per design: games (mean and 90th percentile),
the chance that what it claims is right and that its ranking is the true order, and the wall time
here and on a cluster of ``--cluster-cpus`` CPUs. The seconds a game takes come from a few sample
games played here, as ``league validate`` plays them (``league.cluster.estimate``); ``--no-estimate``
skips them, and the wall time with them.

The strengths: a synthetic league's ``model`` bots state theirs in ``params`` (Elo and style), and
its variant its draw rate, first-seat advantage and cycle; any other bot needs ``--elo NAME=ELO``
(one line names the bots without a guess, exit status 2). ``--draw-rate`` and ``--first-seat-elo``
override the variant's (0 for other games).

A file of a format that ``league.plan.design_simulation`` does not simulate (a knockout, a Swiss, a
gauntlet, finals) has no first table: its own format, played as its keys say, is the first row of
the second, and its mean games the budget.

Below, a second table compares every format that fits the bots on one budget of games
(``league.plan.format_comparison``: by default the mean games of the file's own design, ``--budget
GAMES`` to say another), each played N times through its real run (``league.plan.format_simulation``):
per format its games (mean), the chance that the truly strongest bot comes first and that its first
K (``--top K``, default 3) are the true top K, its mean Kendall's tau to the true order, and its
wall time here and on the cluster, its stages one after another (a knockout's rounds cannot
overlap, however many workers there are).
"""

from __future__ import annotations

import argparse
import math
import sys
from typing import TYPE_CHECKING, Any

from engine.core import plural
from league.cli.args import UsageError
from league.cli.league_file import load
from league.match.did_you_mean import did_you_mean
from league.plan.config import League
from league.plan.formats import league_format
from league.stats.ties import best_first

if TYPE_CHECKING:
    from league.plan.design_simulation import DesignOutcome, GuessedModel
    from league.plan.format_simulation import FormatOutcome

DEFAULT_LEAGUES = 100
DEFAULT_CLUSTER_CPUS = 64
SYNTHETIC_MODEL = "synthetic.model"


def parse_elos(texts: list[str] | None, bots: list[str]) -> dict[str, float]:
    """``--elo NAME=ELO`` arguments as each named bot's guessed Elo.

    Raises:
        UsageError: No ``=``, a bot not in the league, a guess that is not a finite number, a bot named twice.
    """
    guesses: dict[str, float] = {}
    for text in texts or []:
        name, eq, value = text.partition("=")
        name = name.strip()
        if not eq or not name:
            raise UsageError(f"--elo {text!r}: expected NAME=ELO, e.g. --elo {bots[0]}=1500")
        if name not in bots:
            raise UsageError(
                f"--elo {text!r}: the league has no bot {name!r}{did_you_mean(name, bots)}; its bots: {', '.join(bots)}"
            )
        try:
            elo = float(value)
        except ValueError:
            elo = math.nan
        if not math.isfinite(elo):
            raise UsageError(f"--elo {text!r}: {value.strip()!r} is not an Elo; give a number, e.g. --elo {name}=1500")
        if name in guesses:
            raise UsageError(f"--elo {name}: guessed twice; give each bot one --elo")
        guesses[name] = elo
    return guesses


def guessed_model(league: League, args: argparse.Namespace) -> GuessedModel:
    """The strengths to simulate: ``--elo`` guesses, else a synthetic ``model`` bot's own; the variant's model.

    Raises:
        UsageError: A bot without a guess (naming every such bot and the fix), or a draw rate out of range.
    """
    from engine.synthetic.bots import ModelBot
    from league.plan.design_simulation import GuessedModel

    names = [bot.name for bot in league.config.bots]
    guesses = parse_elos(args.elo, names)
    synthetic = league.config.game == "synthetic"
    (variant,) = league.games.values()
    elos: dict[str, float] = {}
    styles: dict[str, str | None] = {}
    for name in names:
        spec = league.bots[name]
        if synthetic and spec.builtin == SYNTHETIC_MODEL:
            strength = ModelBot(**spec.params).strength
            elos[name], styles[name] = strength.elo, strength.style
        if name in guesses:
            elos[name] = guesses[name]
    missing = [name for name in names if name not in elos]
    if missing:
        example = " ".join(f"--elo {name}=1500" for name in missing[:2])
        stated = " (a synthetic model bot states its own)" if synthetic else ""
        raise UsageError(
            f"{league.path}: no strength guessed for {', '.join(missing)}; give every bot its Elo{stated},"
            f" e.g. {example}"
        )
    own = (variant.draw_rate, variant.first_seat_elo, variant.cycle_elo) if synthetic else (0.0, 0.0, 0.0)
    draw_rate = own[0] if args.draw_rate is None else args.draw_rate
    if not 0 <= draw_rate < 1:
        raise UsageError(f"--draw-rate {draw_rate:g}: give the chance of a draw between equals, from 0 to below 1")
    first_seat = own[1] if args.first_seat_elo is None else args.first_seat_elo
    return GuessedModel(elos, draw_rate, first_seat, styles, own[2])


def _check_plannable(league: League) -> None:
    """Refuse, in one line with the fix, a league the simulation does not model."""
    from league.plan.sequential import plays_alone

    config = league.config
    if len(league.games) != 1:
        raise UsageError(
            f"{league.path}: league plan simulates one rule set, and this league has {len(league.games)} variants;"
            " plan a copy of the file with one"
        )
    if plays_alone(league.games) or any(count != 2 for count in league_format(config).seats(config)):
        raise UsageError(
            f"{league.path}: league plan simulates games of two seats; {config.game} here is played"
            f" {'alone' if plays_alone(league.games) else 'at tables'}"
        )


def _designed(league: League) -> bool:
    """Whether ``league.plan.design_simulation`` simulates the file's own design (else its format alone is played)."""
    from league.plan.design_simulation import SIMULATED

    return league.config.format in SIMULATED and league.config.finals is None


def _percent(share: float | None) -> str:
    """A share as a whole percentage, ``-`` for none."""
    return "-" if share is None else f"{share:.0%}"


def _table(rows: list[list[str]]) -> str:
    """Rows as aligned text, the first column left, the others right."""
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [row[0].ljust(widths[0]), *(cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True))]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def _wall(seconds: float) -> str:
    """A wall time for people (``league validate``'s words), under a second said so."""
    from league.cluster.estimate import duration

    return "under 1 s" if seconds < 0.5 else duration(seconds)


def _strengths_line(model: GuessedModel) -> str:
    """The strengths simulated, for people."""
    bots = ", ".join(
        f"{bot} {elo:g}" + (f" ({model.styles[bot]})" if model.styles.get(bot) else "")
        for bot, elo in model.elos.items()
    )
    line = f"strengths: {bots}; draw rate {model.draw_rate:g}, first seat {model.first_seat_elo:+g} Elo"
    return line + (f", cycle {model.cycle_elo:g} Elo" if model.cycle_elo else "")


def _seconds_per_game(league: League) -> tuple[float, str]:
    """A game's mean seconds from sample games played here (``league validate``'s), and where it came from."""
    from league.cluster.estimate import estimate
    from league.plan.league_schedule import planned_schedule

    def tell(count: int) -> None:
        print(
            f"league: playing {plural(count, 'sample game')} to time a game (--no-estimate skips them)",
            file=sys.stderr,
            flush=True,
        )

    sized = estimate(league, planned_schedule(league), on_start=tell)
    return sized.seconds * sized.workers / sized.games, plural(sized.played, "sample game")


def _rows(outcomes: list[DesignOutcome], timed: float | None, workers: tuple[int, int], cpus: int) -> list[list[str]]:
    """The table: a header, then a row a design (wall times ``-`` when not timed)."""
    here, cluster = workers
    rows = [
        [
            "format",
            "games (mean)",
            "games (p90)",
            "claims right",
            "order right",
            f"here ({here} at once)",
            f"cluster ({cpus} CPUs: {cluster} at once)",
        ]
    ]
    for outcome in outcomes:
        times = ["-", "-"] if timed is None else [_wall(outcome.rounds(count) * timed) for count in workers]
        games = [f"{outcome.mean_games:,.0f}", f"{outcome.games_p90:,}"]
        rows.append([outcome.design, *games, _percent(outcome.claims_right), _percent(outcome.order_right), *times])
    return rows


def _notes(outcomes: list[DesignOutcome], leagues: int, timed: tuple[float, str] | None) -> list[str]:
    """What each design was and how it stopped, what the columns mean, where the wall time comes from."""
    lines = []
    for outcome in outcomes:
        stops = ", ".join(f"{way} {share:.0%}" for way, share in outcome.stops.items())
        lines.append(f"  {outcome.design}: {outcome.settings}" + (f"; stopped {stops}" if stops else ""))
    lines.append(
        "  claims right: the round robin claims its whole ranking (its Bradley-Terry fit), the adaptive league"
        " each pair of neighbours it settled (ordered or tied), the SPRT its verdict (none when undecided);"
        " order right: its ranking is the true order; a share's standard error is at most"
        f" {0.5 / math.sqrt(leagues):.1%}"
    )
    if timed is None:
        lines.append("  wall time: not estimated (--no-estimate: no sample games played)")
    else:
        lines.append(
            f"  wall time: {timed[0]:.3g} s a game (the mean of {timed[1]} played here), in rounds of as many games"
            " as run at once, an adaptive league's batches one after another"
        )
    return lines


def _share(share: float) -> str:
    """A share as a whole percentage."""
    return f"{share:.0%}"


def _comparison_rows(
    outcomes: list[FormatOutcome],
    top: int,
    timed: float | None,
    workers: tuple[int, int],
    cpus: int,
) -> list[list[str]]:
    """The formats' table: a header, a row a format (``top`` clipped to the bots less one; wall times ``-`` untimed).

    Args:
        outcomes: The formats simulated.
        top: The K of "top K right".
        timed: Seconds a game, None when not timed.
        workers: Games at once here and on the cluster.
        cpus: The cluster's CPUs.
    """
    here, cluster = workers
    shown = min(top, len(outcomes[0].top_right)) if outcomes else 1
    header = ["format", "games (mean)", "best first"]
    header += [f"top {shown} right"] if shown > 1 else []
    header += ["tau (mean)", f"here ({here} at once)", f"cluster ({cpus} CPUs: {cluster} at once)"]
    rows = [header]
    for outcome in outcomes:
        tops = [_share(outcome.top_right[shown - 1])] if shown > 1 else []
        tau = "-" if math.isnan(outcome.mean_tau) else f"{outcome.mean_tau:.2f}"
        walls = ["-", "-"] if timed is None else [_wall(outcome.wall_seconds(count, timed)) for count in workers]
        rows.append([outcome.name, f"{outcome.mean_games:,.0f}", _share(outcome.best_first), *tops, tau, *walls])
    return rows


def _comparison_notes(outcomes: list[FormatOutcome], leagues: int) -> list[str]:
    """What each format was, and what the columns mean."""
    lines = [f"  {outcome.name}: {outcome.settings}" for outcome in outcomes]
    lines.append(
        "  best first: the truly strongest bot (the best true mean score against the field) is first in the"
        " format's final order (its own, else the standings' Bradley-Terry order of its games); top K right: its"
        " first K are the true K strongest; tau: Kendall's tau-b of its order to the true strengths (1 the true"
        f" order, 0 no better than a draw of lots); a share's standard error is at most {0.5 / math.sqrt(leagues):.1%}"
    )
    lines.append(
        "  wall time: a format's stages one after another (each stage waits for the games it is planned from:"
        " a knockout's rounds, a Swiss round, an adaptive batch), each in rounds of as many games as run at once"
    )
    return lines


def cmd_plan(args: argparse.Namespace) -> int:
    """Simulate the league's design and the others that fit its bots; print games, claims right and wall time."""
    from league.plan.cores import cluster_concurrency, need_of
    from league.plan.design_simulation import simulate_designs, true_strengths

    if args.simulate < 1:
        raise UsageError(f"--simulate {args.simulate}: give how many leagues to simulate, 1 or more (e.g. 100)")
    if args.seed < 0:
        raise UsageError(f"--seed {args.seed}: give a seed of 0 or more")
    if args.budget is not None and args.budget < 2:
        raise UsageError(f"--budget {args.budget}: give the games each format may play, 2 or more (e.g. 1000)")
    if args.top < 1:
        raise UsageError(f"--top {args.top}: give how many of the best to check, 1 or more (e.g. 3)")
    if args.cluster_cpus < 1:
        raise UsageError(f"--cluster-cpus {args.cluster_cpus}: give the cluster's CPUs, 1 or more (e.g. 64)")
    league = load(args, create_output=False)
    _check_plannable(league)
    model = guessed_model(league, args)
    config = league.config
    timed = None if args.no_estimate else _seconds_per_game(league)
    need = need_of(config, league.games, league.bots)
    workers = (config.concurrency, cluster_concurrency(args.cluster_cpus, need))
    strengths = true_strengths(model)
    names = list(strengths)
    order = [names[k] for k in best_first(names, [strengths[bot] for bot in names])]
    print(f"league plan: {config.name}, each design simulated {plural(args.simulate, 'time')} (seed {args.seed})")
    print(f"  {_strengths_line(model)}; the true order: {' > '.join(order)}")
    if _designed(league):
        outcomes = simulate_designs(league, model, args.simulate, args.seed)
        print(_table(_rows(outcomes, None if timed is None else timed[0], workers, args.cluster_cpus)))
        print("\n".join(_notes(outcomes, args.simulate, timed)))
        _print_comparison(league, model, args, round(outcomes[0].mean_games), timed, workers)
    else:  # a knockout, a Swiss, finals: the file's own format is the first row of the formats' table
        _print_comparison(league, model, args, None, timed, workers)
    return 0


def _print_comparison(
    league: League,
    model: GuessedModel,
    args: argparse.Namespace,
    design_games: int | None,
    timed: tuple[float, str] | None,
    workers: tuple[int, int],
) -> None:
    """The formats' table on ``--budget`` games, else the file's own design's mean games (``design_games``).

    Without a design simulated (``design_games`` None: a knockout, a Swiss, finals) the file's own
    format is played first, as its keys say (``format_comparison.this_file``), and its mean games are the budget.
    """
    from league.plan.design_simulation import DEFAULT_SPRT
    from league.plan.format_comparison import compare_formats, field_of, this_file
    from league.plan.format_simulation import simulate_format
    from league.stats.sprt import SprtSettings

    config = league.config
    given = config.sprt
    test = SprtSettings(given.elo0, given.elo1, given.alpha, given.beta) if given else DEFAULT_SPRT
    own: list[FormatOutcome] = []
    if design_games is None:
        field = field_of(league, 0, test)
        own = [simulate_format(this_file(field), model, args.simulate, args.seed, args.top)]
        design_games = round(own[0].mean_games)
    budget = args.budget if args.budget is not None else design_games
    outcomes = own + compare_formats(field_of(league, budget, test), model, args.simulate, args.seed, args.top)
    design = f"this file's {config.format}" if own else f"the {config.format} design above"
    whose = "--budget" if args.budget is not None else f"the mean games of {design}"
    print(
        f"\nformats compared on about {plural(budget, 'game')} each ({whose}),"
        f" each simulated {plural(args.simulate, 'time')}"
    )
    seconds = None if timed is None else timed[0]
    print(_table(_comparison_rows(outcomes, args.top, seconds, workers, args.cluster_cpus)))
    print("\n".join(_comparison_notes(outcomes, args.simulate)))


def add_commands(commands: Any) -> None:
    """Register ``plan`` on the ``league`` parser."""
    plan = commands.add_parser(
        "plan",
        help="simulate a league's design on guessed strengths, then every format that fits its bots on one budget"
        " of games: games, claims right, the best found, top K, Kendall's tau, wall time",
    )
    plan.add_argument("file")
    plan.add_argument(
        "--simulate",
        type=int,
        default=DEFAULT_LEAGUES,
        metavar="N",
        help="leagues simulated per design and per format (100)",
    )
    plan.add_argument(
        "--elo", action="append", metavar="NAME=ELO", help="a bot's guessed Elo (every bot of a non-synthetic league)"
    )
    plan.add_argument(
        "--draw-rate",
        type=float,
        metavar="R",
        help="the chance of a draw between equals (default: the variant's, or 0)",
    )
    plan.add_argument(
        "--first-seat-elo",
        type=float,
        metavar="E",
        help="the first seat's advantage in Elo (default: the variant's, or 0)",
    )
    plan.add_argument("--seed", type=int, default=1, metavar="S", help="the simulation's seed (1)")
    plan.add_argument(
        "--cluster-cpus",
        type=int,
        default=DEFAULT_CLUSTER_CPUS,
        metavar="C",
        help="the cluster's CPUs for its wall time (64)",
    )
    plan.add_argument(
        "--budget",
        type=int,
        metavar="GAMES",
        help="games each compared format is sized to (default: the mean games of the file's own design)",
    )
    plan.add_argument(
        "--top",
        type=int,
        default=3,
        metavar="K",
        help="the formats' table checks the first K against the true top K (3)",
    )
    plan.add_argument("--no-estimate", action="store_true", help="skip the sample games (and the wall time)")
    plan.set_defaults(handler=cmd_plan)
