"""What a bot's version costs a run: digesting a 100 MB bot folder and a folder of 10,000 files, cold and warm.

A run takes every bot's version before it plans (``league.plan.bot_version``). Cold, with no cache
of file digests, every byte is read; warm, with the cache that the cold digest wrote
(``league.plan.file_digests.DigestCache``), an unchanged folder costs only its ``lstat`` calls. The
target: warm, under a second for either folder. Each figure sits beside the cold digest of the
same folder, measured in the same run, and the bare walk (``lstat`` of every entry, what no
digest can skip) is printed too.

Run ``.venv/bin/python benchmarks/bot_version_speed.py [--repeats N] [--figures FILE]`` from the
repository root. The folders are made in a temporary folder and left to settle past the cache's
racy window (``RACY_NS``: files changed just before the cache is written are never trusted).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from figures import Figure, write_figures  # noqa: E402

from league.plan.bot_files import members  # noqa: E402
from league.plan.bot_version import bot_versions  # noqa: E402
from league.plan.config import load_league  # noqa: E402
from league.plan.file_digests import RACY_NS, DigestCache  # noqa: E402

BOT = Path(__file__).resolve().parent.parent / "tests" / "bots" / "v2048_slow.py"


def big_folder(where: Path) -> Path:
    """A bot folder of 100 MB: its script and ten files of 10 MB."""
    where.mkdir()
    (where / "bot.py").write_text(BOT.read_text())
    for index in range(10):
        (where / f"weights-{index}.bin").write_bytes(os.urandom(10 << 20))
    return where


def many_files(where: Path) -> Path:
    """A bot folder of 10,000 small files in 100 folders."""
    where.mkdir()
    (where / "bot.py").write_text(BOT.read_text())
    for folder in range(100):
        (where / f"pkg{folder}").mkdir()
        for index in range(100):
            (where / f"pkg{folder}" / f"m{index}.py").write_text(f"VALUE = {folder * 100 + index}\n" * 20)
    return where


def league_file(root: Path, folder: Path) -> Path:
    """A league of the bot of ``folder`` (its own folder) and a built-in."""
    config = {
        "name": "speed",
        "game": "versus2048",
        "bots": [
            {"name": "mine", "command": [sys.executable, "bot.py", "0"], "cwd": str(folder)},
            {"name": "greedy", "builtin": "versus2048.greedy"},
        ],
        "seed": 1,
        "output": str(root / "out"),
    }
    path = root / f"{folder.name}.yaml"
    path.write_text(yaml.safe_dump(config))
    return path


def timed_versions(path: Path, cache_file: Path) -> tuple[float, int]:
    """Seconds to take the league's versions through the cache at ``cache_file`` (written after), files read."""
    league = load_league(path)
    start = time.perf_counter()
    cache = DigestCache(cache_file)
    bot_versions(league, cache)
    cache.save()
    return time.perf_counter() - start, cache.reads


def bare_walk(folder: Path) -> float:
    """Seconds to walk the folder and ``lstat`` every entry (what a warm digest cannot skip)."""
    start = time.perf_counter()
    for entry in members(folder, (), None):
        entry.lstat()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="cold and warm digests of each folder, interleaved")
    parser.add_argument("--figures", type=Path, help="write the figures here as JSON (benchmarks/run_all.py)")
    args = parser.parse_args()
    figures = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        folders = {"a 100 MB folder": big_folder(root / "big"), "a folder of 10,000 files": many_files(root / "many")}
        time.sleep(RACY_NS / 1e9 + 0.5)  # settled: the cold digest's cache may keep them
        for what, folder in folders.items():
            path = league_file(root, folder)
            colds, warms, walks, reads = [], [], [], []
            for repeat in range(args.repeats):
                cache_file = root / f"cache-{folder.name}-{repeat}.json"
                cold, read = timed_versions(path, cache_file)
                warm, warm_read = timed_versions(path, cache_file)
                colds.append(cold)
                warms.append(warm)
                walks.append(bare_walk(folder))
                reads.append((read, warm_read))
            cold, warm, walk = (statistics.median(values) for values in (colds, warms, walks))
            print(
                f"{what}: cold {cold:.3f} s ({reads[0][0]} files read), warm {warm:.3f} s ({reads[0][1]} read),"
                f" bare lstat walk {walk:.3f} s; warm / cold {warm / cold:.3f}, warm / walk {warm / walk:.1f}"
                f" (median of {args.repeats})"
            )
            figures.append(
                Figure("versions", f"warm version of {what}", warm, "s", cold, "the cold digest", target=1.0)
            )
    if args.figures:
        write_figures(args.figures, figures)


if __name__ == "__main__":
    main()
