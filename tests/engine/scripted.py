"""Scripted in-process bots that drive the real ``Referee`` byte-exact, and judging a reply line.

The section 9 vector tests of every game (tests/engine/test_*_vectors.py) play some vectors
through league/match/referee.py with ``ScriptedTransport`` bots, to see every byte each bot receives,
and judge single reply lines the referee's way (``Referee._judge``): the form (``parse``, a
ParseError being a presentation error), then the rules (``state.check``).
"""

import time

from engine.core import Fault, Termination
from engine.protocol import ParseError
from sandbox.transport import Transport

LEGAL = "legal"
EOF = None  # a scripted reply: the bot closes its output instead of answering


class ScriptedTransport(Transport):
    """An in-process bot answering each request with its next scripted bytes.

    EOF (or the end of the script) closes its output; so does a reply without a final LF, after
    it is written. Requests equal to one of ``unanswered`` (a farewell such as ``quit``) are
    recorded but take no reply. With a ``log``, every request is appended to it as ``(key, data)``
    and the close as ``(key, "closed")``, so the order across several bots can be checked.
    """

    def __init__(self, replies, key=None, log=None, unanswered=()):
        super().__init__(max_line_bytes=1 << 20)
        self.key = key
        self.replies = list(replies)
        self.log = log
        self.unanswered = tuple(unanswered)
        self.received = []
        self.closed = False
        self._flushed_ns = time.monotonic_ns()

    def send(self, data):
        assert not self.closed, "nothing is sent to a bot after it was closed"
        self.received.append(data)
        if self.log is not None:
            self.log.append((self.key, data))
        self._flushed_ns = time.monotonic_ns()
        if data in self.unanswered:
            return
        reply = self.replies.pop(0) if self.replies else EOF
        if reply is not EOF:
            self._received(reply)
        if reply is EOF or not reply.endswith(b"\n"):  # bytes without LF: written, then the bot exits
            self._ended()

    def flushed_at_ns(self):
        return self._flushed_ns

    def close(self):
        self.closed = True
        if self.log is not None:
            self.log.append((self.key, "closed"))
        self._ended()


class RecordingBot:
    """A bot-side bot that answers from a script and remembers the observations it saw."""

    def __init__(self, replies):
        self.replies = list(replies)
        self.seen = []

    def act(self, observation):
        self.seen.append(observation)
        return self.replies.pop(0)


def line_fault(referee, state, request, line):
    """The fault of a reply line (without LF) received in time: parse, then check; None if legal."""
    try:
        action = referee.parse(state, request, line)
    except ParseError as error:
        code = referee.fault_code(state, request, Termination.BAD_OUTPUT)
        return Fault(request.seat, Termination.BAD_OUTPUT, code, str(error))
    return state.check(request, action)


def line_reason(referee, state, request, line):
    """The reason code of a reply line received in time, or LEGAL."""
    fault = line_fault(referee, state, request, line)
    return LEGAL if fault is None else fault.reason_code
