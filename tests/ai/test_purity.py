"""ai/ is pure like engine/: no I/O, clock, global randomness or framework imports."""

from __future__ import annotations

import ast
from pathlib import Path

AI = Path(__file__).resolve().parents[2] / "ai"
FORBIDDEN = {
    "telegram",
    "tgbot",
    "PIL",
    "render",
    "redis",
    "asyncio",
    "time",
    "random",
    "datetime",
    "os",
    "socket",
    "sys",
}


def test_ai_imports_nothing_impure() -> None:
    """No module of ai/ imports I/O, time, module-level randomness or the bot."""
    offenders = []
    for path in sorted(AI.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module.split(".")[0]]
            offenders += [f"{path.name}: {n}" for n in names if n in FORBIDDEN]
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("print", "open"):
                offenders.append(f"{path.name}: {node.func.id}()")  # type: ignore[attr-defined]
    assert offenders == []
