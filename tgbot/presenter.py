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
    AddComputer,
    CancelGame,
    LeaveGame,
    RemoveComputer,
    SetComputers,
    SetEdition,
    SetLanguage,
    SetTurnLimit,
    StartGame,
    ToggleVariant,
    Variant,
)
from .i18n import LANGUAGES, NC_, Language, Marked, Texts, texts
from .links import join_payload, start_link
from .menus import Button, Keyboard, marked_label
from .names import (
    card_name,
    edition_name,
    goal_name_at,
    placed_card_name,
    role_name,
    side_name,
    tool_name,
)
from .records import GameRecord, LobbyPlayer, Status, is_computer_id

COMPUTER_MARK = "🤖"  # before a computer player's name, wherever a name is written
PRACTICE_OPPONENTS = (2, 3, 4)  # how many computer players a practice game can have

VARIANTS: Mapping[Variant, Marked] = {
    # Translators: a rule variant, as listed after "Variants:".
    Variant.GOLD_PER_MINER: NC_("variant", "one gold card per miner"),
    Variant.GREEDY_DWARF: NC_("variant", "greedy dwarf (miners with a broken tool get no gold)"),
}


def escape_text(text: str) -> str:
    """HTML-escape a value put into a catalog text (names, titles)."""
    return escape(text)


def edition_label(lang: Language, edition: Edition) -> str:
    """An edition's name, HTML-escaped."""
    return escape(edition_name(texts(lang), edition))


def hours_text(tr: Texts, hours: int) -> str:
    """A number of hours, such as "24 h"."""
    return tr.npgettext("duration", "{count} h", "{count} h", hours, count=hours)


def minutes_text(tr: Texts, minutes: int) -> str:
    """A number of minutes, such as "20 min"."""
    return tr.npgettext("duration", "{count} min", "{count} min", minutes, count=minutes)


