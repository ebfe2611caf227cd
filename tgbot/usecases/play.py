"""Play use cases: the private hand and its menus, moves, and the group's /board and /status."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import Enum

from engine import Card, IllegalAction, Phase, UseMap, apply, current_player
from engine.cards import GOAL_SPOTS
from engine.events import Event, GoalPeeked

from .. import menus, presenter, time_texts
from ..bot_budget import replying
from ..buttons import Back, Command, ShowHand
from ..game_ids import GameId
from ..i18n import Texts, texts
from ..links import HandLink, JoinLink, parse_start_payload
from ..names import goal_name, reason_text
from ..outbox import owe
from ..records import GameRecord, Status
from ..store import ContentionError, Decision
from .context import (
    Answer,
    Context,
    Person,
    Place,
    Toast,
    contended,
    gone,
    invalid_button,
    no_game,
)
from .lobby import join
from .lobby_message import post_lobby
from .screens import redraw_later, refresh_private, show
from .turns import after_move, moved, resume, schedule

log = logging.getLogger(__name__)


class After(Enum):
    """What a hand tap still does once decided (and saved)."""

    NOTHING = "nothing"
    BACK = "back"  # a player the game played for plays again: redraw, reschedule
    STALE = "stale"  # an old hand was tapped: show the current one
    SCREEN = "screen"  # a menu step: draw it
    MOVED = "moved"


@dataclass(frozen=True, slots=True)
class TapOutcome:
    """A hand tap's answer and what follows."""

    toast: Toast
    after: After = After.NOTHING
    screen: menus.Screen | None = None
    before: int = 0  # the state's version before a move


async def open_link(ctx: Context, person: Person, payload: str | None) -> None:
    """/start in private, with or without a deep-link payload (join a game, open a hand).

    Any /start also brings back the live hand of every game the user plays: a player whose
    private chat refused the bot (blocked, never started) gets their cards at once.
    """
    tr = texts(await ctx.user_language(person))
    await ctx.store.set_reachable(person.user_id)  # /new in a group joins them from now on
    link = parse_start_payload(payload)
    if isinstance(link, JoinLink):
        await join(ctx, link.game, person)
        return
    resent = await resend_hands(ctx, person.user_id)
    if isinstance(link, HandLink):
        if link.game not in resent:
            await ctx.sender.private_text(person.user_id, gone(tr))
        return
    if resent:
        return
    hello = tr.gettext(
        "Hi! I run games of Saboteur in groups.\n"
        "Add me to a group and type /new there. Your cards will come to this chat.\n"
        "Or type /practice to play against computer players right here."
    )
    await ctx.sender.private_text(person.user_id, hello)


async def resend_hands(ctx: Context, user_id: int) -> list[GameId]:
    """Owe a new live message in every game the user plays now, and deliver; those games."""

    def back(record: GameRecord) -> GameRecord:
        unreachable = tuple(u for u in record.unreachable if u != user_id)
        return dataclasses.replace(
            record, owed=owe(record.owed, fresh=[user_id]), unreachable=unreachable
        )

    games: list[GameId] = []
    for gid in await ctx.store.user_games(user_id):
        record = await ctx.store.load(gid)
        if (
            record is None
            or record.state is None
            or record.status is not Status.PLAYING
            or user_id not in record.state.players
        ):
            continue
        if await ctx.change(gid, back) is not None:
            games.append(gid)
            await ctx.deliver(gid)
    return games


def decide_hand(
    person: Person, command: Command, version: int, chat_id: int, tr: Texts, now: int
) -> Callable[[GameRecord | None], Decision[TapOutcome]]:
    """The decision of a tap in a player's private hand."""

    def decide(record: GameRecord | None) -> Decision[TapOutcome]:
        if record is None or record.state is None:
            return Decision(TapOutcome(Toast(gone(tr))))
        refused = _refusal(record, person, version, chat_id, tr)
        if refused is not None:
            return Decision(TapOutcome(refused))
        state = record.state
        uid = person.user_id
        if uid in record.automatic:
            # Any tap of a player the game plays for brings them back (turn.auto_on says so).
            back = dataclasses.replace(
                record, automatic=tuple(u for u in record.automatic if u != uid)
            )
            text = tr.pgettext("toast", "Welcome back: you play your own turns again.")
            return Decision(TapOutcome(Toast(text), After.BACK, before=state.version), back)
        seat = menus.Seat(
            record.game_id, state, uid, presenter.names_of(record, tr.language), tr.language
        )
        out_of_turn = not isinstance(command, ShowHand | Back) and not seat.is_turn
        if version != state.version and not out_of_turn:
            # Version v is drawn before the game's move v + 1: count turns from 1.
            old = tr.pgettext(
                "toast", "This hand is from turn {old}; here is your current hand.", old=version + 1
            )
            return Decision(TapOutcome(Toast(old), After.STALE))
        if out_of_turn:
            stale = After.STALE if version != state.version else After.NOTHING
            return Decision(TapOutcome(_not_your_turn(record, tr), stale))
        return _respond(record, seat, command, tr, now)

    return decide


