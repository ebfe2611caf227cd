"""Archived games and statistics in process memory: the Redis contract, for use-case tests.

Games are kept as their JSON text, as in Redis, so whatever does not survive the codec fails
here too; expiry follows the given clock.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

from .archives import (
    ALL_TIME,
    COUNTED_SECONDS,
    GAMES_PER_GROUP,
    GROUPS_PER_PLAYER,
    KEEP_SECONDS,
    ArchivedGame,
    ArchivedGameError,
    Figures,
    GroupFigures,
    PlayerFigures,
    game_from_json,
    game_to_json,
    kept_seasons,
    rehomed,
    season_of,
)
from .game_ids import GameId


class MemoryArchives:
    """The `Archives` port in dicts, with expiry on the given clock."""

    def __init__(
        self,
        *,
        clock: Callable[[], float] = time.time,
        games_per_group: int = GAMES_PER_GROUP,
        groups_per_player: int = GROUPS_PER_PLAYER,
    ) -> None:
        self.clock = clock
        self.games_per_group = games_per_group
        self.groups_per_player = groups_per_player
        self.counted: dict[GameId, float] = {}  # game -> until when it counts as kept
        self.docs: dict[GameId, tuple[str, float]] = {}  # game -> (JSON, expiry)
        self.histories: dict[int, dict[GameId, int]] = {}  # chat -> game -> end time
        self.stats: dict[tuple[int, str], dict[str, int | str]] = {}
        self.user_groups: dict[int, dict[int, int]] = {}  # user -> chat -> last end time
        self.moved: set[tuple[int, int]] = set()  # (old chat, new chat) whose figures moved

    async def keep(self, game: ArchivedGame, counted: Mapping[int, Figures] | None) -> bool:
        """Store a game at its end, and count its figures, once."""
        now = self.clock()
        if self.counted.get(game.game_id, 0.0) > now:
            return False
        self.counted[game.game_id] = now + COUNTED_SECONDS
        self.docs[game.game_id] = (game_to_json(game), now + KEEP_SECONDS)
        history = self.histories.setdefault(game.chat_id, {})
        history[game.game_id] = game.ended_at
        ordered = sorted(history, key=lambda g: (history[g], g))
        for dropped in ordered[: max(0, len(ordered) - self.games_per_group)]:
            del history[dropped]
            if dropped != game.game_id:
                self.docs.pop(dropped, None)
        if counted:
            for season in (season_of(game.ended_at), ALL_TIME):
                table = self.stats.setdefault((game.chat_id, season), {})
                for user, figures in counted.items():
                    for name, value in figures.counts().items():
                        key = f"{user}:{name}"
                        old = table.get(key, 0)
                        table[key] = (old if isinstance(old, int) else 0) + value
                    table[f"{user}:name"] = game.name_of(user)
            self.stats[(game.chat_id, ALL_TIME)]["title"] = game.title
            for user in counted:
                groups = self.user_groups.setdefault(user, {})
                groups[game.chat_id] = game.ended_at
                latest = sorted(groups, key=lambda c: (groups[c], c))
                for chat in latest[: max(0, len(latest) - self.groups_per_player)]:
                    del groups[chat]
        return True

    def _doc(self, game_id: GameId) -> str | None:
        kept = self.docs.get(game_id)
        if kept is None or kept[1] <= self.clock():
            self.docs.pop(game_id, None)
            return None
        return kept[0]

    async def recent(self, chat_id: int, limit: int = 10) -> tuple[ArchivedGame, ...]:
        """A group's latest archived games, newest first."""
        history = self.histories.get(chat_id, {})
        newest = sorted(history, key=lambda g: (history[g], g), reverse=True)[:limit]
        out = []
        for gid in newest:
            game = await self.game(gid)
            if game is not None:
                out.append(game)
        return tuple(out)

    async def game(self, game_id: GameId) -> ArchivedGame | None:
        """One archived game, if kept and readable."""
        doc = self._doc(game_id)
        if doc is None:
            return None
        try:
            return game_from_json(doc)
        except ArchivedGameError:
            return None

    async def group_stats(self, chat_id: int, season: str) -> tuple[PlayerFigures, ...]:
        """Every player's figures in a group for a season (or ALL_TIME), by user id."""
        table = self.stats.get((chat_id, season), {})
        counts: dict[int, dict[str, int]] = {}
        names: dict[int, str] = {}
        for key, value in table.items():
            user, _, name = key.partition(":")
            if not name:
                continue
            if name == "name":
                names[int(user)] = str(value)
            elif isinstance(value, int):
                counts.setdefault(int(user), {})[name] = value
        return tuple(
            PlayerFigures(u, names.get(u, str(u)), Figures.from_counts(c))
            for u, c in sorted(counts.items())
        )

    async def player_stats(self, user_id: int) -> tuple[GroupFigures, ...]:
        """A player's all-time figures in each group they played in lately, latest first."""
        groups = self.user_groups.get(user_id, {})
        out = []
        for chat in sorted(groups, key=lambda c: (groups[c], c), reverse=True):
            table = self.stats.get((chat, ALL_TIME), {})
            prefix = f"{user_id}:"
            counts = {
                k[len(prefix) :]: v
                for k, v in table.items()
                if k.startswith(prefix) and isinstance(v, int)
            }
            if counts:
                name = str(table.get(f"{user_id}:name", user_id))
                out.append(
                    GroupFigures(
                        chat, str(table.get("title", "")), name, Figures.from_counts(counts)
                    )
                )
        return tuple(out)

    async def move_group(self, old_chat: int, new_chat: int, now: int) -> None:
        """A group became a supergroup: its history, statistics and place in its players'
        lists follow it (figures added once, however often this runs)."""
        old_history = self.histories.pop(old_chat, {})
        for gid in old_history:
            doc = self._doc(gid)
            moved = None if doc is None else rehomed(doc, new_chat)
            if moved is not None:
                self.docs[gid] = (moved, self.docs[gid][1])
        if old_history:
            history = self.histories.setdefault(new_chat, {})
            history.update(old_history)
            ordered = sorted(history, key=lambda g: (history[g], g))
            for dropped in ordered[: max(0, len(ordered) - self.games_per_group)]:
                del history[dropped]
                self.docs.pop(dropped, None)
        for season in (*kept_seasons(now), ALL_TIME):
            table = self.stats.pop((old_chat, season), None)
            if not table or (old_chat, new_chat) in self.moved:
                continue
            into = self.stats.setdefault((new_chat, season), {})
            for key, value in table.items():
                if isinstance(value, int):
                    old = into.get(key, 0)
                    into[key] = (old if isinstance(old, int) else 0) + value
                else:
                    into.setdefault(key, value)
        self.moved.add((old_chat, new_chat))
        for groups in self.user_groups.values():
            if old_chat in groups:
                when = groups.pop(old_chat)
                groups[new_chat] = max(when, groups.get(new_chat, when))
