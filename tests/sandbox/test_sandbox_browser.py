"""The sandbox as a newcomer uses it: `saboteur-bot sandbox`, a real headless Chromium, taps.

The page is driven only as a person would: add seats, type /new as a seat, tap the lobby's Join
deep link as each seat, Start, then play turns by tapping through the private keyboards of
whoever is to play. Labels come from the bot's catalog, in each seat's language.
"""

from __future__ import annotations

import datetime
import io
import re
import time
from collections.abc import Iterator
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from PIL import Image
from playwright.sync_api import Browser, Locator, Page, expect, sync_playwright

from tests.catalog import texts
from tgbot.i18n import Language
from tgbot.menus import UNSELECTED
from tgbot.time_texts import fallback

from .running import Running, start_sandbox

OUTPUT = Path(__file__).parent / "_output"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SEATS = (("민준", Language("ko")), ("Alice", Language("en")), ("서연", Language("ko")))
TURNS = 4
CARD_LABEL = re.compile(r"^\d+\. ")
WAIT_MS = 20_000


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Running]:
    """`saboteur-bot sandbox --port 0` with the embedded store, stopped by Ctrl-C afterwards."""
    running = start_sandbox(redis_url=None)
    try:
        yield running
    finally:
        assert running.interrupt() == 0, running.output()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, headless, driven by Playwright (no browser download)."""
    OUTPUT.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


# ---------------------------------------------------------------------- acting on the page


def watch_toasts(page: Page) -> None:
    """Keep the text of every toast the page shows, from now on, in `window.toastsSeen`.

    A toast is removed about 3 s after it comes, and under load the screens drawn after a tap's
    answer can take longer than that: a test that looks for the toast once the tap settled may
    find it gone. The page's own list keeps it."""
    page.evaluate(
        """() => {
            window.toastsSeen = [];
            const box = document.querySelector("[data-testid=toasts]");
            new MutationObserver((records) => {
                for (const record of records) {
                    for (const node of record.addedNodes) {
                        if (node.dataset && node.dataset.testid === "toast") {
                            window.toastsSeen.push(node.textContent);
                        }
                    }
                }
            }).observe(box, { childList: true });
        }"""
    )


def forget_toasts(page: Page) -> None:
    """Start a new list of the toasts shown (see `watch_toasts`)."""
    page.evaluate("() => { window.toastsSeen = []; }")


def expect_toast(page: Page, text: str) -> None:
    """Wait until a toast with this text has been shown since `forget_toasts`."""
    page.wait_for_function("(text) => window.toastsSeen.includes(text)", arg=text, timeout=WAIT_MS)


def settle(page: Page) -> None:
    """Wait until every tap, link and seat the page started has been answered and shown."""
    page.wait_for_function("document.body.dataset.pending === '0'", timeout=WAIT_MS)


def add_seat(page: Page, name: str, language: Language) -> None:
    """Add a seat through the dialog."""
    page.get_by_test_id("add-seat").click()
    dialog = page.get_by_test_id("seat-dialog")
    expect(dialog).to_be_visible()
    dialog.get_by_test_id("seat-name").fill(name)
    dialog.get_by_test_id("seat-language").select_option(language.code)
    dialog.get_by_test_id("seat-submit").click()
    expect(dialog).to_be_hidden()
    expect(seat_tab(page, name)).to_be_visible()


def seat_tab(page: Page, name: str) -> Locator:
    """A seat's entry in the chat switcher."""
    return page.locator(f'[data-testid=chat-tab][data-chat=private][data-name="{name}"]')


def group(page: Page) -> Locator:
    """The group chat pane."""
    return page.get_by_test_id("chat-group")


def private(page: Page) -> Locator:
    """The private chat pane (of the selected seat)."""
    return page.get_by_test_id("chat-private")


def act_as(page: Page, name: str) -> None:
    """Choose who writes and taps in the group."""
    group(page).get_by_test_id("composer-as").select_option(label=name)


