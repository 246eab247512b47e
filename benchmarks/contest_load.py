"""A live contest under 100 viewers: the league's games per second with and without them, and page load times.

Starts ``league serve`` (a subprocess, local Ray, a round robin of versus2048 built-ins long enough
to play through the whole measurement) on a free port of 127.0.0.1 and measures three windows one
after another: no viewers, 100 clients following the leaderboard's live updates (server-sent events
on ``/live/board``, each a streaming HTTP client reading every event), no viewers again. The games
per second of a window are the stored games counted by ``/api/board`` at its ends; the baseline is
the mean of the two windows without viewers (so a drift of the machine over the run shows as their
difference). During the window with viewers the leaderboard page ``/`` is fetched again and again
(one at a time, by another client): its median and 95th-percentile load times are printed.

Targets (issue 34): games per second with 100 viewers within 10% of the baseline; a page in under
200 ms. Run with nothing else on the machine: ``.venv/bin/python benchmarks/contest_load.py [--quick]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx2
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.figures import HIGHER, LOWER, Figure, write_figures  # noqa: E402

VIEWERS = 100


def league_file(folder: Path) -> Path:
    path = folder / "contest.yaml"
    config = {
        "name": "load",
        "game": "versus2048",
        "variants": {"short": {"turns_per_player": 20}},
        "bots": [
            {"name": "random", "builtin": "versus2048.random"},
            {"name": "greedy", "builtin": "versus2048.greedy"},
            {"name": "minimax", "builtin": "versus2048.minimax", "params": {"max_nodes": 200}},
        ],
        "format": "round_robin",
        "games_per_pair": 20_000,
        "seed": 1,
        "output": str(folder / "out"),
    }
    path.write_text(yaml.safe_dump(config))
    return path


def start_server(path: Path) -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "league", "serve", str(path), "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert process.stdout is not None
    url = process.stdout.readline().strip()
    if not url.startswith("http://"):
        process.kill()
        raise SystemExit(f"the server did not start (it printed {url!r})")
    return process, url


def stored(url: str) -> int:
    return int(httpx2.get(url + "api/board", timeout=10).json()["games"])


async def follow(url: str, stop: asyncio.Event, events: list[int]) -> None:
    async with httpx2.AsyncClient(timeout=None) as client:
        async with client.stream("GET", url + "live/board") as response:
            async for line in response.aiter_lines():
                if line.startswith("data:"):
                    events[0] += 1
                if stop.is_set():
                    return


async def page_times(url: str, stop: asyncio.Event, times: list[float]) -> None:
    async with httpx2.AsyncClient(timeout=30) as client:
        while not stop.is_set():
            started = time.perf_counter()
            response = await client.get(url)
            response.raise_for_status()
            times.append(time.perf_counter() - started)
            await asyncio.sleep(0.05)


def window(url: str, seconds: float) -> float:
    before, started = stored(url), time.monotonic()
    time.sleep(seconds)
    return (stored(url) - before) / (time.monotonic() - started)


async def viewed_window(url: str, seconds: float) -> tuple[float, list[float], int]:
    stop, events, times = asyncio.Event(), [0], []
    tasks = [asyncio.create_task(follow(url, stop, events)) for _ in range(VIEWERS)]
    await asyncio.sleep(2)  # every stream open before the window starts
    pager = asyncio.create_task(page_times(url, stop, times))
    before, started = await asyncio.to_thread(stored, url), time.monotonic()
    await asyncio.sleep(seconds)
    rate = (await asyncio.to_thread(stored, url) - before) / (time.monotonic() - started)
    stop.set()
    pager.cancel()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, pager, return_exceptions=True)
    return rate, times, events[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="15 s windows instead of 45 s")
    parser.add_argument("--figures", type=Path, help="also write the figures to this JSON file")
    args = parser.parse_args()
    seconds = 15.0 if args.quick else 45.0
    print(f"load average before: {os.getloadavg()[0]:.2f} (figures are meant for an idle machine)")
    with tempfile.TemporaryDirectory() as folder:
        process, url = start_server(league_file(Path(folder)))
        try:
            deadline = time.monotonic() + 120
            while stored(url) < 20 and time.monotonic() < deadline:  # workers up and games flowing
                time.sleep(1)
            alone_before = window(url, seconds)
            viewed, times, events = asyncio.run(viewed_window(url, seconds))
            alone_after = window(url, seconds)
        finally:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(60)
    baseline = (alone_before + alone_after) / 2
    ratio = viewed / baseline if baseline else float("nan")
    times_ms = sorted(t * 1000 for t in times)
    p95 = times_ms[int(0.95 * (len(times_ms) - 1))] if times_ms else float("nan")
    print(f"games/s without viewers: {alone_before:.2f} before, {alone_after:.2f} after (baseline {baseline:.2f})")
    print(f"games/s with {VIEWERS} viewers: {viewed:.2f} = {ratio:.3f} of the baseline (target: at least 0.90)")
    print(f"live events received by the {VIEWERS} viewers: {events}")
    median = statistics.median(times_ms) if times_ms else None
    if args.figures:
        write_figures(
            args.figures,
            [
                Figure(
                    "contest",
                    f"games/s with {VIEWERS} live viewers",
                    viewed,
                    "games/s",
                    baseline=baseline,
                    baseline_name="the same server without viewers, before and after",
                    target=0.9,
                    better=HIGHER,
                    target_of_ratio=True,
                ),
                Figure(
                    "contest",
                    "leaderboard page load, p95",
                    p95 if times_ms else None,
                    "ms",
                    target=200,
                    better=LOWER,
                    note=f"median {median:.1f} ms" if median is not None else "not measured",
                ),
            ],
        )
    if times_ms:
        print(
            f"leaderboard page: median {statistics.median(times_ms):.1f} ms, p95 {p95:.1f} ms"
            f" over {len(times_ms)} loads (target: under 200 ms)"
        )


if __name__ == "__main__":
    main()
