"""Finished and cancelled games kept per group, their statistics, and the port that stores them.

A game's record knows its moves (`GameRecord.moves`), so at its end it becomes an
`ArchivedGame`: the engine's archive (docs/archive.md) plus what the bot needs to list it (chat,
title, names, end time). Finished games also add their `Figures` to the group's statistics, per
season (a calendar quarter, UTC) and all time. `Archives` is the port; `tgbot.redis_archives`
and `tgbot.memory_archives` keep the same contract (docs/history.md says what is kept and for
how long).
"""

from __future__ import annotations

import dataclasses
import datetime
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from functools import lru_cache
from typing import Any, Protocol

from engine import (
    Card,
    Edition,
    GameState,
    GoalView,
    Options,
    Phase,
    PublicView,
    Role,
    RoundResult,
    Side,
    apply,
    new_game,
    public_view,
)
from engine.archive import (
    Archive,
    End,
    Played,
    RoundReplay,
    from_archive_json,
    parse_seat_move,
    public_rounds,
    to_archive_json,
    transitions,
)
from engine.events import PUBLIC, ActionPlayed, Event, GoldReceived, GoldStolen, RoundEnded
from engine.timeline import Entry, timeline

from .game_ids import GameId, is_game_id
from .i18n import Language
from .records import GameRecord, Status, is_computer_id

SCHEMA = 1
KEEP_SECONDS = 180 * 24 * 3600  # an archive, a group's history and its statistics
GAMES_PER_GROUP = 50  # a group's history keeps its latest games, older ones are dropped
GROUPS_PER_PLAYER = 20  # a player's private /stats lists their latest groups
COUNTED_SECONDS = 30 * 24 * 3600  # a finished game's "already counted" mark (records last 7 days)
ALL_TIME = "all"


class ArchivedGameError(ValueError):
    """A stored archived game that cannot be read."""


@dataclass(frozen=True, slots=True)
class ArchivedGame:
    """One finished or cancelled game of a group, replayable from its archive."""

    game_id: GameId
    chat_id: int
    title: str
    language: Language
    ended_at: int  # the time of its last saved change (the clock of the records)
    cancelled: bool
    names: tuple[tuple[int, str], ...]  # (player, display name) in seat order
    archive: Archive

    @property
    def edition(self) -> Edition:
        """Saboteur or Saboteur Deluxe."""
        return self.archive.edition

    @property
    def winners(self) -> tuple[int, ...]:
        """The players with the most gold at the end (none for a cancelled game)."""
        if self.cancelled or not self.archive.end.over:
            return ()
        gold = self.archive.end.gold
        best = max(gold)
        return tuple(p for p, g in zip(self.archive.players, gold, strict=True) if g == best)

    def name_of(self, user_id: int) -> str:
        """A player's display name (their id if unknown)."""
        return dict(self.names).get(user_id, str(user_id))

    def rounds(self) -> tuple[RoundReplay, ...]:
        """The rounds as the group saw them (a replay of the archive); ArchiveError if damaged."""
        return public_rounds(transitions(self.archive))

    def ended_rounds(self) -> tuple[RoundReplay, ...]:
        """The rounds that reached their end (a cancelled game's last round may not have)."""
        return tuple(r for r in self.rounds() if r.ended is not None)


def game_archive(state: GameState | None, moves: Sequence[str]) -> Archive | None:
    """The archive of a game that reached `state` by these moves (the record's notation),
    replayed and checked; None when it cannot be had exactly (no game dealt yet, or a record
    from before its moves were kept)."""
    played = _checked(state, moves)
    if played is None or state is None:
        return None
    return Archive(
        edition=state.edition,
        options=state.options,
        players=state.players,
        seed=state.seed,
        moves=tuple((p.player, p.action) for p in played),
        end=End(state.phase is Phase.OVER, state.rng, state.gold),
    )


