"""engine/ is pure: no I/O, clock, global randomness or framework imports."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"
FORBIDDEN = {"telegram", "PIL", "redis", "asyncio", "time", "random", "datetime", "os", "socket"}


def test_engine_imports_nothing_impure() -> None:
    """No module of engine/ imports I/O, time or module-level randomness."""
    offenders = []
    for path in sorted(ENGINE.glob("*.py")):
        if path.name == "demo.py":  # the command-line demo, not part of the rules
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module.split(".")[0]]
            offenders += [f"{path.name}: {n}" for n in names if n in FORBIDDEN]
    assert offenders == []
