"""The tested set of dependencies travels with the code: bounded in pyproject.toml, pinned in constraints.txt."""

import os
import re
import tomllib
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
DECLARED = [Requirement(text) for text in PROJECT["dependencies"] + PROJECT["optional-dependencies"]["test"]]


def pins() -> dict[str, Version]:
    """constraints.txt as package name -> pinned version."""
    found = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, pinned = line.partition("==")
            assert pinned, f"constraints.txt: {line!r} is not NAME==VERSION"
            found[canonicalize_name(name)] = Version(pinned)
    return found


def test_every_dependency_is_bounded_below_its_next_major_version():
    pinned = pins()
    for requirement in DECLARED:
        uppers = [Version(spec.version) for spec in requirement.specifier if spec.operator == "<"]
        assert uppers, f"pyproject.toml: {requirement} has no upper bound"
        tested = pinned[canonicalize_name(requirement.name)]
        assert uppers[0].major <= tested.major + 1, f"{requirement}: bound it below {tested.major + 1}"


def test_every_dependency_is_pinned_to_a_version_its_bounds_allow():
    pinned = pins()
    for requirement in DECLARED:
        name = canonicalize_name(requirement.name)
        assert name in pinned, f"constraints.txt pins no version of {requirement.name}"
        assert pinned[name] in requirement.specifier, f"constraints.txt: {name}=={pinned[name]} breaks {requirement}"


def test_the_readme_and_ci_install_the_pinned_versions():
    readme = (ROOT / "README.md").read_text()
    quick_start = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    commands = [line for line in quick_start.splitlines() if line.startswith("python3 ")]
    assert len(commands) == 2, "the quick start has two set-up commands"
    commands += [line for line in readme.splitlines() if "pip install -e" in line]  # a cluster's machines too
    ci = (ROOT / ".ci" / "run").read_text()
    installs = [line for line in ci.splitlines() if "pip install -e" in line and "--upgrade" not in line]
    for line in commands + installs:
        assert re.search(r"pip install -e \S+ -c constraints\.txt", line), f"not installed with the pins: {line}"
    assert installs, ".ci/run installs the project"


@pytest.mark.skipif(bool(os.environ.get("LEAGUE_UNCONSTRAINED")), reason=".ci/run --latest tests the newest versions")
def test_the_suite_runs_on_the_pinned_versions():
    wrong = []
    for name, pinned in pins().items():
        try:
            installed = Version(version(name))
        except PackageNotFoundError:
            continue  # a pin of another platform's or Python's dependency
        if installed != pinned:
            wrong.append(f"{name} {installed} (pinned {pinned})")
    assert not wrong, "installed without -c constraints.txt? " + ", ".join(wrong)