def record_archive(record: GameRecord) -> Archive | None:
    """The archive of a game's record so far (see game_archive)."""
    return game_archive(record.state, record.moves)


def game_rounds(state: GameState | None, moves: Sequence[str]) -> tuple[RoundReplay, ...]:
    """A game's rounds so far as the group saw them (none if its moves are not all known)."""
    if state is None or _checked(state, moves) is None:
        return ()
    return _rounds(state.edition, state.options, state.players, state.seed, tuple(moves))


def _checked(state: GameState | None, moves: Sequence[str]) -> tuple[Played, ...] | None:
    """The replayed moves, if they lead from the seed to exactly `state`."""
    if state is None or len(moves) != state.version:
        return None
    played = _replayed(state.edition, state.options, state.players, state.seed, tuple(moves))
    if played is None:
        return None
    reached = played[-1].transition.state if played else None
    if reached is not None and reached != state:
        return None
    return played


# A round's end and the game's end each replay the game a few times (its story, its replay,
# its archive): the last few replays are kept, keyed by everything a replay depends on.
@lru_cache(maxsize=4)
def _replayed(
    edition: Edition, options: Options, players: tuple[int, ...], seed: int, moves: tuple[str, ...]
) -> tuple[Played, ...] | None:
    try:
        state = new_game(players, edition=edition, seed=seed, options=options)
        out = []
        for line in moves:
            player, action = parse_seat_move(players, line)
            transition = apply(state, player, action)
            out.append(Played(state, player, action, transition))
            state = transition.state
    except ValueError:  # ArchiveError and IllegalAction are ValueErrors
        return None
    return tuple(out)


@lru_cache(maxsize=4)
def _rounds(
    edition: Edition, options: Options, players: tuple[int, ...], seed: int, moves: tuple[str, ...]
) -> tuple[RoundReplay, ...]:
    played = _replayed(edition, options, players, seed, moves)
    return () if played is None else public_rounds(played)


def round_deeds(state: GameState, moves: Sequence[str], number: int) -> tuple[Entry, ...]:
    """Who did what in one round of a game so far (engine.timeline), from public events only."""
    for r in game_rounds(state, moves):
        if r.round == number:
            return timeline(r.moves)
    return ()


@dataclass(frozen=True, slots=True)
class RoundEnd:
    """A round's end as the group is shown it: the final board with every goal card turned up,
    the public events of the round's last move, and who did what in the round."""

    view: PublicView
    events: tuple[Event, ...]
    deeds: tuple[Entry, ...]
    trapped: tuple[int, ...]  # the players trapped when the round ended (Deluxe)


def round_end(state: GameState | None, moves: Sequence[str], number: int) -> RoundEnd | None:
    """Round `number`'s end, replayed from the record (None if its moves are not all known or
    it has not ended). Goals still face down are turned up: the round is over (rule
    base.round.end reveals the roles; the goals no longer hide anything)."""
    if state is None:
        return None
    played = _checked(state, moves)
    if played is None:
        return None
    rounds = {r.round: r for r in game_rounds(state, moves)}
    replayed = rounds.get(number)
    if replayed is None or replayed.ended is None:
        return None
    last = next(
        p
        for p in played
        if p.before.round == number and any(isinstance(e, RoundEnded) for e in p.transition.events)
    )
    final = replayed.views[-1]
    revealed = {g.at: g for g in final.board.goals if g.revealed}
    goals = tuple(
        revealed.get(g.at) or GoalView(g.at, g.card, g.rotated, True) for g in last.before.goals
    )
    board = dataclasses.replace(final.board, goals=goals)
    public = tuple(e for e in last.transition.events if e.audience is PUBLIC)
    trapped = [s.player for s in public_view(last.before).seats if s.is_trapped]
    for e in public:  # the last move may have trapped or freed a player
        if isinstance(e, ActionPlayed) and e.card is Card.TRAPPED:
            trapped.append(e.target)
        elif isinstance(e, ActionPlayed) and e.card is Card.FREE and e.target in trapped:
            trapped.remove(e.target)
    view = dataclasses.replace(final, board=board)
    return RoundEnd(view, public, timeline(replayed.moves), tuple(trapped))


