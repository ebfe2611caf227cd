"""The texts of a round's end and of the game's end: why a side won, who was paid by which
rule, what each player received (privately), the per-round table, and private notices of the
cards played at a player (swapped hats and hands, traps, thefts)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

from engine import Edition, Role, RoundResult, Side

from .i18n import Language, Texts, texts
from .names import role_name

MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}


def _name(names: Mapping[int, str], user_id: int | None) -> str:
    return "?" if user_id is None else escape(names.get(user_id, str(user_id)))


def why_line(tr: Texts, result: RoundResult, names: Mapping[int, str]) -> str:
    """Who won the round, and why (the door colours of the routes to the gold in Deluxe)."""
    finder = _name(names, result.finder)
    side = result.winners[0] if result.winners else Side.SABOTEURS
    if side is Side.MINERS:
        return tr.gettext("{name} reached the gold: the miners win!", name=finder)
    if side is Side.SABOTEURS:
        return tr.gettext("Nobody reached the gold: the saboteurs win!")
    if side is Side.BLUE:
        return tr.gettext(
            "{name} reached the gold by a route without a green door: the blue team wins!",
            name=finder,
        )
    if side is Side.GREEN:
        return tr.gettext(
            "{name} reached the gold by a route without a blue door: the green team wins!",
            name=finder,
        )
    if side is Side.BOTH_TEAMS:
        return tr.gettext(
            "{name} reached the gold by routes open to both colours: both teams win!",
            name=finder,
        )
    return tr.gettext(
        "{name} reached the gold, but every route has doors of both colours: the boss wins alone!",
        name=finder,
    )


def paid_lines(
    tr: Texts,
    result: RoundResult,
    names: Mapping[int, str],
    edition: Edition,
    *,
    crystals: int = 0,
    trapped: Sequence[int] = (),
) -> list[str]:
    """Who was paid this round and by which rule (never how much)."""
    if not result.paid:
        lines = [tr.gettext("Nobody gets gold this round.")]
    elif edition is Edition.BASE:
        paid = ", ".join(_name(names, p) for p in result.paid)
        lines = [tr.gettext("Gold goes to: {names}", names=paid)]
    else:
        roles = dict(result.roles)
        geologists = [p for p in result.paid if roles.get(p) is Role.GEOLOGIST]
        winners = [p for p in result.paid if p not in geologists]
        lines = []
        if winners:
            shown = ", ".join(_winner(tr, names, p, roles.get(p)) for p in winners)
            lines.append(tr.gettext("Gold goes to the winners: {names}", names=shown))
        if geologists:
            lines.append(
                tr.ngettext(
                    "Paid by the {count} crystal in the maze: {names}",
                    "Paid by the {count} crystals in the maze: {names}",
                    crystals,
                    count=crystals,
                    names=", ".join(_name(names, p) for p in geologists),
                )
            )
    if edition is Edition.DELUXE and trapped:
        lines.append(
            tr.gettext(
                "Trapped, so no gold: {names}", names=", ".join(_name(names, p) for p in trapped)
            )
        )
    return lines


def _winner(tr: Texts, names: Mapping[int, str], player: int, role: Role | None) -> str:
    name = _name(names, player)
    if role is Role.BOSS:
        # Translators: a paid winner in Deluxe; the boss is paid one nugget less.
        return tr.gettext("{name} (boss: one less)", name=name)
    if role is Role.PROFITEER:
        return tr.gettext("{name} (profiteer: two less)", name=name)
    return name


# ---------------------------------------------------------------- private notices


def received_note(lang: Language, round_number: int, nuggets: int, total: int) -> str:
    """A player's own payout at a round's end, with their total (theirs alone to see)."""
    tr = texts(lang)
    got = tr.ngettext(
        "💰 Round {round}: you received {count} gold.",
        "💰 Round {round}: you received {count} gold.",
        nuggets,
        round=round_number,
        count=nuggets,
    )
    if nuggets == 0:
        got = tr.gettext("💰 Round {round}: you received no gold.", round=round_number)
    secret = tr.ngettext(
        "You have {count} gold in all (secret until the game ends).",
        "You have {count} gold in all (secret until the game ends).",
        total,
        count=total,
    )
    return f"{got} {secret}"


def theft_note(
    lang: Language, names: Mapping[int, str], me: int, thief: int, victim: int, total: int
) -> str:
    """A theft told to the thief or to the victim, with their total."""
    tr = texts(lang)
    left = tr.ngettext("You have {count} gold.", "You have {count} gold.", total, count=total)
    if me == thief:
        said = tr.gettext("🦹 You stole a gold nugget from {name}.", name=_name(names, victim))
    else:
        said = tr.gettext("🦹 {name} stole a gold nugget from you.", name=_name(names, thief))
    return f"{said} {left}"


def hats_note(lang: Language, names: Mapping[int, str], by: int, me: int, role: Role) -> str:
    """Swap your hats played at a player: their new role (theirs alone)."""
    tr = texts(lang)
    new = escape(role_name(tr, role))
    if by == me:
        return tr.gettext("🎩 You swapped your own hat: you are now {role}.", role=new)
    return tr.gettext(
        "🎩 {name} swapped your hat: you are now {role}.", name=_name(names, by), role=new
    )


def hand_note(lang: Language, names: Mapping[int, str], by: int) -> str:
    """Swap your hand played at a player: they now hold the other's cards."""
    return texts(lang).gettext(
        "🔄 {name} swapped hands with you: you now hold their cards, and drew one more.",
        name=_name(names, by),
    )


