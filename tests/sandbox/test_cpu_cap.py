"""A bot cannot take its opponent's CPU: its processes together get at most its cores (a cgroup quota).

The hog forks 58 spinning children, each in a session of its own (outside a cgroup, every session
is a scheduler autogroup that weighs as much as a whole bot), while its opponent works a fixed
amount per move. The jail caps the hog's processes together at ``limits.cores`` (1), so it reports
at most about one core, and its opponent plays on.
"""

import re
import sys
import time

import pytest

from sandbox.cgroups import CgroupSlot, cpu_cap_problem
from sandbox.jail import Sandbox
from sandbox.process import BotProcess
from sandbox.transport import Poller
from tests.conftest import bot_command

needs_cpu_cap = pytest.mark.skipif(cpu_cap_problem() is not None, reason=f"no CPU cap here: {cpu_cap_problem()}")


@needs_cpu_cap
def test_a_hog_with_many_sessions_gets_at_most_its_core_and_its_opponent_plays_on(play_json):
    victim = bot_command("v2048_fixed_work.py") + " 2000000"
    hog = bot_command("v2048_cpu_hog.py")
    # Long enough on any machine for the hog to report (it does once a quarter of a second has passed):
    # the victim's 2 million steps took 70 ms a turn on the slower of two machines seen, 35 ms would be
    # fast, so its 12 turns alone take 0.4 s at least.
    # This checks the cap, not the clock: the hog's replies wait behind its own 58 spinners inside its one
    # core, so on a loaded machine a turn took it 1,003 ms; time limits no loaded machine reaches.
    limits = ["--set", "turn_time_ms=20000", "--set", "total_time_ms=600000", "--set", "pregame_time_ms=20000"]
    data = play_json("versus2048", victim, hog, "--set", "turns_per_player=12", *limits, "--shared-folder")
    assert data["result"]["termination"] == "NORMAL", data["result"]["detail"]
    hog_text = "".join(tail["text"] for tail in data["stderr"] if tail["seat"] == 1)
    shares = [float(share) for share in re.findall(r"hog cores ([0-9.]+)", hog_text)]
    assert shares, f"the game ended before the hog had spun a quarter of a second; its stderr: {hog_text!r}"
    assert max(shares) <= 1.3, f"the hog's 58 processes took {max(shares)} cores together"


@needs_cpu_cap
def test_the_quota_is_the_bot_s_cores_and_its_weight_drops_while_it_is_not_asked():
    slot = CgroupSlot.create("captest", 64, 8, cores=1.5)
    try:
        assert slot.cpu_dir is not None
        quota = (slot.cpu_dir / "cpu.cfs_quota_us").read_text().strip()
        period = (slot.cpu_dir / "cpu.cfs_period_us").read_text().strip()
        assert int(quota) == int(1.5 * int(period))
        slot.thinking(False)
        assert (slot.cpu_dir / "cpu.shares").read_text().strip() == "2"
        slot.thinking(True)
        assert (slot.cpu_dir / "cpu.shares").read_text().strip() == "1024"
    finally:
        slot.destroy()
    assert not slot.cpu_dir.exists()


def test_validate_says_how_a_bot_s_cpu_is_capped():
    line = Sandbox().cpu_cap()
    if cpu_cap_problem() is None:
        assert line == "CPU: each bot's processes together capped at 1 core by a cgroup quota (limits.cores)"
    else:
        assert line.startswith("CPU: not capped (")


PONDERER = """
import sys, time
for line in sys.stdin:
    print(line.strip(), flush=True)
    if sys.argv[1] == "ponders":  # goes on computing on its opponent's time
        until = time.process_time() + 0.05
        while time.process_time() < until:
            pass
"""


def ask(process, poller, line):
    process.thinking(True)
    process.send(line.encode() + b"\n")
    deadline = time.monotonic() + 10
    while (event := process.take_line(False, True, None)) is None and time.monotonic() < deadline:
        poller.wait(0.05)
    process.thinking(False)
    return event


@needs_cpu_cap
@pytest.mark.parametrize("kind", ["waits", "ponders"])
def test_only_a_bot_seen_computing_on_others_time_loses_its_weight_between_requests(tmp_path, kind):
    script = tmp_path / "bot.py"
    script.write_text(PONDERER)
    tmp_path.chmod(0o755)
    process = BotProcess([sys.executable, str(script), kind], cwd=tmp_path, sandbox=Sandbox())
    poller = Poller()
    poller.add(process)
    try:
        for turn in range(3):
            assert ask(process, poller, f"turn {turn}").data == f"turn {turn}".encode()
            time.sleep(0.2)  # the opponent's time
        weight = (process.plan.cgroup.cpu_dir / "cpu.shares").read_text().strip()
    finally:
        poller.remove(process)
        process.close()
    assert process.ponders == (kind == "ponders")
    assert weight == ("2" if kind == "ponders" else "1024"), "the least weight while not asked, only for a ponderer"
