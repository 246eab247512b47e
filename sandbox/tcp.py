"""A bot that speaks TCP, run behind the relay (sandbox/relay.py) inside its own jail.

The referee drives it like any stdio bot: the relay listens on the port the client expects,
inside the jail's own network (a loopback of its own, so games in parallel never clash), and
carries the bytes over the jail's stdin/stdout (it accepts only a connection from its own
client's socket, which matters where bots share the host's network). Before the game, the relay
reports on stdout that it listens and that the client connected; this class takes those lines off
the stream, so the game sees only the client's bytes, and says whether the client is connected yet.
"""

from __future__ import annotations

import functools
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sandbox.jail import Sandbox
from sandbox.process import BotProcess
from sandbox.procfs import read_small
from sandbox.relay import HOST, peer_check_problem

RELAY = Path(__file__).with_name("relay.py")


@functools.cache
def _peer_check_problem() -> str | None:
    """``relay.peer_check_problem`` on this host, asked once."""
    return peer_check_problem()


def shared_relay_problem(sandbox: Sandbox | None) -> str | None:
    """Why a TCP client's relay could not keep other processes off its port here, or None.

    In a network of its own, nothing else can reach the relay. Where bots share the host's
    network (``limits.network``, or no jail), other bots can connect to it, and only the relay's
    check of who holds the other end keeps them off: that check reads /proc, and where /proc
    cannot answer (see ``relay.peer_check_problem``), TCP clients must not play.
    """
    if sandbox is not None and sandbox.own_network:
        return None
    problem = _peer_check_problem()
    if problem is None:
        return None
    if sandbox is not None and sandbox.limits.network:
        cause, fix = "limits.network: true", "turn limits.network off so each bot gets a network of its own"
    else:
        cause, fix = "no network of its own (sandbox none, or no jail)", "run it in the jail (sandbox auto or strict)"
    return (
        f"transport tcp with {cause}: its relay listens on the host's loopback, where other bots could"
        f" connect to it, and this host's /proc cannot tell its client from them ({problem}); {fix}"
    )


def relay_command(port: int) -> list[str]:
    """The relay's command line, to run in front of the client's (``--`` then the client)."""
    return [sys.executable, "-I", "-S", str(RELAY), str(port), "--"]


class TcpBotProcess(BotProcess):
    """A TCP client behind the relay, seen as a stdio bot once it has connected.

    Args:
        argv: The client's command line; ``{host}`` and ``{port}`` are replaced by the address.
        port: The port it must connect to. Where bots share the host's network (no jail of their
            own, or ``limits.network``), a command that takes ``{port}`` gets a free port instead.
        connect_timeout_s: How long the client may take to connect.
        sandbox: Confines the client and the relay (None: plain child processes).
        **options: The other ``BotProcess`` options (cwd, caps, read_only).
    """

    def __init__(
        self,
        argv: Sequence[str],
        port: int,
        connect_timeout_s: float,
        sandbox: Sandbox | None = None,
        **options: Any,
    ) -> None:
        shared_network = sandbox is None or not sandbox.own_network
        if shared_network and any("{port}" in arg for arg in argv):
            port = 0  # the relay picks a free one and passes it on
        self.port = port
        self.connect_deadline_ns = time.monotonic_ns() + int(connect_timeout_s * 1e9)
        self.connect_timeout_s = connect_timeout_s
        self.state = "starting"
        self.failure = ""
        self._header = bytearray()
        super().__init__(argv, sandbox=sandbox, helper=relay_command(port), **options)

    def main_pid(self) -> int | None:
        """The client the relay started (the ``own`` clock charges its waits, not the relay's), or None before it."""
        relay = super().main_pid()
        children = read_small(f"/proc/{relay}/task/{relay}/children") if relay is not None else None
        return int(children.split()[0]) if children and children.split() else None

    def connecting(self) -> bool:
        """Whether the client has not connected yet (and has not failed to)."""
        return self.state in ("starting", "listening") and not self.eof

    def connected(self) -> bool:
        """Whether the client connected (the game's bytes flow)."""
        return self.state == "connected"

    def connect_failure(self) -> str:
        """Why the client never connected, as a phrase after "its TCP client ..."."""
        where = f"{HOST}:{self.port}" if self.port else "the {host} and {port} of its command"
        if self.state == "exited":
            return f"exited with status {self.failure} before connecting to {where}"
        if self.state == "failed":
            return f"could not be started behind the TCP relay: {self.failure}"
        if self.eof:
            return f"ended before connecting to {where}"
        return f"did not connect to {where} within {self.connect_timeout_s:g} s (does it connect to that address?)"

    def _received(self, chunk: bytes) -> None:
        if self.state == "connected":
            super()._received(chunk)
            return
        self._header += chunk
        while self.state != "connected" and b"\n" in self._header:
            line, _, rest = bytes(self._header).partition(b"\n")
            self._header = bytearray(rest)
            word, _, value = line.decode("ascii", "replace").partition(" ")
            if word == "listening":
                self.state, self.port = "listening", int(value)
            elif word == "connected":
                self.state = "connected"
            else:
                self.state, self.failure = ("exited" if word == "exited" else "failed"), value
        if self.state == "connected" and self._header:
            rest, self._header = bytes(self._header), bytearray()
            super()._received(rest)

    def describe_exit(self) -> str:
        return "closed its TCP connection" if self.connected() else super().describe_exit()

    def silence_hint(self) -> str:
        return "it has sent nothing on its connection: does it flush what it writes to the socket?"
