"""Every user-facing text of the bot, built from records, views and events through the catalog."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from html import escape

from engine import (
    Card,
    Edition,
    GameState,
    PlayerView,
    RoundResult,
    player_view,
    public_view,
)
from engine.cards import GOAL_SPOTS
from engine.events import (
    ActionPlayed,
    CardsDiscarded,
    Event,
    GameEnded,
    GoalRevealed,
    GoldStolen,
    InFrontCleared,
    MapUsed,
    PlayerPassed,
    RockfallPlayed,
    TunnelPlaced,
)
from engine.model import player_range
from render.labels import cell_label

from .callback import (
    CancelGame,
    LeaveGame,
    SetEdition,
    SetLanguage,
    SetTurnLimit,
    StartGame,
    ToggleVariant,
    Variant,
    join_payload,
    start_link,
)
from .i18n import Language, card_name, edition_name, role_name, side_name, t, tool_name
from .menus import Button, Keyboard
from .records import GameRecord, Status


def escape_text(text: str) -> str:
    """HTML-escape a value put into a catalog text (names, titles)."""
    return escape(text)


def edition_label(lang: Language, edition: Edition) -> str:
    """An edition's name, HTML-escaped."""
    return escape(edition_name(lang, edition))


def duration(lang: Language, seconds: float) -> str:
    """A time span such as "3 h 20 min" (minutes rounded up)."""
    minutes = max(1, int(-(-seconds // 60)))
    hours, minutes = divmod(minutes, 60)
    if hours:
        return t(lang, "time.hours_minutes", hours=hours, minutes=minutes)
    return t(lang, "time.minutes", minutes=minutes)


def names_of(record: GameRecord) -> dict[int, str]:
    """Display names by user id (unescaped): the players, and the creator even if not playing."""
    creator = {record.creator_id: record.creator_name} if record.creator_name else {}
    return creator | {p.user_id: p.name for p in record.lobby.players}


def mention(user_id: int, name: str) -> str:
    """An HTML mention that notifies the user."""
    return f'<a href="tg://user?id={user_id}">{escape(name)}</a>'


def _name(names: Mapping[int, str], user_id: int | None) -> str:
    if user_id is None:
        return "?"
    return escape(names.get(user_id, str(user_id)))


# ---------------------------------------------------------------- lobby


def lobby_text(record: GameRecord, lang: Language, *, can_anyone_start: bool) -> str:
    """The lobby message: edition, variants, time per turn, players, what is missing."""
    lobby = record.lobby
    names = names_of(record)
    players = range_of(lobby.edition)
    edition = edition_name(lang, lobby.edition)
    variants = [
        t(lang, f"variant.{v.value}")
        for v, on in (
            (Variant.GOLD_PER_MINER, lobby.options.gold.value == "per_miner"),
            (Variant.GREEDY_DWARF, lobby.options.greedy_dwarf),
        )
        if on
    ]
    lines = [
        t(lang, "lobby.title", edition=escape(edition)),
        t(lang, "lobby.created_by", name=_name(names, record.creator_id)),
        t(lang, "lobby.variants", variants=", ".join(variants) or t(lang, "variant.none")),
    ]
    if lobby.turn_limit_hours is None:
        lines.append(t(lang, "lobby.turn_limit_none"))
    else:
        lines.append(t(lang, "lobby.turn_limit_hours", hours=lobby.turn_limit_hours))
    lines.append("")
    if lobby.players:
        lines.append(t(lang, "lobby.players", count=len(lobby.players), max=players.stop - 1))
        lines += [
            t(lang, "lobby.player_line", number=i + 1, name=escape(p.name))
            for i, p in enumerate(lobby.players)
        ]
    else:
        lines.append(t(lang, "lobby.no_players"))
    lines.append("")
    count = len(lobby.players)
    if count < players.start:
        lines.append(t(lang, "lobby.waiting_more", count=players.start - count))
    elif can_anyone_start:
        lines.append(t(lang, "lobby.ready_anyone"))
    else:
        lines.append(t(lang, "lobby.ready_creator", name=_name(names, record.creator_id)))
    lines.append(t(lang, "lobby.join_hint"))
    return "\n".join(lines)


def range_of(edition: Edition) -> range:
    """Legal player counts of an edition."""
    return player_range(edition)


def lobby_keyboard(record: GameRecord, lang: Language, bot_username: str) -> Keyboard:
    """Join (a deep link), leave, start, cancel, and the set-up switches."""
    g, rev = record.game_id, record.lobby.revision
    lobby = record.lobby

    def mark(on: bool) -> str:
        return t(lang, "button.selected" if on else "button.unselected")

    url = start_link(bot_username, join_payload(g))
    return (
        (
            Button(t(lang, "button.join"), url=url),
            Button(t(lang, "button.leave"), LeaveGame(g, rev)),
        ),
        tuple(
            Button(
                t(
                    lang,
                    "button.edition",
                    mark=mark(lobby.edition is e),
                    edition=edition_name(lang, e),
                ),
                SetEdition(g, rev, e),
            )
            for e in (Edition.BASE, Edition.DELUXE)
        ),
        (
            Button(
                t(
                    lang,
                    "button.variant_per_miner",
                    mark=mark(lobby.options.gold.value == "per_miner"),
                ),
                ToggleVariant(g, rev, Variant.GOLD_PER_MINER),
            ),
            Button(
                t(lang, "button.variant_greedy_dwarf", mark=mark(lobby.options.greedy_dwarf)),
                ToggleVariant(g, rev, Variant.GREEDY_DWARF),
            ),
        ),
        turn_limit_row(record, lang),
        (
            Button(t(lang, "button.start"), StartGame(g, rev)),
            Button(t(lang, "button.cancel"), CancelGame(g, rev)),
        ),
    )


def language_row(lang: Language) -> tuple[Button, ...]:
    """The two language buttons (/lang, /settings)."""
    return (
        Button(t(lang, "button.lang_ko"), SetLanguage(Language.KO)),
        Button(t(lang, "button.lang_en"), SetLanguage(Language.EN)),
    )


TURN_LIMIT_CHOICES: tuple[int | None, ...] = (1, 12, 24, 72, None)


def turn_limit_row(record: GameRecord, lang: Language) -> tuple[Button, ...]:
    """Buttons choosing the time per turn (hours, or no limit), the current one marked."""
    current = record.lobby.turn_limit_hours

    def mark(on: bool) -> str:
        return t(lang, "button.selected" if on else "button.unselected")

    return tuple(
        Button(
            t(lang, "button.turn_limit_hours", mark=mark(current == h), hours=h)
            if h is not None
            else t(lang, "button.turn_limit_none", mark=mark(current is None)),
            SetTurnLimit(record.game_id, record.lobby.revision, h),
        )
        for h in TURN_LIMIT_CHOICES
    )


# ---------------------------------------------------------------- the board post


def goal_name(lang: Language, at: tuple[int, int]) -> str:
    """top / middle / bottom."""
    return t(lang, f"goal.{GOAL_SPOTS.index(at)}") if at in GOAL_SPOTS else "?"


def move_lines(events: Iterable[Event], names: Mapping[int, str], lang: Language) -> list[str]:
    """What the group learns of a move, one line per public event worth telling."""
    lines: list[str] = []
    for e in events:
        if e.audience is not None:
            continue
        if isinstance(e, TunnelPlaced):
            lines.append(
                t(
                    lang,
                    "board.move_tunnel",
                    name=_name(names, e.player),
                    card=_card(lang, e.card),
                    cell=cell_label(e.at),
                )
            )
        elif isinstance(e, ActionPlayed):
            card = _card(lang, e.card)
            if e.tool is not None and e.card.name.startswith("REPAIR_") and "_" in e.card.name[7:]:
                card = f"{card} ({escape(tool_name(lang, e.tool))})"
            lines.append(
                t(
                    lang,
                    "board.move_action",
                    name=_name(names, e.player),
                    card=card,
                    target=_name(names, e.target),
                )
            )
        elif isinstance(e, MapUsed):
            lines.append(
                t(lang, "board.move_map", name=_name(names, e.player), goal=goal_name(lang, e.at))
            )
        elif isinstance(e, RockfallPlayed):
            lines.append(
                t(lang, "board.move_rockfall", name=_name(names, e.player), cell=cell_label(e.at))
            )
        elif isinstance(e, CardsDiscarded):
            lines.append(t(lang, "board.move_discard", name=_name(names, e.player), count=e.count))
        elif isinstance(e, InFrontCleared):
            lines.append(
                t(lang, "board.move_clear", name=_name(names, e.player), card=_card(lang, e.card))
            )
        elif isinstance(e, PlayerPassed):
            lines.append(t(lang, "board.move_pass", name=_name(names, e.player)))
        elif isinstance(e, GoalRevealed):
            lines.append(
                t(lang, "board.goal_revealed", goal=goal_name(lang, e.at), card=_card(lang, e.card))
            )
    return lines


def _card(lang: Language, card: Card) -> str:
    return escape(card_name(lang, card))


def board_caption(
    state: GameState, names: Mapping[int, str], lang: Language, last_move: Sequence[str] = ()
) -> str:
    """The caption of the board post: the last move, the round, the deck, who plays next."""
    view = public_view(state)
    lines = list(last_move)
    if view.current is not None:
        lines.append(
            t(
                lang,
                "board.caption",
                round=view.round,
                deck=view.deck_size,
                name=mention(view.current, names.get(view.current, str(view.current))),
            )
        )
    return "\n".join(lines)


def round_text(
    result: RoundResult,
    names: Mapping[int, str],
    lang: Language,
    next_round: int | None,
    starter: int | None,
    events: Iterable[Event] = (),
) -> str:
    """Round end: who reached the gold, the winners, roles, who was paid (not how much)."""
    lines = [t(lang, "round.over", round=result.round)]
    if result.finder is not None:
        lines.append(t(lang, "round.gold_found", name=_name(names, result.finder)))
    else:
        lines.append(t(lang, "round.gold_not_found"))
    sides = ", ".join(escape(side_name(lang, s)) for s in result.winners)
    lines.append(t(lang, "round.winners", sides=sides))
    lines.append(t(lang, "round.roles"))
    lines += [
        t(lang, "round.role_line", name=_name(names, p), role=escape(role_name(lang, r)))
        for p, r in result.roles
    ]
    if result.paid:
        lines.append(t(lang, "round.paid", names=", ".join(_name(names, p) for p in result.paid)))
    else:
        lines.append(t(lang, "round.nobody_paid"))
    for e in events:
        if isinstance(e, GoldStolen) and e.audience is None:
            lines.append(
                t(lang, "round.theft", thief=_name(names, e.thief), victim=_name(names, e.victim))
            )
    if next_round is not None and starter is not None:
        lines.append("")
        lines.append(t(lang, "round.next", round=next_round, name=_name(names, starter)))
    return "\n".join(lines)


def game_text(event: GameEnded, names: Mapping[int, str], lang: Language) -> str:
    """Game end: the final scoreboard and the winners."""
    lines = [t(lang, "game.over")]
    ranked = sorted(event.gold, key=lambda pg: -pg[1])
    rank = 0
    previous: int | None = None
    for i, (p, gold) in enumerate(ranked):
        if gold != previous:
            rank = i + 1
            previous = gold
        lines.append(t(lang, "game.score_line", rank=rank, name=_name(names, p), gold=gold))
    winners = ", ".join(_name(names, p) for p in event.winners)
    key = "game.winner" if len(event.winners) == 1 else "game.winners"
    lines.append(t(lang, key, names=winners))
    lines.append(t(lang, "game.new_hint"))
    return "\n".join(lines)


# ---------------------------------------------------------------- the private message


def hand_caption(
    record: GameRecord, state: GameState, user_id: int, lang: Language, prompt: Sequence[str]
) -> str:
    """The live private message: which game, role, gold, learned facts, whose turn, the prompt."""
    view: PlayerView = player_view(state, user_id)
    names = names_of(record)
    pub = view.public
    lines = [
        t(lang, "hand.title", chat=escape(record.title or str(record.chat_id)), round=pub.round),
        t(lang, "hand.role", role=escape(role_name(lang, view.role))),
        t(lang, "hand.gold", gold=view.gold),
    ]
    me = next(s for s in pub.seats if s.player == user_id)
    if me.in_front:
        cards = ", ".join(_card(lang, c) for c in me.in_front)
        lines.append(t(lang, "hand.in_front", cards=cards))
    for g in view.board.goals:
        if g.peeked and g.card is not None:
            lines.append(
                t(lang, "hand.peeked", goal=goal_name(lang, g.at), card=_card(lang, g.card))
            )
    for p, role in view.inspected:
        lines.append(
            t(lang, "hand.inspected", name=_name(names, p), role=escape(role_name(lang, role)))
        )
    lines.append(t(lang, "hand.deck", count=pub.deck_size))
    if not view.hand:
        lines.append(t(lang, "hand.empty"))
    awaited = pub.current if record.status is Status.PLAYING else None  # a cancelled game waits
    if awaited == user_id:
        lines.append(t(lang, "turn.your_turn"))
    elif awaited is not None:
        lines.append(t(lang, "hand.waiting", name=_name(names, awaited)))
    lines += prompt
    return "\n".join(lines)
