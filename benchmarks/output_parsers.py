"""Figures read from the printed output of benchmark scripts that do not write ``--figures``.

Each parser takes a script's stdout and returns its figures; a figure whose line is not found is
still returned, with no value and a note, so a changed output shows as "not measured" in
``benchmarks/RESULTS.md`` rather than vanishing (the raw output is kept there too).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from figures import HIGHER, Figure

NUMBER = r"([-+]?[0-9][0-9,]*(?:\.[0-9]+)?)"
"""A printed number, maybe signed, maybe with thousands separators: one capturing group."""
NOT_FOUND = "its line was not found in the output"

Parser = Callable[[str], list[Figure]]


def number(text: str | None) -> float | None:
    """A printed number ("1,234.5") as a float (None stays None)."""
    return None if text is None else float(text.replace(",", ""))


def find(pattern: str, output: str) -> re.Match[str] | None:
    """The first match in ``output`` of ``pattern``, where ``{N}`` stands for a NUMBER."""
    return re.search(pattern.replace("{N}", NUMBER), output, re.MULTILINE | re.IGNORECASE)


def group(match: re.Match[str] | None, index: int) -> float | None:
    """The number a match captured in its group ``index``, or None without a match."""
    return number(match.group(index)) if match else None


def measured(area: str, name: str, value: float | None, unit: str, **details: Any) -> Figure:
    """A Figure; one whose value was not found says so."""
    made = Figure(area, name, value, unit, **details)
    if value is None:
        made.note = NOT_FOUND
    return made


def printed_target(output: str, label: str) -> float | None:
    """The X of ``target < X`` or ``target >= X`` on the first line that holds ``label`` and a target."""
    for line in output.splitlines():
        target = find(r"target\s*[<>]=?\s*{N}", line) if label.lower() in line.lower() else None
        if target:
            return group(target, 1)
    return None


RANGE = r"(?:\s*\([^()]*\))?"
"""An optional range over repeats printed after a median: " (1.07 to 3.47)"."""
NOISE = "below zero: below measurement noise, the machine's load swamped the difference"


def league_throughput(output: str) -> list[Figure]:
    """benchmarks/league_throughput.py: workers' games per second, Ray's cost per game, ratings.

    Targets printed on a figure's line are taken from there; the defaults are the issue's. Each
    figure's name says how many games it rests on (and that it is a median of interleaved runs).
    """
    repeats = find(r"(\d+) interleaved repeats", output)
    median = f", median of {repeats.group(1)} interleaved runs" if repeats else ""
    scaling_games = find(r"^\s*((?:\d+ x )?\d+) games of 50 turns", output)
    on = f" ({scaling_games.group(1)} games of 50 turns{median})" if scaling_games else ""
    local = group(find(r"in one process, no Ray\s*:\s*{N} games/s", output), 1)
    pattern = rf"Ray, (\d+) workers?\s*:\s*{NUMBER} games/s"
    workers = {int(match.group(1)): float(match.group(2)) for match in re.finditer(pattern, output)}
    one = workers.get(1)
    figures = [
        measured(
            "league",
            f"built-ins on Ray, 1 worker{on}",
            one,
            "games/s",
            baseline=local,
            baseline_name="the same games in one process, no Ray",
            better=HIGHER,
        )
    ]
    for count in sorted(set(workers) - {1} | {2}):
        figures.append(
            measured(
                "league",
                f"built-ins on Ray, {count} workers{on}",
                workers.get(count),
                "games/s",
                baseline=one,
                baseline_name="1 worker",
                target=(printed_target(output, "2 vs 1 worker") or 1.8) if count == 2 else None,
                better=HIGHER,
                target_of_ratio=True,
            )
        )
    if 2 in workers and printed_target(output, "2 workers vs 1 process") is not None:
        figures.append(
            measured(
                "league",
                f"built-ins on Ray, 2 workers, against one process{on}",
                workers[2],
                "games/s",
                baseline=local,
                baseline_name="the same games in one process, no Ray",
                target=printed_target(output, "2 workers vs 1 process"),
                better=HIGHER,
                target_of_ratio=True,
            )
        )
    short_games = find(r"^\s*((?:\d+ x )?\d+) 2-turn games", output)
    label = r"(?:Ray overhead|Ray's marginal cost) per game(?:, [0-9,]+ 2-turn games)?"
    marginal = measured(
        "league",
        f"Ray's marginal cost per game ({short_games.group(1) if short_games else ''} 2-turn games{median})",
        group(find(label + r"\s*:\s*{N}" + RANGE + r" ms", output), 1),
        "ms",
        baseline=group(find(r"2-turn games.*?{N} ms a game in one process", output), 1),
        baseline_name="such a game in one process",
        target=printed_target(output, "per game") or 5.0,
    )
    figures.append(_noise_noted(marginal))
    real = find(r"Ray's cost per game\s*:\s*{N} ms", output) or find(
        r"Ray, 1 worker\s*:\s*{N} games/s\s*\(\s*{N}" + RANGE + r" ms a game\)", output
    )
    if real:  # the last number captured: the milliseconds, whichever line it is
        figures.append(
            _noise_noted(measured("league", f"Ray's cost per game, 1 worker{on}", group(real, real.re.groups), "ms"))
        )
    ratings = find(r"ratings of ([0-9,]+) games\s*:\s*{N} s", output)
    games = number(ratings.group(1)) if ratings else 100_000
    rated = measured("league", f"ratings of {games:,.0f} games", group(ratings, 2), "s")
    if games == 100_000:
        rated.target = 30.0
    elif ratings:
        rated.note = "the target, under 30 s, is for 100,000 games"
    figures.append(rated)
    tables = find(r"ratings of ([0-9,]+) five-seat games\s*:\s*{N} s.*?about {N} s", output)
    figures.append(
        measured(
            "league",
            f"ratings of {number(tables.group(1)) if tables else 0:,.0f} five-seat games",
            group(tables, 2),
            "s",
            baseline=group(tables, 3),
            baseline_name="the trueskill package's factor graph, scaled up from a slice",
        )
    )
    return figures


def _noise_noted(figure: Figure) -> Figure:
    """A cost figure measured below zero, noted as noise rather than shown as a saving."""
    if figure.value is not None and figure.value < 0:
        figure.note = NOISE
    return figure


def report_speed(output: str) -> list[Figure]:
    """benchmarks/report_speed.py: report time and peak memory, the split store against the old single file."""
    pattern = rf"^\s*(\d+)\s+(split \(new\)|single file \(old\))\s+{NUMBER}\s+{NUMBER}\s+{NUMBER}"
    rows = {
        (int(match.group(1)), match.group(2)): (float(match.group(4)), float(match.group(5)))
        for match in re.finditer(pattern, output, re.MULTILINE)
    }
    figures = []
    for games in sorted({games for games, _ in rows}):
        new, old = rows.get((games, "split (new)")), rows.get((games, "single file (old)"))
        large = games >= 50_000
        figures.append(
            measured(
                "report",
                f"league report of {games:,} games",
                new[0] if new else None,
                "s",
                baseline=old[0] if old else None,
                baseline_name="the old single-file store",
                target=30.0 if large else 5.0,
            )
        )
        if large:
            figures.append(
                measured(
                    "report",
                    f"league report of {games:,} games, peak memory",
                    new[1] if new else None,
                    "GB",
                    baseline=old[1] if old else None,
                    baseline_name="the old single-file store",
                    target=1.5,
                )
            )
    return figures or [measured("report", "league report", None, "s")]


def sandbox_cost(output: str) -> list[Figure]:
    """benchmarks/sandbox_cost.py: a jailed launch and line round trip beside unjailed ones."""
    return [
        measured(
            "sandbox",
            "a bot's launch, jailed (median)",
            group(find(r"launch, jailed\s*:\s*median\s+{N}", output), 1),
            "ms",
            baseline=group(find(r"launch, no jail\s*:\s*median\s+{N}", output), 1),
            baseline_name="the same launch without the jail",
            target=20.0,
        ),
        measured(
            "sandbox",
            "a line's round trip, jailed (median)",
            group(find(r"round trip, jailed\s*:\s*median\s+{N}", output), 1),
            "us",
            baseline=group(find(r"round trip, no jail\s*:\s*median\s+{N}", output), 1),
            baseline_name="the same without the jail",
        ),
    ]


def analysis_speed(output: str) -> list[Figure]:
    """benchmarks/analysis_speed.py: the whole assessment of a big league, beside its pairwise arrays alone."""
    figures = []
    for label in ("round robin", "tables"):
        match = find(rf"^{label}\s+arrays\s+{{N}} s\s+assess\s+{{N}} s", output)
        figures.append(
            measured(
                "analysis",
                f"assessment of a league ({label})",
                group(match, 2),
                "s",
                baseline=group(match, 1),
                baseline_name="its pairwise arrays alone",
            )
        )
    return figures


def codevs21_solo(output: str) -> list[Figure]:
    """benchmarks/codevs21_solo.py: the official Large game through the referee beside the engine alone."""
    match = find(r"official Large game.*?:\s*{N} s through the referee.*?{N} s for the engine alone", output)
    return [
        measured(
            "referee",
            "codevs21's official Large game (1000 turns), a program through the referee",
            group(match, 1),
            "s",
            baseline=group(match, 2),
            baseline_name="the engine alone replaying the same moves",
        )
    ]


def fairness(output: str) -> list[Figure]:
    """benchmarks/fairness.py: losses on time per 1000 replies of bots using 80% of their limit, with their bound."""
    pattern = (
        rf"^\s*(wall|own|cpu)\s+(on|off)\s+(\d+)\s+\d+\s+(\d+)\s+\d+\s+\(\s*\d+%\)\s+{NUMBER}\s+{NUMBER}"
        r"\s+(\d+)/(\d+)/(\d+)"
    )
    settings = {
        (match.group(1), match.group(2), int(match.group(3))): match.groups()[3:]
        for match in re.finditer(pattern, output, re.MULTILINE)
    }
    figures = []
    for (clock, pin, concurrency), (replies, rate, bound, _, p99, peak) in sorted(settings.items()):
        alone = settings.get((clock, pin, 1)) if concurrency > 1 else None
        pinned = "pinned" if pin == "on" else "not pinned"
        figures.append(
            Figure(
                "fairness",
                f"losses on time per 1000 replies: clock {clock}, {pinned}, {concurrency} game(s) at once",
                number(rate),
                "",
                baseline=number(alone[1]) if alone is not None else None,
                baseline_name="1 game at once" if alone is not None else "",
                note=f"{replies} replies, 95% upper bound {bound} per 1000; charged p99 {p99}%, max {peak}% of limit",
            )
        )
    return figures or [measured("fairness", "losses on time per 1000 replies", None, "")]


def starvation(output: str) -> list[Figure]:
    """benchmarks/starvation.py: a bot's work per move against a CPU hog, beside against a quiet bot (wall / CPU)."""
    figures = []
    for label in ("jail, clock: own", "jail, clock: wall", "no jail (sandbox none), wall"):
        jailed = label.startswith("jail")
        row = find(re.escape(label) + r".*?\s{N}\s+{N}\s+{N}\s+(\d+)/(\d+)\s+(\d+)/(\d+)", output)
        lost = f"; games lost on time against the hog: {row.group(6)} of {row.group(7)}" if row else ""
        figures.append(
            measured(
                "fairness",
                f"a bot's work per move against a 58-process CPU hog ({label}): median wall / CPU time",
                group(row, 2),
                "x",
                baseline=group(row, 1),
                baseline_name="the same against a quiet bot",
                target=1.10 if jailed else None,
                target_of_ratio=True,
                note=f"target: at most 10% longer, none lost{lost}" if jailed else f"the attack{lost}",
            )
        )
    return figures
