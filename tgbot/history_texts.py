"""Texts of a group's history, its statistics, the round replays and the rematch lobby."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from html import escape

from engine import Role

from .archives import ArchivedGame, Figures, GroupFigures, PlayerFigures, sorted_figures
from .buttons import Rematch, ReplayRound
from .i18n import Language, Texts, texts
from .menus import Button, Keyboard
from .names import edition_name, local_computer_name, role_name
from .presenter import COMPUTER_MARK
from .records import is_computer_id

MAX_PLAYERS_SHOWN = 15  # per section of /stats in a group


def day(when: int) -> str:
    """A date as the history shows it (UTC, ISO order: 2025-03-12)."""
    return datetime.datetime.fromtimestamp(when, tz=datetime.UTC).strftime("%Y-%m-%d")


def season_label(tr: Texts, season: str) -> str:
    """A season such as "2025Q3" as words ("2025, 3rd quarter")."""
    year, _, quarter = season.partition("Q")
    # Translators: a season of the statistics, a calendar quarter.
    return tr.gettext("{year}, quarter {quarter}", year=year, quarter=quarter)


def _names(tr: Texts, game: ArchivedGame, players: Sequence[int]) -> str:
    return ", ".join(escape(_shown(tr, game, p)) for p in players)


def _shown(tr: Texts, game: ArchivedGame, player: int) -> str:
    """A player's name in the history; a computer player's marked, in `tr`'s language."""
    name = game.name_of(player)
    if not is_computer_id(player):
        return name
    return f"{COMPUTER_MARK} {local_computer_name(tr, name.removeprefix(COMPUTER_MARK + ' '))}"


def history_text(games: Sequence[ArchivedGame], lang: Language) -> str:
    """/history: the group's latest games, newest first (date, edition, winners)."""
    tr = texts(lang)
    if not games:
        return tr.gettext("No game has ended here yet. Start one with /new.")
    lines = [tr.gettext("<b>The latest games here</b>")]
    for number, game in enumerate(games, start=1):
        edition = escape(edition_name(tr, game.edition))
        if game.cancelled:
            outcome = tr.gettext("cancelled")
        elif len(game.winners) == 1:
            outcome = tr.gettext("winner: {names}", names=_names(tr, game, game.winners))
        else:
            outcome = tr.gettext("winners (tied): {names}", names=_names(tr, game, game.winners))
        lines.append(
            tr.gettext(
                "{number}. {date} · {edition} · {outcome}",
                number=number,
                date=day(game.ended_at),
                edition=edition,
                outcome=outcome,
            )
        )
    lines.append(tr.gettext("Tap a game to watch it again, round by round."))
    return "\n".join(lines)


def history_keyboard(games: Sequence[ArchivedGame], rounds: Sequence[int]) -> Keyboard:
    """One button per game that has a round to replay (`rounds`: how many each has)."""
    rows = []
    for number, (game, count) in enumerate(zip(games, rounds, strict=True), start=1):
        if count:
            label = f"🎬 {number}. {day(game.ended_at)}"
            rows.append((Button(label, ReplayRound(game.game_id, 1)),))
    return tuple(rows)


def round_caption(lang: Language, number: int) -> str:
    """The caption of a round's replay sent at the round's end."""
    return texts(lang).gettext("🎬 Round {round}, move by move", round=number)


def replay_caption(game: ArchivedGame, lang: Language, number: int, rounds: int) -> str:
    """The caption of a replay asked for from /history."""
    tr = texts(lang)
    return tr.gettext(
        "🎬 {date} · {edition} · round {round}/{rounds}",
        date=day(game.ended_at),
        edition=escape(edition_name(tr, game.edition)),
        round=number,
        rounds=rounds,
    )


def next_round_keyboard(game: ArchivedGame, lang: Language, number: int, rounds: int) -> Keyboard:
    """The button under a replayed round: the next round, if there is one."""
    if number >= rounds:
        return ()
    label = texts(lang).pgettext("button", "▶️ Round {round}", round=number + 1)
    return ((Button(label, ReplayRound(game.game_id, number + 1)),),)


