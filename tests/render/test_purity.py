"""render/ draws from views only: it never sees a GameState, nor does any I/O."""

from __future__ import annotations

import ast
from pathlib import Path

RENDER = Path(__file__).resolve().parents[2] / "render"
FORBIDDEN_MODULES = {"telegram", "redis", "asyncio", "time", "random", "datetime", "socket"}
# The engine's state and rule internals: a picture drawn from these could leak hidden cards.
FORBIDDEN_NAMES = {"GameState", "player_view", "public_view", "legal_actions", "apply"}


def test_render_sees_only_views() -> None:
    """No module of render/ imports the game state, the rules or anything doing I/O."""
    offenders = []
    for path in sorted(RENDER.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                modules = [a.name for a in node.names]
                names: list[str] = []
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                modules = [node.module]
                names = [a.name for a in node.names]
            else:
                continue
            offenders += [
                f"{path.name}: {m}" for m in modules if m.split(".")[0] in FORBIDDEN_MODULES
            ]
            offenders += [
                f"{path.name}: {m}" for m in modules if m in ("engine.rules", "engine.model")
            ]
            offenders += [f"{path.name}: {n}" for n in names if n in FORBIDDEN_NAMES]
    assert offenders == []
