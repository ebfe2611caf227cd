"""Every user-facing text of the bot, built from records, views and events through the catalog."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from html import escape

from engine import (
    Card,
    Edition,
    GameState,
    Phase,
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
from engine.timeline import Deed, Entry
from render.labels import cell_label

from . import round_texts, time_texts
from .i18n import Language, Texts, texts
from .names import (
    card_name,
    edition_name,
    goal_name_at,
    local_computer_name,
    placed_card_name,
    role_name,
    tool_name,
)
from .records import GameRecord, LobbyPlayer, Status, is_computer_id

COMPUTER_MARK = "🤖"  # before a computer player's name, wherever a name is written


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
    if hours and not minutes:
        return hours_text(tr, hours)
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


def shown_name(player: LobbyPlayer, lang: Language) -> str:
    """A player's name as written everywhere: a computer player's with its mark, in `lang`."""
    if not player.is_computer:
        return player.name
    return f"{COMPUTER_MARK} {local_computer_name(texts(lang), player.name)}"


def names_of(record: GameRecord, lang: Language | None = None) -> dict[int, str]:
    """Display names by user id (unescaped): the players (computer players marked, named in
    `lang`, by default the game's), and the creator even if not playing."""
    shown = lang or record.language
    creator = {record.creator_id: record.creator_name} if record.creator_name else {}
    return creator | {p.user_id: shown_name(p, shown) for p in record.lobby.players}


def mention(user_id: int, name: str) -> str:
    """An HTML mention that notifies the user (a computer player's name is written plain)."""
    if is_computer_id(user_id):
        return escape(name)
    return f'<a href="tg://user?id={user_id}">{escape(name)}</a>'


def _name(names: Mapping[int, str], user_id: int | None) -> str:
    if user_id is None:
        return "?"
    return escape(names.get(user_id, str(user_id)))


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
    if isinstance(e, GoldStolen):
        return tr.gettext(
            "{thief} steals a gold nugget from {victim}.",
            thief=_name(names, e.thief),
            victim=_name(names, e.victim),
        )

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
    state: GameState,
    names: Mapping[int, str],
    lang: Language,
    last_move: Sequence[str] = (),
    *,
    ends_at: int | None = None,
) -> str:
    """The caption of the board post, shown above its picture: the round, the deck, who plays
    next and until when first, then the last move."""
    footer = board_footer(state, names, lang, ends_at=ends_at)
    return "\n".join([footer, *last_move] if footer else last_move)


def board_footer(
    state: GameState, names: Mapping[int, str], lang: Language, *, ends_at: int | None = None
) -> str:
    """The board caption's status lines: the round, the deck, who plays next ("" when over),
    and when their turn ends (`ends_at`, a date-time entity) if it does."""
    tr = texts(lang)
    view = public_view(state)
    if view.current is None:
        return ""
    status = tr.ngettext(
        "Round {round}/3 · deck {deck}\n{name}, your turn!",
        "Round {round}/3 · deck {deck}\n{name}, your turn!",
        view.deck_size,
        round=view.round,
        deck=view.deck_size,
        name=mention(view.current, names.get(view.current, str(view.current))),
    )
    return "\n".join([status, *time_texts.turn_ends_line(lang, ends_at)])


def thief_line(thief: int, names: Mapping[int, str], lang: Language) -> str:
    """Deluxe, at a round's end: the group waits for a thief's choice."""
    return texts(lang).gettext(
        "{name} plays a theft and is choosing whom to steal from.", name=_name(names, thief)
    )


def round_begins_line(round_no: int, starter: int, names: Mapping[int, str], lang: Language) -> str:
    """The next round dealt once the thieves have chosen."""
    return texts(lang).gettext(
        "Round {round} begins; {name} plays first.", round=round_no, name=_name(names, starter)
    )


