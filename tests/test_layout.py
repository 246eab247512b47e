"""The project's layout, kept true: what each top-level package may import.

* ``engine/`` is pure rules: no league, no sandbox, no Ray, no processes.
* ``sandbox/`` runs one program and knows no game: no engine, no league.
* Ray appears in the runner alone; the schedule imports nothing of it.
* The command-line modules do not import each other; ``league/cli.py`` assembles them.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def imports_of(path: Path) -> set[str]:
    """Every module a file imports, at any depth of its code (lazy imports included)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def modules(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize(
    ("package", "forbidden"),
    [("engine", ("league", "sandbox", "ray", "subprocess")), ("sandbox", ("engine", "league", "ray"))],
)
def test_a_package_imports_nothing_it_must_not_know(package, forbidden):
    for path in modules(package):
        for name in imports_of(path):
            assert name.split(".")[0] not in forbidden, f"{path.relative_to(ROOT)} imports {name}"


def test_ray_is_imported_by_the_runner_its_worker_pool_and_its_session_alone():
    users = [
        p.relative_to(ROOT).as_posix() for p in modules("league") if "ray" in {n.split(".")[0] for n in imports_of(p)}
    ]
    assert sorted(users) == ["league/pool.py", "league/ray_session.py", "league/runner.py"]


def test_the_command_line_modules_do_not_import_each_other():
    commands = {p.stem: p for p in modules("league") if p.stem.startswith("cli_")}
    assert {"cli_args", "cli_play", "cli_league", "cli_games"} <= set(commands)
    for name, path in commands.items():
        imported = {module.removeprefix("league.") for module in imports_of(path)}
        others = imported & (set(commands) - {"cli_args"} | {"cli"})
        assert others == set(), f"{name} imports {others}"
