"""The test browser driver itself: it sees what goes wrong on a page, and leaves no process behind.

The report's browser tests pass when the driver finds no error and no request off the machine,
so the driver must be shown to find them when they are there.
"""

import os
from pathlib import Path

import pytest

from sandbox.procfs import PGRP, STATE, process_table
from tests.browser import Browser, BrowserError, chromium_path

pytestmark = pytest.mark.skipif(chromium_path() is None, reason="chromium is not installed (apt-get install chromium)")

BROKEN_PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>broken</title></head><body>
<p id="text">hello</p>
<img alt="remote" src="https://example.com/picture.png">
<img alt="missing" src="missing.png">
<script>console.error("a console error", 42); console.log("not an error");</script>
<script>throw new TypeError("an uncaught exception");</script>
</body></html>"""


def group_members(leader: int) -> list[int]:
    """The live (not zombie) processes of the process group ``leader`` leads."""
    return [pid for pid, f in process_table().items() if int(f[PGRP]) == leader and f[STATE] != "Z"]


def test_the_driver_reports_errors_failed_loads_and_requests_off_the_machine(tmp_path):
    page_file = tmp_path / "broken.html"
    page_file.write_text(BROKEN_PAGE)
    with Browser() as browser:
        page = browser.open(page_file)
        assert page.evaluate("document.getElementById('text').textContent") == "hello"
        assert page.evaluate("Promise.resolve(6 * 7)") == 42
        errors = page.console_errors()
        assert "console.error: a console error 42" in errors
        assert any(e.startswith("exception: TypeError: an uncaught exception") for e in errors), errors
        assert any(e.startswith("failed load: https://example.com/picture.png") for e in errors), errors
        assert any("missing.png" in e and "failed load" in e for e in errors), errors
        assert not any("not an error" in e for e in errors)
        assert page.foreign_requests() == ["https://example.com/picture.png"]
        assert page.requests()[0] == page_file.resolve().as_uri()
        with pytest.raises(BrowserError, match="ReferenceError"):
            page.evaluate("noSuchThing()")


def test_a_screenshot_covers_the_whole_page(tmp_path):
    page_file = tmp_path / "tall.html"
    page_file.write_text("<!doctype html><html><body style='margin:0'><div style='height:3000px;width:400px'></div>")
    with Browser() as browser:
        shot = browser.open(page_file).screenshot(tmp_path / "shots" / "tall.png")
    header = shot.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(header[16:20], "big"), int.from_bytes(header[20:24], "big")
    assert height == 3000 and width >= 400, (width, height)


def test_a_page_is_laid_out_again_at_the_width_asked_for(tmp_path):
    page_file = tmp_path / "wide.html"
    page_file.write_text("<!doctype html><html><body style='margin:0'><div id='full'>text</div>")
    with Browser() as browser:
        page = browser.open(page_file)
        page.resize(1400)
        assert page.evaluate("[window.innerWidth, document.getElementById('full').offsetWidth]") == [1400, 1400]
        page.resize(700, 500)
        laid_out = page.evaluate("[window.innerWidth, window.innerHeight, document.getElementById('full').offsetWidth]")
        assert laid_out == [700, 500, 700]


def test_closing_the_browser_ends_its_whole_process_group_and_removes_its_profile():
    browser = Browser()
    browser.start()
    leader = browser._process.pid
    profile = Path(browser._profile.name)
    assert group_members(leader), "chromium is not running"
    browser.close()
    assert group_members(leader) == []
    assert not profile.exists()
    with pytest.raises(ChildProcessError):
        os.waitpid(leader, os.WNOHANG)  # reaped already


def test_a_browser_that_cannot_start_says_so(tmp_path):
    fake = tmp_path / "chromium"
    fake.write_text("#!/bin/sh\necho 'no display, no luck' >&2\nexit 3\n")
    fake.chmod(0o755)
    with pytest.raises(BrowserError, match="no display, no luck"):
        Browser(str(fake), timeout=5).start()
    with pytest.raises(BrowserError, match="could not start"):
        Browser(str(tmp_path / "no-such-chromium")).start()
