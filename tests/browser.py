"""Headless chromium for tests through playwright: Debian's chromium, pages kept to this machine.

Playwright cannot download its own browsers here, so it drives the system's chromium
(``executable_path``). A context made by ``local_context`` lets its pages load only what is on
this machine: file:, data:, about: and blob: URLs, and http(s)/ws(s) to 127.0.0.1 (a test's own
server); any other request is refused and noted in ``refused(context)`` (the ``context`` fixture
of tests/conftest.py fails the test then). Each of its pages is watched from its start:
``page_log(page)`` has what went wrong on it and every URL it asked for.

``Driver`` is playwright's driver process, ``Chromium`` one browser it runs; closing either waits
until its processes are gone, reaping chromium's helpers that came back to us. ``Shared`` is the
pair the tests' ``browser`` fixture hands out. Tests use playwright's own API on the rest:

    shared = Shared()
    context = local_context(shared.browser())
    page = context.new_page()
    page.goto(Path("reports/tiny/index.html").resolve().as_uri())
    page.set_viewport_size({"width": 1400, "height": 900})
    assert page_log(page).errors() == [] and refused(context) == []
    page.screenshot(path="shot.png", full_page=True)
    shared.close()
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit
from weakref import WeakKeyDictionary

from sandbox.procfs import STATE, children_of, descendants, process_table, stat_fields
from sandbox.reaper import become_subreaper, wait_gone

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, Playwright, Request, Response

CHROMIUM = "/usr/bin/chromium"
CLOSE_TIMEOUT_S = 10.0
VIEWPORT = {"width": 1280, "height": 900}
LOCAL_SCHEMES = ("file", "data", "about", "blob")
SERVER_SCHEMES = ("http", "https", "ws", "wss")
LOCAL_HOST = "127.0.0.1"
ARGUMENTS = [  # a second wall behind the routes (a request they miss, such as a worker's, finds no network)
    f"--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE {LOCAL_HOST}",  # no name resolves
    "--proxy-server=127.0.0.1:9",  # nor does an address without a name connect (loopback bypasses a proxy)
]

_REFUSED: WeakKeyDictionary[BrowserContext, list[str]] = WeakKeyDictionary()
_LOGS: WeakKeyDictionary[Page, PageLog] = WeakKeyDictionary()


def chromium_path() -> str | None:
    """Debian's chromium, or another on the PATH; None when there is none."""
    if os.access(CHROMIUM, os.X_OK):
        return CHROMIUM
    return shutil.which("chromium")


def missing() -> str | None:
    """Why the browser tests cannot run here (what to install), or None when they can."""
    if importlib.util.find_spec("playwright") is None:
        return "playwright is not installed (pip install -e '.[test]' -c constraints.txt; .ci/run installs it)"
    if chromium_path() is None:
        return "chromium is not installed (apt-get install chromium; .ci/run installs it)"
    return None


def is_local(url: str) -> bool:
    """Whether a page may load ``url``: this machine's files and data, or a server on 127.0.0.1."""
    parts = urlsplit(url)
    if parts.scheme in LOCAL_SCHEMES:
        return True
    try:  # reading the port checks it
        return parts.scheme in SERVER_SCHEMES and parts.hostname == LOCAL_HOST and parts.port != 0
    except ValueError:  # a malformed port
        return False


