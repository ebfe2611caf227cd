"""Every Redis key name the bot uses, in one place.

Keys (`<p>` is the prefix, `sab` by default, so several bots can share one Redis):

| key | type | holds |
|---|---|---|
| `<p>:game:{<gid>}` | HASH | `rev` (decimal) and `doc` (the game record's JSON, `tgbot.store`) |
| `<p>:chat:<chat id>:<thread id or ->` | STRING | the active game of a chat or forum topic |
| `<p>:user:<user id>:games` | SET | the ids of a user's active games |
| `<p>:user:<user id>` | HASH | a user's settings: `lang` |
| `<p>:group:<chat id>` | HASH | a group's settings: `lang` |
| `<p>:outbox:{o<shard>}` | ZSET | games that may owe announcements, by the rev that owed them |
| `<p>:deadlines:{d<shard>}` | ZSET | deadlines, and claims while served (`tgbot.scheduler`) |
| `<p>:budget:<chat id>` | ZSET | recent group sends (`tgbot.budget`) |
| `<p>:botbudget` | HASH | the bot-wide token bucket, `tokens` and `at` (`tgbot.bot_budget`) |
| `<p>:updates:<id // 65536>` | STRING | bitmap of handled update ids, a day (`tgbot.dedupe`) |
| `<p>:updating:<update id>` | STRING | the process handling a webhook update, 5 s |
| `<p>:lease:{<gid>}` | STRING | which process is delivering a game's announcements |
| `<p>:posts:<chat id>` | ZSET | the last 200 ids the bot sent in a chat, 3 days (`tgbot.posts`) |
| `<p>:archive:{<gid>}` | STRING | an ended game's archive (`tgbot.archives`), 180 days |
| `<p>:counted:{<chat id>}:<gid>` | STRING | a game already archived and counted, 30 days |
| `<p>:history:{<chat id>}` | ZSET | a group's latest 50 archived games by end time |
| `<p>:stats:{<chat id>}:<season>` | HASH | a group's figures of a season (`2025Q3`) or `all` |
| `<p>:moved:{<chat id>}:<old id>` | STRING | a supergroup's figures moved in from its group |
| `<p>:user:<user id>:groups` | ZSET | the latest 20 groups a user finished a game in |

A group's history, its statistics and a user's groups expire 180 days after their last write
(docs/history.md); a statistics hash holds `<user>:<figure>` counts, `<user>:name` and (all
time) the group's `title`.

The braces are Redis Cluster hash tags, chosen so that every script touches one slot: a game's
record, its lease and its archive share the game's tag; a group's history, its statistics and
its counted and moved marks share the chat's tag. The indexes that span games (owed outboxes,
deadlines) are split into `SHARDS` keys by game id (`shard_of`), each its own slot; a chat's
active game, a user's games and settings, the update ledger, the sent-message ledger and a
chat's budget are one key each, written by single-key commands. Nothing the bot sends crosses
two slots, so the same code runs on one Redis server and on a Cluster (`tgbot.migrate` renames
the keys of the layout before this one).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

DEFAULT_PREFIX = "sab"
SHARDS = 8  # keys per cross-game index; each lands in its own Cluster slot


def shard_of(game_id: str) -> int:
    """The shard of the cross-game indexes a game's entries live in (stable across processes)."""
    return zlib.crc32(game_id.encode()) % SHARDS


_FORBIDDEN = "{}*?[] \t\n"  # glob and hash-tag characters would let one prefix see another's keys


@dataclass(frozen=True, slots=True)
class Keys:
    """The key names under one prefix."""

    prefix: str = DEFAULT_PREFIX

    def __post_init__(self) -> None:
        if not self.prefix or any(ch in self.prefix for ch in _FORBIDDEN):
            raise ValueError(f"bad key prefix {self.prefix!r}")

    def game(self, game_id: str) -> str:
        """A game's record."""
        return f"{self.prefix}:game:{{{game_id}}}"

    def lease(self, game_id: str) -> str:
        """Which process delivers a game's announcements."""
        return f"{self.prefix}:lease:{{{game_id}}}"

    def chat(self, chat_id: int, thread_id: int | None) -> str:
        """The active game of a chat or forum topic."""
        return f"{self.prefix}:chat:{chat_id}:{'-' if thread_id is None else thread_id}"

    def chat_topics(self, chat_id: int) -> str:
        """A SCAN pattern matching the active-game keys of every topic of a chat."""
        return f"{self.prefix}:chat:{chat_id}:*"

    def outbox(self, shard: int) -> str:
        """One shard of the games that may owe announcements."""
        return f"{self.prefix}:outbox:{{o{shard}}}"

    def user_games(self, user_id: int) -> str:
        """The set of a user's active games."""
        return f"{self.prefix}:user:{user_id}:games"

    def user(self, user_id: int) -> str:
        """A user's settings."""
        return f"{self.prefix}:user:{user_id}"

    def group(self, chat_id: int) -> str:
        """A group's settings."""
        return f"{self.prefix}:group:{chat_id}"

    def deadlines(self, shard: int) -> str:
        """One shard of the sorted set of pending turn deadlines."""
        return f"{self.prefix}:deadlines:{{d{shard}}}"

    def budget(self, chat_id: int) -> str:
        """A chat's recent group sends (the flood budget)."""
        return f"{self.prefix}:budget:{chat_id}"

    def bot_budget(self) -> str:
        """The bot-wide token bucket (Telegram's 30 messages a second)."""
        return f"{self.prefix}:botbudget"

    def posts(self, chat_id: int) -> str:
        """The ids of messages the bot sent in a chat (recent ones)."""
        return f"{self.prefix}:posts:{chat_id}"

    def update_hold(self, update_id: int) -> str:
        """Which process is handling a webhook update right now."""
        return f"{self.prefix}:updating:{update_id}"

    def updates(self, window: int) -> str:
        """The bitmap of handled update ids in one window of 65,536 ids."""
        return f"{self.prefix}:updates:{window}"

    def archive(self, game_id: str) -> str:
        """A finished or cancelled game's archive."""
        return f"{self.prefix}:archive:{{{game_id}}}"

    def counted(self, chat_id: int, game_id: str) -> str:
        """The mark of a game already archived (and counted), in its group's slot."""
        return f"{self.prefix}:counted:{{{chat_id}}}:{game_id}"

    def history(self, chat_id: int) -> str:
        """A group's archived games by end time."""
        return f"{self.prefix}:history:{{{chat_id}}}"

    def stats(self, chat_id: int, season: str) -> str:
        """A group's statistics of a season (or of all time)."""
        return f"{self.prefix}:stats:{{{chat_id}}}:{season}"

    def moved(self, chat_id: int, old_chat_id: int) -> str:
        """The mark of a supergroup's figures moved in from its group, in the supergroup's
        slot."""
        return f"{self.prefix}:moved:{{{chat_id}}}:{old_chat_id}"

    def user_groups(self, user_id: int) -> str:
        """The groups a user finished games in lately."""
        return f"{self.prefix}:user:{user_id}:groups"

    def everything(self) -> str:
        """A SCAN pattern matching every key under the prefix."""
        return f"{self.prefix}:*"
