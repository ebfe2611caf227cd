"""Rule ids: docs/rules.md defines them, tests carry them as markers, code cites them."""

from __future__ import annotations

import ast
import functools
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from .repository import ROOT, repository_files, text_of

RULES_PAGE = ROOT / "docs" / "rules.md"
NAMESPACES = ("about", "base", "variant", "deluxe", "ruling", "privacy")
PROSE_NAMESPACE = "about"

_WORD = r"[a-z][a-z0-9_]*"
_ID = rf"(?:{'|'.join(NAMESPACES)})(?:\.{_WORD})+"
WELL_FORMED = re.compile(rf"{_WORD}(?:\.{_WORD})+")
# A rule is a top-level bullet that opens with its id in backticks; "(prose)" marks a non-rule.
_DEFINITION = re.compile(r"^- `([^`]*)`( \(prose\))? — ")
_REFERENCE = re.compile(rf"`({_ID})`")
# Code cites "rule base.place.connected", or several on one line:
# "rules base.goal.gold, base.goal.coal and ruling.coal_route".
_CITATION = re.compile(rf"\b[Rr]ules?:? ({_ID}(?:(?:, | and ){_ID})*)")
_SEPARATOR = re.compile(r", | and ")


@dataclass(frozen=True, slots=True)
class Rule:
    """One id the rules page defines."""

    id: str
    prose: bool
    line: int


@dataclass(frozen=True, slots=True)
class Marker:
    """One use of `pytest.mark.rule` in a source file; `ids` is None unless it is a call."""

    line: int
    ids: tuple[object, ...] | None


def rules_in(text: str) -> list[Rule]:
    """The ids a rules page defines, in order; ValueError for a bullet that is not a rule."""
    rules: list[Rule] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.startswith("- `"):
            continue
        match = _DEFINITION.match(line)
        if match is None:
            raise ValueError(f"line {number} opens with backticks but defines no rule: {line!r}")
        rules.append(Rule(match.group(1), match.group(2) is not None, number))
    return rules


def _is_rule_mark(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and node.attr == "rule"
        and isinstance(node.value, ast.Attribute)
        and node.value.attr == "mark"
        and isinstance(node.value.value, ast.Name)
        and node.value.value.id == "pytest"
    )


def markers_in(source: str) -> list[Marker]:
    """Every `pytest.mark.rule` of a Python source, with the literal ids it is called with."""
    nodes = [n for n in ast.walk(ast.parse(source)) if isinstance(n, (ast.Call, ast.Attribute))]
    calls = [n for n in nodes if isinstance(n, ast.Call) and _is_rule_mark(n.func)]
    called = {id(c.func) for c in calls}
    markers = [
        Marker(
            c.lineno,
            tuple(a.value if isinstance(a, ast.Constant) else ast.dump(a) for a in c.args)
            + tuple(f"keyword {k.arg}" for k in c.keywords),
        )
        for c in calls
    ]
    bare = [
        Marker(n.lineno, None)
        for n in nodes
        if isinstance(n, ast.Attribute) and _is_rule_mark(n) and id(n) not in called
    ]
    return sorted(markers + bare, key=lambda m: m.line)


def cited_in(text: str) -> list[str]:
    """The rule ids a text cites in the words "rule ID" or "rules ID, ID and ID"."""
    return [i for m in _CITATION.finditer(text) for i in _SEPARATOR.split(m.group(1))]


def _page() -> list[Rule]:
    return rules_in(RULES_PAGE.read_text(encoding="utf-8"))


def _python_files(under: str | None = None) -> list[Path]:
    files = [p for p in repository_files() if p.suffix == ".py"]
    if under is not None:
        files = [p for p in files if p.relative_to(ROOT).parts[0] == under]
    return files


@functools.cache  # two tests read it; parsing every test module takes ~1.5 s
def _markers_by_file() -> dict[Path, list[Marker]]:
    return {p: markers_in(p.read_text(encoding="utf-8")) for p in _python_files("tests")}