def duration(lang: Language, seconds: float) -> str:
    """A time span such as "3 h 20 min" (minutes rounded up)."""
    tr = texts(lang)
    minutes = max(1, int(-(-seconds // 60)))
    hours, minutes = divmod(minutes, 60)
    if hours:
        # Translators: a time span: the hours, then the minutes ("3 h 20 min").
        return tr.pgettext(
            "duration",
            "{hours} {minutes}",
            hours=hours_text(tr, hours),
            minutes=minutes_text(tr, minutes),
        )
    return minutes_text(tr, minutes)


def turn_limit_line(lang: Language, hours: int | None) -> str:
    """The time per turn, as the lobby and /settings show it."""
    tr = texts(lang)
    if hours is None:
        return tr.gettext("Time per turn: no limit")
    return tr.gettext("Time per turn: {time}", time=hours_text(tr, hours))


def shown_name(player: LobbyPlayer) -> str:
    """A player's name as written everywhere: a computer player's with its mark."""
    return f"{COMPUTER_MARK} {player.name}" if player.is_computer else player.name


def names_of(record: GameRecord) -> dict[int, str]:
    """Display names by user id (unescaped): the players (computer players marked), and the
    creator even if not playing."""
    creator = {record.creator_id: record.creator_name} if record.creator_name else {}
    return creator | {p.user_id: shown_name(p) for p in record.lobby.players}


def mention(user_id: int, name: str) -> str:
    """An HTML mention that notifies the user (a computer player's name is written plain)."""
    if is_computer_id(user_id):
        return escape(name)
    return f'<a href="tg://user?id={user_id}">{escape(name)}</a>'


def _name(names: Mapping[int, str], user_id: int | None) -> str:
    if user_id is None:
        return "?"
    return escape(names.get(user_id, str(user_id)))


# ---------------------------------------------------------------- lobby


def lobby_text(record: GameRecord, lang: Language, *, can_anyone_start: bool) -> str:
    """The lobby message: edition, variants, time per turn, players, what is missing."""
    if record.is_practice:
        return practice_text(record, lang)
    tr = texts(lang)
    lobby = record.lobby
    names = names_of(record)
    players = range_of(lobby.edition)
    variants = [
        tr.marked(VARIANTS[v])
        for v, on in (
            (Variant.GOLD_PER_MINER, lobby.options.gold.value == "per_miner"),
            (Variant.GREEDY_DWARF, lobby.options.greedy_dwarf),
        )
        if on
    ]
    creator = _name(names, record.creator_id)
    lines = [
        tr.gettext("⛏ <b>{edition}</b>: new game", edition=edition_label(lang, lobby.edition)),
        tr.gettext("Opened by {name}", name=creator),
        tr.gettext(
            "Variants: {variants}",
            variants=", ".join(variants) or tr.pgettext("variant", "none"),
        ),
        turn_limit_line(lang, lobby.turn_limit_hours),
        "",
    ]
    if lobby.players:
        lines.append(
            tr.gettext("Players ({count}/{max}):", count=len(lobby.players), max=players.stop - 1)
        )
        lines += [
            tr.gettext("{number}. {name}", number=i + 1, name=escape(shown_name(p)))
            for i, p in enumerate(lobby.players)
        ]
    else:
        lines.append(tr.gettext("Nobody has joined yet."))
    lines.append("")
    missing = players.start - len(lobby.players)
    if missing > 0:
        lines.append(
            tr.ngettext(
                "Waiting for {count} more to join.",
                "Waiting for {count} more to join.",
                missing,
                count=missing,
            )
        )
    elif not lobby.humans:
        lines.append(tr.gettext("Computer players cannot play alone: at least one person joins."))
    elif can_anyone_start:
        lines.append(tr.gettext("Ready! Any player can start the game."))
    else:
        lines.append(tr.gettext("Ready! {name} can start the game.", name=creator))
    lines.append(
        tr.gettext(
            "Tap Join: it opens a private chat with me, where your cards will be. "
            "Press Start there if Telegram asks."
        )
    )
    return "\n".join(lines)


def practice_text(record: GameRecord, lang: Language) -> str:
    """The set-up message of a practice game: the edition, the opponents, how to start."""
    tr = texts(lang)
    lobby = record.lobby
    count = len(lobby.computers)
    lines = [
        tr.gettext("🎯 <b>Practice</b>: {edition}", edition=edition_label(lang, lobby.edition)),
        tr.ngettext(
            "You against {count} computer player:",
            "You against {count} computer players:",
            count,
            count=count,
        ),
        ", ".join(escape(shown_name(p)) for p in lobby.computers),
        "",
        tr.gettext(
            "Choose the edition and how many opponents, then tap Start. The board and your "
            "hand come to this chat; there is no time limit, and /cancel ends the game."
        ),
    ]
    return "\n".join(lines)


def range_of(edition: Edition) -> range:
    """Legal player counts of an edition."""
    return player_range(edition)


def lobby_keyboard(record: GameRecord, lang: Language, bot_username: str) -> Keyboard:
    """Join (a deep link), leave, computer players, start, cancel, and the set-up switches."""
    if record.is_practice:
        return practice_keyboard(record, lang)
    tr = texts(lang)
    g, rev = record.game_id, record.lobby.revision
    lobby = record.lobby
    url = start_link(bot_username, join_payload(g))
    return (
        (
            Button(tr.pgettext("button", "✋ Join"), url=url),
            Button(tr.pgettext("button", "🚪 Leave"), LeaveGame(g, rev)),
        ),
        (
            Button(tr.pgettext("button", "🤖 Add a computer"), AddComputer(g, rev)),
            Button(tr.pgettext("button", "🤖 Remove a computer"), RemoveComputer(g, rev)),
        ),
        _edition_row(record, tr),
        (
            Button(
                marked_label(
                    lobby.options.gold.value == "per_miner",
                    tr.pgettext("button", "One gold card per miner"),
                ),
                ToggleVariant(g, rev, Variant.GOLD_PER_MINER),
            ),
            Button(
                marked_label(lobby.options.greedy_dwarf, tr.pgettext("button", "Greedy dwarf")),
                ToggleVariant(g, rev, Variant.GREEDY_DWARF),
            ),
        ),
        turn_limit_row(record, lang),
        (
            Button(tr.pgettext("button", "▶️ Start"), StartGame(g, rev)),
            Button(tr.pgettext("button", "✖️ Cancel game"), CancelGame(g, rev)),
        ),
    )


def _edition_row(record: GameRecord, tr: Texts) -> tuple[Button, ...]:
    g, rev, edition = record.game_id, record.lobby.revision, record.lobby.edition
    return tuple(
        Button(marked_label(edition is e, edition_name(tr, e)), SetEdition(g, rev, e))
        for e in (Edition.BASE, Edition.DELUXE)
    )


def practice_keyboard(record: GameRecord, lang: Language) -> Keyboard:
    """A practice game's set-up: the edition, the number of opponents, start, cancel."""
    tr = texts(lang)
    g, rev = record.game_id, record.lobby.revision
    count = len(record.lobby.computers)
    return (
        _edition_row(record, tr),
        tuple(
            Button(marked_label(count == n, f"{COMPUTER_MARK} {n}"), SetComputers(g, rev, n))
            for n in PRACTICE_OPPONENTS
        ),
        (
            Button(tr.pgettext("button", "▶️ Start"), StartGame(g, rev)),
            Button(tr.pgettext("button", "✖️ Cancel game"), CancelGame(g, rev)),
        ),
    )


def language_row() -> tuple[Button, ...]:
    """One button per language the bot has a catalog for, each named in itself (/lang)."""
    return tuple(Button(texts(lang).native_name, SetLanguage(lang)) for lang in LANGUAGES)


TURN_LIMIT_CHOICES: tuple[int | None, ...] = (1, 12, 24, 72, None)


def turn_limit_row(record: GameRecord, lang: Language) -> tuple[Button, ...]:
    """Buttons choosing the time per turn (hours, or no limit), the current one marked."""
    tr = texts(lang)
    current = record.lobby.turn_limit_hours
    return tuple(
        Button(
            marked_label(
                current == h,
                hours_text(tr, h) if h is not None else tr.pgettext("button", "No limit"),
            ),
            SetTurnLimit(record.game_id, record.lobby.revision, h),
        )
        for h in TURN_LIMIT_CHOICES
    )


# ---------------------------------------------------------------- the board post


def move_lines(events: Iterable[Event], names: Mapping[int, str], lang: Language) -> list[str]:
    """What the group learns of a move, one line per public event worth telling."""
    tr = texts(lang)
    lines: list[str] = []
    for e in events:
        if e.audience is None:
            line = _move_line(tr, e, names)
            if line is not None:
                lines.append(line)
    return lines


def _move_line(tr: Texts, e: Event, names: Mapping[int, str]) -> str | None:
    """One public event told to the group, or None for one the group is not told of."""
    if isinstance(e, TunnelPlaced):
        return tr.gettext(
            "{name} placed {card} at {cell}",
            name=_name(names, e.player),
            card=escape(placed_card_name(tr, e.card, e.rotated)),
            cell=cell_label(e.at),
        )
    if isinstance(e, ActionPlayed):
        return _action_line(tr, e, names)
    if isinstance(e, MapUsed):
        return tr.gettext(
            "{name} looked at the {goal} goal card",
            name=_name(names, e.player),
            goal=goal_name_at(tr, e.at),
        )
    if isinstance(e, RockfallPlayed):
        return tr.gettext(
            "{name} caused a rockfall at {cell}", name=_name(names, e.player), cell=cell_label(e.at)
        )
    if isinstance(e, CardsDiscarded):
        return tr.ngettext(
            "{name} discarded {count} card",
            "{name} discarded {count} cards",
            e.count,
            name=_name(names, e.player),
            count=e.count,
        )
    if isinstance(e, InFrontCleared):
        return tr.gettext(
            "{name} discarded 2 cards and removed {card}",
            name=_name(names, e.player),
            card=_card(tr, e.card),
        )
    if isinstance(e, PlayerPassed):
        return tr.gettext("{name} passed", name=_name(names, e.player))
    if isinstance(e, GoalRevealed):
        return tr.gettext(
            "The {goal} goal card is {card}!", goal=goal_name_at(tr, e.at), card=_card(tr, e.card)
        )
    return None


def _action_line(tr: Texts, e: ActionPlayed, names: Mapping[int, str]) -> str:
    """A card played at a player: at another, or at oneself."""
    card = _card(tr, e.card)
    if e.tool is not None and e.card.name.startswith("REPAIR_") and "_" in e.card.name[7:]:
        card = f"{card} ({escape(tool_name(tr, e.tool))})"
    if e.target == e.player:
        return tr.gettext(
            "{name} played {card} on themselves", name=_name(names, e.player), card=card
        )
    return tr.gettext(
        "{name} played {card} on {target}",
        name=_name(names, e.player),
        card=card,
        target=_name(names, e.target),
    )


def _card(tr: Texts, card: Card) -> str:
    return escape(card_name(tr, card))


def board_caption(
    state: GameState, names: Mapping[int, str], lang: Language, last_move: Sequence[str] = ()
) -> str:
    """The caption of the board post: the last move, the round, the deck, who plays next."""
    footer = board_footer(state, names, lang)
    return "\n".join([*last_move, footer] if footer else last_move)


def board_footer(state: GameState, names: Mapping[int, str], lang: Language) -> str:
    """The board caption's last lines: the round, the deck, who plays next ("" when over)."""
    tr = texts(lang)
    view = public_view(state)
    if view.current is None:
        return ""
    return tr.ngettext(
        "Round {round}/3 · deck {deck}\n{name}, your turn!",
        "Round {round}/3 · deck {deck}\n{name}, your turn!",
        view.deck_size,
        round=view.round,
        deck=view.deck_size,
        name=mention(view.current, names.get(view.current, str(view.current))),
    )


def round_text(
    result: RoundResult,
    names: Mapping[int, str],
    lang: Language,
    next_round: int | None,
    starter: int | None,
    events: Iterable[Event] = (),
) -> str:
    """Round end: who reached the gold, the winners, roles, who was paid (not how much)."""
    tr = texts(lang)
    lines = [tr.gettext("<b>Round {round} is over!</b>", round=result.round)]
    if result.finder is not None:
        lines.append(tr.gettext("{name} reached the gold!", name=_name(names, result.finder)))
    else:
        lines.append(tr.gettext("Nobody reached the gold."))
    sides = ", ".join(escape(side_name(tr, s)) for s in result.winners)
    lines.append(tr.gettext("Winners: {sides}", sides=sides))
    lines.append(tr.gettext("Roles:"))
    lines += [
        tr.gettext("{name}: {role}", name=_name(names, p), role=escape(role_name(tr, r)))
        for p, r in result.roles
    ]
    if result.paid:
        paid = ", ".join(_name(names, p) for p in result.paid)
        lines.append(tr.gettext("Gold goes to: {names}", names=paid))
    else:
        lines.append(tr.gettext("Nobody gets gold this round."))
    for e in events:
        if isinstance(e, GoldStolen) and e.audience is None:
            lines.append(
                tr.gettext(
                    "{thief} steals a gold nugget from {victim}.",
                    thief=_name(names, e.thief),
                    victim=_name(names, e.victim),
                )
            )
    if next_round is not None and starter is not None:
        lines.append("")
        lines.append(
            tr.gettext(
                "Round {round} begins; {name} plays first.",
                round=next_round,
                name=_name(names, starter),
            )
        )
    return "\n".join(lines)


def game_text(
    event: GameEnded, names: Mapping[int, str], lang: Language, *, practice: bool = False
) -> str:
    """Game end: the final scoreboard and the winners."""
    tr = texts(lang)
    lines = [tr.gettext("🏆 <b>Game over!</b>")]
    ranked = sorted(event.gold, key=lambda pg: -pg[1])
    rank = 0
    previous: int | None = None
    for i, (p, gold) in enumerate(ranked):
        if gold != previous:
            rank = i + 1
            previous = gold
        lines.append(
            tr.ngettext(
                "{rank}. {name}: {gold} gold",
                "{rank}. {name}: {gold} gold",
                gold,
                rank=rank,
                name=_name(names, p),
                gold=gold,
            )
        )
    winners = ", ".join(_name(names, p) for p in event.winners)
    # A tie is a different statement from a win, not a plural form (Korean has one form).
    if len(event.winners) == 1:
        lines.append(tr.gettext("Winner: {names}", names=winners))
    else:
        lines.append(tr.gettext("Winners (tied): {names}", names=winners))
    if practice:
        lines.append(tr.gettext("Play again with /practice."))
    else:
        lines.append(tr.gettext("Play again with /new."))
    return "\n".join(lines)


# ---------------------------------------------------------------- the private message


def hand_caption(
    record: GameRecord, state: GameState, user_id: int, lang: Language, prompt: Sequence[str]
) -> str:
    """The live private message: which game, role, gold, learned facts, whose turn, the prompt."""
    tr = texts(lang)
    view: PlayerView = player_view(state, user_id)
    names = names_of(record)
    pub = view.public
    lines = [
        tr.gettext(
            "🎴 <b>{chat}</b> · round {round}/3",
            chat=escape(record.title or str(record.chat_id)),
            round=pub.round,
        ),
        tr.gettext("Your role: <b>{role}</b>", role=escape(role_name(tr, view.role))),
        tr.ngettext("Your gold: {gold}", "Your gold: {gold}", view.gold, gold=view.gold),
    ]
    me = next(s for s in pub.seats if s.player == user_id)
    if me.in_front:
        cards = ", ".join(_card(tr, c) for c in me.in_front)
        lines.append(tr.gettext("In front of you: {cards}", cards=cards))
    for g in view.board.goals:
        if g.peeked and g.card is not None:
            lines.append(
                tr.gettext(
                    "Your map showed: the {goal} goal is {card}.",
                    goal=goal_name_at(tr, g.at),
                    card=_card(tr, g.card),
                )
            )
    for p, role in view.inspected:
        lines.append(
            tr.gettext(
                "You saw: {name} is {role}.",
                name=_name(names, p),
                role=escape(role_name(tr, role)),
            )
        )
    lines.append(
        tr.ngettext(
            "Cards left in the deck: {count}",
            "Cards left in the deck: {count}",
            pub.deck_size,
            count=pub.deck_size,
        )
    )
    if not view.hand:
        lines.append(tr.gettext("Your hand is empty."))
    awaited = pub.current if record.status is Status.PLAYING else None  # a cancelled game waits
    if awaited == user_id:
        lines.append(tr.gettext("<b>Your turn!</b>"))
    elif awaited is not None:
        lines.append(tr.gettext("Waiting for {name} to play.", name=_name(names, awaited)))
    lines += prompt
    return "\n".join(lines)