def say_in_group(page: Page, name: str, text: str) -> None:
    """Type a message in the group as a seat."""
    act_as(page, name)
    box = group(page).get_by_test_id("composer-input")
    box.fill(text)
    box.press("Enter")


def open_private(page: Page, name: str) -> Locator:
    """Switch to a seat's private chat."""
    seat_tab(page, name).click()
    pane = private(page)
    expect(pane).to_have_attribute("data-seat-name", name)
    return pane


def live_buttons(pane: Locator) -> Locator:
    """The buttons of the newest message of a chat."""
    return pane.get_by_test_id("message").last.get_by_test_id("kb-button")


STEAL = "💰 "  # the thief's buttons ("💰 Steal from …", "💰 …님에게서 훔치기")


def labels(pane: Locator) -> list[str]:
    """The labels of the newest message's buttons."""
    return [text.strip() for text in live_buttons(pane).all_inner_texts()]


def tap(page: Page, pane: Locator, label: str) -> None:
    """Tap a button of the newest message by its exact label, and wait for the answer."""
    live_buttons(pane).filter(has_text=re.compile(f"^{re.escape(label)}")).first.click()
    settle(page)


def whose_turn(page: Page) -> tuple[str, Language]:
    """The seat whose private hand offers a discard (or, at a round's end, a theft): the one to
    play."""
    # Until someone is (the hands are drawn after the tap that made the move is answered, and
    # under load that can take seconds), up to WAIT_MS.
    deadline = time.monotonic() + WAIT_MS / 1000
    while time.monotonic() < deadline:
        for name, lang in SEATS:
            shown = labels(open_private(page, name))
            if texts(lang).pgettext("button", "🗑 Discard") in shown or any(
                label.startswith(STEAL) for label in shown
            ):
                return name, lang
        page.wait_for_timeout(100)
    seen = []  # what each seat's newest private message says, to tell a late hand from a stall
    for name, _ in SEATS:
        newest = open_private(page, name).get_by_test_id("message")
        count = newest.count()
        text = newest.last.inner_text()[:80].replace("\n", " ") if count else ""
        seen.append(f"{name}: {count} messages, newest {text!r} {labels(private(page))}")
    raise AssertionError("nobody is offered a move; " + "; ".join(seen))


def play_turn(page: Page, name: str, lang: Language) -> str:
    """Tap through the hand: the first card with a legal move to its confirm, else a discard."""
    pane = open_private(page, name)
    steals = [label for label in labels(pane) if label.startswith(STEAL)]
    if steals:  # a thief at a round's end (rule deluxe.payout.theft): the first player offered
        tap(page, pane, steals[0])
        return "theft"
    confirm, back = (
        texts(lang).pgettext("button", "✅ Confirm"),
        texts(lang).pgettext("button", "↩️ Back"),
    )
    shown = labels(pane)
    cards = [label for label in shown if CARD_LABEL.match(label)]  # 🚫 marks the unplayable
    assert cards or any(label.startswith("🚫 ") for label in shown), f"{name} has cards"
    for card in cards:
        tap(page, pane, card)
        for _ in range(3):
            shown = labels(pane)
            if confirm in shown:
                tap(page, pane, confirm)
                return card
            if back not in shown:
                break  # no legal move for this card: the hand is shown again
            tap(page, pane, shown[0])  # a numbered spot, a target, a tool or a goal
        if back in labels(pane):
            tap(page, pane, back)
    tap(page, pane, texts(lang).pgettext("button", "🗑 Discard"))
    toggle = next(x for x in labels(pane) if x.startswith(UNSELECTED))
    tap(page, pane, toggle)
    tap(page, pane, texts(lang).pgettext("button", "🗑 Discard this card"))
    return "discard"


def dismiss_map_alert(page: Page) -> bool:
    """Close the alert a map's result comes in, if one is open; whether one was."""
    alert = page.get_by_test_id("alert")
    if not alert.is_visible():
        return False
    expect(alert.get_by_test_id("alert-text")).to_contain_text("🗺")
    alert.get_by_test_id("alert-ok").click()
    expect(alert).to_be_hidden()
    return True


