"""The machine a benchmark run was on, and ``benchmarks/RESULTS.md``: a table of figures per area.

Used by ``benchmarks/run_all.py``; what the machine was and how busy it was belongs beside the
figures, since every one of them depends on it.
"""

from __future__ import annotations

import os
import platform
import subprocess
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path

from figures import Figure, value_text

ROOT = Path(__file__).resolve().parents[1]
AREAS = {
    "referee": "Referee",
    "engines": "Engines (random playouts)",
    "league": "League throughput and the driver",
    "report": "Reports",
    "sandbox": "Sandbox",
    "fairness": "Fairness under load",
    "analysis": "Analysis",
}
"""Table titles, in the order the tables are written; other areas follow under their own name."""


@dataclass
class ScriptRun:
    """What one benchmark script did in the run.

    Attributes:
        command: Its command line, as a person would type it.
        seconds: Its wall time.
        status: Its exit status (None: stopped at its time limit).
        output: Its stdout, then its stderr's last lines.
    """

    command: str
    seconds: float
    status: int | None
    output: str


def _field(path: str, key: str, separator: str = ":") -> str:
    """The value of the first ``KEY<separator>value`` line of a text file ("" where there is none)."""
    try:
        lines = Path(path).read_text().splitlines()
    except OSError:
        return ""
    return next((line.split(separator, 1)[1].strip().strip('"') for line in lines if line.startswith(key)), "")


def _command_output(argv: list[str]) -> str:
    try:
        return subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, check=False).stdout.strip()
    except OSError:
        return ""


def machine() -> dict[str, str]:
    """What this machine is, one entry a row (CPU, cores, memory, OS, Python, Ray, ...)."""
    memory_kb = _field("/proc/meminfo", "MemTotal").split()
    os_name = _field("/etc/os-release", "PRETTY_NAME", "=") or platform.system()
    try:
        ray = metadata.version("ray")
    except metadata.PackageNotFoundError:
        ray = "not installed"
    commit = _command_output(["git", "rev-parse", "--short", "HEAD"])
    dirty = bool(_command_output(["git", "status", "--porcelain", "--untracked-files=no"]))
    return {
        "CPU": _field("/proc/cpuinfo", "model name") or platform.processor() or "unknown",
        "cores": f"{len(os.sched_getaffinity(0))} usable of {os.cpu_count()}",
        "memory": f"{int(memory_kb[0]) / 2**20:.1f} GB" if memory_kb else "unknown",
        "OS": f"{os_name}, {platform.system()} {platform.release()}",
        "Python": platform.python_version(),
        "Ray": ray,
        "bubblewrap": _command_output(["bwrap", "--version"]) or "not installed",
        "commit": (commit + (" with uncommitted changes" if dirty else "")) if commit else "unknown",
    }


def load_average() -> float:
    """The 1-minute load average: how busy the machine was (figures are only worth much near 0)."""
    return os.getloadavg()[0]


def table(figures: list[Figure]) -> list[str]:
    """A Markdown table of figures: figure, value, baseline, ratio, target, met?"""
    lines = [
        "| figure | value | baseline (measured in the same run) | ratio | target | met? |",
        "|---|---|---|---|---|---|",
    ]
    for figure in figures:
        baseline = ""
        if figure.baseline is not None:
            baseline = f"{value_text(figure.baseline, figure.unit)}: {figure.baseline_name}"
        ratio = f"{figure.ratio:.2f} x" if figure.ratio is not None else ""
        met = {True: "yes", False: "**no**", None: ""}[figure.met]
        name = figure.name + (f" ({figure.note})" if figure.note else "")
        cells = [name, value_text(figure.value, figure.unit), baseline, ratio, figure.target_text(), met]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def areas_in_order(figures: list[Figure]) -> list[str]:
    """The areas of ``figures``, known ones first in their order."""
    present = list(dict.fromkeys(figure.area for figure in figures))
    return [area for area in AREAS if area in present] + [area for area in present if area not in AREAS]


def write_page(
    path: Path, figures: list[Figure], runs: list[ScriptRun], mode: str, started: datetime, loads: tuple[float, float]
) -> None:
    """Write the results page: how it was run, the machine, a table per area, each script's output.

    Args:
        path: Where (``benchmarks/RESULTS.md``).
        figures: Every figure of the run.
        runs: Every script run, in order.
        mode: ``full`` or ``quick``.
        started: When the run began (UTC).
        loads: The load average at the start and at the end.
    """
    minutes = sum(run.seconds for run in runs) / 60
    command = "python benchmarks/run_all.py" + (" --quick" if mode == "quick" else "")
    lines = [
        "# Benchmark results",
        "",
        f"Written by `{command}` on {started.strftime('%Y-%m-%d %H:%M UTC')} ({mode} run, {minutes:.1f} minutes).",
        "Every baseline was measured in the same run on the same machine; figures to read, never pass/fail.",
        f"Timings depend on what else the machine did: the load average was {loads[0]:.2f} at the start and"
        f" {loads[1]:.2f} at the end (worth comparing near 0).",
        "",
        "## Machine",
        "",
        "| | |",
        "|---|---|",
    ]
    lines += [f"| {key} | {value} |" for key, value in machine().items()]
    for area in areas_in_order(figures):
        lines += ["", f"## {AREAS.get(area, area.capitalize())}", ""]
        lines += table([figure for figure in figures if figure.area == area])
    lines += ["", "## What each script printed", ""]
    for run in runs:
        status = "stopped at its time limit" if run.status is None else f"exit status {run.status}"
        lines += [
            f"<details><summary><code>{run.command}</code>: {run.seconds:.0f} s, {status}</summary>",
            "",
            "```",
            run.output.rstrip(),
            "```",
            "",
            "</details>",
            "",
        ]
    path.write_text("\n".join(lines))


def now() -> datetime:
    """The time, in UTC."""
    return datetime.now(UTC)