def _refusal(
    record: GameRecord, person: Person, version: int, chat_id: int, tr: Texts
) -> Toast | None:
    """Why a hand tap is refused before looking at the hand, if it is."""
    state = record.state
    assert state is not None
    if person.user_id not in state.players or chat_id != person.user_id:
        return Toast(tr.pgettext("toast", "These buttons are not yours."), alert=True)
    if record.status is Status.CANCELLED:
        return Toast(tr.pgettext("toast", "This game was cancelled."))
    if state.phase is Phase.OVER:
        return Toast(tr.pgettext("toast", "This game is over."))
    if version > state.version:
        return invalid_button(tr)
    return None


def _not_your_turn(record: GameRecord, tr: Texts) -> Toast:
    assert record.state is not None
    player = current_player(record.state)
    name = presenter.names_of(record).get(player, "?") if player is not None else "?"
    return Toast(tr.pgettext("toast", "It is not your turn: {name} is playing.", name=name))


def _respond(
    record: GameRecord, seat: menus.Seat, command: Command, tr: Texts, now: int
) -> Decision[TapOutcome]:
    """A tap on the current hand: a menu step, a refusal, or a move."""
    outcome = menus.respond(seat, command)
    if isinstance(outcome, menus.Refusal):
        return Decision(TapOutcome(Toast(outcome.text, alert=True)))
    if isinstance(outcome, menus.Screen):
        return Decision(TapOutcome(Toast(""), After.SCREEN, screen=outcome))
    state = record.state
    assert state is not None
    try:
        transition = apply(state, seat.player, outcome.action)
    except IllegalAction as err:
        text = tr.pgettext("toast", "Not allowed: {reason}", reason=reason_text(tr, err.reason))
        return Decision(TapOutcome(Toast(text, alert=True)))
    new = moved(record, transition, seat.player, now, action=outcome.action)
    done = Toast(tr.pgettext("toast", "Done!"))
    if isinstance(outcome.action, UseMap):
        done = map_alert(tr, transition.events, seat.player) or done
    return Decision(TapOutcome(done, After.MOVED, before=state.version), new)


def map_alert(tr: Texts, events: tuple[Event, ...], player: int) -> Toast | None:
    """The map's moment: an alert, to the one who looked, of what lies under the goal card."""
    for e in events:
        if isinstance(e, GoalPeeked) and e.audience == player and e.at in GOAL_SPOTS:
            goal = goal_name(tr, GOAL_SPOTS.index(e.at))
            if e.card is Card.GOLD:
                text = tr.pgettext(
                    "toast",
                    "🗺 The {goal} goal card is the gold! 💰 It is marked on your board.",
                    goal=goal,
                )
            else:
                text = tr.pgettext(
                    "toast",
                    "🗺 The {goal} goal card is coal: no gold there. It is marked on your board.",
                    goal=goal,
                )
            return Toast(text, alert=True)
    return None


async def hand_tap(
    ctx: Context,
    person: Person,
    command: Command,
    chat_id: int,
    message_id: int | None,
    answer: Answer | None = None,
) -> Toast:
    """A button of a player's private hand: a menu step or a move, if legal.

    The tap is answered once the decision is saved; drawing and announcing come after, and if
    they fail the saved game still owes them (the sweeper delivers them), so a saved move is
    never answered with "try again".
    """
    tr = texts(await ctx.user_language(person))
    gid = getattr(command, "game", None)
    version = getattr(command, "version", None)
    if not isinstance(gid, str) or not isinstance(version, int):
        return invalid_button(tr)
    decide = decide_hand(person, command, version, chat_id, tr, ctx.now())

    async def follow(record: GameRecord, outcome: TapOutcome) -> None:
        await _follow(ctx, record, outcome, person.user_id, message_id)

    return await settle_hand_tap(ctx, gid, decide, tr, answer, follow)


