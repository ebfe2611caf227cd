"""The repository stands alone: no file points at documents kept outside it."""

from __future__ import annotations

from .repository import ROOT, repository_files, text_of

# Written in pieces so that this file does not name them itself.
OUTSIDE = (
    "RULES" + ".md",
    "STYLE" + ".md",
    "PRODUCT" + ".md",
    ".." + "/shared",
    "seeds" + "/",
)


def test_the_scan_reads_the_source_tree() -> None:
    """The file list holds the code and the docs, as text."""
    files = repository_files()
    for name in ("docs/rules.md", "engine/rules.py", "tests/test_repository.py", "pyproject.toml"):
        assert ROOT / name in files, name
    assert ".venv" not in {p.relative_to(ROOT).parts[0] for p in files}
    assert text_of(ROOT / "engine" / "rules.py") is not None


def test_no_file_refers_to_documents_outside_the_repository() -> None:
    """Nobody who clones the project has the planning documents, so nothing may cite them."""
    hits: list[str] = []
    for path in repository_files():
        text = text_of(path)
        if text is None:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            hits += [
                f"{path.relative_to(ROOT)}:{number}: {name}" for name in OUTSIDE if name in line
            ]
    assert hits == []
