"""The tests' browser itself (playwright driving Debian's chromium): it sees what goes wrong, keeps pages local, leaves
no process behind.

The report's and the replays' browser tests pass when the page log finds no error and no page asks
for anything off the machine, so the log and the routes must be shown to catch them when they are there.
"""

import asyncio
import json
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from sandbox.procfs import STATE, stat_fields
from tests.browser import Chromium, assert_stayed_local, is_local, local_context, missing, page_log, refused
from tests.conftest import BROWSER

pytestmark = pytest.mark.skipif(missing() is not None, reason=missing() or "")
ROOT = Path(__file__).resolve().parents[1]

BROKEN_PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>broken</title></head><body>
<p id="text">hello</p>
<img alt="remote" src="https://example.com/picture.png">
<img alt="missing" src="missing.png">
<script>console.error("a console error", 42); console.log("not an error");</script>
<script>throw new TypeError("an uncaught exception");</script>
</body></html>"""

REACHING_PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>reaching</title></head><body>
<script>
const socket = new WebSocket("ws://example.com/socket");
window.tried = Promise.allSettled([
  fetch("http://93.184.215.14/stolen"),
  fetch("http://127.0.0.1.example.org/"),
  new Promise((closed) => socket.addEventListener("close", closed)),
]).then((outcomes) => outcomes.map((outcome) => outcome.status));
</script></body></html>"""


@pytest.fixture
def own_context(browser):
    """A local context the test inspects itself (the ``context`` fixture would fail the test for its refusals)."""
    opened = local_context(browser)
    yield opened
    opened.close()


def test_the_log_has_errors_failed_loads_and_requests_off_the_machine(own_context, tmp_path):
    page_file = tmp_path / "broken.html"
    page_file.write_text(BROKEN_PAGE)
    page = own_context.new_page()
    page.goto(page_file.as_uri())
    assert page.evaluate("document.getElementById('text').textContent") == "hello"
    assert page.evaluate("Promise.resolve(6 * 7)") == 42
    errors = page_log(page).errors()
    assert "console.error: a console error 42" in errors
    assert "exception: TypeError: an uncaught exception" in errors
    assert any(e.startswith("failed load: https://example.com/picture.png") for e in errors), errors
    assert any("missing.png" in e and "failed load" in e for e in errors), errors
    assert not any("not an error" in e for e in errors)
    assert page_log(page).foreign_requests() == ["https://example.com/picture.png"]
    assert page_log(page).requests()[0] == page_file.as_uri()
    assert refused(own_context) == ["https://example.com/picture.png"]
    from playwright.sync_api import Error

    with pytest.raises(Error, match="ReferenceError"):
        page.evaluate("noSuchThing()")


def test_a_page_reaching_off_the_machine_is_refused_every_way_and_fails_its_test(own_context, tmp_path):
    page_file = tmp_path / "reaching.html"
    page_file.write_text(REACHING_PAGE)
    page = own_context.new_page()
    page.goto(page_file.as_uri())
    assert page.evaluate("window.tried") == ["rejected", "rejected", "fulfilled"]  # no fetch got through; closed
    expected = ["http://93.184.215.14/stolen", "http://127.0.0.1.example.org/", "ws://example.com/socket"]
    assert sorted(refused(own_context)) == sorted(expected)
    with pytest.raises(AssertionError, match="93.184.215.14"):  # what the context fixture checks at a test's end
        assert_stayed_local(own_context)


def test_what_is_local():
    for url in ("file:///tmp/a.html", "data:text/html,x", "about:blank", "blob:null/1234"):
        assert is_local(url), url
    for url in ("http://127.0.0.1:8000/", "https://127.0.0.1/x", "ws://127.0.0.1:9/live"):
        assert is_local(url), url
    for url in (
        "http://example.com/",
        "https://93.184.215.14/",
        "http://127.0.0.1.example.org/",
        "http://127.0.0.1@example.org/",
        "http://localhost.example.org/",
        "ws://example.com/",
        "ftp://127.0.0.1/",
        "http://127.0.0.1:notaport/",
    ):
        assert not is_local(url), url


