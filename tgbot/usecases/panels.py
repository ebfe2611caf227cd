"""Playing from the group: a player's hand as an ephemeral message only they see there.

The live board post has a "My hand" button. A player who taps it gets their private hand's
screen (their board view, their hand, the same menus) as an ephemeral message in the group
(Bot API 10.2-10.4); each step edits that message, and Confirm makes the move through the same
decision as a tap in private (`play.decide_hand`: same codec, version checks and toasts).

Ephemeral messages are not guaranteed to arrive, so the private chat stays the source of
truth: nothing here is saved with the game, reminders and "your turn" still go to private, and
a panel that cannot be sent answers the tap with a toast and a link to the private chat.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from engine import Phase

from .. import menus, presenter
from ..buttons import Command, PickCard, ShowHand
from ..i18n import Texts, texts
from ..links import hand_payload, start_link
from ..menus import Button, Keyboard
from ..ports import Ephemeral, Sent
from ..records import GameRecord, Status
from .context import (
    Answer,
    Context,
    Person,
    Toast,
    gone,
    invalid_button,
    player_language,
)
from .play import After, TapOutcome, decide_hand, settle_hand_tap
from .screens import redraw_later, refresh_private
from .turns import after_move, schedule

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Panel:
    """A tap in a group that may be answered with an ephemeral message: the callback query,
    the group, and the ephemeral message tapped (None: a group post, the board's "My hand")."""

    query_id: str
    chat_id: int
    thread_id: int | None = None
    ephemeral_message_id: int | None = None
    receiver_id: int | None = None  # whom the tapped ephemeral message was sent to


def board_keyboard(record: GameRecord) -> Keyboard:
    """The live board post's keyboard: "My hand" while a group's game is played (in the
    group's language; each player's panel is then in theirs). A practice game's board is in
    the private chat already: it has none."""
    state = record.state
    if state is None or record.status is not Status.PLAYING or state.phase is not Phase.PLAYING:
        return ()
    if record.chat_id > 0:
        return ()
    label = texts(record.language).pgettext("button", "🃏 My hand")
    return ((Button(label, ShowHand(record.game_id, state.version)),),)


def panel_keyboard(screen: menus.Screen) -> Keyboard:
    """A screen's keyboard for the group: cards that cannot be played are disabled buttons
    (a button with neither command nor URL, Bot API 10.3 `DisabledButton`)."""
    return tuple(
        tuple(
            Button(b.label, style=b.style)
            if isinstance(b.command, PickCard) and b.command.card in screen.blocked
            else b
            for b in row
        )
        for row in screen.keyboard
    )


async def tap(
    ctx: Context, person: Person, command: Command, panel: Panel, answer: Answer
) -> Toast:
    """A tap on the board's "My hand" or inside a panel; answered once, through `answer`."""
    tr = texts(await ctx.user_language(person))
    if panel.ephemeral_message_id is None:
        if not isinstance(command, ShowHand):
            return invalid_button(tr)
        return await _open(ctx, person, command, panel, tr, answer)
    return await _step(ctx, person, command, panel, tr, answer)


async def _open(
    ctx: Context, person: Person, command: ShowHand, panel: Panel, tr: Texts, answer: Answer
) -> Toast:
    """The board's "My hand": the player's current hand as a new ephemeral message."""
    record = await ctx.store.load(command.game)
    if record is None or record.state is None or record.chat_id != panel.chat_id:
        return Toast(gone(tr))
    state = record.state
    if person.user_id not in state.players:
        return Toast(tr.pgettext("toast", "Only the players of this game have a hand."))
    if record.status is Status.CANCELLED:
        return Toast(tr.pgettext("toast", "This game was cancelled."))
    if state.phase is Phase.OVER:
        return Toast(tr.pgettext("toast", "This game is over."))
    to = Ephemeral(
        panel.chat_id,
        person.user_id,
        callback_query_id=panel.query_id,
        thread_id=panel.thread_id,
    )
    sent = await _send(ctx, record, person.user_id, to)
    toast = Toast("") if sent.ok else _fallback(ctx, record, tr)
    await answer(toast)
    return toast


def _fallback(ctx: Context, record: GameRecord, tr: Texts) -> Toast:
    """The answer when the panel could not be sent: the hand is in the private chat."""
    text = tr.pgettext(
        "toast", "I could not show your hand here. It is in your private chat with me."
    )
    return Toast(text, url=start_link(ctx.sender.username, hand_payload(record.game_id)))


async def _step(
    ctx: Context, person: Person, command: Command, panel: Panel, tr: Texts, answer: Answer
) -> Toast:
    """A button of a panel: the very decision of a tap in private, then the panel redrawn."""
    gid = getattr(command, "game", None)
    version = getattr(command, "version", None)
    if not isinstance(gid, str) or not isinstance(version, int):
        return invalid_button(tr)
    if panel.receiver_id not in (None, person.user_id):
        return Toast(tr.pgettext("toast", "These buttons are not yours."), alert=True)
    record = await ctx.store.load(gid)
    if record is not None and record.chat_id != panel.chat_id:
        return invalid_button(tr)  # a panel of another group's game: forged
    # The panel is the player's own (Telegram shows it to them alone): decided as in private.
    decide = decide_hand(person, command, version, person.user_id, tr, ctx.now())

    async def follow(record: GameRecord, outcome: TapOutcome) -> None:
        await _follow(ctx, record, outcome, person.user_id, panel)

    return await settle_hand_tap(ctx, gid, decide, tr, answer, follow)


async def _follow(
    ctx: Context, record: GameRecord, outcome: TapOutcome, uid: int, panel: Panel
) -> None:
    """What a panel tap does once decided: the private chat as after a private tap, and the
    panel edited to the step (or to the current hand)."""
    assert panel.ephemeral_message_id is not None
    if outcome.after is After.SCREEN:
        assert outcome.screen is not None
        await _edit(ctx, record, uid, panel, outcome.screen)
        return
    if outcome.after is After.BACK:
        await schedule(ctx, record, outcome.before)
        sent = await refresh_private(ctx, record, uid, new_message=False)
        await redraw_later(ctx, record, uid, sent)
    elif outcome.after is After.MOVED:
        await after_move(ctx, record, outcome.before)
        reloaded = await ctx.store.load(record.game_id)
        record = reloaded if reloaded is not None else record
    elif outcome.after is After.NOTHING:
        return
    await _edit(ctx, record, uid, panel, _home(record, uid))


def _home(record: GameRecord, user_id: int) -> menus.Screen:
    """The player's hand screen now (their turn's cards, or what they wait for)."""
    state = record.state
    assert state is not None
    lang = player_language(record, user_id)
    seat = menus.Seat(record.game_id, state, user_id, presenter.names_of(record), lang)
    return menus.home(seat)


def _drawn(
    ctx: Context, record: GameRecord, user_id: int, screen: menus.Screen
) -> tuple[bytes, str, Keyboard]:
    """A screen's picture, caption and keyboard, as the private chat shows them."""
    state = record.state
    assert state is not None
    lang = player_language(record, user_id)
    caption = presenter.hand_caption(record, state, user_id, lang, screen.prompt)
    png = ctx.painter.screen(state, user_id, screen, presenter.names_of(record))
    in_play = record.status is Status.PLAYING and state.phase is Phase.PLAYING
    return png, caption, panel_keyboard(screen) if in_play else ()


async def _send(ctx: Context, record: GameRecord, user_id: int, to: Ephemeral) -> Sent:
    """The player's hand as a new ephemeral message."""
    png, caption, keyboard = _drawn(ctx, record, user_id, _home(record, user_id))
    return await ctx.sender.ephemeral_photo(to, png, caption, keyboard)


async def _edit(
    ctx: Context, record: GameRecord, user_id: int, panel: Panel, screen: menus.Screen
) -> Sent:
    """Draw a screen in the panel; if Telegram does not take it, the player taps "My hand"
    again (the panel holds nothing the game needs)."""
    assert panel.ephemeral_message_id is not None
    png, caption, keyboard = _drawn(ctx, record, user_id, screen)
    sent = await ctx.sender.edit_ephemeral_photo(
        panel.chat_id, user_id, panel.ephemeral_message_id, png, caption, keyboard
    )
    if not sent.ok:
        log.info("game %s: a panel was not edited: %s", record.game_id, sent.detail)
    return sent
