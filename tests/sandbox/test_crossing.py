"""Jails that cannot meet: a key, a lock, a watch, a counter or a socket buffer is no way across.

Each trick is a real bot (tests/bots/v2048_crossing.py) that plays legal moves while it tries,
through ``league play`` under ``sandbox: strict``; it says on stderr whether its trick worked.
Without the seccomp filter and the /proc masks every one of them works (tried by hand: the key is
found, the lock seen at every turn, dozens of opens watched, seven counters moving, 56 MiB queued).
"""

import json
import sys

import pytest

from league.cli.main import main
from sandbox.cgroups import socket_memory, socket_memory_problem, tcp_limit
from sandbox.jail import Sandbox, jail_problem
from sandbox.limits import Limits, SandboxMode
from tests.conftest import BOTS, run_jailed

CROSSING = BOTS / "v2048_crossing.py"
GAME = ["--set", "turns_per_player=5", "--set", "pregame_time_ms=20000", "--set", "turn_time_ms=10000"]


@pytest.fixture(autouse=True)
def jail_is_available():
    assert jail_problem() is None, f"the jail must work on CI machines: {jail_problem()}"


def crossing(trick: str) -> str:
    return f"{sys.executable} {CROSSING} {trick}"


def tricks(capsys, first: str, second: str = "greedy") -> dict[str, str]:
    """Play one game; each trick's last word on it (``WORKED ...`` or ``FAILED ...``), by trick."""
    status = main(["play", "versus2048", first, second, *GAME, "--sandbox", "strict", "--stderr", "--json"])
    out, err = capsys.readouterr()
    assert status == 0, err
    data = json.loads(out)
    assert data["result"]["termination"] == "NORMAL", data["result"]["detail"]
    said = {}
    for tail in data["stderr"]:
        for line in tail["text"].splitlines():
            if line.startswith("TRICK "):
                name, _, verdict = line.removeprefix("TRICK ").partition(": ")
                said[name] = verdict
    return said


def test_a_key_left_in_the_keyring_is_not_there_for_a_later_game(capsys):
    left = tricks(capsys, crossing("key-leave"))["key-leave"]
    found = tricks(capsys, crossing("key-find"))["key-find"]
    assert left.startswith("FAILED add_key: ENOSYS"), left
    assert found.startswith("FAILED"), found


def test_a_lock_held_in_one_jail_is_never_seen_from_another(capsys):
    said = tricks(capsys, crossing("lock-hold"), crossing("lock-test"))
    assert said["lock-test"].startswith("FAILED saw a lock at 0 of"), said


def test_a_watch_in_one_jail_sees_nothing_of_what_another_opens(capsys):
    said = tricks(capsys, crossing("watch"), crossing("touch"))
    assert said["watch"] == "FAILED inotify_init1: ENOSYS", said


def test_the_machine_wide_counters_do_not_move_while_the_opponent_thinks(capsys):
    said = tricks(capsys, "greedy", crossing("counters"))
    assert said["counters"] == "FAILED moved: none over 5 turns", said


def test_a_bot_without_a_network_opens_no_socket_to_pin_kernel_memory(capsys):
    said = tricks(capsys, crossing("hoard"))
    assert said["hoard"] == "FAILED socket: Address family not supported by protocol", said


HOARD = """
import socket, time
server = socket.socket(); server.bind(("127.0.0.1", 0)); server.listen(64)
queued, held = 0, []
for _ in range(24):
    client = socket.socket(); client.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 30)
    client.connect(server.getsockname()); other, _ = server.accept()
    other.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 30); client.setblocking(False)
    while True:
        try: queued += client.send(b"x" * 65536)
        except OSError: break
    held.append((client, other))
print(queued, flush=True)
"""


def test_socket_buffers_of_a_bot_with_a_tcp_relay_stay_within_their_cap(tmp_path):
    limits = Limits(memory_mb=256)
    sandbox = Sandbox(SandboxMode.STRICT, limits)
    (tmp_path / "hoard.py").write_text(HOARD)
    tmp_path.chmod(0o755)  # the bot's uid reads its folder
    v1 = "kmem.tcp" in socket_memory()
    assert socket_memory_problem() is None, "socket memory is counted here (v1 kmem.tcp or v2)"
    done = run_jailed(sandbox, [sys.executable, "hoard.py"], tmp_path, own_folder=True, helper=["/usr/bin/env"])
    assert done.returncode == 0, done.stderr[-500:]
    queued = int(done.stdout)
    cap = tcp_limit(256 << 20) if v1 else 256 << 20  # v2 charges them to the memory cap itself
    assert queued <= cap + (4 << 20), f"{queued >> 20} MiB queued past a cap of {cap >> 20} MiB"