def round_text(
    result: RoundResult,
    names: Mapping[int, str],
    lang: Language,
    next_round: int | None,
    starter: int | None,
    deeds: Sequence[Entry] = (),
    *,
    edition: Edition = Edition.BASE,
    crystals: int = 0,
    trapped: Sequence[int] = (),
) -> str:
    """Round end: who won and why, the roles, who was paid and by which rule (not how much),
    and who did what (`deeds`, the round's timeline). Thefts come after it (rule
    deluxe.payout.theft): each thief chooses once the round is over, and the group is told who
    stole from whom as a move of its own (`move_lines`), never here, never an amount."""
    tr = texts(lang)
    lines = [tr.gettext("<b>Round {round} is over!</b>", round=result.round)]
    lines.append(round_texts.why_line(tr, result, names))
    lines.append(tr.gettext("Roles:"))
    lines += [
        tr.gettext("{name}: {role}", name=_name(names, p), role=escape(role_name(tr, r)))
        for p, r in result.roles
    ]
    lines += round_texts.paid_lines(tr, result, names, edition, crystals=crystals, trapped=trapped)
    told = deeds_lines(deeds, names, lang)
    if told:
        lines.append("")
        lines.append(tr.gettext("<b>Who did what</b>"))
        lines += told
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


TOLD_DEEDS = frozenset(
    {Deed.BROKE, Deed.DEAD_END, Deed.PEEKED, Deed.ROCKFALL, Deed.TRAPPED, Deed.INSPECTED}
)
MAX_DEEDS = 12  # lines of a round's "who did what"; the rest is counted


def deeds_lines(deeds: Sequence[Entry], names: Mapping[int, str], lang: Language) -> list[str]:
    """A round's timeline in short: broken tools, dead ends, maps (which goal, never what it
    showed), rockfalls, and Deluxe traps and inspections (whose role, never what it was)."""
    tr = texts(lang)
    lines = [_deed_line(tr, d, names) for d in deeds if d.deed in TOLD_DEEDS]
    if len(lines) > MAX_DEEDS:
        more = len(lines) - MAX_DEEDS + 1
        lines = lines[: MAX_DEEDS - 1]
        lines.append(
            tr.npgettext("timeline", "… and {count} more", "… and {count} more", more, count=more)
        )
    return lines


def _deed_line(tr: Texts, d: Entry, names: Mapping[int, str]) -> str:
    name = _name(names, d.player)
    if d.deed is Deed.BROKE:
        tool = escape(tool_name(tr, d.tool)) if d.tool is not None else "?"
        # Translators: a line of a round's "who did what", e.g. "Ann broke Bob's lantern".
        return tr.gettext(
            "· {name} broke {target}'s {tool}", name=name, target=_name(names, d.target), tool=tool
        )
    if d.deed is Deed.DEAD_END:
        where = cell_label(d.at) if d.at is not None else "?"
        return tr.gettext("· {name} placed a dead end at {cell}", name=name, cell=where)
    if d.deed is Deed.PEEKED:
        goal = goal_name_at(tr, d.at) if d.at is not None else "?"
        return tr.gettext("· {name} looked at the {goal} goal card", name=name, goal=goal)
    if d.deed is Deed.ROCKFALL:
        card = escape(placed_card_name(tr, d.card, d.rotated)) if d.card is not None else "?"
        where = cell_label(d.at) if d.at is not None else "?"
        return tr.gettext(
            "· {name} removed {card} at {cell} with a rockfall", name=name, card=card, cell=where
        )
    if d.deed is Deed.TRAPPED:
        return tr.gettext("· {name} trapped {target}", name=name, target=_name(names, d.target))
    return tr.gettext(
        "· {name} looked at {target}'s role", name=name, target=_name(names, d.target)
    )


def game_text(
    event: GameEnded,
    names: Mapping[int, str],
    lang: Language,
    *,
    practice: bool = False,
    rounds: Sequence[Sequence[int]] = (),
) -> str:
    """Game end: the final scoreboard (with each round's gold when `rounds` is known, one row
    per round in the seat order of `event.gold`) and the winners."""
    tr = texts(lang)
    lines = [tr.gettext("🏆 <b>Game over!</b>")]
    lines += round_texts.standings_lines(lang, event.gold, names, rounds)
    if rounds:
        lines.append(round_texts.rounds_header(lang, len(rounds)))
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
    names = names_of(record, lang)
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
    elif awaited is not None and pub.phase is Phase.THEFT:
        lines.append(
            tr.gettext(
                "Waiting for {name} to choose whom to steal from.", name=_name(names, awaited)
            )
        )
    elif awaited is not None:
        lines.append(tr.gettext("Waiting for {name} to play.", name=_name(names, awaited)))
    lines += time_texts.turn_ends_line(lang, time_texts.turn_ends_at(record))
    lines += prompt
    return "\n".join(lines)
