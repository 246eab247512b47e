"""Validation games with real bots in the jail: a good version enters, faulty ones are refused with fault and stderr.

The bots are tests/bots/ scripts packed into archives and accepted as an author's upload would be;
the queue plays them in order in its thread. The intruder (tests/bots/contest_intruder.py) reaches
for the league folder's database and store, the server's process and a port the test listens on:
jailed, it reaches none; unjailed (``sandbox: none``, the control), it reaches them, so the check can fail.
"""

import io
import json
import os
import socket
import time
import zipfile
from pathlib import Path

import pytest

from league.contest.submit import accept_upload
from league.contest.validation import ValidationOutcome, ValidationQueue, validate
from league.plan.config import load_league
from league.store.authors import add_author
from league.store.submissions import Status, next_queued, submission, submissions
from sandbox.jail import isolation_problem
from tests.conftest import BOTS

needs_bwrap = pytest.mark.skipif(isolation_problem() is not None, reason=f"no jail here: {isolation_problem()}")

LEAGUE = """name: c
game: versus2048
output: out
variants:
  short: {{turns_per_player: 6, pregame_time_ms: 60000, turn_time_ms: 5000, total_time_ms: 300000}}
bots:
  - {{name: random, builtin: versus2048.random}}
  - {{name: greedy, builtin: versus2048.greedy}}
sandbox: {sandbox}
contest: {{per_minute: 100, validate_against: greedy}}
"""
HELPERS = ("v2048lib.py", "botio.py")


def contest(tmp_path: Path, sandbox: str = "auto"):
    path = tmp_path / "contest.yaml"
    path.write_text(LEAGUE.format(sandbox=sandbox))
    league = load_league(path)
    add_author(league.output, "alice")
    return league


def archive(script: str, extra: dict[str, str] | None = None) -> bytes:
    """A zip of a test bot's folder: the script, its helpers, and ``extra`` files."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as packed:
        for name in (script, *HELPERS):
            packed.write(BOTS / name, f"bot/{name}")
        for name, text in (extra or {}).items():
            packed.writestr(f"bot/{name}", text)
    return buffer.getvalue()


def run_queue(league, count: int) -> list:
    """Start a queue, wait until ``count`` submissions are valid or refused, stop it; the valid ones it announced."""
    announced = []
    queue = ValidationQueue(league, announced.append)
    queue.start()
    try:
        deadline = time.monotonic() + 1800  # a guard against a hang, not a measure
        while time.monotonic() < deadline:
            if sum(s.status in (Status.VALID, Status.REFUSED) for s in submissions(league.output)) == count:
                break
            queue.notify()
            time.sleep(0.2)
    finally:
        queue.stop()
    return announced


@needs_bwrap
def test_the_queue_admits_a_good_version_and_refuses_faulty_ones_with_their_fault_and_stderr(tmp_path):
    league = contest(tmp_path)
    uploads = {
        "good": ("v2048_fixed_order.py", ["URDL", "first", "echo"]),  # echoes what it reads on stderr
        "crasher": ("v2048_crasher.py", []),
        "traceback": ("v2048_traceback.py", []),
        "garbage": ("v2048_garbage.py", []),
        "sleeper": ("v2048_sleeper.py", []),
    }
    numbers = {}
    for label, (script, arguments) in uploads.items():
        numbers[label] = accept_upload(league, "alice", archive(script), ["python3", script, *arguments]).id
    assert next_queued(league.output).id == numbers["good"]  # claimed, as by a server killed at once
    announced = run_queue(league, len(uploads))
    done = {label: submission(league.output, number) for label, number in numbers.items()}
    assert {label: s.status for label, s in done.items()} == {
        "good": Status.VALID,
        "crasher": Status.REFUSED,
        "traceback": Status.REFUSED,
        "garbage": Status.REFUSED,
        "sleeper": Status.REFUSED,
    }
    assert announced == [done["good"]]  # validated again after the "kill", announced once
    good = done["good"]
    assert good.fault == ""
    assert "validation game 1, your bot in seat 0 against versus2048.greedy" in good.stderr
    assert "validation game 2, your bot in seat 1 against versus2048.greedy" in good.stderr  # both seats played
    assert "SIGSEGV" in done["crasher"].fault
    assert "RuntimeError: the bot's own bug, reported on stderr" in done["traceback"].stderr
    assert done["traceback"].fault and "seat 0" in done["traceback"].fault
    assert "hello, referee!" in done["garbage"].fault
    assert "for turn 1, over the limit of 5000 ms" in done["sleeper"].fault
    for label in ("crasher", "traceback", "garbage", "sleeper"):
        assert "game 2" not in done[label].stderr  # a version that faults plays no second game


def intruder_targets(league, port: int) -> dict:
    folder = league.output
    (folder / "games.jsonl").write_text('{"game_id": "secret"}\n')
    return {
        "files": [str(folder / "contest.sqlite"), str(folder / "games.jsonl"), str(folder), str(league.path)],
        "pid": os.getpid(),
        "cmdline": Path("/proc/self/cmdline").read_bytes().decode().split("\0")[:-1],
        "port": port,
    }


def intrude(tmp_path: Path, sandbox: str):
    """The intruder's validation, with a socket listening for it; its outcome and whether it connected."""
    league = contest(tmp_path, sandbox)
    with socket.create_server(("127.0.0.1", 0)) as listener:
        targets = intruder_targets(league, listener.getsockname()[1])
        data = archive("contest_intruder.py", {"targets.json": json.dumps(targets)})
        entry = accept_upload(league, "alice", data, ["python3", "contest_intruder.py"])
        outcome = validate(league, entry)
        listener.setblocking(False)
        try:
            listener.accept()[0].close()
            connected = True
        except BlockingIOError:
            connected = False
    return outcome, connected, len(targets["files"]) + 3


