"""Benchmark figures as data: a value beside its baseline measured in the same run, and its target.

A benchmark script given ``--figures FILE`` writes its figures there as JSON (a list of
``Figure``); ``benchmarks/run_all.py`` reads them back, and turns figures of scripts that only
print into the same shape (``benchmarks/output_parsers.py``). Figures to read, never pass/fail.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

LOWER, HIGHER = "lower", "higher"
"""Which way a figure is better."""


@dataclass
class Figure:
    """One measured figure.

    Attributes:
        area: The table it belongs in (``referee``, ``engines``, ``league``, ...).
        name: What it is, for people ("referee CPU per ply").
        value: The measurement (None: not measured, see ``note``).
        unit: Its unit ("us", "games/s", "MB").
        baseline: What it is compared with, measured in the same run (None: nothing to compare).
        baseline_name: What the baseline is ("a C referee, both on one CPU").
        target: The target for the value (None: none set).
        better: ``lower`` or ``higher``: which way the value and the target are better.
        target_of_ratio: The target applies to value / baseline rather than to the value.
        note: Anything a reader needs (a skipped part, a parse failure).
    """

    area: str
    name: str
    value: float | None
    unit: str
    baseline: float | None = None
    baseline_name: str = ""
    target: float | None = None
    better: str = LOWER
    target_of_ratio: bool = False
    note: str = ""

    @property
    def ratio(self) -> float | None:
        """value / baseline, where both are measured and the baseline is not 0."""
        if self.value is None or not self.baseline:
            return None
        return self.value / self.baseline

    @property
    def met(self) -> bool | None:
        """Whether the target is met (None: no target, or nothing measured)."""
        compared = self.ratio if self.target_of_ratio else self.value
        if self.target is None or compared is None:
            return None
        return compared <= self.target if self.better == LOWER else compared >= self.target

    def target_text(self) -> str:
        """The target as people write it ("< 30 us", ">= 1.8 x")."""
        if self.target is None:
            return ""
        sign = "<=" if self.better == LOWER else ">="
        unit = "x the baseline" if self.target_of_ratio else self.unit
        return f"{sign} {_number(self.target)} {unit}"


def _number(value: float) -> str:
    """A figure with as many digits as it deserves."""
    if value == 0:
        return "0"
    size = abs(value)
    if size >= 1000:
        return f"{value:,.0f}"
    if size >= 100:
        return f"{value:.0f}"
    if size >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def value_text(value: float | None, unit: str) -> str:
    """A value with its unit, or "not measured"."""
    return "not measured" if value is None else f"{_number(value)} {unit}".rstrip()


def write_figures(path: Path, figures: list[Figure]) -> None:
    """Save figures as JSON (what ``--figures FILE`` asks of a benchmark script)."""
    path.write_text(json.dumps([asdict(figure) for figure in figures], indent=1))


def read_figures(path: Path) -> list[Figure]:
    """Figures saved by ``write_figures``."""
    return [Figure(**data) for data in json.loads(path.read_text())]
