"""One bot program as a child process over pipes, in its own process group.

``BotProcess`` is the one class that launches bots; the sandbox's ``LaunchPlan`` says how (the
jail chain, its environment and folder), not how the referee talks to it. All pipes are
non-blocking: writes are queued and finished when the pipe has room, stdout is buffered into
lines, stderr is drained into a bounded tail (kept with the game) so a bot can never block on it.
Its CPU counters (what the ``own`` clock reads, its CPU weight) are ``sandbox.bot_cpu.BotCpu``'s.
"""

from __future__ import annotations

import contextlib
import errno
import os
import select
import signal
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path

from sandbox.bot_cpu import BotCpu
from sandbox.jail import LaunchPlan, Sandbox
from sandbox.procfs import descendants
from sandbox.reaper import TRACKED, become_subreaper, reap_orphans, wait_gone
from sandbox.transport import Transport

STDERR_TAIL_BYTES = 4096
_CHUNK = 1 << 16


def group_alive(pgid: int) -> bool:
    """Whether any process (zombies included) is left in a process group."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class LaunchError(Exception):
    """A bot command that cannot be started; the message names it and says why."""


class BotProcess(BotCpu, Transport):
    """A running bot program.

    Args:
        argv: The bot's command line.
        cwd: Working folder of the bot (None: the current one).
        max_line_bytes: Cap on one reply line.
        sandbox: Confines the bot (None: a plain child process).
        read_only: More host paths the jailed bot may read.
        max_output_bytes: Cap on all the bot prints in a game.
        helper: A program of ours that runs the bot inside its jail (the TCP relay), or none.
        own_folder: ``cwd`` is the bot's own folder, shown whole in its jail (``Sandbox.plan``).
    """

    def __init__(
        self,
        argv: Sequence[str],
        cwd: str | Path | None = None,
        max_line_bytes: int = 1 << 20,
        sandbox: Sandbox | None = None,
        read_only: Sequence[str] = (),
        max_output_bytes: int = 16 << 20,
        helper: Sequence[str] = (),
        own_folder: bool = False,
    ) -> None:
        super().__init__(max_line_bytes, max_output_bytes)
        self.argv = list(argv)
        become_subreaper()
        if sandbox is not None:
            self.plan = sandbox.plan(argv, cwd, read_only, helper, own_folder)
        else:
            self.plan = LaunchPlan([*helper, *self.argv], cwd=cwd)
        try:
            self.popen = subprocess.Popen(
                self.plan.argv,
                cwd=self.plan.cwd,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
                close_fds=True,
                pass_fds=self.plan.pass_fds,
            )
            self.plan.started()
        except OSError as error:
            self.plan.cleanup()
            raise LaunchError(f"cannot start {' '.join(self.argv)!r}: {error.strerror or error}") from None
        except BaseException:  # Ctrl-C while starting: nothing of this bot outlives it, its scratch included
            self.plan.cleanup()
            raise
        try:
            TRACKED.add(self.popen.pid)
            assert self.popen.stdin and self.popen.stdout and self.popen.stderr
            self.stdin_fd: int | None = self.popen.stdin.fileno()
            self.stdout_fd: int | None = self.popen.stdout.fileno()
            self.stderr_fd: int | None = self.popen.stderr.fileno()
            for fd in (self.stdin_fd, self.stdout_fd, self.stderr_fd):
                os.set_blocking(fd, False)
        except BaseException:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.popen.pid, signal.SIGKILL)
            self.popen.wait()
            self.plan.cleanup()
            raise
        self.outbox = bytearray()
        self.input_ends = False
        self._flushed_at_ns: int | None = time.monotonic_ns()
        self.stderr_tail = bytearray()
        self.stderr_bytes = 0
        self.stdin_broken = False
        self.family: set[int] = set()
        self.cores = sandbox.limits.cores if sandbox is not None else 1.0

    @property
    def pid(self) -> int:
        """The bot's process id (also its process group id)."""
        return self.popen.pid

    # -- writing ---------------------------------------------------------------------------
    def send(self, data: bytes) -> None:
        if self.stdin_fd is None or self.stdin_broken:
            self._flushed_at_ns = time.monotonic_ns()  # nothing can be written: the clock starts now
            return
        if not self.outbox:  # the usual case: the pipe takes it all at once, no copy into the outbox
            began = time.monotonic_ns()  # the bot can read from now on: a referee preempted after it is not late
            try:
                written = os.write(self.stdin_fd, data)
            except BlockingIOError:
                written = 0
            except OSError:
                written = 0  # broken pipe: _write_some below notes it as usual
            if written == len(data):
                self._flushed_at_ns = began
                if self.input_ends:
                    self.close_stdin()
                return
            data = data[written:]
        self.outbox += data
        self._flushed_at_ns = None
        self._write_some()

    def end_input(self) -> None:
        """Close stdin now if everything sent is written, else as soon as it is."""
        self.input_ends = True
        if not self.outbox:
            self.close_stdin()

    def _write_some(self) -> None:
        assert self.stdin_fd is not None
        while self.outbox:
            try:
                written = os.write(self.stdin_fd, self.outbox)
            except BlockingIOError:
                return
            except OSError:  # broken pipe: the bot is gone; the next read reports it
                self.stdin_broken = True
                self.outbox.clear()
                break
            del self.outbox[:written]
        self._flushed_at_ns = time.monotonic_ns()
        if self.input_ends and not self.outbox:
            self.close_stdin()

    def flushed_at_ns(self) -> int | None:
        return self._flushed_at_ns

    # -- reading ---------------------------------------------------------------------------
    def read_fds(self) -> list[int]:
        stdout = None if self.pushing_back() else self.stdout_fd
        return [fd for fd in (stdout, self.stderr_fd) if fd is not None]

    def write_fds(self) -> list[int]:
        return [self.stdin_fd] if self.outbox and self.stdin_fd is not None else []

    def watches(self) -> tuple[tuple[int, int], ...]:
        stdout, stderr = self.stdout_fd, self.stderr_fd
        if stdout is not None and stderr is not None and not self.outbox and not self.pushing_back():
            return ((stdout, select.POLLIN), (stderr, select.POLLIN))  # the usual case, built fast
        return super().watches()

    def on_ready(self, fd: int) -> None:
        if fd == self.stdin_fd:
            self._write_some()
        elif fd == self.stdout_fd:
            chunk = self._read(fd)
            if chunk:
                self._received(chunk)
            elif chunk == b"":
                self.stdout_fd = None
                self._ended()
        elif fd == self.stderr_fd:
            self._drain_stderr(once=True)

    def _drain_stderr(self, once: bool = False) -> None:
        """Move what the bot wrote to stderr into the bounded tail (one read, or until nothing is left)."""
        for _ in range(64):  # bounded: a process that escaped the kill cannot keep us here
            if self.stderr_fd is None:
                return
            chunk = self._read(self.stderr_fd)
            if chunk:
                self.stderr_bytes += len(chunk)
                self.stderr_tail += chunk
                del self.stderr_tail[:-STDERR_TAIL_BYTES]
            elif chunk == b"":
                self.stderr_fd = None
            if once or not chunk:
                return

    @staticmethod
    def _read(fd: int) -> bytes | None:
        """Bytes read, b"" at the end of the stream, None if nothing is there yet."""
        try:
            return os.read(fd, _CHUNK)
        except BlockingIOError:
            return None
        except OSError as error:
            if error.errno == errno.EAGAIN:
                return None
            return b""

    # -- ending ----------------------------------------------------------------------------
    def describe_exit(self) -> str:
        if self.stdin_broken and self.stdout_fd is not None:
            return "stopped reading its input (the request could not be written)"
        status = self.wait_exit(0.2)
        if status is None:
            return "closed its output but is still running"
        cgroup = self.plan.cgroup
        if cgroup is not None and cgroup.hit_memory_cap():
            return f"was killed at its memory cap of {cgroup.memory_limit >> 20} MB"
        if self.plan.jailed and status > 128 and status - 128 in signal.Signals._value2member_map_:
            status = -(status - 128)  # the jail reports a bot's death by signal N as 128 + N
        if status < 0:
            name = signal.Signals(-status).name if -status in signal.Signals._value2member_map_ else str(-status)
            return f"was killed by signal {name}"
        return f"exited with status {status}"

    def wait_exit(self, timeout_s: float) -> int | None:
        """Wait up to ``timeout_s`` for the bot to exit; its return code or None."""
        try:
            return self.popen.wait(timeout_s)
        except subprocess.TimeoutExpired:
            return None

    def begin_stop(self) -> None:
        """Note every process of the bot (to wait for them all at the end), then close its stdin."""
        if not self.family:
            self.family = self._family()
        self.close_stdin()

    def close_stdin(self) -> None:
        """Close the bot's stdin (it sees EOF)."""
        if self.stdin_fd is not None:
            self.stdin_fd = None
            self.outbox.clear()
            self.popen.stdin.close()  # type: ignore[union-attr]

    def kill_group(self, sig: int = signal.SIGKILL) -> None:
        """Signal the bot's whole process group."""
        try:
            os.killpg(self.popen.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass

    def close(self) -> None:
        """Close stdin, SIGTERM then SIGKILL the group after a second, and reap."""
        self.shutdown(wait_s=0.0, term_grace_s=1.0)

    def shutdown(self, wait_s: float, term_grace_s: float) -> int | None:
        """End the bot: close stdin, wait for it, SIGTERM, wait, SIGKILL; reap everything.

        Args:
            wait_s: How long the bot may take to exit by itself after stdin closes.
            term_grace_s: How long after SIGTERM before SIGKILL.

        Returns:
            The exit status, or None if it had to be killed.
        """
        self.begin_stop()
        status = self.wait_exit(wait_s) if wait_s > 0 else self.popen.poll()
        if status is None:
            self.kill_group(signal.SIGTERM)
            status = self.wait_exit(term_grace_s)
        self.kill_group(signal.SIGKILL)  # whatever the bot forked into its group
        if status is None:
            self.popen.wait()
        TRACKED.discard(self.popen.pid)
        deadline = time.monotonic() + 2.0
        while group_alive(self.popen.pid) and time.monotonic() < deadline:
            reap_orphans()
            time.sleep(0.001)
        self.plan.cleanup()  # the cgroup goes only once every process in it has ended
        self._close_main_counts()
        wait_gone(self.family, deadline)
        reap_orphans()  # the jail's inner process, adopted when the outer one ended
        self._drain_stderr()  # its last words (a traceback) may still be in the pipe
        for stream in (self.popen.stdout, self.popen.stderr):
            if stream is not None:
                stream.close()
        self.stdout_fd = self.stderr_fd = None
        self._ended()
        return status

    def _family(self) -> set[int]:
        """Every process of the bot now: its cgroup's members, else its descendants.

        The jail's inner processes live in a session of their own, outside the process group.
        """
        if self.plan.cgroup is not None:
            return self.plan.cgroup.pids() | {self.popen.pid}
        return set(descendants(self.popen.pid)) if self.plan.jailed else set()

    def stderr_text(self) -> str:
        """The last bytes the bot wrote to stderr, decoded leniently, saying how much came before."""
        text = self.stderr_tail.decode("utf-8", "replace")
        cut = self.stderr_bytes - len(self.stderr_tail)
        return f"[{cut} earlier bytes not kept]\n{text}" if cut > 0 else text
