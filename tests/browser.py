"""A tiny headless-browser driver for tests: Debian's chromium over the DevTools pipe, no new dependency.

Chromium is started with ``--remote-debugging-pipe``: it reads Chrome DevTools Protocol commands
from its file descriptor 3 and writes answers and events to its descriptor 4, each message JSON
ended by a NUL byte. Every page gets a target of its own, attached with ``flatten`` so its
commands carry a ``sessionId``. Every wait has a deadline, and the browser's whole process group
(its own session, started for it) is killed at the end by its own id; its helpers, orphaned when
it quits, come back to us (a child subreaper, as the referee is) and are reaped.

    with Browser() as browser:
        page = browser.open(Path("reports/tiny/index.html"))
        page.resize(1400)  # lay it out as a 1,400 px wide window shows it
        assert page.console_errors() == []
        page.screenshot(Path("shot.png"))
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sandbox.procfs import PGRP, process_table
from sandbox.reaper import TRACKED, become_subreaper, wait_gone

CHROMIUM = "/usr/bin/chromium"
TIMEOUT_S = 20.0
CLOSE_TIMEOUT_S = 5.0
LOCAL_SCHEMES = ("file:", "data:", "about:")


class BrowserError(Exception):
    """The browser did not start, answer, or load a page in time, or answered with an error."""


def chromium_path() -> str | None:
    """Debian's chromium, or another on the PATH; None when there is none."""
    if os.access(CHROMIUM, os.X_OK):
        return CHROMIUM
    return shutil.which("chromium")


@dataclass
class _Session:
    """What one page's target has said: its events in order of arrival."""

    events: list[dict[str, Any]] = field(default_factory=list)
    waited_for: set[int] = field(default_factory=set)


class _Pipe:
    """Both ends of the DevTools pipe: NUL-terminated JSON messages, read with deadlines."""

    def __init__(self, to_browser: int, from_browser: int) -> None:
        self._to_browser = to_browser
        self._from_browser = from_browser
        self._buffer = b""
        self._next_id = 0
        self._answers: dict[int, dict[str, Any]] = {}
        self.sessions: dict[str, _Session] = {}

    def close(self) -> None:
        for fd in (self._to_browser, self._from_browser):
            try:
                os.close(fd)
            except OSError:
                pass

    def call(
        self, method: str, params: dict[str, Any] | None = None, session: str | None = None, timeout: float = TIMEOUT_S
    ) -> dict[str, Any]:
        """Send one command and wait for its answer; returns its ``result``."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session is not None:
            message["sessionId"] = session
        data = json.dumps(message).encode() + b"\0"
        deadline = time.monotonic() + timeout
        while data:
            self._wait(self._to_browser, select.POLLOUT, deadline, f"sending {method}")
            try:
                data = data[os.write(self._to_browser, data) :]
            except OSError as error:  # the browser is gone (a broken pipe)
                raise BrowserError(f"could not send {method}: {error}") from error
        while self._next_id not in self._answers:
            self._read_once(deadline, f"the answer to {method}")
        answer = self._answers.pop(self._next_id)
        if "error" in answer:
            raise BrowserError(f"{method}: {answer['error'].get('message')} {answer['error'].get('data', '')}".strip())
        return answer.get("result", {})

    def wait_event(self, session: str, method: str, timeout: float = TIMEOUT_S) -> dict[str, Any]:
        """Wait for the next ``method`` event of ``session`` not yet waited for; returns its params."""
        deadline = time.monotonic() + timeout
        state = self.sessions[session]
        while True:
            for index, event in enumerate(state.events):
                if event["method"] == method and index not in state.waited_for:
                    state.waited_for.add(index)
                    return event.get("params", {})
            self._read_once(deadline, f"the event {method}")

    def drain(self, seconds: float) -> None:
        """Read whatever arrives for ``seconds`` (events that follow a load)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                self._read_once(deadline, "events")
            except BrowserError:
                return

    def _wait(self, fd: int, event: int, deadline: float, what: str) -> None:
        poller = select.poll()
        poller.register(fd, event)
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not poller.poll(remaining * 1000):
            raise BrowserError(f"timed out waiting for {what}")

    def _read_once(self, deadline: float, what: str) -> None:
        self._wait(self._from_browser, select.POLLIN, deadline, what)
        chunk = os.read(self._from_browser, 1 << 20)
        if not chunk:
            raise BrowserError(f"the browser closed its pipe while we waited for {what}")
        self._buffer += chunk
        *messages, self._buffer = self._buffer.split(b"\0")
        for raw in messages:
            self._dispatch(json.loads(raw))

    def _dispatch(self, message: dict[str, Any]) -> None:
        if "id" in message:
            self._answers[message["id"]] = message
        elif message.get("sessionId") in self.sessions:
            self.sessions[message["sessionId"]].events.append(message)