def board_bytes(page: Page) -> tuple[str, bytes]:
    """The group's board picture: its address and its bytes as the page loads them."""
    photos = group(page).get_by_test_id("message-photo")
    expect(photos).to_have_count(1)  # one board post: the previous one is deleted
    src = str(photos.evaluate("img => img.src"))
    assert src.startswith("http"), "the board has a picture"
    # Its caption (the status first) is shown above it, as show_caption_above_media asks.
    assert photos.evaluate("img => img.previousElementSibling.dataset.testid") == "message-text"
    response = page.request.get(src)
    assert response.ok
    return src, response.body()


# ---------------------------------------------------------------------- the tests


@pytest.mark.slow
def test_three_seats_play_turns_by_tapping_their_private_keyboards(
    sandbox: Running, browser: Browser
) -> None:
    """Seats, /new, Join deep links, Start, turns by taps: the group's board picture changes."""
    page = browser.new_page(viewport={"width": 1360, "height": 900})
    page.goto(sandbox.url)
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.get_by_test_id("store")).to_have_text("embedded store")
    watch_toasts(page)
    for name, lang in SEATS:
        add_seat(page, name, lang)
        welcome = open_private(page, name).get_by_test_id("message").last
        expect(welcome).to_have_attribute("data-from", "bot")  # the seat has started the bot

    creator = SEATS[0][0]
    say_in_group(page, creator, "/new")
    join_button = page.get_by_test_id("kb-button").filter(
        has_text=texts(Language("ko")).pgettext("button", "✋ Join")
    )
    lobby = group(page).get_by_test_id("message").filter(has=join_button)
    join = lobby.get_by_test_id("kb-button").filter(
        has_text=texts(Language("ko")).pgettext("button", "✋ Join")
    )
    expect(join).to_have_count(1)
    expect(join).to_have_attribute("data-kind", "url")

    for name, _ in SEATS:
        act_as(page, name)
        join.click()  # the deep link opens the seat's private chat and joins in one tap
        settle(page)
        expect(private(page)).to_have_attribute("data-seat-name", name)
        expect(lobby).to_contain_text(name)

    expect(lobby.locator(".text b").first).to_be_visible()  # the bot's <b>, rendered
    act_as(page, creator)
    group(page).get_by_test_id("kb-button").filter(
        has_text=texts(Language("ko")).pgettext("button", "▶️ Start")
    ).click()
    settle(page)
    caption = group(page).get_by_test_id("message").last
    expect(caption.locator(".mention[data-user-id]")).to_have_count(1)  # the next player
    first_src, first_png = board_bytes(page)
    assert first_png.startswith(b"\x89PNG"), "the board is a PNG"

    played = []
    for _ in range(TURNS):
        name, lang = whose_turn(page)
        forget_toasts(page)
        played.append((name, play_turn(page, name, lang)))
        if dismiss_map_alert(page):
            continue  # a map's result comes as an alert instead of "Done!"
        expect_toast(page, texts(lang).pgettext("toast", "Done!"))
    assert {name for name, _ in played} == {name for name, _ in SEATS}, played

    last_src, last_png = board_bytes(page)
    assert last_src != first_src
    assert last_png != first_png, "the board picture changed"
    expect(
        group(page).get_by_test_id("message").last.get_by_test_id("message-photo")
    ).to_be_visible()

    whose_turn(page)  # shows the hand of the player to act, for the picture
    # The toasts fade for the picture (each is removed about 3 s after it came).
    expect(page.get_by_test_id("toast")).to_have_count(0, timeout=WAIT_MS)
    page.screenshot(path=str(OUTPUT / "sandbox-wide.png"))
    page.close()