@needs_bwrap
def test_a_bot_in_its_validation_game_reaches_no_file_process_or_port_of_the_server(tmp_path):
    outcome, connected, tries = intrude(tmp_path, "auto")
    assert outcome.ok, outcome.fault  # it played legally
    assert f"reached: 0 of {tries}" in outcome.stderr, outcome.stderr
    assert outcome.stderr.count("BLOCKED ") >= tries  # once a game, each try blocked
    assert "REACHED" not in outcome.stderr
    assert not connected


def test_unjailed_the_intruder_reaches_them_so_the_check_can_fail(tmp_path):
    outcome, connected, tries = intrude(tmp_path, "none")
    assert outcome.ok, outcome.fault
    assert "REACHED file" in outcome.stderr and "contest.sqlite" in outcome.stderr
    assert "REACHED processes of the server" in outcome.stderr
    assert connected


def test_a_failure_of_ours_refuses_saying_so_and_a_listener_s_bug_stops_nothing(tmp_path):
    league = contest(tmp_path)
    first = accept_upload(league, "alice", archive("v2048_steady.py"), ["python3", "v2048_steady.py"])
    second = accept_upload(league, "alice", archive("v2048_crasher.py"), ["python3", "v2048_crasher.py"])
    third = accept_upload(league, "alice", archive("v2048_sleeper.py"), ["python3", "v2048_sleeper.py"])
    verdicts = {first.id: "broken", second.id: "ok", third.id: "ok"}

    def check(_, entry):
        if verdicts[entry.id] == "broken":
            raise RuntimeError("no jail today")
        return ValidationOutcome(True, "", "fine\n")

    announced = []

    def listener(entry):
        announced.append(entry.id)
        raise ValueError("the listener's own bug")

    queue = ValidationQueue(league, listener, check)
    queue.start()
    try:
        deadline = time.monotonic() + 600  # a guard against a hang, not a measure
        while len(announced) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        queue.stop()
    broken = submission(league.output, first.id)
    assert broken.status == Status.REFUSED
    assert "not of the bot (RuntimeError: no jail today): tell the organiser" in broken.fault
    assert announced == [second.id, third.id]  # the queue went on after the listener failed
    assert submission(league.output, third.id).stderr == "fine\n"
