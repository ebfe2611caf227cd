"""The lobby's texts and buttons: who joined, the set-up, the practice game's choices."""

from __future__ import annotations

from collections.abc import Mapping
from html import escape

from ai import Level
from engine import Edition
from engine.model import player_range

from .buttons import (
    AddComputer,
    CancelGame,
    ConfirmRematch,
    KeepGame,
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
from .computer import DEFAULT_LEVEL
from .i18n import LANGUAGES, NC_, Language, Marked, Texts, texts
from .links import join_payload, start_link
from .menus import Button, Keyboard, Style, marked_label
from .names import edition_name, level_name
from .presenter import (
    COMPUTER_MARK,
    _name,
    edition_label,
    hours_text,
    names_of,
    shown_name,
    turn_limit_line,
)
from .records import GameRecord, LobbyPlayer

PRACTICE_OPPONENTS = (2, 3, 4)  # how many computer players a practice game can have
COMPUTER_LEVELS = (Level.HEURISTIC, Level.SEARCH)  # the levels offered: easy, strong

VARIANTS: Mapping[Variant, Marked] = {
    # Translators: a rule variant, as listed after "Variants:".
    Variant.GOLD_PER_MINER: NC_("variant", "one gold card per miner"),
    Variant.GREEDY_DWARF: NC_("variant", "greedy dwarf (miners with a broken tool get no gold)"),
}


def lobby_text(record: GameRecord, lang: Language, *, can_anyone_start: bool) -> str:
    """The lobby message: edition, variants, time per turn, players, what is missing."""
    if record.is_practice:
        return practice_text(record, lang)
    tr = texts(lang)
    lobby = record.lobby
    names = names_of(record, lang)
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
        lines += [_player_line(tr, i + 1, p) for i, p in enumerate(lobby.players)]
    else:
        lines.append(tr.gettext("Nobody has joined yet."))
    if lobby.invited:
        invited = ", ".join(escape(p.name) for p in lobby.invited)
        lines.append(tr.gettext("Invited again (one tap on I'm in): {names}", names=invited))
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


def started_text(record: GameRecord, lang: Language) -> str:
    """The lobby once its game started, in short: who plays, the edition, the time per turn."""
    tr = texts(lang)
    lobby = record.lobby
    count = len(lobby.players)
    hours = lobby.turn_limit_hours
    limit = hours_text(tr, hours) if hours is not None else tr.gettext("no time limit")
    return tr.ngettext(
        "⛏ The game has started with {count} player: {names} · {edition} · {limit}. Good digging!",
        "⛏ The game has started with {count} players: {names} · {edition} · {limit}. Good digging!",
        count,
        count=count,
        names=", ".join(escape(shown_name(p, lang)) for p in lobby.players),
        edition=edition_label(lang, lobby.edition),
        limit=limit,
    )


def _player_line(tr: Texts, number: int, player: LobbyPlayer) -> str:
    """One line of the lobby's players; a computer player's says how well it plays."""
    name = escape(shown_name(player, tr.language))
    if player.computer is None:
        return tr.gettext("{number}. {name}", number=number, name=name)
    level = level_name(tr, player.computer)
    # Translators: a computer player in the lobby's list: "3. 🤖 Borin (strong)".
    return tr.gettext("{number}. {name} ({level})", number=number, name=name, level=level)


def practice_level(record: GameRecord) -> Level:
    """The level of a practice game's computer players (they all share one)."""
    computers = record.lobby.computers
    level = computers[0].computer if computers else None
    return level if level is not None else DEFAULT_LEVEL


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
        ", ".join(escape(shown_name(p, lang)) for p in lobby.computers),
        tr.gettext("They play: {level}", level=level_name(tr, practice_level(record))),
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
    """Join (a deep link), leave, computer players (easy or strong), start, cancel, and the
    set-up switches."""
    if record.is_practice:
        return practice_keyboard(record, lang)
    tr = texts(lang)
    g, rev = record.game_id, record.lobby.revision
    lobby = record.lobby
    url = start_link(bot_username, join_payload(g))
    # A rematch's invited players confirm with one tap (they have a private chat already).
    again = ((Button(tr.pgettext("button", "✅ I'm in"), ConfirmRematch(g)),),)
    return (
        *(again if lobby.invited else ()),
        (
            Button(tr.pgettext("button", "✋ Join"), url=url),
            Button(tr.pgettext("button", "🚪 Leave"), LeaveGame(g, rev)),
        ),
        tuple(
            Button(
                tr.pgettext("button", "🤖 Add: {level}", level=level_name(tr, level)),
                AddComputer(g, rev, level),
            )
            for level in COMPUTER_LEVELS
        ),
        (Button(tr.pgettext("button", "🤖 Remove a computer"), RemoveComputer(g, rev)),),
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
        *turn_limit_rows(record, lang),
        (
            Button(tr.pgettext("button", "▶️ Start"), StartGame(g, rev)),
            Button(tr.pgettext("button", "✖️ Cancel game"), CancelGame(g, rev), style=Style.DANGER),
        ),
    )


def _edition_row(record: GameRecord, tr: Texts) -> tuple[Button, ...]:
    g, rev, edition = record.game_id, record.lobby.revision, record.lobby.edition
    return tuple(
        Button(marked_label(edition is e, edition_name(tr, e)), SetEdition(g, rev, e))
        for e in (Edition.BASE, Edition.DELUXE)
    )


def practice_keyboard(record: GameRecord, lang: Language) -> Keyboard:
    """A practice game's set-up: the edition, the number and level of opponents, start, cancel."""
    tr = texts(lang)
    g, rev = record.game_id, record.lobby.revision
    count = len(record.lobby.computers)
    level = practice_level(record)
    return (
        _edition_row(record, tr),
        tuple(
            Button(marked_label(count == n, f"{COMPUTER_MARK} {n}"), SetComputers(g, rev, n, level))
            for n in PRACTICE_OPPONENTS
        ),
        tuple(
            Button(marked_label(level is x, level_name(tr, x)), SetComputers(g, rev, count, x))
            for x in COMPUTER_LEVELS
        ),
        (
            Button(tr.pgettext("button", "▶️ Start"), StartGame(g, rev)),
            Button(tr.pgettext("button", "✖️ Cancel game"), CancelGame(g, rev), style=Style.DANGER),
        ),
    )


def language_row() -> tuple[Button, ...]:
    """One button per language the bot has a catalog for, each named in itself (/lang)."""
    return tuple(Button(texts(lang).native_name, SetLanguage(lang)) for lang in LANGUAGES)


TURN_LIMIT_CHOICES: tuple[int | None, ...] = (1, 12, 24, 72, None)
TURN_LIMIT_ROW = 3  # choices per row: two rows fit a phone's width


def turn_limit_rows(record: GameRecord, lang: Language) -> Keyboard:
    """Buttons choosing the time per turn (hours, or no limit), the current one marked, in two
    rows with short labels ("⏱ 24 h", "∞")."""
    tr = texts(lang)
    current = record.lobby.turn_limit_hours
    buttons = [
        Button(
            marked_label(
                current == h,
                f"⏱ {hours_text(tr, h)}" if h is not None else tr.pgettext("button", "∞ No limit"),
            ),
            SetTurnLimit(record.game_id, record.lobby.revision, h),
        )
        for h in TURN_LIMIT_CHOICES
    ]
    return tuple(
        tuple(buttons[i : i + TURN_LIMIT_ROW]) for i in range(0, len(buttons), TURN_LIMIT_ROW)
    )


def cancel_question(record: GameRecord, lang: Language, asker: str) -> tuple[str, Keyboard]:
    """/cancel during play: the question, with Yes (red) and No."""
    tr = texts(lang)
    g = record.game_id
    text = tr.gettext(
        "{name}, cancel this game for everyone? Nobody wins, and the gold so far is shown.",
        name=escape(asker),
    )
    return text, (
        (
            Button(
                tr.pgettext("button", "Yes, cancel it"),
                CancelGame(g, record.lobby.revision),
                style=Style.DANGER,
            ),
            Button(tr.pgettext("button", "No, play on"), KeepGame(g)),
        ),
    )
