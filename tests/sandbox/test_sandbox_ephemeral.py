"""The sandbox's group view of ephemeral messages: a seat's panel shows to that seat alone,
marked as such, and its buttons play (headless Chromium, as a person would tap)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from tests.catalog import texts
from tgbot.i18n import Language
from tgbot.menus import UNSELECTED

from .running import Running, start_sandbox
from .test_sandbox_browser import (
    CHROMIUM,
    CHROMIUM_ARGS,
    act_as,
    add_seat,
    expect_toast,
    forget_toasts,
    group,
    open_private,
    say_in_group,
    settle,
    watch_toasts,
    whose_turn,
)

SEATS = (("민준", Language("ko")), ("Alice", Language("en")), ("서연", Language("ko")))
KO = texts(Language("ko"))


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Running]:
    running = start_sandbox(redis_url=None)
    try:
        yield running
    finally:
        assert running.interrupt() == 0, running.output()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


def started(page: Page) -> None:
    """Three seats, /new, everyone joins by the deep link, Start."""
    for name, lang in SEATS:
        add_seat(page, name, lang)
    say_in_group(page, SEATS[0][0], "/new")
    join = group(page).get_by_test_id("kb-button").filter(has_text=KO.pgettext("button", "✋ Join"))
    for name, _ in SEATS:
        act_as(page, name)
        join.click()
        settle(page)
    act_as(page, SEATS[0][0])
    group(page).get_by_test_id("kb-button").filter(
        has_text=KO.pgettext("button", "▶️ Start")
    ).click()
    settle(page)


@pytest.mark.slow
def test_a_panel_shows_to_its_seat_alone_and_plays(sandbox: Running, browser: Browser) -> None:
    page = browser.new_page(viewport={"width": 1360, "height": 900})
    page.goto(sandbox.url)
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    watch_toasts(page)
    started(page)
    name, lang = whose_turn(page)
    tr = texts(lang)
    act_as(page, name)
    group(page).get_by_test_id("kb-button").filter(
        has_text=KO.pgettext("button", "🃏 My hand")  # the group's language
    ).last.click()
    settle(page)
    panels = group(page).locator("[data-testid=message][data-ephemeral=true]")
    expect(panels).to_have_count(1)
    expect(panels.get_by_test_id("ephemeral-tag")).to_have_text("👁 Only you can see this")
    discard = panels.get_by_test_id("kb-button").filter(has_text=tr.pgettext("button", "🗑 Discard"))
    expect(discard).to_have_count(1)
    disabled = panels.locator("[data-testid=kb-button][data-kind=disabled]")
    for i in range(disabled.count()):
        expect(disabled.nth(i)).to_be_disabled()
        expect(disabled.nth(i)).to_contain_text("🚫")
    # Nobody else sees it, neither in the group nor in their private chat.
    for other, _ in SEATS:
        if other != name:
            act_as(page, other)
            expect(panels).to_have_count(0)
            expect(
                open_private(page, other).locator("[data-testid=message][data-ephemeral=true]")
            ).to_have_count(0)
    act_as(page, name)
    expect(panels).to_have_count(1)
    discard.click()
    settle(page)
    toggle = panels.get_by_test_id("kb-button").filter(has_text=re.compile(f"^{UNSELECTED}"))
    toggle.first.click()
    settle(page)
    forget_toasts(page)
    panels.get_by_test_id("kb-button").filter(
        has_text=tr.pgettext("button", "🗑 Discard this card")
    ).click()
    settle(page)
    expect_toast(page, tr.pgettext("toast", "Done!"))
    assert whose_turn(page)[0] != name, "the move was made from the panel"
    page.close()