class Page:
    """One loaded page: run JavaScript in it, read what went wrong, take a screenshot.

    Args:
        pipe: The browser's pipe.
        target: The page's target id.
        session: The page target's session id.
    """

    def __init__(self, pipe: _Pipe, target: str, session: str) -> None:
        self._pipe = pipe
        self._target = target
        self._session = session

    def close(self, timeout: float = TIMEOUT_S) -> None:
        """Close the page's tab (the browser goes on)."""
        self._pipe.call("Target.closeTarget", {"targetId": self._target}, timeout=timeout)

    def evaluate(self, expression: str, timeout: float = TIMEOUT_S) -> Any:
        """The value of a JavaScript expression (promises awaited), as JSON data.

        Raises:
            BrowserError: The expression threw.
        """
        params = {"expression": expression, "returnByValue": True, "awaitPromise": True}
        answer = self._call("Runtime.evaluate", params, timeout)
        if "exceptionDetails" in answer:
            raise BrowserError(f"{expression!r} threw: {_exception_text(answer['exceptionDetails'])}")
        return answer["result"].get("value")

    def console_errors(self) -> list[str]:
        """Everything the page reported as an error: uncaught exceptions, ``console.error``, log
        errors and failed loads, in order of arrival."""
        self._pipe.drain(0.05)
        urls: dict[str, str] = {}
        errors = []
        for event in self._events():
            method, params = event["method"], event.get("params", {})
            if method == "Network.requestWillBeSent":
                urls[params["requestId"]] = params["request"]["url"]
            elif method == "Runtime.exceptionThrown":
                errors.append(f"exception: {_exception_text(params['exceptionDetails'])}")
            elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                words = [str(arg.get("value", arg.get("description", ""))) for arg in params.get("args", [])]
                errors.append(f"console.{params['type']}: {' '.join(words)}")
            elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
                errors.append(f"log: {params['entry'].get('text')} {params['entry'].get('url', '')}".strip())
            elif method == "Network.loadingFailed" and not params.get("canceled"):
                errors.append(f"failed load: {urls.get(params['requestId'], '?')} {params.get('errorText')}")
            elif method == "Network.responseReceived" and params["response"].get("status", 200) >= 400:
                errors.append(f"failed load: {params['response']['url']} status {params['response']['status']}")
        return errors

    def requests(self) -> list[str]:
        """The URL of every request the page made, in order."""
        self._pipe.drain(0.05)
        return [
            event["params"]["request"]["url"]
            for event in self._events()
            if event["method"] == "Network.requestWillBeSent"
        ]

    def foreign_requests(self) -> list[str]:
        """The requests that left the machine's files: anything but file:, data: and about: URLs."""
        return [url for url in self.requests() if not url.startswith(LOCAL_SCHEMES)]

    def resize(self, width: int, height: int = 900, timeout: float = TIMEOUT_S) -> None:
        """Lay the page out in a window ``width`` x ``height`` CSS pixels wide (a desktop, scale 1)."""
        params = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}
        self._call("Emulation.setDeviceMetricsOverride", params, timeout)

    def screenshot(self, path: Path, timeout: float = TIMEOUT_S) -> Path:
        """Save a PNG of the whole page (beyond the viewport) to ``path``; returns ``path``."""
        size = self._call("Page.getLayoutMetrics", {}, timeout)["cssContentSize"]
        clip = {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1}
        params = {"format": "png", "captureBeyondViewport": True, "clip": clip}
        data = self._call("Page.captureScreenshot", params, timeout)["data"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(data))
        return path

    def _call(self, method: str, params: dict[str, Any], timeout: float) -> dict[str, Any]:
        return self._pipe.call(method, params, self._session, timeout)

    def _events(self) -> list[dict[str, Any]]:
        return self._pipe.sessions[self._session].events


def _exception_text(details: dict[str, Any]) -> str:
    exception = details.get("exception", {})
    return str(exception.get("description") or exception.get("value") or details.get("text", "?"))


