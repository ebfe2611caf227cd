"""render/ draws from views only: it never sees a GameState, nor does any I/O."""

from __future__ import annotations

from tests.purity import absolute_imports

FORBIDDEN_MODULES = {"telegram", "redis", "asyncio", "time", "random", "datetime", "socket"}
# The engine's state and rule internals: a picture drawn from these could leak hidden cards.
FORBIDDEN_NAMES = {"GameState", "player_view", "public_view", "legal_actions", "apply"}


def test_render_sees_only_views() -> None:
    """No module of render/ imports the game state, the rules or anything doing I/O."""
    offenders = []
    for name, module, names in absolute_imports("render"):
        if module.split(".")[0] in FORBIDDEN_MODULES or module in ("engine.rules", "engine.model"):
            offenders.append(f"{name}: {module}")
        offenders += [f"{name}: {n}" for n in names if n in FORBIDDEN_NAMES]
    assert offenders == []
