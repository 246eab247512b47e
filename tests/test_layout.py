"""The project's layout, kept true: which package and which wing of ``league/`` may import which.

* ``engine/`` is pure rules: no league, no sandbox, no Ray, no processes.
* ``sandbox/`` runs one program and knows no game: no engine, no league.
* ``league/`` is in wings (one subpackage a concern). A wing imports only wings on a floor below
  its own (``FLOORS``, bottom first), never one beside it: ``match`` and ``stats`` at the bottom
  beside ``engine/`` and ``sandbox/``, then ``store``, ``plan``, ``cluster`` and ``replay``,
  ``report`` and ``live`` (games shown as they are played), ``contest`` (a live contest), ``serve`` (its
  web pages), and ``cli`` on top.
* Ray appears in ``league/cluster/`` alone: its runner, worker pool and session.
* The command modules do not import each other; ``league/cli/main.py`` assembles them.
* Tests mirror the wings: ``tests/league/<wing>/`` holds the tests of ``league/<wing>/``.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

FLOORS = [
    ("match", "stats"),
    ("store",),
    ("plan",),
    ("cluster", "replay"),
    ("report", "live"),
    ("contest",),
    ("serve",),
    ("cli",),
]
"""The wings of ``league/``, bottom floor first."""

FLOOR_OF = {wing: level for level, wings in enumerate(FLOORS) for wing in wings}


def imports_of(path: Path) -> set[str]:
    """Every module a file imports, at any depth of its code (lazy imports included)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            if node.module == "league":
                found |= {f"league.{alias.name}" for alias in node.names}
    return found