def test_a_page_of_a_server_on_127_0_0_1_loads(own_context):
    class Hello(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (http.server's name)
            body = b"<!doctype html><title>hello</title><p id='x'>served</p>"
            self.send_response(200 if self.path == "/" else 404)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Hello)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        page = own_context.new_page()
        url = f"http://127.0.0.1:{server.server_port}/"
        assert page.goto(url).status == 200
        assert page.evaluate("document.getElementById('x').textContent") == "served"
        page.goto(url + "missing")
        assert f"failed load: {url}missing status 404" in page_log(page).errors()
        assert refused(own_context) == []
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def test_a_full_page_screenshot_covers_the_whole_page(page, tmp_path):
    page_file = tmp_path / "tall.html"
    page_file.write_text("<!doctype html><html><body style='margin:0'><div style='height:3000px;width:400px'></div>")
    page.goto(page_file.as_uri())
    shot = tmp_path / "shots" / "tall.png"
    page.screenshot(path=shot, full_page=True)
    header = shot.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(header[16:20], "big"), int.from_bytes(header[20:24], "big")
    assert height == 3000 and width >= 400, (width, height)


def test_a_page_is_laid_out_again_at_the_size_asked_for(page, tmp_path):
    page_file = tmp_path / "wide.html"
    page_file.write_text("<!doctype html><html><body style='margin:0'><div id='full'>text</div>")
    page.goto(page_file.as_uri())
    assert page.evaluate("[window.innerWidth, window.innerHeight]") == [1280, 900]
    page.set_viewport_size({"width": 1400, "height": 900})
    assert page.evaluate("[window.innerWidth, document.getElementById('full').offsetWidth]") == [1400, 1400]
    page.set_viewport_size({"width": 700, "height": 500})
    laid_out = page.evaluate("[window.innerWidth, window.innerHeight, document.getElementById('full').offsetWidth]")
    assert laid_out == [700, 500, 700]


def test_a_test_after_a_browser_test_can_run_asyncio():
    """After the browser tests above (file order), this test takes no browser: the shared one was closed for it,
    since playwright's sync API marks an asyncio loop running in this thread while it lives."""
    assert BROWSER._chromium is None
    assert asyncio.run(asyncio.sleep(0, "ran")) == "ran"


def _alive(pid: int) -> bool:
    fields = stat_fields(pid)
    return fields is not None and fields[STATE] != "Z"


def test_closing_a_browser_ends_every_process_of_it_reaps_them_and_removes_its_profile(browser):
    chromium = Chromium(BROWSER.driver())
    chromium.start().new_page().goto("data:text/html,<p>a renderer runs this</p>")
    started = chromium.processes()
    kinds = {Path(f"/proc/{pid}/exe").resolve().name for pid in started}
    assert "chromium" in kinds, kinds
    assert len(started) >= 3, started  # the browser, its zygotes, a renderer at least
    arguments = Path(f"/proc/{chromium.pid}/cmdline").read_bytes().decode().split("\0")
    profile = Path(next(a for a in arguments if a.startswith("--user-data-dir=")).partition("=")[2])
    assert profile.is_dir()
    chromium.close()
    assert not profile.exists()
    assert [pid for pid in started if _alive(pid)] == []
    for pid in started:  # none is left as a zombie of ours
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)
    assert browser.new_page().evaluate("1 + 1") == 2  # the shared browser goes on


LIFECYCLE = """
import json, os
from sandbox.procfs import STATE, process_table
from tests.conftest import BROWSER
from tests.browser import Chromium, Driver

driver = Driver()
driver.start()
chromium = Chromium(driver)
chromium.start().new_page().goto("data:text/html,<p>hello</p>")
started = [driver.pid, *chromium.processes()]
chromium.close()
driver.stop()
table = process_table()
print(json.dumps({
    "started": started,
    "left": [pid for pid in started if pid in table],  # alive or a zombie
    "children": [pid for pid, f in table.items() if int(f[1]) == os.getpid()],
}))
"""


def test_stopping_the_driver_leaves_no_process_of_it_or_of_chromium():
    done = subprocess.run(
        [sys.executable, "-c", LIFECYCLE],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert len(seen["started"]) >= 4 and None not in seen["started"], seen
    assert seen["left"] == [] and seen["children"] == [], seen
    assert [pid for pid in seen["started"] if _alive(pid)] == []  # nothing came back to us either


def test_a_browser_that_cannot_start_says_so(browser, tmp_path):
    from playwright.sync_api import Error

    fake = tmp_path / "chromium"
    fake.write_text("#!/bin/sh\necho 'no display, no luck' >&2\nexit 3\n")
    fake.chmod(0o755)
    chromium = Chromium(BROWSER.driver(), str(fake))
    with pytest.raises(Error, match="no display, no luck"):
        chromium.start()
    assert chromium.browser is None and chromium.processes() == []
    with pytest.raises(Error, match="no-such-chromium"):
        Chromium(BROWSER.driver(), str(tmp_path / "no-such-chromium")).start()
