"""The TCP relay carries bytes unchanged both ways, in and out of the jail, and reports the connection.

tests/bots/tcp_echo.py connects to the address the relay gives it, sends ``hello\\r\\n``, then
sends back whatever it receives; so every byte written to the relay's stdin must come back on
its stdout exactly, whatever the chunking.
"""

import sys
import time

import pytest

from sandbox.jail import Sandbox, jail_problem
from sandbox.limits import SandboxMode
from sandbox.tcp import TcpBotProcess
from sandbox.transport import Poller
from tests.conftest import BOTS

ECHO = [sys.executable, str(BOTS / "tcp_echo.py"), "{host}", "{port}"]
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