def gold_by_round(state: GameState | None, moves: Sequence[str]) -> tuple[tuple[int, ...], ...]:
    """Each round's gold per seat (payouts and thefts), replayed from the record; () when its
    moves are not all known. Only for a finished game: gold is secret until the end."""
    played = _checked(state, moves)
    if played is None or state is None:
        return ()
    seats = {p: i for i, p in enumerate(state.players)}
    rounds: dict[int, list[int]] = {}
    for p in played:
        row = rounds.setdefault(p.before.round, [0] * len(seats))
        thefts = set()  # a theft's event goes to the thief and to the victim: counted once
        for e in p.transition.events:
            if isinstance(e, GoldReceived) and e.audience == e.player:
                row[seats[e.player]] += e.nuggets
            elif isinstance(e, GoldStolen):
                thefts.add((e.thief, e.victim))
        for thief, victim in thefts:
            row[seats[thief]] += 1
            row[seats[victim]] -= 1
    return tuple(tuple(rounds[r]) for r in sorted(rounds))


def archived_game(record: GameRecord) -> ArchivedGame | None:
    """A game at its end (finished or cancelled), as its group's history keeps it."""
    archive = record_archive(record)
    if archive is None or record.status.is_active or record.is_practice:
        return None  # (a practice game, against computers in private, is no group's history)
    names = {p.user_id: p.name for p in record.lobby.players}
    return ArchivedGame(
        game_id=record.game_id,
        chat_id=record.chat_id,
        title=record.title,
        language=record.language,
        ended_at=record.updated_at,
        cancelled=record.status is Status.CANCELLED,
        names=tuple((p, names.get(p, str(p))) for p in archive.players),
        archive=archive,
    )


def season_of(when: int) -> str:
    """The season of a time: its calendar quarter in UTC, such as "2025Q3"."""
    day = datetime.datetime.fromtimestamp(when, tz=datetime.UTC)
    return f"{day.year}Q{(day.month - 1) // 3 + 1}"


def kept_seasons(now: int) -> tuple[str, ...]:
    """Every season whose statistics may still be kept at `now` (a season's hash expires
    KEEP_SECONDS after its last game), oldest first, up to the season of a day later (a clock
    a little ahead)."""
    first = datetime.datetime.fromtimestamp(now - KEEP_SECONDS, tz=datetime.UTC)
    last = datetime.datetime.fromtimestamp(now + 24 * 3600, tz=datetime.UTC)
    quarter = first.year * 4 + (first.month - 1) // 3
    seasons = []
    while quarter <= last.year * 4 + (last.month - 1) // 3:
        seasons.append(f"{quarter // 4}Q{quarter % 4 + 1}")
        quarter += 1
    return tuple(seasons)


def rehomed(doc: str | bytes, chat_id: int) -> str | None:
    """A stored archived game's JSON naming `chat_id` as its group (a group that became a
    supergroup), or None if it is unreadable or names it already."""
    try:
        game = game_from_json(doc)
    except ArchivedGameError:
        return None
    if game.chat_id == chat_id:
        return None
    return game_to_json(dataclasses.replace(game, chat_id=chat_id))


# ---------------------------------------------------------------- statistics


ROLE_ORDER: tuple[Role, ...] = tuple(Role)


