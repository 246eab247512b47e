"""A real ``league serve`` for the tests: started in a session of its own, its address read, stopped by its own ids."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import yaml

from sandbox.procfs import process_table
from sandbox.reaper import wait_gone

ROOT = Path(__file__).resolve().parents[3]
STARTER = ROOT / "configs" / "bots" / "versus2048_starter"


def contest_file(folder: Path, **overrides) -> Path:
    """A small versus2048 contest of two house bots, adaptive, settling after a few dozen games."""
    config = {
        "name": "live",
        "game": "versus2048",
        "variants": {"short": {"turns_per_player": 10}},
        "bots": [
            {"name": "random", "builtin": "versus2048.random"},
            {"name": "greedy", "builtin": "versus2048.greedy"},
        ],
        "format": "adaptive",
        "adaptive": {"warmup_games": 2, "batch_games": 2},
        "max_games": 24,
        "seed": 5,
        "concurrency": 2,
        "output": str(folder / "out"),
    }
    config.update(overrides)
    path = folder / "contest.yaml"
    path.write_text(yaml.safe_dump(config))
    return path


class Server:
    """``league serve FILE --port 0`` running; ``url`` its address."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.process = subprocess.Popen(
            [sys.executable, "-m", "league", "serve", str(path), "--port", "0"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
            cwd=ROOT,
        )
        line = self.process.stdout.readline().strip()
        if not line.startswith("http://127.0.0.1:"):
            self.kill()
            raise AssertionError(f"league serve printed {line!r}; stderr: {self.process.stderr.read()}")
        self.url = line

    def get(self, path: str) -> dict:
        with urllib.request.urlopen(self.url + path.lstrip("/"), timeout=30) as response:
            return json.load(response)

    def board(self) -> dict:
        return self.get("api/board")

    def wait_for(self, check, timeout: float = 300.0, what: str = "the board") -> dict:
        """Poll the board until ``check(board)`` holds."""
        deadline = time.monotonic() + timeout
        while True:
            board = self.board()
            if check(board):
                return board
            assert time.monotonic() < deadline, f"{what} never came: {board}"
            time.sleep(0.5)

    def session_pids(self) -> list[int]:
        """The processes of the server's session (Ray's among them, orphaned or not): the session is ours alone,
        made for the server when it started (its id is the server's pid)."""
        return [pid for pid in process_table() if _session(pid) == self.process.pid]

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Send ``sig`` to every process of the server's session (by their ids), and wait until they are gone."""
        pids = self.session_pids() or [self.process.pid]
        for pid in pids:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        self.process.wait(60)
        wait_gone(pids, time.monotonic() + 60)

    def stop(self) -> None:
        """SIGTERM (a clean stop, as Ctrl-C), then whatever of its session is left, by id."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(60)
            except subprocess.TimeoutExpired:
                pass
        self.kill()


def _session(pid: int) -> int | None:
    try:
        return os.getsid(pid)
    except ProcessLookupError:
        return None


def played_ids(folder: Path) -> list[str]:
    """The id of every game the store's lines say was played and scored, a line each (a game played twice: twice).

    Read from ``games.jsonl``'s lines themselves: the store's reader keeps one record an id. A game that
    failed for a reason of ours (INFRA_ERROR) is played again by design, so those lines are left out.
    """
    lines = (folder / "games.jsonl").read_text().splitlines()
    played = [json.loads(line) for line in lines if line.strip()]
    return [line["game_id"] for line in played if line["result"]["termination"] != "INFRA_ERROR"]


def add_author(path: Path, name: str) -> str:
    """``league authors add FILE NAME``: the token it printed."""
    done = subprocess.run(
        [sys.executable, "-m", "league", "authors", "add", str(path), name], capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def submit(url: str, folder: Path, command: str, token: str, *extra: str) -> subprocess.CompletedProcess:
    """``league submit URL FOLDER --command ... --token ...``."""
    return subprocess.run(
        [sys.executable, "-m", "league", "submit", url, str(folder), "--command", command, "--token", token, *extra],
        capture_output=True,
        text=True,
        timeout=300,
    )