async def settle_hand_tap(
    ctx: Context,
    gid: GameId,
    decide: Callable[[GameRecord | None], Decision[TapOutcome]],
    tr: Texts,
    answer: Answer | None,
    follow: Callable[[GameRecord, TapOutcome], Awaitable[None]],
) -> Toast:
    """Save a hand tap's decision, answer the tap, then `follow` it (drawing, announcing: if
    that fails, the saved game still owes it); a game that plays by itself keeps going."""
    try:
        done = await ctx.store.update(gid, decide)
    except ContentionError:
        return Toast(contended(tr))
    outcome, record = done.result, done.record
    if answer is not None:
        await answer(outcome.toast)
    if record is not None:
        try:
            await follow(record, outcome)
        except Exception:
            log.exception("game %s: after a saved tap; what it owes stays owed", gid)
        if outcome.after is not After.MOVED:
            await resume(ctx, record)  # a tap while the game plays by itself keeps it going
    return outcome.toast


async def _follow(
    ctx: Context, record: GameRecord, outcome: TapOutcome, uid: int, tapped: int | None
) -> None:
    """What a hand tap does once decided: redraw, draw a menu, or announce a move."""
    if outcome.after is After.BACK:
        await schedule(ctx, record, outcome.before)
        sent = await refresh_private(ctx, record, uid, new_message=False)
        await redraw_later(ctx, record, uid, sent)
    elif outcome.after is After.STALE:
        sent = await refresh_private(ctx, record, uid, new_message=False, tapped=tapped)
        await redraw_later(ctx, record, uid, sent)
    elif outcome.after is After.SCREEN:
        assert outcome.screen is not None
        # If Telegram fails this edit, the message keeps the screen before it (whose buttons
        # still work): the player taps again. Nothing is owed, so no later redraw undoes
        # the steps they take meanwhile.
        with replying():  # the tapper waits for this screen: the bot's budget does not hold it
            await show(ctx, record, uid, outcome.screen, tapped=tapped)
    elif outcome.after is After.MOVED:
        await after_move(ctx, record, outcome.before)


async def repost_board(ctx: Context, place: Place) -> None:
    """/board: the current board again, as the one board post of the chat."""
    record = await ctx.active(place)
    if record is not None and record.status is Status.LOBBY:
        await post_lobby(ctx, record)
        return
    if record is None or record.state is None:
        await ctx.say(place, no_game(texts(await ctx.group_language(place.chat_id))))
        return
    version = record.state.version
    await ctx.change(
        record.game_id, lambda r: dataclasses.replace(r, owed=owe(r.owed, board_version=version))
    )
    await resume(ctx, record)
    await ctx.deliver(record.game_id)


async def status_text(ctx: Context, place: Place) -> str:
    """/status: whose turn, without anything private."""
    record = await ctx.active(place)
    lang = await ctx.group_language(place.chat_id)
    tr = texts(lang)
    if record is None:
        return no_game(tr)
    if record.state is None:
        count = len(record.lobby.players)
        return tr.ngettext(
            "The game is being set up: {count} player so far.",
            "The game is being set up: {count} players so far.",
            count,
            count=count,
        )
    player = current_player(record.state)
    name = presenter.names_of(record).get(player, str(player)) if player is not None else ""
    playing = presenter.mention(player, name) if player is not None else "?"
    lines = [
        tr.gettext("Round {round}/3. {name} is playing.", round=record.state.round, name=playing)
    ]
    limit = record.lobby.turn_limit_hours
    if limit is None:
        lines.append(tr.gettext("No time limit."))
    else:
        end = record.turn_started_at + 3600 * limit
        left = max(0, end - ctx.now())
        lines.append(
            tr.gettext(
                "Time left for this turn: {time} ({moment}).",
                time=presenter.duration(lang, left),
                moment=time_texts.moment(end),
            )
        )
    return "\n".join(lines)