@dataclass(frozen=True, slots=True)
class Figures:
    """A player's counts over some games: `rounds`/`won` are per role (rounds played, won)."""

    games: int = 0
    wins: int = 0  # games ended with the most gold (ties included)
    gold: int = 0  # nuggets at the ends of their games
    found: int = 0  # rounds in which their card reached the gold
    rounds: Mapping[Role, int] = field(default_factory=dict)
    won: Mapping[Role, int] = field(default_factory=dict)

    def __add__(self, other: Figures) -> Figures:
        return Figures(
            games=self.games + other.games,
            wins=self.wins + other.wins,
            gold=self.gold + other.gold,
            found=self.found + other.found,
            rounds=_plus(self.rounds, other.rounds),
            won=_plus(self.won, other.won),
        )

    def counts(self) -> dict[str, int]:
        """The figures as named counts (`rounds:<role>`, `won:<role>`), zeros left out."""
        out = {f.name: getattr(self, f.name) for f in fields(self)[:4]}
        out |= {f"rounds:{r.value}": n for r, n in self.rounds.items()}
        out |= {f"won:{r.value}": n for r, n in self.won.items()}
        return {k: v for k, v in out.items() if v}

    @classmethod
    def from_counts(cls, counts: Mapping[str, int]) -> Figures:
        """Figures from named counts (unknown names are ignored)."""

        def per_role(kind: str) -> dict[Role, int]:
            return {r: counts[f"{kind}:{r.value}"] for r in Role if counts.get(f"{kind}:{r.value}")}

        return cls(
            games=counts.get("games", 0),
            wins=counts.get("wins", 0),
            gold=counts.get("gold", 0),
            found=counts.get("found", 0),
            rounds=per_role("rounds"),
            won=per_role("won"),
        )


COUNT_NAMES: tuple[str, ...] = (
    "games",
    "wins",
    "gold",
    "found",
    *(f"rounds:{r.value}" for r in Role),
    *(f"won:{r.value}" for r in Role),
)


def _plus(a: Mapping[Role, int], b: Mapping[Role, int]) -> dict[Role, int]:
    return {r: a.get(r, 0) + b.get(r, 0) for r in ROLE_ORDER if a.get(r, 0) + b.get(r, 0)}


def on_winning_side(edition: Edition, role: Role, result: RoundResult) -> bool:
    """Whether a role was on the side that won a round (base.end.round, deluxe.win.routes,
    deluxe.win.boss, deluxe.win.profiteer, deluxe.win.saboteurs, deluxe.win.geologists).

    Deluxe: the profiteer always, the boss whenever the gold was reached, a team's miners when
    their team won, the saboteurs when the gold was not reached, geologists never. A winner
    trapped at the round's end still counts here (their gold shows what they got).
    """
    if edition is Edition.BASE:
        side = Side.MINERS if role is Role.MINER else Side.SABOTEURS
        return side in result.winners
    side = result.winners[0]
    if role is Role.PROFITEER:
        return True
    if role is Role.SABOTEUR:
        return side is Side.SABOTEURS
    if role is Role.BOSS:
        return side is not Side.SABOTEURS
    if role is Role.BLUE_MINER:
        return side in (Side.BLUE, Side.BOTH_TEAMS)
    if role is Role.GREEN_MINER:
        return side in (Side.GREEN, Side.BOTH_TEAMS)
    return False


def tally(state: GameState) -> dict[int, Figures]:
    """Each person's figures for one finished game, from its final state (computer players,
    whose ids are only seats of one game, are not counted)."""
    if state.phase is not Phase.OVER:
        raise ValueError("only a finished game is counted")
    best = max(state.gold)
    out: dict[int, Figures] = {}
    for seat, player in enumerate(state.players):
        if is_computer_id(player):
            continue
        rounds: dict[Role, int] = {}
        won: dict[Role, int] = {}
        for result in state.results:
            role = dict(result.roles)[player]
            rounds[role] = rounds.get(role, 0) + 1
            if on_winning_side(state.edition, role, result):
                won[role] = won.get(role, 0) + 1
        out[player] = Figures(
            games=1,
            wins=int(state.gold[seat] == best),
            gold=state.gold[seat],
            found=sum(1 for r in state.results if r.finder == player),
            rounds=rounds,
            won=won,
        )
    return out


