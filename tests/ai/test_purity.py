"""ai/ is pure like engine/: no I/O, clock, global randomness or framework imports."""

from __future__ import annotations

from tests.purity import absolute_imports, calls

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
    found = absolute_imports("ai")
    offenders = [
        f"{name}: {module}" for name, module, _ in found if module.split(".")[0] in FORBIDDEN
    ]
    offenders += calls("ai", {"print", "open"})
    assert offenders == []