def trapped_note(lang: Language, names: Mapping[int, str], by: int) -> str:
    """Trapped! played at a player: what it means for them."""
    return texts(lang).gettext(
        "⛓ {name} trapped you: you cannot place tunnel cards, and a trapped player gets no "
        "gold at the round's end. Free at last! (or discarding 2 cards) frees you.",
        name=_name(names, by),
    )


# ---------------------------------------------------------------- the game's end


def place_note(lang: Language, place: int, count: int, gold: int, tied: bool) -> str:
    """The last line of a player's live message at the game's end: their place."""
    tr = texts(lang)
    if place == 1:
        if tied:
            return tr.ngettext(
                "🏆 You won (tied) with {gold} gold!",
                "🏆 You won (tied) with {gold} gold!",
                gold,
                gold=gold,
            )
        return tr.ngettext(
            "🏆 You won with {gold} gold!", "🏆 You won with {gold} gold!", gold, gold=gold
        )
    return tr.ngettext(
        "You finished in place {place} of {count}, with {gold} gold.",
        "You finished in place {place} of {count}, with {gold} gold.",
        gold,
        place=place,
        count=count,
        gold=gold,
    )


def places(gold: Sequence[tuple[int, int]]) -> dict[int, int]:
    """Each player's place by gold (tied players share a place: 1, 1, 3)."""
    ranked = sorted(gold, key=lambda pg: -pg[1])
    out: dict[int, int] = {}
    for i, (p, g) in enumerate(ranked):
        out[p] = out[ranked[i - 1][0]] if i and ranked[i - 1][1] == g else i + 1
    return out


def standings_lines(
    lang: Language,
    gold: Sequence[tuple[int, int]],
    names: Mapping[int, str],
    rounds: Sequence[Sequence[int]] = (),
) -> list[str]:
    """The scoreboard: place, name, gold, and each round's gold when known (`rounds[r][seat]`,
    seats in the order of `gold`)."""
    tr = texts(lang)
    seat = {p: i for i, (p, _) in enumerate(gold)}
    place = places(gold)
    lines = []
    for p, g in sorted(gold, key=lambda pg: (place[pg[0]], seat[pg[0]])):
        line = tr.ngettext(
            "{rank}. {name}: {gold} gold",
            "{rank}. {name}: {gold} gold",
            g,
            rank=place[p],
            name=_name(names, p),
            gold=g,
        )
        if rounds:
            line += " (" + " · ".join(str(r[seat[p]]) for r in rounds) + ")"
        lines.append(f"{MEDALS[place[p]]} {line}" if place[p] in MEDALS else line)
    return lines


def rounds_header(lang: Language, count: int) -> str:
    """Says what the numbers in brackets are: each round's gold."""
    tr = texts(lang)
    order = " · ".join(str(r) for r in range(1, count + 1))
    return tr.gettext("Gold per round in brackets (rounds {order}).", order=order)


def cancelled_text(
    lang: Language, by: str, rounds: int, gold: Sequence[tuple[int, int]], names: Mapping[int, str]
) -> str:
    """A game in play cancelled: who did it, and the gold so far (the game is over, so no longer
    secret), after how many rounds."""
    tr = texts(lang)
    lines = [tr.gettext("🛑 {name} cancelled the game. Nobody wins.", name=escape(by))]
    if rounds:
        lines.append(
            tr.ngettext(
                "The gold after {count} round:",
                "The gold after {count} rounds:",
                rounds,
                count=rounds,
            )
        )
        lines += standings_lines(lang, gold, names)
    else:
        lines.append(tr.gettext("No round was finished, so nobody has gold yet."))
    return "\n".join(lines)


def cancelled_note(lang: Language, by: str) -> str:
    """A cancelled game, on each player's live message."""
    return texts(lang).gettext("🛑 {name} cancelled the game.", name=escape(by))