@dataclass(frozen=True, slots=True)
class PlayerFigures:
    """A player's figures in one group (or across groups), with the name last shown."""

    user_id: int
    name: str
    figures: Figures


@dataclass(frozen=True, slots=True)
class GroupFigures:
    """One player's all-time figures in one group (private /stats)."""

    chat_id: int
    title: str
    name: str
    figures: Figures


# ---------------------------------------------------------------- the port


class Archives(Protocol):
    """Archived games per group (newest first, bounded), and statistics per group and season."""

    async def keep(self, game: ArchivedGame, counted: Mapping[int, Figures] | None) -> bool:
        """Store a game at its end; with `counted`, add those figures to the group's season and
        all-time statistics. Once per game: False (and nothing changed) if it was kept before."""
        ...

    async def recent(self, chat_id: int, limit: int = 10) -> tuple[ArchivedGame, ...]:
        """A group's latest archived games, newest first (unreadable ones left out)."""
        ...

    async def game(self, game_id: GameId) -> ArchivedGame | None:
        """One archived game, if it is still kept and readable."""
        ...

    async def group_stats(self, chat_id: int, season: str) -> tuple[PlayerFigures, ...]:
        """Every player's figures in a group for a season (or ALL_TIME), by user id."""
        ...

    async def player_stats(self, user_id: int) -> tuple[GroupFigures, ...]:
        """A player's all-time figures in each group they played in lately, latest first."""
        ...

    async def move_group(self, old_chat: int, new_chat: int, now: int) -> None:
        """A group became a supergroup (a new chat id): its history, statistics (those of
        every season still kept at `now`, and all time) and its place in its players' lists
        follow it, added to whatever the new chat has; its archived games name the new chat.
        Safe to repeat, also after a crash in the middle: nothing is counted twice."""
        ...


# ---------------------------------------------------------------- JSON


def game_to_json(game: ArchivedGame) -> str:
    """An archived game as compact JSON (the engine's archive inside, docs/history.md)."""
    doc: dict[str, Any] = {
        "schema": SCHEMA,
        "game": game.game_id,
        "chat": game.chat_id,
        "title": game.title,
        "lang": game.language.code,
        "ended_at": game.ended_at,
        "cancelled": game.cancelled,
        "names": [[u, n] for u, n in game.names],
        "archive": json.loads(to_archive_json(game.archive)),
    }
    return json.dumps(doc, separators=(",", ":"), ensure_ascii=False)


def game_from_json(text: str | bytes) -> ArchivedGame:
    """Read what game_to_json wrote; ArchivedGameError for anything else."""
    try:
        doc = json.loads(text)
        if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
            raise ArchivedGameError("unknown archived game schema")
        game_id = doc["game"]
        if not is_game_id(game_id):
            raise ArchivedGameError(f"not a game id: {game_id!r}")
        names = tuple((_int(u), str(n)) for u, n in doc["names"])
        return ArchivedGame(
            game_id=game_id,
            chat_id=_int(doc["chat"]),
            title=str(doc["title"]),
            language=Language(str(doc["lang"])),
            ended_at=_int(doc["ended_at"]),
            cancelled=doc["cancelled"] is True,
            names=names,
            archive=from_archive_json(json.dumps(doc["archive"])),
        )
    except ArchivedGameError:
        raise
    except (ValueError, KeyError, TypeError) as exc:  # ArchiveError is a ValueError
        raise ArchivedGameError(f"not an archived game: {exc!r}") from exc


def _int(value: object) -> int:
    if type(value) is not int:
        raise TypeError(f"{value!r} is not an integer")
    return value


def sorted_figures(rows: Sequence[PlayerFigures]) -> list[PlayerFigures]:
    """Players by wins, then gold, then games, then name."""
    return sorted(rows, key=lambda r: (-r.figures.wins, -r.figures.gold, -r.figures.games, r.name))
