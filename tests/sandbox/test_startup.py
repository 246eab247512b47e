"""Fair start-up: the referee waits until a jailed bot has really settled before its first request."""

import sys
import time

import pytest

from sandbox.jail import Sandbox
from sandbox.process import BotProcess
from sandbox.startup import wait_until_idle

CAP_S = 60.0
"""Far above any start-up here, busy machine included: every test below must end by settling."""

WARMS_UP = """
import sys, time
began = time.process_time()
while time.process_time() - began < 0.3:
    pass
print(sys.stdin.readline().strip(), flush=True)
"""


@pytest.fixture
def jailed(tmp_path):
    """Start a jailed Python bot from source text; stop every one started at the end."""
    started = []

    def start(source: str) -> BotProcess:
        script = tmp_path / f"bot{len(started)}.py"
        script.write_text(source)
        tmp_path.chmod(0o755)
        process = BotProcess([sys.executable, str(script)], cwd=tmp_path, sandbox=Sandbox())
        started.append(process)
        return process

    yield start
    for process in started:
        process.close()


def test_a_bot_waiting_for_input_settles_before_the_cap(jailed):
    process = jailed("import sys\nprint(sys.stdin.readline().strip(), flush=True)\n")
    assert wait_until_idle([process], CAP_S) < CAP_S


def test_a_bot_computing_before_it_reads_is_settled_only_once_its_computing_is_done(jailed):
    process = jailed(WARMS_UP)
    wait_until_idle([process], CAP_S)
    assert process.cpu_ns() >= 300_000_000, "settled before the bot finished its 0.3 s of CPU"


def test_a_jail_that_is_slow_to_start_the_bot_s_command_is_waited_for(jailed, monkeypatch):
    """While the jail sets itself up, the bot's command has not started: it uses no CPU, yet is not idle."""
    process = jailed("import sys\nprint(sys.stdin.readline().strip(), flush=True)\n")
    shown_at = time.monotonic() + 0.5
    real_main_pid = process.main_pid
    monkeypatch.setattr(process, "main_pid", lambda: real_main_pid() if time.monotonic() >= shown_at else None)
    wait_until_idle([process], CAP_S)
    assert time.monotonic() >= shown_at, "settled before the bot's own command was there"


def test_a_bot_that_exits_at_once_is_not_waited_for(jailed):
    process = jailed("pass\n")
    assert wait_until_idle([process], CAP_S) < CAP_S
