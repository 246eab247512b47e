"""Line transports: how replies are cut into lines, and real pipes that never block the referee."""

import sys
import threading
import time

import pytest

from engine.protocol import BotDriver
from league.match.inprocess import InProcessTransport
from sandbox.process import BotProcess, LaunchError
from sandbox.transport import LineKind, Poller


class EchoDriver(BotDriver):
    """A bot side that answers every line with its upper-case copy."""

    def feed(self, line):
        return line.upper()


def fed(data: bytes, eof=False, cap=1 << 20):
    transport = InProcessTransport(EchoDriver(), max_line_bytes=cap)
    transport._received(data)
    if eof:
        transport._ended()
    return transport


def test_lines_are_cut_at_lf_and_keep_their_cr():
    transport = fed(b"a b\r\nc\n")
    assert transport.take_line(False, True, None).data == b"a b\r"
    assert transport.take_line(False, True, None).data == b"c"
    assert transport.take_line(False, True, None) is None


def test_blank_lines_are_replies_or_skipped_as_the_game_says():
    assert fed(b" \t\r\nx\n").take_line(False, True, None).data == b" \t\r"
    assert fed(b" \t\r\n\nx\n").take_line(True, True, None).data == b"x"


def test_fragment_before_eof_is_a_line_or_an_eof():
    line = fed(b"U 1 1 5 5", eof=True).take_line(False, True, None)
    assert (line.kind, line.data) == (LineKind.LINE, b"U 1 1 5 5")
    eof = fed(b"U 1 1 5 5", eof=True).take_line(False, False, None)
    assert (eof.kind, eof.data) == (LineKind.EOF, b"U 1 1 5 5")
    assert fed(b"", eof=True).take_line(False, True, None).kind == LineKind.EOF


def test_line_over_the_cap_is_overlong_with_or_without_lf():
    assert fed(b"x" * 2000).take_line(False, True, 1024).kind == LineKind.OVERLONG
    assert fed(b"x" * 1025 + b"\n").take_line(False, True, 1024).kind == LineKind.OVERLONG
    assert fed(b"x" * 1024 + b"\n").take_line(False, True, 1024).kind == LineKind.LINE
    assert fed(b"x" * 300 + b"\n", cap=100).take_line(False, True, None).kind == LineKind.OVERLONG


def test_in_process_transport_answers_through_its_driver():
    transport = InProcessTransport(EchoDriver())
    transport.send(b"hello\nwor")
    transport.send(b"ld\n")
    assert transport.take_line(False, True, None).data == b"HELLO"
    assert transport.take_line(False, True, None).data == b"WORLD"


def wait_line(process, timeout_s=5.0):
    poller = Poller()
    poller.add(process)
    deadline = time.monotonic() + timeout_s
    try:
        while time.monotonic() < deadline:
            event = process.take_line(False, True, None)
            if event is not None:
                return event
            poller.wait(0.05)
    finally:
        poller.remove(process)
        poller.close()
    return None


def test_process_round_trip_and_exit_description():
    process = BotProcess([sys.executable, "-c", "import sys; print(sys.stdin.readline().strip()[::-1], flush=True)"])
    process.send(b"abc\n")
    assert wait_line(process).data == b"cba"
    assert wait_line(process).kind == LineKind.EOF
    assert process.describe_exit() == "exited with status 0"
    process.close()


def test_writes_never_block_on_a_bot_that_does_not_read():
    process = BotProcess([sys.executable, "-c", "import time; time.sleep(600)"])
    sender = threading.Thread(target=process.send, args=(b"x" * (4 << 20),))  # far more than a pipe holds
    sender.start()
    try:
        sender.join(60)  # a blocking write would wait for the bot, which never reads: 600 s
        assert not sender.is_alive(), "the write blocked on a bot that does not read"
        assert process.flushed_at_ns() is None, "the rest waits in the outbox"
    finally:
        process.close()


def test_stderr_flood_is_drained_while_waiting_for_the_reply():
    code = "import sys; sys.stderr.write('e' * (8 << 20)); sys.stderr.flush(); print('done', flush=True)"
    process = BotProcess([sys.executable, "-c", code])
    assert wait_line(process, 20).data == b"done"
    assert len(process.stderr_tail) <= 4096
    process.close()


def test_missing_program_is_a_launch_error():
    with pytest.raises(LaunchError, match="no-such-program"):
        BotProcess(["no-such-program"])


def test_close_kills_the_whole_process_group():
    code = "import subprocess, time; subprocess.Popen(['sleep', '300']); print('ready', flush=True); time.sleep(300)"
    process = BotProcess([sys.executable, "-c", code])
    assert wait_line(process).data == b"ready"
    process.close()
    import subprocess

    listing = subprocess.run(["ps", "-o", "pid=", "-g", str(process.pid)], capture_output=True, text=True).stdout
    assert listing.strip() == ""
