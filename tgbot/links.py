"""Start links: `t.me/<bot>?start=<payload>` opens a private chat with the bot and sends
`/start <payload>`; the payloads are `join-<game id>` (the lobby's Join button) and
`hand-<game id>` (the button under a board post)."""

from __future__ import annotations

from dataclasses import dataclass

from .game_ids import GameId, is_game_id


@dataclass(frozen=True, slots=True)
class JoinLink:
    """`/start join-<game>`: join that game's lobby from the group's Join button."""

    game: GameId


@dataclass(frozen=True, slots=True)
class HandLink:
    """`/start hand-<game>`: show one's hand of that game (a button under the board post)."""

    game: GameId


StartPayload = JoinLink | HandLink
_JOIN = "join-"
_HAND_LINK = "hand-"


def join_payload(game: GameId) -> str:
    """The deep-link payload that joins a game."""
    if not is_game_id(game):
        raise ValueError(f"not a game id: {game!r}")
    return _JOIN + game


def hand_payload(game: GameId) -> str:
    """The deep-link payload that opens one's hand of a game."""
    if not is_game_id(game):
        raise ValueError(f"not a game id: {game!r}")
    return _HAND_LINK + game


def parse_start_payload(text: str | None) -> StartPayload | None:
    """The payload of `/start <payload>` (PTB's `context.args[0]`), or None if it is not ours."""
    if not isinstance(text, str):
        return None
    for prefix, cls in ((_JOIN, JoinLink), (_HAND_LINK, HandLink)):
        if text.startswith(prefix) and is_game_id(text[len(prefix) :]):
            return cls(text[len(prefix) :])
    return None


def start_link(bot_username: str, payload: str) -> str:
    """The t.me link that opens a private chat with the bot and sends `/start <payload>`."""
    return f"https://t.me/{bot_username}?start={payload}"


SUPERGROUP_PREFIX = "-100"  # a supergroup's id is -100 followed by its internal id


def message_link(chat_id: int, message_id: int | None) -> str | None:
    """A `t.me/c/` link to a message of a supergroup, which its members can open (None for a
    basic group or without a message: Telegram has no link to those)."""
    text = str(chat_id)
    if message_id is None or not text.startswith(SUPERGROUP_PREFIX) or len(text) <= 4:
        return None
    return f"https://t.me/c/{text[len(SUPERGROUP_PREFIX) :]}/{message_id}"
