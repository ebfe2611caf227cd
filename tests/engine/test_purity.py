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


def test_orientation_codes_are_read_only_through_the_board_module() -> None:
    """A maze cell holds an orientation code; only engine/board.py knows how it is packed (the
    rest calls `board.code`, `board.card_of`, `board.is_rotated`)."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    packing = re.compile(r">>\s*1\b|<<\s*1\b|&\s*1\b|\|\s*1\b")
    offenders = [
        f"{path.relative_to(root)}:{n}"
        for folder in ("engine", "ai", "render", "tgbot", "sandbox")
        for path in sorted((root / folder).rglob("*.py"))
        if path.name != "board.py" or path.parent.name != "engine"
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if packing.search(line.split("#")[0])
    ]
    assert offenders == []
