"""What the purity tests read: a folder's absolute imports, module by module."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def absolute_imports(
    folder: str, *, skip: tuple[str, ...] = ()
) -> Iterator[tuple[str, str, list[str]]]:
    """(file name, imported module, names taken from it) for every absolute import of a folder."""
    for path in sorted((ROOT / folder).glob("*.py")):
        if path.name in skip:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    yield path.name, alias.name, []
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                yield path.name, node.module, [a.name for a in node.names]


def calls(folder: str, functions: set[str]) -> Iterator[str]:
    """'file: f()' for every call of a built-in such as print or open in a folder."""
    for path in sorted((ROOT / folder).glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            func = node.func if isinstance(node, ast.Call) else None
            if isinstance(func, ast.Name) and func.id in functions:
                yield f"{path.name}: {func.id}()"
