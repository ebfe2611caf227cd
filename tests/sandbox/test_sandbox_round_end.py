"""A whole round in the sandbox at phone size: one person and two computer players, until the
round's final board with every goal turned up is posted; screenshots of a rotation choice and of
the round's end go to tests/sandbox/_output/. The sandbox deals from a seed (`--seed`) that
gives the person a card fitting a cell both ways, so both screenshots are taken every time."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator

import pytest
from PIL import Image
from playwright.sync_api import Browser, Locator, Page, expect

from ai import Level
from tests.catalog import texts
from tgbot.i18n import Language
from tgbot.menus import UNSELECTED
from tgbot.names import level_name

from .running import Running, start_sandbox
from .test_sandbox_browser import (
    CARD_LABEL,
    OUTPUT,
    add_seat,
    browser,  # noqa: F401 (the module's fixture, shared)
    group,
    labels,
    open_private,
    say_in_group,
    settle,
    tap,
)

EN = Language("en")
ME = "Alice"
ROUND_SECONDS = 420  # a round with two computer players (one sweep each move) ends before
SPOT_LABEL = re.compile(r"^\d+ · \S+$")  # a spot and its cell: "4 · F3"
STARTED = time.time()


SEED = 7  # this deal offers Alice a card that fits a cell both ways early in round 1
PHONE = (390, 844)
SCALE = 2


@pytest.fixture(scope="module")
def quick_sandbox() -> Iterator[Running]:
    """The seeded sandbox with computer players that move at the next sweep."""
    os.environ["COMPUTER_PAUSE_SECONDS"] = "0"
    try:
        running = start_sandbox(redis_url=None, seed=SEED)
    finally:
        del os.environ["COMPUTER_PAUSE_SECONDS"]
    try:
        yield running
    finally:
        assert running.interrupt() == 0, running.output()


def _phone(chromium: Browser) -> Page:
    context = chromium.new_context(
        viewport={"width": PHONE[0], "height": PHONE[1]},
        device_scale_factor=SCALE,
        is_mobile=True,
        has_touch=True,
    )
    return context.new_page()


def _assert_screenshot(name: str) -> None:
    """A fresh phone screenshot in tests/sandbox/_output/: phone-sized, and not blank."""
    path = OUTPUT / name
    assert path.stat().st_mtime > STARTED, f"{name} was taken by this run"
    with Image.open(path) as picture:
        assert picture.size == (PHONE[0] * SCALE, PHONE[1] * SCALE)
        colours = picture.convert("RGB").getcolors(maxcolors=1_000_000)
        assert colours is None or len(colours) > 50, f"{name} is not blank"


def _round_over(page: Page) -> bool:
    return group(page).get_by_test_id("message").filter(has_text="Round 1 is over!").count() > 0


@pytest.mark.slow
def test_a_round_played_to_its_final_board_at_phone_size(
    quick_sandbox: Running,
    browser: Browser,  # noqa: F811
) -> None:
    """Join, two computer players, Start; the person turns a card where both orientations fit
    (the picture), then discards until the round ends; its final board and story are posted."""
    wide = browser.new_page(viewport={"width": 1360, "height": 900})
    wide.goto(quick_sandbox.url)
    expect(wide.locator("body")).to_have_attribute("data-ready", "true")
    add_seat(wide, ME, EN)
    # The group's language: English, so that the captions read in one language here.
    say_in_group(wide, ME, "/lang")
    settle(wide)
    tap(wide, group(wide), "English")
    say_in_group(wide, ME, "/new")
    settle(wide)
    tr = texts(EN)
    tap(wide, group(wide), tr.pgettext("button", "✋ Join"))
    for _ in range(2):
        easy = level_name(tr, Level.HEURISTIC)
        tap(wide, group(wide), tr.pgettext("button", "🤖 Add: {level}", level=easy))
    tap(wide, group(wide), tr.pgettext("button", "▶️ Start"))
    alert = wide.get_by_test_id("alert")
    assert not alert.is_visible(), alert.inner_text()

    turned = ""  # the confirm text of the turned card played
    deadline = time.monotonic() + ROUND_SECONDS
    while time.monotonic() < deadline:
        if _round_over(wide):
            break
        alert = wide.get_by_test_id("alert")
        if alert.is_visible():
            alert.get_by_test_id("alert-ok").click()
        pane = open_private(wide, ME)
        shown = labels(pane)
        if tr.pgettext("button", "🗑 Discard") not in shown:
            wide.wait_for_timeout(500)  # a computer player's turn
            continue
        if not turned:
            turned = _play_turned_card(wide, pane, shown, browser, quick_sandbox.url)
            if turned:
                continue
        tap(wide, pane, tr.pgettext("button", "🗑 Discard"))
        toggle = next(x for x in labels(pane) if x.startswith(UNSELECTED))
        tap(wide, pane, toggle)
        tap(wide, pane, tr.pgettext("button", "🗑 Discard this card"))
    else:
        wide.screenshot(path=str(OUTPUT / "debug-round.png"))
        raise AssertionError("the round did not end")
    wide.wait_for_timeout(2500)  # the replay after the final board
    assert turned, f"the deal of seed {SEED} offers Alice a card that fits both ways"
    assert ", turned, at " in turned, turned  # the confirm view names the turn
    _assert_screenshot("phone-rotation-choice.png")
    _assert_screenshot("phone-rotation-confirm.png")

    finals = group(wide).get_by_test_id("message").filter(has_text="Round 1 is over!")
    expect(finals).to_have_count(1)
    final = finals.first
    expect(final.get_by_test_id("message-photo")).to_be_visible()
    expect(final).to_contain_text("Roles:")
    expect(final).to_contain_text("win!")
    # (What Alice received is a note on her next live message: tests/usecases/test_round_end.py.)

    phone = _phone(browser)
    phone.goto(quick_sandbox.url)
    phone.get_by_test_id("chat-switcher").locator("[data-testid=chat-tab][data-chat=group]").tap()
    shown_final = group(phone).get_by_test_id("message").filter(has_text="Round 1 is over!")
    shown_final.first.scroll_into_view_if_needed()
    phone.wait_for_timeout(500)
    phone.screenshot(path=str(OUTPUT / "phone-round-end.png"))
    open_private(phone, ME)
    phone.wait_for_timeout(500)
    phone.screenshot(path=str(OUTPUT / "phone-round-end-private.png"))
    phone.context.close()
    wide.close()
    _assert_screenshot("phone-round-end.png")
    _assert_screenshot("phone-round-end-private.png")


def _play_turned_card(
    page: Page, pane: Locator, shown: list[str], chromium: Browser, url: str
) -> str:
    """Try Alice's cards for one that fits a cell both ways; turn it (a phone screenshot of the
    turned spots), pick its first spot (a screenshot of the confirm view) and play it. The
    confirm view's text, or "" when no card fits both ways now (the hand is shown again)."""
    tr = texts(EN)
    turn, back = tr.pgettext("button", "↻ Turn the card"), tr.pgettext("button", "↩️ Back")
    for card in [label for label in shown if CARD_LABEL.match(label)]:
        tap(page, pane, card)
        if turn not in labels(pane):
            if back in labels(pane):
                tap(page, pane, back)
            continue
        tap(page, pane, turn)
        _phone_shot(chromium, url, "phone-rotation-choice.png")
        confirm = tr.pgettext("button", "✅ Confirm")
        if confirm not in labels(pane):  # (one spot only: its confirm view comes at once)
            spots = [label for label in labels(pane) if SPOT_LABEL.match(label)]
            assert spots, labels(pane)  # the turned card's spots, each named ("4 · F3")
            tap(page, pane, spots[0])
        text = pane.get_by_test_id("message").last.get_by_test_id("message-text").inner_text()
        _phone_shot(chromium, url, "phone-rotation-confirm.png")
        tap(page, pane, confirm)
        return text
    return ""


def _phone_shot(chromium: Browser, url: str, name: str) -> None:
    """Alice's private chat at phone size, saved in tests/sandbox/_output/."""
    phone = _phone(chromium)
    phone.goto(url)
    open_private(phone, ME)
    phone.wait_for_timeout(500)
    phone.screenshot(path=str(OUTPUT / name))
    phone.context.close()
