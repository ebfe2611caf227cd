"""engine/ is pure: no I/O, clock, global randomness or framework imports."""

from __future__ import annotations

from tests.purity import absolute_imports

FORBIDDEN = {"telegram", "PIL", "redis", "asyncio", "time", "random", "datetime", "os", "socket"}


def test_engine_imports_nothing_impure() -> None:
    """No module of engine/ imports I/O, time or module-level randomness."""
    # demo.py is the command-line demo, not part of the rules.
    found = absolute_imports("engine", skip=("demo.py",))
    offenders = [
        f"{name}: {module}" for name, module, _ in found if module.split(".")[0] in FORBIDDEN
    ]
    assert offenders == []
