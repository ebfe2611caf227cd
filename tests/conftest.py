"""Options shared by every test folder."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    """--regen-golden rewrites golden files (transcripts, PNGs) instead of comparing."""
    parser.addoption(
        "--regen-golden",
        action="store_true",
        default=False,
        help="rewrite golden files instead of comparing with them",
    )


@pytest.fixture
def regen_golden(request: pytest.FixtureRequest) -> bool:
    """True when the run was asked to rewrite golden files."""
    return bool(request.config.getoption("--regen-golden"))
