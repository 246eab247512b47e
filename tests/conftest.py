"""Shared test helpers: where the fake bots live, and running the CLI in-process."""

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from league.cli.main import main
from league.stats.game_record import GameRecord
from sandbox.procfs import STATE, children_of, descendants, process_table, stat_fields
from tests.browser import Shared, assert_stayed_local, local_context, missing

BOTS = Path(__file__).resolve().parent / "bots"
SPIN = "while True: pass"


def typed(lines: Any) -> list[GameRecord]:
    """Records a test wrote as ``games.jsonl`` lines (dicts), read as the store reads them (``GameRecord``)."""
    return [GameRecord.from_json(line) for line in lines]


def pytest_addoption(parser: pytest.Parser) -> None:
    """``--busy N``: keep N spinning processes a core beside the whole session, as on a loaded machine."""
    parser.addoption(
        "--busy",
        type=int,
        default=0,
        metavar="N",
        help="run the suite with N spinning processes per core beside it (a busy machine; 0: none)",
    )


@pytest.fixture(scope="session", autouse=True)
def own_digest_cache(tmp_path_factory: pytest.TempPathFactory):
    """The session's own cache of bot file digests (``league.plan.file_digests``), never the user's."""
    from league.plan.file_digests import CACHE_VARIABLE

    before = os.environ.get(CACHE_VARIABLE)
    os.environ[CACHE_VARIABLE] = str(tmp_path_factory.mktemp("digests") / "file-digests.json")
    yield
    if before is None:
        os.environ.pop(CACHE_VARIABLE, None)
    else:
        os.environ[CACHE_VARIABLE] = before


@pytest.fixture(scope="session", autouse=True)
def busy_machine(request: pytest.FixtureRequest):
    """With ``--busy N``: N spinners a core, at the tests' own priority, for the whole session.

    Every test must pass on a machine that other work keeps busy; this is how the suite shows it.
    The spinners are this session's own children and are stopped by their own ids at the end.
    """
    per_core = request.config.getoption("--busy")
    spinners = [
        subprocess.Popen([sys.executable, "-c", SPIN], stdin=subprocess.DEVNULL)
        for _ in range(per_core * (os.cpu_count() or 1))
    ]
    yield len(spinners)
    for spinner in spinners:
        spinner.kill()
        spinner.wait()