def test_the_parsers_read_definitions_markers_and_citations() -> None:
    """The three readers find what they should and nothing else."""
    page = "- `base.place.connected` — text\n- `about.ids` (prose) — text\n  - `nested` x\nplain\n"
    assert rules_in(page) == [
        Rule("base.place.connected", False, 1),
        Rule("about.ids", True, 2),
    ]
    try:
        rules_in("- `base.place.connected` without the dash\n")
    except ValueError:
        pass
    else:
        raise AssertionError("a malformed rule bullet was accepted")
    source = (
        "import pytest\n"
        '@pytest.mark.rule("base.place.match", "privacy.map")\n'
        "def test_a() -> None: ...\n"
        "mark = pytest.mark.rule\n"
    )
    assert markers_in(source) == [
        Marker(2, ("base.place.match", "privacy.map")),
        Marker(4, None),
    ]
    text = (
        "# rule base.place.connected: open meets open\n"
        '"""Rules base.goal.gold, base.goal.coal and ruling.coal_route."""\n'
        "see engine/rules.py; the rules: new_game; a rule variant; rules.py\n"
    )
    assert cited_in(text) == [
        "base.place.connected",
        "base.goal.gold",
        "base.goal.coal",
        "ruling.coal_route",
    ]


def test_rule_ids_are_well_formed_and_unique() -> None:
    """Lowercase dotted words in a known namespace, each defined once; prose only under about."""
    rules = _page()
    assert len(rules) > len(NAMESPACES)
    ids = [r.id for r in rules]
    bad = [i for i in ids if not WELL_FORMED.fullmatch(i) or i.split(".")[0] not in NAMESPACES]
    assert bad == []
    assert [i for i, n in Counter(ids).items() if n > 1] == []
    misplaced = [r.id for r in rules if r.prose != (r.id.split(".")[0] == PROSE_NAMESPACE)]
    assert misplaced == []


def test_every_id_the_rules_page_mentions_is_defined_there() -> None:
    """Cross-references inside docs/rules.md name rules it defines."""
    defined = {r.id for r in _page()}
    mentioned = _REFERENCE.findall(RULES_PAGE.read_text(encoding="utf-8"))
    assert sorted(set(mentioned) - defined) == []


def test_every_rule_marker_names_rules_of_the_page() -> None:
    """`pytest.mark.rule` is called with one or more ids of real rules (not prose)."""
    rules = {r.id: r for r in _page()}
    problems: list[str] = []
    for path, markers in _markers_by_file().items():
        for m in markers:
            where = f"{path.relative_to(ROOT)}:{m.line}"
            if not m.ids:
                problems.append(f"{where}: a rule marker needs ids")
                continue
            for i in m.ids:
                if not isinstance(i, str) or i not in rules or rules[i].prose:
                    problems.append(f"{where}: {i!r} is not a rule of docs/rules.md")
    assert problems == []


def test_every_citation_in_the_code_names_a_rule_of_the_page() -> None:
    """Comments and docstrings cite ids that docs/rules.md defines as rules."""
    rules = {r.id: r for r in _page()}
    problems: list[str] = []
    seen = 0
    for path in _python_files():
        text = text_of(path) or ""
        for number, line in enumerate(text.splitlines(), 1):
            for i in cited_in(line):
                seen += 1
                if i not in rules or rules[i].prose:
                    problems.append(f"{path.relative_to(ROOT)}:{number}: {i}")
    assert problems == []
    assert seen > 0


def test_every_rule_is_checked_by_at_least_one_test() -> None:
    """Each rule of docs/rules.md (all but the prose ids) is carried by a test's marker."""
    carried = {i for markers in _markers_by_file().values() for m in markers for i in (m.ids or ())}
    unchecked = [r.id for r in _page() if not r.prose and r.id not in carried]
    assert unchecked == []
