"""A whole round in the sandbox at phone size: one person and two computer players, until the
round's final board with every goal turned up is posted; screenshots of a rotation choice and of
the round's end go to tests/sandbox/_output/. The sandbox deals from a seed (`--seed`) that
gives the person a card fitting a cell both ways, so both screenshots are taken every time, and
a short round. The person's discards after the turned card are sent as the page sends a tap
(its own HTTP calls), without drawing each screen; the page is looked at again at the end."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PIL import Image
from playwright.sync_api import Browser, Locator, Page, expect

from ai import Level
from tests.catalog import texts
from tgbot.i18n import Language, Texts
from tgbot.menus import UNSELECTED
from tgbot.names import level_name

from .running import Running, start_sandbox
from .test_sandbox_browser import (
    CARD_LABEL,
    OUTPUT,
    WAIT_MS,
    add_seat,
    browser,  # noqa: F401 (the module's fixture, shared)
    group,
    labels,
    live_buttons,
    open_private,
    say_in_group,
    settle,
    tap,
)

EN = Language("en")
ME = "Alice"
ROUND_SECONDS = 420  # a round with two computer players (one sweep each move) ends before
SPOT_LABEL = re.compile(r"^\d+ · \S+$")  # a spot and its cell: "4 · F3"
_REPLAY = texts(EN).gettext("🎬 Round {round}, move by move", round=1)
STARTED = time.time()


# This deal offers Alice a card that fits a cell both ways at her first turn, and the computer
# players reach the gold in round 1 after a dozen moves (seed 7 ran the deck out: 130 s).
SEED = 3
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


def _drawn(page: Page) -> None:
    """Until every picture of the page has loaded (before a screenshot)."""
    page.wait_for_function(
        "Array.from(document.images).every((image) => image.complete)", timeout=WAIT_MS
    )


def _final_board(page: Page) -> Locator:
    return group(page).get_by_test_id("message").filter(has_text="Round 1 is over!")


def _wait_for_alice_or_the_end(page: Page, pane: Locator, discard: str) -> None:
    """While the computer players move: until Alice is offered a discard, an alert opens or the
    round's final board is posted (whichever comes first; the caller looks which)."""
    offered = live_buttons(pane).filter(has_text=re.compile(f"^{re.escape(discard)}$"))
    alert = page.locator("[data-testid=alert]:not([hidden])")
    expect(offered.or_(alert).or_(_final_board(page)).first).to_be_visible(timeout=WAIT_MS)


@pytest.mark.slow
def test_a_round_played_to_its_final_board_at_phone_size(
    quick_sandbox: Running,
    browser: Browser,  # noqa: F811
) -> None:
    """Join, two computer players, Start; the person turns a card where both orientations fit
    (the picture), then discards until the round ends; its final board, its story and the
    replay are posted."""
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
    discard = tr.pgettext("button", "🗑 Discard")
    deadline = time.monotonic() + ROUND_SECONDS
    while not turned and time.monotonic() < deadline:  # on the page: the turned card
        if _final_board(wide).count():
            break  # (the round ended first: the assertion below says so)
        alert = wide.get_by_test_id("alert")
        if alert.is_visible():
            alert.get_by_test_id("alert-ok").click()
        pane = open_private(wide, ME)
        shown = labels(pane)
        if discard not in shown:
            _wait_for_alice_or_the_end(wide, pane, discard)
            continue
        turned = _play_turned_card(wide, pane, shown, browser, quick_sandbox.url)
        if not turned:
            _discard_on_the_page(wide, pane, tr)
    # Then Alice discards until the round ends, by the same calls the page makes for a tap
    # (the page follows along; it is looked at again at the end).
    taps = _Taps(wide, quick_sandbox.url, ME)
    while not taps.round_over():
        if time.monotonic() > deadline:
            wide.screenshot(path=str(OUTPUT / "debug-round.png"))
            raise AssertionError("the round did not end")
        if not taps.discard_first_card(tr):
            taps.wait_for_a_change()
    # The replay comes after the final board: the page is complete once it is there.
    replay = group(wide).get_by_test_id("message").filter(has_text=_REPLAY)
    expect(replay).to_have_count(1, timeout=WAIT_MS)
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
    _drawn(phone)
    phone.screenshot(path=str(OUTPUT / "phone-round-end.png"))
    open_private(phone, ME)
    _drawn(phone)
    phone.screenshot(path=str(OUTPUT / "phone-round-end-private.png"))
    phone.context.close()
    wide.close()
    _assert_screenshot("phone-round-end.png")
    _assert_screenshot("phone-round-end-private.png")