def with_ctrl_c() -> None:
    """For ``Popen(preexec_fn=...)``: Ctrl-C back to its default in a child we will interrupt.

    A shell starts background jobs with SIGINT ignored (``nohup``, ``&``), and a child inherits
    that: its Ctrl-C would do nothing, which is right for such a job and wrong for a test of Ctrl-C.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def bot_command(script: str) -> str:
    """A BOT argument running one of tests/bots/ with this Python."""
    return f"{sys.executable} {BOTS / script}"


def program_in_own_folder(folder: Path, name: str, script: str, *args: str) -> dict[str, Any]:
    """A bot spec running ``script`` of tests/bots/ from a folder of its own, ``folder / name``.

    The folder gets the script and the shared toolkits it imports (botio, v2048lib), so each bot's
    jail shows only its own copy.
    """
    own = folder / name
    own.mkdir()
    for module in (script, "botio.py", "v2048lib.py"):
        shutil.copy(BOTS / module, own)
    return {"name": name, "command": [sys.executable, script, *args], "cwd": str(own)}


def script_bot(folder: Path, name: str, source: str) -> str:
    """Write a one-off Python bot into ``folder`` (made readable for the jailed bot); its BOT argument."""
    folder.chmod(0o755)
    (folder / name).write_text(source)
    return f"{sys.executable} {folder / name}"


def seated(bot: str, seat: int, other: str = "greedy") -> list[str]:
    """The two BOT arguments of a match with ``bot`` at ``seat`` and ``other`` at the other seat."""
    return [bot, other] if seat == 0 else [other, bot]


def own_processes() -> list[tuple[int, int, str]]:
    """(pid, uid, command line) of every live process this test session started, at any depth.

    The referee adopts what its bots leave behind (it is a child subreaper), so a bot process that
    outlived its game is still found here, and processes of other runs on the machine never are.
    """
    live = {pid: fields for pid, fields in process_table().items() if fields[STATE] != "Z"}
    mine = descendants(os.getpid(), children_of(live))[1:]
    found = []
    for pid in mine:
        try:
            uid = int(Path(f"/proc/{pid}/status").read_text().split("Uid:")[1].split()[0])
            args = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
        except (OSError, IndexError):
            continue
        found.append((pid, uid, args))
    return found


def processes_below(pid: int, script: str) -> list[int]:
    """Live processes below ``pid`` (not ``pid`` itself) whose command line mentions ``script``."""
    live = {child: fields for child, fields in process_table().items() if fields[STATE] != "Z"}
    found = []
    for child in descendants(pid, children_of(live))[1:]:
        try:
            if script.encode() in Path(f"/proc/{child}/cmdline").read_bytes():
                found.append(child)
        except OSError:
            continue
    return found


def alive(pid: int) -> bool:
    """Whether process ``pid`` is running (a zombie is not)."""
    fields = stat_fields(pid)
    return fields is not None and fields[STATE] != "Z"


def bot_processes(script: str) -> list[str]:
    """The command lines of our own live processes that mention ``script`` (none once a game is over)."""
    return [args for _, _, args in own_processes() if script in args]


def refusal(league_cli, *args: str) -> str:
    """Run ``league ARGS``: it must stop with one line, exit status 2 and nothing on stdout; that line."""
    status, out, err = league_cli(*args)
    assert (status, out) == (2, ""), err
    assert err.startswith("league: error: ") and err.count("\n") == 1, err
    return err.strip()


def assert_forfeited(result: dict, seat: int, termination: str, reason: str, words: list[str]) -> None:
    """A ``league play --json`` result lost by ``seat`` for a fault, with a detail naming it and ``words``."""
    assert result["termination"] == termination
    assert result["reason_code"] == reason
    assert result["winner"] == 1 - seat
    assert result["offenders"] == [seat]
    assert result["ranks"][seat] == 2
    assert f"seat {seat}" in result["detail"]
    for word in words:
        assert word in result["detail"], result["detail"]


def assert_programs_agree(play_json, *args: str) -> None:
    """``league play ARGS`` gives the same result and plies with the built-ins run as programs."""
    in_process = play_json(*args)
    as_programs = play_json(*args, "--programs")
    assert as_programs["result"] == in_process["result"]
    assert as_programs["plies"] == in_process["plies"]


@pytest.fixture
def league_cli(capsys):
    """Run ``league ARGS``; returns (exit status, stdout, stderr)."""

    def run(*args: str):
        status = main(list(args))
        out, err = capsys.readouterr()
        return status, out, err

    return run


@pytest.fixture
def play_json(league_cli):
    """Run ``league play ... --json`` and return the parsed object."""

    def run(*args: str):
        status, out, err = league_cli("play", *args, "--json")
        assert status == 0, err
        return json.loads(out)

    return run


@pytest.fixture
def ray_local():
    """The one local Ray cluster the Ray tests share (started on first use, 2 CPUs)."""
    import ray

    if not ray.is_initialized():
        ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    return ray


def write_league(folder, **overrides) -> Path:
    """A small versus2048 league file of built-in bots in ``folder``; keys may be overridden."""
    import yaml

    config = {
        "name": "tiny",
        "game": "versus2048",
        "variants": {"short": {"turns_per_player": 15}},
        "bots": [
            {"name": "random", "builtin": "versus2048.random"},
            {"name": "greedy", "builtin": "versus2048.greedy"},
            {"name": "minimax", "builtin": "versus2048.minimax", "params": {"max_nodes": 500}},
        ],
        "games_per_pair": 2,
        "seed": 7,
        "concurrency": 2,
        "output": str(Path(folder) / "out"),
    }
    config.update(overrides)
    path = Path(folder) / "league.yaml"
    path.write_text(yaml.safe_dump(config))
    return path


BROWSER = Shared()
"""The headless chromium that consecutive browser tests share (see ``browser``)."""


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Before a test that takes no browser: close the shared one, so that its loop cannot get in the test's way."""
    if "browser" not in getattr(item, "fixturenames", ()):
        BROWSER.close()