class PageLog:
    """What one page did: what went wrong on it, and every URL it asked for, in order of arrival.

    Args:
        page: The page to watch, from its start (see ``watch``).
    """

    def __init__(self, page: Page) -> None:
        self._page = page
        self._errors: list[str] = []
        self._requests: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", self._exception)
        page.on("request", self._request)
        page.on("requestfailed", self._failed)
        page.on("response", self._response)

    def errors(self) -> list[str]:
        """Uncaught exceptions, ``console.error`` and ``console.assert`` calls (chromium's own load
        errors among them), failed loads and answers of status 400 or more, in order of arrival.

        Waits 50 ms first for the page's last events, as long as the page is open.
        """
        self._settle()
        return list(self._errors)

    def requests(self) -> list[str]:
        """The URL of every request the page made, in order (refused ones too)."""
        self._settle()
        return list(self._requests)

    def foreign_requests(self) -> list[str]:
        """The requests the page made for anything off this machine (all refused)."""
        return [url for url in self.requests() if not is_local(url)]

    def _settle(self) -> None:
        if not self._page.is_closed():
            self._page.wait_for_timeout(50)

    def _console(self, message: ConsoleMessage) -> None:
        if message.type in ("error", "assert"):
            self._errors.append(f"console.{message.type}: {message.text}")

    def _exception(self, error: Any) -> None:
        name = getattr(error, "name", "")
        self._errors.append(f"exception: {name}: {error.message}" if name else f"exception: {error.message}")

    def _request(self, request: Request) -> None:
        self._requests.append(request.url)

    def _failed(self, request: Request) -> None:
        self._errors.append(f"failed load: {request.url} {request.failure}")

    def _response(self, response: Response) -> None:
        if response.status >= 400:
            self._errors.append(f"failed load: {response.url} status {response.status}")


def watch(page: Page) -> PageLog:
    """Start keeping ``page``'s log (``local_context`` does it for each of its pages as it opens)."""
    if page not in _LOGS:
        _LOGS[page] = PageLog(page)
    return _LOGS[page]


def page_log(page: Page) -> PageLog:
    """The log of a page of a ``local_context``."""
    if page not in _LOGS:
        raise LookupError("this page is not watched: open it in a local_context, or watch() it before loading")
    return _LOGS[page]


def refused(context: BrowserContext) -> list[str]:
    """The URLs off this machine that pages of a ``local_context`` asked for, refused, in order."""
    return list(_REFUSED[context])


def assert_stayed_local(context: BrowserContext) -> None:
    """Fail (AssertionError) if a page of a ``local_context`` asked for anything off this machine."""
    tried = refused(context)
    assert tried == [], f"a page asked for something off this machine (refused): {tried}"


def local_context(browser: Browser, **options: Any) -> BrowserContext:
    """A new context (its own cookies and storage) whose pages load only local content and are watched.

    Args:
        browser: The browser.
        **options: For ``browser.new_context`` (default viewport: 1,280 x 900 CSS pixels, scale 1).
    """
    context = browser.new_context(**{"viewport": VIEWPORT, "device_scale_factor": 1, **options})
    noted = _REFUSED.setdefault(context, [])

    def route(route: Any) -> None:
        if is_local(route.request.url):
            route.continue_()
        else:
            noted.append(route.request.url)
            route.abort("blockedbyclient")

    def route_socket(socket: Any) -> None:
        noted.append(socket.url)
        socket.close()

    context.route("**/*", route)
    context.route_web_socket(lambda url: not is_local(url), route_socket)
    context.on("page", watch)
    return context


class Driver:
    """Playwright's driver (a node process of ours), which runs the browsers; one at a time in a process.

    While it runs, playwright's sync API keeps its asyncio loop marked as running in this thread:
    ``asyncio.run`` here fails until ``stop``. We make ourselves a child subreaper first (as the
    referee is), so that chromium's helpers, orphaned when it is killed, come back to us (not to
    init) and are reaped.
    """

    def __init__(self) -> None:
        self.playwright: Playwright | None = None
        self.pid: int | None = None

    def start(self) -> Playwright:
        """Start the driver; returns playwright's sync API object."""
        from playwright.sync_api import sync_playwright

        become_subreaper()
        before = _our_children()
        self.playwright = sync_playwright().start()
        self.pid = next((pid for pid in _our_children() - before if "run-driver" in _command_line(pid)), None)
        return self.playwright

    def stop(self) -> None:
        """Stop the driver (and any browser still open) and wait until its process is gone."""
        if self.playwright is not None:
            self.playwright.stop()  # its own loop waits for (and reaps) the driver process
            self.playwright = None
        deadline = time.monotonic() + CLOSE_TIMEOUT_S
        while self.pid is not None and _alive(self.pid) and time.monotonic() < deadline:
            time.sleep(0.01)  # not reaped here: its asyncio child watcher does that
        self.pid = None