def modules(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


def wing_of(module: str) -> str | None:
    """The wing a dotted ``league.`` module name belongs to (None for the package itself)."""
    parts = module.split(".")
    return parts[1] if parts[0] == "league" and len(parts) > 1 else None


@pytest.mark.parametrize(
    ("package", "forbidden"),
    [("engine", ("league", "sandbox", "ray", "subprocess")), ("sandbox", ("engine", "league", "ray"))],
)
def test_a_package_imports_nothing_it_must_not_know(package, forbidden):
    for path in modules(package):
        for name in imports_of(path):
            assert name.split(".")[0] not in forbidden, f"{path.relative_to(ROOT)} imports {name}"


def test_league_is_wings_and_nothing_else():
    loose = sorted(p.name for p in (ROOT / "league").glob("*.py"))
    assert loose == ["__init__.py", "__main__.py"]
    folders = {p.name for p in (ROOT / "league").iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert folders == set(FLOOR_OF)


@pytest.mark.parametrize("wing", sorted(FLOOR_OF))
def test_each_wing_says_what_it_holds_and_what_it_may_import(wing):
    doc = ast.get_docstring(ast.parse((ROOT / "league" / wing / "__init__.py").read_text()))
    assert doc and "May import" in doc
    for path in modules(f"league/{wing}"):
        if path.name != "__init__.py":
            assert path.stem in doc or path.parent.name in doc, f"{wing}'s docstring does not name {path.name}"


@pytest.mark.parametrize("wing", sorted(FLOOR_OF))
def test_a_wing_imports_only_wings_below_it(wing):
    for path in modules(f"league/{wing}"):
        for name in imports_of(path):
            other = wing_of(name)
            if other is None or other == wing:
                continue
            assert other in FLOOR_OF, f"{path.relative_to(ROOT)} imports {name}, in no wing"
            assert FLOOR_OF[other] < FLOOR_OF[wing], (
                f"{path.relative_to(ROOT)} imports {name}: {wing} may not import {other} (FLOORS)"
            )


def test_the_package_entry_points_import_only_the_command_line():
    assert {wing_of(n) for n in imports_of(ROOT / "league" / "__main__.py") if wing_of(n)} == {"cli"}
    assert imports_of(ROOT / "league" / "__init__.py") == set()


def test_ray_is_imported_by_the_cluster_wing_alone():
    users = [
        p.relative_to(ROOT).as_posix() for p in modules("league") if "ray" in {n.split(".")[0] for n in imports_of(p)}
    ]
    assert sorted(users) == [
        "league/cluster/live_tap.py",
        "league/cluster/pool.py",
        "league/cluster/runner.py",
        "league/cluster/session.py",
    ]


def test_the_command_line_modules_do_not_import_each_other():
    shared = {"args", "league_file", "cluster_join", "plan_text", "standings_table"}  # what command modules may import
    commands = {p.stem: p for p in modules("league/cli") if p.stem not in {"__init__", "main"} | shared}
    assert {"play", "run", "games", "replay"} <= set(commands)
    for name, path in commands.items():
        imported = {
            module.removeprefix("league.cli.") for module in imports_of(path) if module.startswith("league.cli")
        }
        assert imported <= shared, f"league/cli/{name}.py imports {imported - shared}"


def test_the_tests_mirror_the_wings():
    folders = {p.name for p in (ROOT / "tests" / "league").iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert folders == set(FLOOR_OF)
    assert sorted(p.name for p in (ROOT / "tests" / "league").glob("*.py")) == ["__init__.py"]


def test_the_readme_maps_every_module_of_every_wing():
    readme = (ROOT / "README.md").read_text()
    for wing in FLOOR_OF:
        row = next((line for line in readme.splitlines() if line.startswith(f"| `league/{wing}/` |")), None)
        assert row is not None, f"README.md's layout table has no row for league/{wing}/"
        for path in modules(f"league/{wing}"):
            if path.name != "__init__.py":
                assert f"`{path.name}`" in row, f"README.md's league/{wing}/ row does not name {path.name}"


FORMAT_NAMES = {"round_robin", "gauntlet", "tables", "solo", "sprt", "adaptive", "knockout", "swiss"}
"""The formats' names (``league.plan.formats``): the runner, the command line and the schedule never branch on them."""

NO_FORMAT_BRANCHES = ["league/cluster", "league/cli", "league/plan/league_schedule.py"]


def format_name_branches(source: str, label: str) -> list[str]:
    """Where ``source`` compares something with a format's name (``==``, ``!=``, ``in`` a tuple of names, ``case``)."""

    def names_in(node: ast.AST) -> set[str]:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return {node.value} & FORMAT_NAMES
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            return set().union(*(names_in(item) for item in node.elts))
        return set()

    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            named = set().union(*(names_in(side) for side in [node.left, *node.comparators]))
        elif isinstance(node, ast.MatchValue):
            named = names_in(node.value)
        else:
            continue
        if named:
            found.append(f"{label}:{node.lineno} compares with {', '.join(sorted(named))}")
    return found


def test_no_format_name_is_branched_on_outside_the_formats():
    places = [ROOT / place for place in NO_FORMAT_BRANCHES]
    files = [path for place in places for path in ([place] if place.is_file() else sorted(place.rglob("*.py")))]
    assert len(files) > 10
    found = [branch for path in files for branch in format_name_branches(path.read_text(), str(path.relative_to(ROOT)))]
    assert found == [], "a format's own module says what it does (league.plan.formats): " + "; ".join(found)


def test_the_format_name_check_finds_a_branch():
    source = 'if c.format == "sprt" or f in ("solo", "x") or "tables" != f:\n    pass\n'
    source += 'match f:\n    case "swiss":\n        pass\n'
    assert format_name_branches(source, "f.py") == [
        "f.py:1 compares with sprt",
        "f.py:1 compares with solo",
        "f.py:1 compares with tables",
        "f.py:4 compares with swiss",
    ]
    assert format_name_branches('label = "tables" if many else "table"\nif kind == "pairs":\n    pass\n', "g.py") == []


def module_name(path: Path) -> str:
    """The dotted name of a module file (a package by its ``__init__.py``)."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def loading_imports_of(path: Path) -> set[str]:
    """The modules a file imports as it is loaded: its top-level imports, those under ``if TYPE_CHECKING:`` aside."""
    found = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            continue
        for inner in [node] if not isinstance(node, ast.Try | ast.If) else list(ast.walk(node)):
            if isinstance(inner, ast.Import):
                found |= {alias.name for alias in inner.names}
            elif isinstance(inner, ast.ImportFrom) and inner.module:
                found.add(inner.module)
    return found


def import_circle(graph: dict[str, set[str]]) -> list[str] | None:
    """A circle of imports in ``graph`` (module: the modules of the graph it imports), or None."""
    state: dict[str, str] = {}

    def visit(module: str, path: list[str]) -> list[str] | None:
        state[module] = "open"
        for other in sorted(graph[module]):
            if state.get(other) == "open":
                return [*path[path.index(other) :], other] if other in path else [*path, other]
            if other not in state:
                found = visit(other, [*path, other])
                if found:
                    return found
        state[module] = "done"
        return None

    for module in sorted(graph):
        if module not in state:
            found = visit(module, [module])
            if found:
                return found
    return None


def plan_graph(imports) -> dict[str, set[str]]:
    """The modules of ``league/plan/`` and which of them each imports (``imports``: a file's imported names)."""
    files = {module_name(path): path for path in modules("league/plan")}
    return {name: imports(path) & set(files) for name, path in files.items()}


def test_the_plan_wing_loads_without_an_import_circle():
    circle = import_circle(plan_graph(loading_imports_of))
    assert circle is None, f"league/plan/ imports in a circle: {' -> '.join(circle or [])}"


def test_config_bot_folders_and_seed_import_no_circle_even_for_types():
    three = {"league.plan.config", "league.plan.bot_folders", "league.plan.seed"}
    graph = {name: found & three for name, found in plan_graph(imports_of).items() if name in three}
    assert import_circle(graph) is None, graph
    assert import_circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]  # the check finds one