def pytest_sessionfinish(session: pytest.Session) -> None:
    """At the end: close the shared browser, with all its processes and playwright's driver."""
    BROWSER.close()


@pytest.fixture
def browser():
    """The headless chromium (playwright's ``Browser``) that consecutive browser tests share; skips without one.

    Debian's chromium driven by playwright (tests/browser.py), started for the first browser test
    and closed, its processes and playwright's driver gone, before any test that takes no browser
    (playwright's sync API keeps an asyncio loop marked running in this thread while it lives: a
    browser test that needs asyncio runs it in a thread of its own, as a test server does) and
    at the end of the session. Tests take a ``page`` (or a ``context``), not the browser.
    """
    reason = missing()
    if reason is not None:
        pytest.skip(reason)
    return BROWSER.browser()


@pytest.fixture
def context(browser):
    """A fresh browser context of the test's own (playwright's ``BrowserContext``) whose pages load only local content.

    Pages may load file:, data:, about: and blob: URLs and http(s)/ws(s) to 127.0.0.1 (a test's
    own server); any other request is refused, and the test fails at its end if a page tried one.
    Every page opened in it (``context.new_page()``) is watched: ``page_log(page)`` of tests/browser.py.
    """
    opened = local_context(browser)
    try:
        yield opened
    finally:
        opened.close()
    assert_stayed_local(opened)


@pytest.fixture
def page(context):
    """A fresh page (playwright's sync ``Page``, 1,280 x 900) in the test's own ``context``.

    Use playwright's Page API; what went wrong on it is in ``page_log(page)``::

        from tests.browser import page_log

        def test_x(page):
            page.goto(url)  # a file's path.resolve().as_uri(), or a test server's "http://127.0.0.1:PORT/"
            assert page.evaluate("document.title") == "tiny"
            page.set_viewport_size({"width": 1400, "height": 900})
            assert page_log(page).errors() == [] and page_log(page).foreign_requests() == []
    """
    return context.new_page()


def play_in_process(path: Path) -> tuple[Any, list[Any]]:
    """Play every game of a league file in this process (no Ray), storing each; its League and schedule.

    The league's output folder gets its manifest and store, as ``league run`` would leave them
    (no report; the seed published once every game is stored).
    """
    from league.cluster.runner import league_setup, schedule
    from league.cluster.worker import play_game
    from league.plan.config import load_league
    from league.plan.manifest import publish_seed, write_manifest
    from league.plan.seed import league_seed
    from league.store.results import ResultStore

    league = load_league(path)
    seed = league_seed(league)
    specs = schedule(league)
    setup = league_setup(league)
    league.output.mkdir(parents=True)
    write_manifest(league, seed, specs)
    store = ResultStore(league.output / "games.jsonl")
    for spec in specs:
        store.append(play_game(spec.to_json(), setup))
    store.close()
    publish_seed(league, seed)
    return league, specs


def run_jailed(sandbox: Any, argv: list[str], cwd: Path, **plan_options: Any) -> subprocess.CompletedProcess[str]:
    """Run one command through ``sandbox``'s launch plan (its seccomp filter's descriptor passed), then clean up."""
    plan = sandbox.plan(argv, cwd, **plan_options)
    try:
        return subprocess.run(
            plan.argv, cwd=plan.cwd, pass_fds=plan.pass_fds, capture_output=True, text=True, timeout=60
        )
    finally:
        plan.cleanup()
