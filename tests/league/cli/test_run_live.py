"""``league run FILE --live``: the games being played shown on 127.0.0.1 while a batch league runs, as users run it."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx2

from league.serve.listen import bound_socket
from sandbox.procfs import process_table
from sandbox.reaper import wait_gone
from tests.league.live.live_runs import lasting_league

ROOT = Path(__file__).resolve().parents[3]


def _session_pids(leader: int) -> list[int]:
    pids = []
    for pid in process_table():
        try:
            if os.getsid(pid) == leader:
                pids.append(pid)
        except ProcessLookupError:
            continue
    return pids


def test_run_live_prints_its_address_and_shows_a_game_to_its_end_then_writes_the_report(tmp_path):
    path = lasting_league(tmp_path)
    process = subprocess.Popen(
        [sys.executable, "-m", "league", "run", str(path), "--live", "--port", "0", "--quiet"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        cwd=ROOT,
    )
    try:
        address = process.stdout.readline().strip()
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/", address), address
        number = None
        deadline = time.monotonic() + 240
        while number is None and time.monotonic() < deadline:
            listed = re.findall(r'href="/live/games/(\d+)"', httpx2.get(address + "live", timeout=60).text)
            number = int(listed[0]) if listed else None
            if number is None:
                assert process.poll() is None, process.stderr.read()
                time.sleep(0.3)
        assert number is not None, "the list showed a game being played"
        page = httpx2.get(f"{address}live/games/{number}", timeout=60)
        assert page.status_code == 200 and "live_player" not in page.text  # the player is inlined, not fetched
        with (
            httpx2.Client(timeout=120) as http,
            http.stream("GET", f"{address}live/games/{number}/frames") as stream,
        ):
            kinds = [line[7:] for line in stream.iter_lines() if line.startswith("event: ")]
        assert kinds[-1] == "end" and kinds.count("frame") >= 3
        out, err = process.communicate(timeout=240)
        assert process.returncode == 0, err
        assert "report:" in out and "/live while the league runs" in err
    finally:
        pids = _session_pids(process.pid) or [process.pid]
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        process.wait(60)
        wait_gone(pids, time.monotonic() + 60)


def test_a_live_port_in_use_is_one_line_and_nothing_runs(tmp_path, league_cli):
    path = lasting_league(tmp_path)
    taken = bound_socket("127.0.0.1", 0)
    try:
        port = taken.getsockname()[1]
        status, out, err = league_cli("run", str(path), "--live", "--port", str(port))
    finally:
        taken.close()
    assert status == 2 and out == ""
    assert err.strip().count("\n") == 0 and f"port {port}" in err and "--port 0" in err
    assert not (tmp_path / "out").exists(), "nothing was written"


def test_a_port_without_live_is_refused_in_one_line(tmp_path, league_cli):
    status, _out, err = league_cli("run", str(lasting_league(tmp_path)), "--port", "8123")
    assert status == 2 and "--live" in err and err.strip().count("\n") == 0