def rematch_keyboard(game_id: str, lang: Language) -> Keyboard:
    """The game-end message's button."""
    label = texts(lang).pgettext("button", "🔁 Same players again")
    return ((Button(label, Rematch(game_id)),),)


# ---------------------------------------------------------------- statistics


def _rate(won: int, rounds: int) -> str:
    return f"{won}/{rounds} ({round(100 * won / rounds)}%)"


def _roles_line(tr: Texts, figures: Figures) -> str:
    parts = []
    for role in Role:
        played = figures.rounds.get(role, 0)
        if not played:
            continue
        name = escape(role_name(tr, role))
        if role is Role.GEOLOGIST:  # geologists never win a round (deluxe.win.geologists)
            parts.append(
                tr.ngettext("{role} ×{count}", "{role} ×{count}", played, role=name, count=played)
            )
        else:
            parts.append(f"{name} {_rate(figures.won.get(role, 0), played)}")
    return " · ".join(parts)


def figures_lines(tr: Texts, who: str, figures: Figures) -> list[str]:
    """A player's figures: games, wins, gold, gold found, then rounds won by role."""
    head = tr.gettext(
        "{name}: {games}, {wins}, {gold}, {found}",
        name=who,
        games=tr.ngettext("{count} game", "{count} games", figures.games, count=figures.games),
        wins=tr.ngettext("{count} win", "{count} wins", figures.wins, count=figures.wins),
        gold=tr.ngettext("{count} gold", "{count} gold", figures.gold, count=figures.gold),
        found=tr.ngettext(
            "found the gold {count} time",
            "found the gold {count} times",
            figures.found,
            count=figures.found,
        ),
    )
    roles = _roles_line(tr, figures)
    return [head, f"   {roles}"] if roles else [head]


def _section(tr: Texts, title: str, rows: Sequence[PlayerFigures]) -> list[str]:
    lines = [title]
    if not rows:
        return [*lines, tr.gettext("No finished game yet.")]
    ranked = sorted_figures(rows)
    for row in ranked[:MAX_PLAYERS_SHOWN]:
        lines += figures_lines(tr, escape(row.name), row.figures)
    if len(ranked) > MAX_PLAYERS_SHOWN:
        more = len(ranked) - MAX_PLAYERS_SHOWN
        lines.append(
            tr.npgettext("players", "… and {count} more", "… and {count} more", more, count=more)
        )
    return lines


def group_stats_text(
    lang: Language,
    season: str,
    this_season: Sequence[PlayerFigures],
    all_time: Sequence[PlayerFigures],
) -> str:
    """/stats in a group: this season's figures and all time's."""
    tr = texts(lang)
    if not all_time:
        return tr.gettext("No game has been finished here yet, so there are no statistics.")
    lines = [tr.gettext("<b>Statistics of this group</b>"), tr.gettext("(rounds won by role)"), ""]
    title = tr.gettext("<b>This season ({season})</b>", season=season_label(tr, season))
    lines += _section(tr, title, this_season)
    lines.append("")
    lines += _section(tr, tr.gettext("<b>All time</b>"), all_time)
    return "\n".join(lines)


def private_stats_text(lang: Language, groups: Sequence[GroupFigures]) -> str:
    """/stats in private: the player's own figures in each group, and in all of them."""
    tr = texts(lang)
    if not groups:
        return tr.gettext("You have not finished a game in a group yet.")
    lines = [tr.gettext("<b>Your statistics</b>"), tr.gettext("(rounds won by role)"), ""]
    total = Figures()
    for g in groups:
        total = total + g.figures
        lines += figures_lines(tr, f"<b>{escape(g.title or str(g.chat_id))}</b>", g.figures)
    if len(groups) > 1:
        lines.append("")
        lines += figures_lines(tr, tr.gettext("<b>All your groups</b>"), total)
    return "\n".join(lines)