def _discard_on_the_page(page: Page, pane: Locator, tr: Texts) -> None:
    """Alice discards her first card by tapping her private keyboard."""
    tap(page, pane, tr.pgettext("button", "🗑 Discard"))
    toggle = next(x for x in labels(pane) if x.startswith(UNSELECTED))
    tap(page, pane, toggle)
    tap(page, pane, tr.pgettext("button", "🗑 Discard this card"))


class _Taps:
    """A seat's taps sent as the page sends them (`/_emu/.../press`, then the answer, then
    `/_sandbox/idle`), reading the chats from `/_sandbox/view` as the page does, without
    drawing every screen in the browser."""

    def __init__(self, page: Page, url: str, name: str) -> None:
        self.request, self.url = page.request, url
        self.version = 0
        self.user = next(seat["id"] for seat in self._view()["seats"] if seat["name"] == name)

    def _get(self, path: str) -> Any:
        response = self.request.get(self.url + path, timeout=WAIT_MS)
        assert response.ok, response.text()
        body = response.json()
        assert body["ok"], body
        return body["result"]

    def _view(self) -> Any:
        view = self._get("_sandbox/view")
        self.version = view["version"]
        return view

    def round_over(self) -> bool:
        """Whether the round's final board is in the group."""
        messages = self._view()["group"]["messages"]
        shown = [m.get("caption") or m.get("text") or "" for m in messages]
        return any("Round 1 is over!" in text for text in shown)

    def wait_for_a_change(self) -> None:
        """Until the chats change (the page's long poll)."""
        self._get(f"_emu/wait?after={self.version}&timeout=2")

    def _live(self) -> tuple[int, list[tuple[str, str]]]:
        seat = next(s for s in self._view()["seats"] if s["id"] == self.user)
        if not seat["messages"]:
            return 0, []
        last = seat["messages"][-1]
        rows = (last.get("reply_markup") or {}).get("inline_keyboard", [])
        found = [
            (b["text"], b["callback_data"]) for row in rows for b in row if "callback_data" in b
        ]
        return last["message_id"], found

    def _press(self, label: Callable[[str], bool]) -> None:
        message, found = self._live()
        data = next(d for text, d in found if label(text))
        pressed = self.request.post(
            self.url + f"_emu/chats/{self.user}/messages/{message}/press",
            data={"user_id": self.user, "callback_data": data},
            timeout=WAIT_MS,
        )
        assert pressed.ok, pressed.text()
        query = pressed.json()["result"]["callback_query_id"]
        give_up = time.monotonic() + WAIT_MS / 1000
        while not self._get(f"_emu/callback_queries/{query}")["answered"]:
            assert time.monotonic() < give_up, "the bot did not answer a tap"
            self.wait_for_a_change()
        self._get("_sandbox/idle")  # the screens are drawn after the answer

    def discard_first_card(self, tr: Texts) -> bool:
        """Discard, the first card, confirm: True, or False when no discard is offered now."""
        discard = tr.pgettext("button", "🗑 Discard")
        if discard not in [text for text, _ in self._live()[1]]:
            return False
        self._press(lambda text: text == discard)
        self._press(lambda text: text.startswith(UNSELECTED))
        confirm = tr.pgettext("button", "🗑 Discard this card")
        self._press(lambda text: text == confirm)
        return True


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
    _drawn(phone)
    phone.screenshot(path=str(OUTPUT / name))
    phone.context.close()