class Browser:
    """A headless chromium of our own, in its own process group and profile folder.

    Args:
        executable: The chromium to run (default: ``chromium_path()``).
        timeout: Seconds allowed for each step (start, each command, each page load).
    """

    def __init__(self, executable: str | None = None, timeout: float = TIMEOUT_S) -> None:
        found = executable or chromium_path()
        if found is None:
            raise BrowserError("chromium is not installed (Debian: apt-get install chromium)")
        self.executable = found
        self.timeout = timeout
        self._profile: tempfile.TemporaryDirectory[str] | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._pipe: _Pipe | None = None

    def __enter__(self) -> Browser:
        self.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def start(self) -> None:
        """Start chromium and check that it answers."""
        self._profile = tempfile.TemporaryDirectory(prefix="league-chromium-")
        profile = Path(self._profile.name)
        command_read, command_write = os.pipe()
        event_read, event_write = os.pipe()
        # Out of the way of 3 and 4, so that placing them there in the child cannot clobber either.
        child_in = fcntl.fcntl(command_read, fcntl.F_DUPFD_CLOEXEC, 10)
        child_out = fcntl.fcntl(event_write, fcntl.F_DUPFD_CLOEXEC, 10)
        os.close(command_read)
        os.close(event_write)

        def place_pipe() -> None:  # in the child, before exec: the pipe becomes descriptors 3 and 4
            os.dup2(child_in, 3)
            os.dup2(child_out, 4)

        become_subreaper()
        try:
            with (profile / "stderr.log").open("wb") as stderr:
                self._process = subprocess.Popen(
                    self._arguments(profile),
                    stdin=subprocess.DEVNULL,
                    stdout=stderr,
                    stderr=stderr,
                    close_fds=False,  # 3 and 4 must survive exec; every other descriptor of ours is close-on-exec
                    preexec_fn=place_pipe,
                    start_new_session=True,
                )
        except OSError as error:  # no such program, or not one
            for fd in (command_write, event_read):
                os.close(fd)
            self._profile.cleanup()
            self._profile = None
            raise BrowserError(f"could not start {self.executable}: {error}") from error
        finally:
            os.close(child_in)
            os.close(child_out)
        TRACKED.add(self._process.pid)  # its Popen reaps it, not the sandbox's orphan reaper
        self._pipe = _Pipe(command_write, event_read)
        try:
            self._pipe.call("Browser.getVersion", timeout=self.timeout)
        except BrowserError as error:
            said = self._stderr_tail(profile)  # before close() removes the profile folder it is in
            self.close()
            raise BrowserError(f"chromium did not start: {error}\n{said}") from error

    def _arguments(self, profile: Path) -> list[str]:
        arguments = [
            self.executable,
            "--headless",
            "--remote-debugging-pipe",
            f"--user-data-dir={profile}",
            "--disable-gpu",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-extensions",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--host-resolver-rules=MAP * ~NOTFOUND",  # no name resolves: a page cannot reach the network
            "--proxy-server=127.0.0.1:9",  # nor connect to an address without a name
            "--window-size=1280,900",
            "about:blank",
        ]
        if os.geteuid() == 0:
            arguments.append("--no-sandbox")  # chromium refuses to run as root with its own sandbox
        return arguments

    @staticmethod
    def _stderr_tail(profile: Path) -> str:
        try:
            return (profile / "stderr.log").read_bytes()[-2000:].decode(errors="replace")
        except OSError:
            return ""

    def open(self, path: Path, timeout: float | None = None) -> Page:
        """Load a local file in a new tab and wait for its load event.

        Args:
            path: The HTML file.
            timeout: Seconds for the load (default: the browser's).
        """
        if self._pipe is None:
            raise BrowserError("the browser is not started")
        wait = timeout or self.timeout
        target = self._pipe.call("Target.createTarget", {"url": "about:blank"}, timeout=wait)["targetId"]
        attached = self._pipe.call("Target.attachToTarget", {"targetId": target, "flatten": True}, timeout=wait)
        session = attached["sessionId"]
        self._pipe.sessions[session] = _Session()
        for domain in ("Page", "Runtime", "Network", "Log"):
            self._pipe.call(f"{domain}.enable", session=session, timeout=wait)
        navigated = self._pipe.call("Page.navigate", {"url": path.resolve().as_uri()}, session, wait)
        if navigated.get("errorText"):
            raise BrowserError(f"could not load {path}: {navigated['errorText']}")
        self._pipe.wait_event(session, "Page.loadEventFired", wait)
        return Page(self._pipe, target, session)

    def close(self) -> None:
        """Ask chromium to quit, then kill its process group (by its own id) and remove its profile."""
        if self._pipe is not None:
            try:
                self._pipe.call("Browser.close", timeout=CLOSE_TIMEOUT_S)
            except BrowserError:
                pass  # it may close the pipe before answering, or be gone already
            self._pipe.close()
            self._pipe = None
        if self._process is not None:
            leader = self._process.pid
            _wait_unreaped(leader, CLOSE_TIMEOUT_S)
            group = [pid for pid, fields in process_table().items() if int(fields[PGRP]) == leader and pid != leader]
            try:  # the leader's id is still ours (alive, or exited and not reaped): so is its group's
                os.killpg(leader, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self._process.wait(CLOSE_TIMEOUT_S)
            TRACKED.discard(leader)
            wait_gone(group, time.monotonic() + CLOSE_TIMEOUT_S)  # reaps the helpers we adopted
            self._process = None
        if self._profile is not None:
            self._profile.cleanup()
            self._profile = None


def _wait_unreaped(pid: int, timeout: float) -> None:
    """Wait up to ``timeout`` for our child ``pid`` to exit, leaving it unreaped so its id stays ours."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
            return
        time.sleep(0.02)