class Chromium:
    """One headless chromium of ours, run by playwright's driver; ``close`` ends all its processes and reaps them.

    Args:
        driver: The started driver.
        executable: The chromium to run (default: ``chromium_path()``).
    """

    def __init__(self, driver: Driver, executable: str | None = None) -> None:
        self.driver = driver
        self.executable = executable or chromium_path() or CHROMIUM
        self.browser: Browser | None = None
        self.pid: int | None = None
        self._before: set[int] = set()
        self._folders: set[str] = set()

    def __enter__(self) -> Browser:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.close()

    def start(self) -> Browser:
        """Start chromium (headless; with its own sandbox unless we are root) and connect to it.

        Raises:
            playwright.sync_api.Error: It did not start (its output is in the message).
        """
        if self.driver.playwright is None:
            raise RuntimeError("start the driver first")
        self._before = _our_children()
        before = set(_children(self.driver.pid))
        self.browser = self.driver.playwright.chromium.launch(
            executable_path=self.executable,
            headless=True,
            chromium_sandbox=os.geteuid() != 0,  # chromium refuses to run as root with its sandbox
            args=ARGUMENTS,
        )
        self.pid = next((pid for pid in _children(self.driver.pid) if pid not in before), None)
        self._folders = {folder for folder in map(_program_folder, self._below()) if folder}
        return self.browser

    def processes(self) -> list[int]:
        """Our chromium's live processes: the browser and those below it, and its helpers adopted by us."""
        below = self._below()
        adopted = [pid for pid in _our_children() - self._before if _program_folder(pid) in self._folders]
        return below + [pid for pid in adopted if pid not in below]

    def close(self) -> None:
        """Close chromium, then wait until every process of it is gone (reaping those that came back to us)."""
        left = self.processes()
        try:
            if self.browser is not None:
                self.browser.close()
        finally:
            self.browser = None
            wait_gone(left, time.monotonic() + CLOSE_TIMEOUT_S)

    def _below(self) -> list[int]:
        if self.pid is None or not _alive(self.pid):
            return []
        return descendants(self.pid, children_of(_live_table()))


class Shared:
    """The driver and browser that consecutive browser tests share: started for the first, closed before any other
    test (which may need asyncio in this thread) and at the end of the session."""

    def __init__(self) -> None:
        self._driver: Driver | None = None
        self._chromium: Chromium | None = None

    def driver(self) -> Driver:
        """The running driver (the browser's), started if need be."""
        self.browser()
        assert self._driver is not None
        return self._driver

    def browser(self) -> Browser:
        """The running browser, started (again, if it went away) if need be."""
        running = self._chromium.browser if self._chromium is not None else None
        if running is None or not running.is_connected():
            self.close()
            self._driver = Driver()
            self._driver.start()
            self._chromium = Chromium(self._driver)
            try:
                self._chromium.start()
            except BaseException:
                self.close()
                raise
        assert self._chromium.browser is not None
        return self._chromium.browser

    def close(self) -> None:
        """Close the browser and stop the driver, if they run."""
        try:
            if self._chromium is not None:
                self._chromium.close()
        finally:
            self._chromium = None
            if self._driver is not None:
                self._driver.stop()
            self._driver = None


def _live_table() -> dict[int, list[str]]:
    return {pid: fields for pid, fields in process_table().items() if fields[STATE] != "Z"}


def _children(pid: int | None) -> list[int]:
    return [] if pid is None else children_of(_live_table()).get(pid, [])


def _our_children() -> set[int]:
    return set(_children(os.getpid()))


def _alive(pid: int) -> bool:
    fields = stat_fields(pid)
    return fields is not None and fields[STATE] != "Z"


def _command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _program_folder(pid: int) -> str | None:
    """The folder of the program ``pid`` runs (None when it cannot be read, as for a zombie)."""
    try:
        return os.path.dirname(os.readlink(f"/proc/{pid}/exe"))
    except OSError:
        return None
