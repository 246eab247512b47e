"""What a two-node Ray cluster on loopback gets of a league's bots (the cluster is test_cluster.py's).

A bot without a ``cwd`` ships the folder of its script, never the reports of the leagues run
beside it; with ``cluster: {shared_path: true}`` a script named outside its bot's folder imports its
helper modules in the jail on every node.
"""

import json
import subprocess
import sys
from pathlib import Path

import yaml

from tests.league.cluster.test_cluster import (
    BOT_FILES,
    GENEROUS_CLOCKS,
    ROOT,
    LoopbackCluster,
    cluster,
    needs_bubblewrap,
)
from tests.league.cluster.test_shipping import bot_folder

__all__ = ["cluster"]  # the fixture, used by name


def script_folder(where: Path) -> Path:
    """A versus2048 script and the helper modules it imports, readable by the jailed bot."""
    return bot_folder(where)


def run_on(nodes: LoopbackCluster, folder: Path, name: str, bot: dict, **extra) -> list[dict]:
    """Run a league of ``bot`` against a built-in on the cluster; its stored results."""
    config = {
        "name": name,
        "game": "versus2048",
        "variants": {"short": {"turns_per_player": 10, **GENEROUS_CLOCKS}},
        "bots": [bot, {"name": "greedy", "builtin": "versus2048.greedy"}],
        "games_per_pair": 4,
        "concurrency": 2,
        **extra,
    }
    path = folder / f"{name}.yaml"
    path.write_text(yaml.safe_dump(config))
    command = [sys.executable, "-m", "league", "run", str(path), "--address", nodes.address, "--quiet"]
    run = subprocess.run(command, cwd=ROOT, env=nodes.driver_env(), capture_output=True, text=True, timeout=180)
    assert run.returncode == 0, run.stderr
    lines = (folder / "reports" / name / "games.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


@needs_bubblewrap
def test_bots_without_cwd_and_scripts_outside_their_folder_play_on_every_node(cluster, tmp_path):
    league = tmp_path / "league"
    script_folder(league / "bots" / "mine")
    (league / "reports" / "older").mkdir(parents=True)  # another league's report, beside this one's
    (league / "reports" / "older" / "games.jsonl").write_text('{"game_id": "x"}\n')
    for path in (tmp_path, league, league / "bots"):
        path.chmod(0o755)
    # 200 ms a reply: 2 s a game, so the worker on the slower-starting node (a loaded machine takes seconds
    # to start it) is up before the other has played all 4 games alone
    mine = {"name": "mine", "command": ["python3", "bots/mine/v2048_slow.py", "200"]}
    records = run_on(cluster, league, "nocwd", mine)
    assert {record["result"]["termination"] for record in records} == {"NORMAL"}, [r["result"] for r in records]
    assert {record["node"] for record in records} == set(cluster.node_ids.values()), "games on both nodes"
    for name in cluster.node_ids:  # each node unpacked only the script's folder, once
        [copy] = [entry for entry in cluster.cache(name).iterdir() if entry.is_dir()]
        shipped = sorted(path.relative_to(copy).as_posix() for path in copy.rglob("*"))
        assert shipped == ["bots", "bots/mine", *(f"bots/mine/{file}" for file in sorted(BOT_FILES))]

    other = script_folder(tmp_path / "other")  # the script and its helpers, outside the bot's folder
    (league / "bots" / "slow").mkdir()
    (league / "bots" / "slow").chmod(0o755)
    bot = {"name": "slow", "command": ["python3", f"{other}/v2048_slow.py", "200"], "cwd": "bots/slow"}  # as above
    records = run_on(cluster, league, "shared", bot, cluster={"shared_path": True})
    assert {record["result"]["termination"] for record in records} == {"NORMAL"}, [r["result"] for r in records]
    assert {record["node"] for record in records} == set(cluster.node_ids.values()), "games on both nodes"
