"""Tests look only at processes they started: another league's bots on the machine are not theirs.

A process of another run, even one under a bot slot's uid and with a test bot's name in its
command line, must not show among ours; it is stopped by its own id at the end.
"""

import ctypes
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from sandbox.slots import FIRST_UID
from tests.conftest import BOTS, bot_processes, own_processes

_PR_SET_CHILD_SUBREAPER, _PR_GET_CHILD_SUBREAPER = 36, 37


def _start_outside_our_tree(uid: int, marker: str) -> int:
    """Start `sleep` as ``uid`` so that it is not our descendant (as if another run had started it)."""
    libc = ctypes.CDLL(None, use_errno=True)
    flag = ctypes.c_int(0)
    libc.prctl(_PR_GET_CHILD_SUBREAPER, ctypes.byref(flag), 0, 0, 0)
    libc.prctl(_PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)  # its orphan must not come back to us
    try:
        setpriv = f"setpriv --reuid={uid} --regid={uid} --clear-groups"
        script = f"exec {setpriv} bash -c 'sleep 60; exit 0' '{marker}' </dev/null >/dev/null 2>&1"
        launcher = subprocess.run(
            ["setsid", "-f", "bash", "-c", f"echo $$; {script}"], capture_output=True, text=True, check=True
        )
    finally:
        libc.prctl(_PR_SET_CHILD_SUBREAPER, flag.value, 0, 0, 0)
    return int(launcher.stdout.split()[0])


def _command_line(pid: int) -> str:
    """The command line of ``pid`` with spaces between arguments, or '' once it is gone."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("setsid") is None, reason="needs root to run as a bot uid")
def test_another_runs_bot_is_not_one_of_ours():
    marker = f"{BOTS / 'hostile.py'} of another league"
    pid = _start_outside_our_tree(FIRST_UID + 4000, marker)
    try:
        deadline = time.monotonic() + 10
        while marker not in _command_line(pid):  # not `ps`: it cuts lines to $COLUMNS
            assert time.monotonic() < deadline, f"the other run's process did not start: {_command_line(pid)!r}"
            time.sleep(0.02)
        assert pid not in [p for p, _, _ in own_processes()]
        assert bot_processes("hostile.py") == []
    finally:
        os.killpg(pid, signal.SIGKILL)  # by its own id: the session `setsid` made for it
