"""The TCP relay carries bytes unchanged both ways, in and out of the jail, and reports the connection.

tests/bots/tcp_echo.py connects to the address the relay gives it, sends ``hello\\r\\n``, then
sends back whatever it receives; so every byte written to the relay's stdin must come back on
its stdout exactly, whatever the chunking.
"""

import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sandbox import tcp
from sandbox.jail import Sandbox, jail_problem
from sandbox.limits import Limits, SandboxMode
from sandbox.relay import from_client, peer_check_problem
from sandbox.tcp import TcpBotProcess, shared_relay_problem
from sandbox.transport import Poller
from tests.conftest import BOTS

ECHO = [sys.executable, str(BOTS / "tcp_echo.py"), "{host}", "{port}"]
CONNECT = "import socket, sys; held = socket.create_connection((sys.argv[1], int(sys.argv[2]))); sys.stdin.read()"
"""Connects to HOST PORT and holds the connection until its stdin closes."""
CONNECT_DUAL_STACK = (
    "import socket, sys; held = socket.socket(socket.AF_INET6); held.connect((sys.argv[1], int(sys.argv[2])));"
    " sys.stdin.read()"
)
"""The same from an IPv6 socket (as a JVM connects), to ``::ffff:127.0.0.1``."""
PAYLOAD = [b"SET?\r\n", b"MOV?14R24R34R44R15B25B35B45B", b"41u31u21u11u40u30u20u10u\r\n", bytes(range(256)), b"\n"]


def pump(bot, poller, until, timeout_s=10.0):
    deadline = time.monotonic() + timeout_s
    while not until() and time.monotonic() < deadline:
        poller.wait(0.05)
    assert until(), f"timed out: state {bot.state}, buffer {bytes(bot.buffer)!r}"


def echo_round_trip(sandbox, port):
    bot = TcpBotProcess(ECHO, port=port, connect_timeout_s=10, sandbox=sandbox, cwd=str(BOTS))
    poller = Poller()
    poller.add(bot)
    try:
        pump(bot, poller, bot.connected)
        expected = b"hello\r\n"
        for chunk in PAYLOAD:
            bot.send(chunk)
            expected += chunk
            pump(bot, poller, lambda e=expected: bytes(bot.buffer) == e or len(bot.buffer) > len(e))
        assert bytes(bot.buffer) == expected
        return bot
    finally:
        poller.remove(bot)
        bot.close()


def test_the_relay_is_transparent_without_a_jail_and_picks_a_free_port_for_a_port_placeholder():
    bot = echo_round_trip(None, port=10000)
    assert bot.port not in (0, 10000)  # no network of its own: {port} in the command gets a free port
    assert "connected to 127.0.0.1:" in bot.stderr_text()


@pytest.mark.skipif(jail_problem() is not None, reason=f"needs the strict jail: {jail_problem()}")
def test_the_relay_is_transparent_inside_the_strict_jail_on_the_rules_port():
    bot = echo_round_trip(Sandbox(SandboxMode.STRICT), port=10000)
    assert bot.port == 10000  # the jail's own loopback: the rules' port, whatever else runs
    assert "connected to 127.0.0.1:10000" in bot.stderr_text()


def test_the_relay_reports_a_client_that_cannot_start():
    bot = TcpBotProcess(["/nonexistent/client"], port=0, connect_timeout_s=5, sandbox=None)
    poller = Poller()
    poller.add(bot)
    try:
        pump(bot, poller, lambda: not bot.connecting())
        assert not bot.connected()
        assert bot.connect_failure().startswith("could not be started behind the TCP relay: cannot start")
    finally:
        poller.remove(bot)
        bot.close()


class Listener:
    """A loopback port whose connections the test accepts one by one, made by processes it starts."""

    def __init__(self) -> None:
        self.socket = socket.create_server(("127.0.0.1", 0))
        self.socket.settimeout(10)
        self.port = self.socket.getsockname()[1]
        self.processes: list[subprocess.Popen[bytes]] = []

    def start(self, *argv: str) -> subprocess.Popen[bytes]:
        """Start a process (``{port}`` in its arguments replaced) that will connect."""
        process = subprocess.Popen([arg.replace("{port}", str(self.port)) for arg in argv], stdin=subprocess.PIPE)
        self.processes.append(process)
        return process

    def accept(self) -> socket.socket:
        return self.socket.accept()[0]

    def close(self) -> None:
        for process in self.processes:
            assert process.stdin is not None
            process.stdin.close()
            process.wait(timeout=10)
        self.socket.close()


