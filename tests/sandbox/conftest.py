"""The sandbox's browser tests wait as long for what a page shows as for anything else."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

EXPECT_MS = 20_000  # as the tests' WAIT_MS: Playwright's default of 5 s is short on a loaded CI


@pytest.fixture(autouse=True, scope="session")
def patient_expectations() -> None:
    """Every `expect(...)` without a timeout of its own waits up to EXPECT_MS."""
    expect.set_options(timeout=EXPECT_MS)
