"""The habits of a maintained project, checked: licence, changelog, pins, hooks, set-up split."""

from __future__ import annotations

import re
import tomllib
import warnings
from importlib.metadata import requires, version
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
# What only the tests and the checks use: a player running the bot never installs these.
TEST_ONLY = {
    "pytest",
    "pytest-asyncio",
    "hypothesis",
    "playwright",
    "babel",
    "pyyaml",
    "mypy",
    "ruff",
}


def _name(requirement: str) -> str:
    return re.split(r"[\[=<>!~; ]", requirement, maxsplit=1)[0].lower()


def test_the_bot_installs_none_of_the_test_tools() -> None:
    """`pip install .` (what scripts/run.sh does) brings no browser driver, test runner, linter."""
    installed = requires("saboteur-bot") or []
    runtime = {_name(r) for r in installed if "extra ==" not in r}
    assert runtime and not runtime & TEST_ONLY, runtime & TEST_ONLY
    assert {_name(r) for r in installed if "extra ==" in r} >= TEST_ONLY


def test_every_dependency_is_pinned_exactly() -> None:
    """Pins, not ranges: the same versions on every machine (the set-up is reproducible)."""
    project = PYPROJECT["project"]
    pins = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        pins += [p for p in extra if not p.startswith("saboteur-bot")]
    pin = r"[A-Za-z0-9_.\-]+(\[[a-z,]+\])?==[0-9.]+(; sys_platform != 'win32')?"  # a marker at most
    loose = [p for p in pins if not re.fullmatch(pin, p)]
    assert not loose, loose


def test_the_version_and_licence_are_the_ones_the_files_name() -> None:
    """--version shows pyproject's version; the changelog has it; LICENSE is the MIT licence."""
    assert version("saboteur-bot") == PYPROJECT["project"]["version"]
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert f"\n## {PYPROJECT['project']['version']} - " in changelog
    assert PYPROJECT["project"]["license"] == "MIT"
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")


def test_the_pre_commit_hooks_run_the_checks_of_the_test_command() -> None:
    """ruff, ruff format and mypy over the same folders as scripts/test.sh."""
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text())
    entries = {h["id"]: h["entry"] for repo in config["repos"] for h in repo["hooks"]}
    assert set(entries) == {"ruff", "ruff-format", "mypy"}
    test_script = (ROOT / "scripts" / "test.sh").read_text()
    mypy_line = next(line for line in test_script.splitlines() if line.startswith("mypy "))
    assert entries["mypy"] == f".venv/bin/{mypy_line}"
    for folder in ("engine", "ai", "render", "tgbot", "sandbox", "emulator", "tests"):
        assert folder in mypy_line.split()


def test_only_the_test_set_up_installs_the_browser_and_the_emoji_font() -> None:
    """scripts/setup.sh asks for chromium and fonts-noto-color-emoji only with --test."""
    script = (ROOT / "scripts" / "setup.sh").read_text()
    test_block = script.split('if [ "$mode" = test ]; then', 1)[1].split("fi\n", 1)[0]
    for package in ("chromium", "fonts-noto-color-emoji", "redis-server"):
        assert package in test_block
        assert script.count(f"need+=({package})") == 1
    assert "setup.sh --test" in (ROOT / "scripts" / "test.sh").read_text()
    assert "--test" not in (ROOT / "scripts" / "run.sh").read_text()


def test_the_projects_own_deprecations_are_errors_and_a_librarys_internal_ones_are_not() -> None:
    """pyproject's filterwarnings: a deprecation attributed to project code fails the suite."""
    with pytest.raises(DeprecationWarning):
        warnings.warn("an API this project calls is deprecated", DeprecationWarning, stacklevel=1)
    with warnings.catch_warnings(record=True) as caught:  # the filters in force, recorded
        warnings.warn_explicit(
            "unread_data() is deprecated", DeprecationWarning, "streams.py", 266, "aiohttp.streams"
        )
    assert len(caught) == 1
    config = PYPROJECT["tool"]["pytest"]["ini_options"]["filterwarnings"]
    assert all(":(engine|render|tgbot|emulator|sandbox|tests|bench|ai)" in f for f in config)