@pytest.fixture
def listener():
    opened = Listener()
    yield opened
    opened.close()


def test_a_connection_is_from_the_client_when_it_or_a_descendant_holds_the_other_end(listener):
    client = listener.start(sys.executable, "-c", CONNECT, "127.0.0.1", "{port}")
    with listener.accept() as connection:
        assert from_client(connection, client.pid)
    via_child = f"import subprocess, sys; subprocess.run([sys.executable, '-c', {CONNECT!r}, *sys.argv[1:]])"
    parent = listener.start(sys.executable, "-c", via_child, "127.0.0.1", "{port}")
    with listener.accept() as connection:
        assert from_client(connection, parent.pid)  # its child connected: still the client's


def test_a_connection_from_any_other_process_is_not_the_clients(listener):
    client = listener.start(sys.executable, "-c", CONNECT, "127.0.0.1", "{port}")
    listener.accept().close()
    stranger = listener.start(sys.executable, "-c", CONNECT, "127.0.0.1", "{port}")
    with listener.accept() as connection:
        assert not from_client(connection, client.pid)  # a sibling, not a descendant
        assert from_client(connection, stranger.pid)
    with socket.create_connection(("127.0.0.1", listener.port)), listener.accept() as connection:
        assert not from_client(connection, client.pid)  # this test's own socket


@pytest.mark.skipif(not Path("/proc/self/net/tcp6").exists(), reason="no IPv6 in this kernel")
def test_a_dual_stack_client_is_found_through_tcp6(listener):
    client = listener.start(sys.executable, "-c", CONNECT_DUAL_STACK, "::ffff:127.0.0.1", "{port}")
    with listener.accept() as connection:
        assert from_client(connection, client.pid)
    stranger = listener.start(sys.executable, "-c", CONNECT_DUAL_STACK, "::ffff:127.0.0.1", "{port}")
    with listener.accept() as connection:
        assert not from_client(connection, client.pid)
        assert from_client(connection, stranger.pid)


def test_this_host_can_check_who_connects_so_a_shared_network_is_allowed():
    assert peer_check_problem() is None
    assert shared_relay_problem(Sandbox(SandboxMode.NONE)) is None
    assert shared_relay_problem(None) is None


def test_a_shared_network_where_proc_cannot_tell_is_refused_in_one_line(monkeypatch):
    monkeypatch.setattr(tcp, "_peer_check_problem", lambda: "/proc/self/net/tcp: No such file or directory")
    problem = shared_relay_problem(Sandbox(SandboxMode.NONE, Limits(network=True)))
    assert problem is not None and "\n" not in problem
    assert problem.startswith("transport tcp with limits.network: true: its relay listens on the host's loopback")
    assert problem.endswith(
        "(/proc/self/net/tcp: No such file or directory); turn limits.network off so each bot gets a network of its own"
    )


def test_without_a_jail_an_intruder_that_connects_first_is_refused_and_the_client_plays(listener):
    """On the host's loopback, this test connects to the relay a second before its client does."""
    late_echo = ["/bin/sh", "-c", 'sleep 1; exec "$@"', "sh", *ECHO]
    bot = TcpBotProcess(late_echo, port=0, connect_timeout_s=10, sandbox=None, cwd=str(BOTS))
    poller = Poller()
    poller.add(bot)
    try:
        pump(bot, poller, lambda: bot.state != "starting")
        with socket.create_connection(("127.0.0.1", bot.port), timeout=5) as intruder:
            assert intruder.recv(16) == b""  # closed at once, without data
        pump(bot, poller, bot.connected)
        bot.send(b"ping\n")
        pump(bot, poller, lambda: bytes(bot.buffer) == b"hello\r\nping\n")
    finally:
        poller.remove(bot)
        bot.close()
    assert "league relay: refused a connection from a process other than its client" in bot.stderr_text()