@pytest.mark.slow  # goes on from the seats the test above added
def test_a_phone_sized_window_shows_one_chat_and_a_switcher(
    sandbox: Running, browser: Browser
) -> None:
    """At 390x844 one chat fills the screen; the switcher moves between the group and a seat."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    page = context.new_page()
    page.goto(sandbox.url)
    expect(page.locator("body")).to_have_attribute("data-layout", "narrow")
    add_seat(page, "지우", Language("ko"))
    switcher = page.get_by_test_id("chat-switcher")
    expect(switcher).to_be_visible()
    expect(switcher.locator("[data-testid=chat-tab][data-chat=group]")).to_be_visible()

    switcher.locator("[data-testid=chat-tab][data-chat=group]").click()
    expect(group(page)).to_be_visible()
    expect(private(page)).to_be_hidden()
    box = group(page).bounding_box()
    assert box is not None and box["width"] <= 390

    seat_tab(page, "지우").tap()
    expect(private(page)).to_be_visible()
    expect(group(page)).to_be_hidden()
    expect(private(page).get_by_test_id("message").last).to_be_visible()
    seat_tab(page, SEATS[0][0]).tap()
    expect(private(page)).to_have_attribute("data-seat-name", SEATS[0][0])
    page.screenshot(path=str(OUTPUT / "sandbox-phone.png"))
    switcher.locator("[data-testid=chat-tab][data-chat=group]").tap()
    expect(group(page).get_by_test_id("message").last).to_be_visible()
    page.screenshot(path=str(OUTPUT / "sandbox-phone-group.png"))
    context.close()


@pytest.mark.slow  # goes on from the game the first test started (three people: turns end)
@pytest.mark.parametrize("zone", ["Asia/Seoul", "America/New_York"])
def test_a_turn_deadline_reads_in_the_viewers_own_time_zone(
    sandbox: Running, browser: Browser, zone: str
) -> None:
    """The board caption's deadline (a date_time entity, format "wt") is drawn in the browser's
    time zone and language; the bot's UTC text stays as its tooltip."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, timezone_id=zone, locale="en-GB"
    )
    page = context.new_page()
    page.goto(sandbox.url)
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    page.get_by_test_id("chat-switcher").locator("[data-testid=chat-tab][data-chat=group]").click()
    board = group(page).get_by_test_id("message").filter(has=page.get_by_test_id("message-photo"))
    moment = board.last.get_by_test_id("date-time")
    expect(moment).to_have_count(1)
    unix = int(moment.get_attribute("data-unix") or "0")
    local = datetime.datetime.fromtimestamp(unix, ZoneInfo(zone))
    expect(moment).to_have_text(f"{local:%A} {local:%H:%M}")  # en-GB: "Wednesday 19:30"
    assert moment.get_attribute("title") == fallback(unix)
    assert moment.get_attribute("data-format") == "wt"
    # The private live message of the player to act says the same moment.
    name, _ = whose_turn(page)
    mine = open_private(page, name).get_by_test_id("message").last.get_by_test_id("date-time")
    expect(mine.first).to_have_text(f"{local:%A} {local:%H:%M}")
    page.screenshot(path=str(OUTPUT / f"deadline-{zone.replace('/', '-')}.png"))
    context.close()


@pytest.mark.slow  # starts Chromium (5 s and a core); the fast lane keeps test_sandbox_table
def test_the_browser_draws_the_keyboard_markers_as_colour_emoji(browser: Browser) -> None:
    """The screenshots show ✅/▫️ as emoji (Debian's fonts-noto-color-emoji), not as boxes."""
    page = browser.new_page(viewport={"width": 200, "height": 100})
    try:
        page.set_content(
            '<span id="m" style="font-size:48px;line-height:1">✅</span>'
            '<span id="t" style="font-size:48px;line-height:1">&#xE000;</span>'
        )
        marker = page.locator("#m").screenshot()
        missing = page.locator("#t").screenshot()  # what a glyph nobody has looks like
    finally:
        page.close()
    red, green, blue = (
        band.tobytes() for band in Image.open(io.BytesIO(marker)).convert("RGB").split()
    )
    greens = sum(
        1 for r, g, b in zip(red, green, blue, strict=True) if g > 120 and g > r + 40 and g > b + 40
    )
    assert greens > 200, "✅ is not drawn in colour: install Debian's fonts-noto-color-emoji"
    assert marker != missing
