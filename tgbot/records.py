"""Game records: what the store keeps per game, and its versioned JSON form.

`doc`, schema 1 (no pickle; times are whatever integer clock the caller passes, e.g. Unix
seconds):

    {"schema": 1, "game": "Ab3dE9xYz0", "status": "lobby|playing|finished|cancelled",
     "chat": -1001234567890, "title": "Friday dwarves", "thread": 42 | null,
     "lang": "ko|en", "creator": 111, "creator_name": "Ann",
     "created_at": 1700000000, "updated_at": 1700000000,
     "lobby": {"edition": "base|deluxe", "gold": "official|per_miner", "greedy_dwarf": false,
               "turn_limit_hours": 24 | null,
               "players": [{"id": 111, "name": "Ann", "lang": "ko", "username"?: "ann"},
                           {"id": -1, "name": "Borin", "lang": "ko", "computer": "search"}, ...],
               "invited"?: [a player, ...]},
     "state": null | {the engine's state JSON, engine.codec schema},
     "moves"?: ["0 T CROSS 1,0", "1 D MAP", ...], "rematch"?: "Cd4eF0yZa1",
     "messages": {"lobby": 10 | null, "board": 11 | null, "hands": [[111, 55], ...]}}

`invited` are a rematch lobby's players of the game before who have not confirmed yet;
`rematch` is the lobby a finished game's "Same players again" opened.

`owed` (`tgbot.outbox`): `texts`, `board_lines`, `notes` and `private_texts` ([user, message])
and `lobby_text` hold typed messages in the JSON form of `tgbot.notices` (a plain string is text
rendered before it was owed, as records written before typed messages hold), for instance
`{"k": "Told", "event": {"k": "TunnelPlaced", "player": 111, "card": "CROSS", "at": [1, 0],
"rotated": false}}` or `{"k": "Said", "kind": "game_cancelled", "args": {}}`.

`thread` is a forum topic's `message_thread_id` (only for topic messages: in other supergroups
replies carry a thread id too, and must not make a second "chat"). `hands` pairs a player with
their live private message. `owed` is what the game still owes its chats (`tgbot.outbox`;
its `lines_struck` counts the move lines struck off the board lines so far, 0 when absent;
`board_keyboard`, false when absent, asks for the board post's keyboard to be set again, after
another game's search for copies took it);
`unreachable` lists players whose private chat refused the bot, until they press Start.

`chat` is a group's id (negative), or for a practice game (`/practice`) the player's private
chat, whose id is their user id (positive): its board posts and its hand share that chat.

Computer players are lobby players with a `computer` level (`random`, `heuristic`, `search`).
Their ids are negative, -1, -2, ... within a game: Telegram user ids are positive, so a
computer's id never names a person, and nothing is ever sent to it. Names are a computer's own
(from `tgbot.names.COMPUTER_NAMES`, stored in English, or in the group's language then for
records written before; shown in each text's language: `names.local_computer_name`).

`moves` lists every move of the game in play order, in the archive's notation
(`"<seat> <move>"`, docs/archive.md): replayed from the state's seed, it rebuilds what each seat
saw (computer players decide from it). It is absent from records written before it existed,
whose games then have fewer moves than their state's version.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

import orjson

from ai import Level
from engine import Edition, GameState, GoldRule, Options, state_from_doc, state_to_doc

from .game_ids import GameId, is_game_id
from .i18n import Language
from .notices import Json, Message, from_doc, to_doc
from .outbox import Owed

SCHEMA = 1


class StoreError(Exception):
    """The store could not do what was asked."""


class CorruptRecordError(StoreError):
    """A stored record could not be read."""


class Status(Enum):
    """Where a game is in its life."""

    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"

    @property
    def is_active(self) -> bool:
        """True while the game holds its chat (lobby or playing)."""
        return self in (Status.LOBBY, Status.PLAYING)


@dataclass(frozen=True, slots=True)
class LobbyPlayer:
    """A player who joined, with the name shown to others and their private-chat language; or a
    computer player, with its level (and a negative id)."""

    user_id: int
    name: str
    language: Language
    username: str | None = None  # their @username when they joined, for `/kick @name`
    computer: Level | None = None  # set for a computer player: how hard it thinks

    @property
    def is_computer(self) -> bool:
        """True for a computer player."""
        return self.computer is not None


def is_computer_id(user_id: int) -> bool:
    """True for the id of a computer player (negative: no Telegram user has one)."""
    return user_id < 0


@dataclass(frozen=True, slots=True)
class Lobby:
    """The game's set-up: edition, variants, time per turn, players in join order."""

    edition: Edition = Edition.BASE
    options: Options = Options()
    turn_limit_hours: int | None = 24
    players: tuple[LobbyPlayer, ...] = ()
    invited: tuple[LobbyPlayer, ...] = ()  # a rematch's players who did not confirm yet
    revision: int = 0  # bumped by every change of the set-up; the lobby's buttons carry it

    def changed(self, **changes: object) -> Lobby:
        """A copy with these fields changed and the revision bumped."""
        return replace(self, revision=self.revision + 1, **changes)  # type: ignore[arg-type]

    def has_player(self, user_id: int) -> bool:
        """True when this user has joined."""
        return any(p.user_id == user_id for p in self.players)

    def player(self, user_id: int) -> LobbyPlayer | None:
        """The joined player with this user id, if any."""
        return next((p for p in self.players if p.user_id == user_id), None)

    @property
    def computers(self) -> tuple[LobbyPlayer, ...]:
        """The computer players, in the order they were added."""
        return tuple(p for p in self.players if p.is_computer)

    @property
    def humans(self) -> tuple[LobbyPlayer, ...]:
        """The people who joined, in join order."""
        return tuple(p for p in self.players if not p.is_computer)


@dataclass(frozen=True, slots=True)
class MessageIds:
    """Messages the bot edits or deletes later."""

    lobby: int | None = None
    board: int | None = None
    hands: tuple[tuple[int, int], ...] = ()  # (user id, message id in their private chat)

    def hand_of(self, user_id: int) -> int | None:
        """The id of this user's live hand message, if any."""
        return next((m for u, m in self.hands if u == user_id), None)

    def with_hand(self, user_id: int, message_id: int | None) -> MessageIds:
        """A copy with this user's hand message set (or forgotten with None)."""
        hands = tuple((u, m) for u, m in self.hands if u != user_id)
        if message_id is not None:
            hands = (*hands, (user_id, message_id))
        return replace(self, hands=hands)


@dataclass(frozen=True, slots=True)
class GameRecord:
    """Everything the bot keeps about one game, stored as one Redis key."""

    game_id: GameId
    chat_id: int
    thread_id: int | None
    language: Language
    creator_id: int
    created_at: int
    updated_at: int
    status: Status = Status.LOBBY
    lobby: Lobby = field(default_factory=Lobby)
    state: GameState | None = None
    messages: MessageIds = field(default_factory=MessageIds)
    title: str = ""  # the group's title, shown in private messages
    creator_name: str = ""  # shown in the lobby even if the creator does not join
    owed: Owed = field(default_factory=Owed)  # announcements not delivered yet (outbox)
    turn_started_at: int = 0  # when the current turn began (turn clocks)
    misses: tuple[tuple[int, int], ...] = ()  # (user, timeouts in a row)
    automatic: tuple[int, ...] = ()  # players the game plays for until they act again
    kick_votes: tuple[int, ...] = ()  # voters to play for the current player now
    rematch: GameId | None = None  # the lobby this finished game's "Same players again" opened
    unreachable: tuple[int, ...] = ()  # players whose private chat refused the bot (403)
    moves: tuple[str, ...] = ()  # every move so far, "<seat> <move>" (the archive's notation)
    rev: int = 0

    @property
    def player_ids(self) -> tuple[int, ...]:
        """Everyone who plays or joined, in seat or join order, without repeats."""
        ids = [p.user_id for p in self.lobby.players]
        if self.state is not None:
            ids += [p for p in self.state.players if p not in ids]
        return tuple(ids)

    @property
    def human_ids(self) -> tuple[int, ...]:
        """The people who play or joined (computer players left out): whom messages go to."""
        return tuple(u for u in self.player_ids if not is_computer_id(u))

    @property
    def is_practice(self) -> bool:
        """True for a practice game, played in its player's private chat."""
        return self.chat_id > 0


# ------------------------------------------------------------------ JSON


def record_to_json(record: GameRecord) -> str:
    """The record's `doc` (everything but `rev`), as compact JSON."""
    lobby = record.lobby
    doc: dict[str, Any] = {
        "schema": SCHEMA,
        "game": record.game_id,
        "status": record.status.value,
        "chat": record.chat_id,
        "title": record.title,
        "thread": record.thread_id,
        "lang": record.language.code,
        "creator": record.creator_id,
        "creator_name": record.creator_name,
        "owed": {
            "texts": [to_doc(m) for m in record.owed.texts],
            "board_lines": [to_doc(m) for m in record.owed.board_lines],
            "lines_struck": record.owed.lines_struck,
            "board_version": record.owed.board_version,
            "fresh": list(record.owed.fresh),
            "edits": list(record.owed.edits),
            "deletions": [[c, m] for c, m in record.owed.deletions],
            "notes": [[u, to_doc(m)] for u, m in record.owed.notes],
            "private_texts": [[u, to_doc(m)] for u, m in record.owed.private_texts],
            "replays": list(record.owed.replays),
            "lobby_text": None
            if record.owed.lobby_text is None
            else to_doc(record.owed.lobby_text),
            "lobby_redraw": record.owed.lobby_redraw,
            "board_keyboard": record.owed.board_keyboard,
            "waits": [[c, t, n] for c, t, n in record.owed.waits],
            "uncertain": [[c, f] for c, f in record.owed.uncertain],
        },
        "unreachable": list(record.unreachable),
        "turn_started_at": record.turn_started_at,
        "misses": [[u, n] for u, n in record.misses],
        "automatic": list(record.automatic),
        "kick_votes": list(record.kick_votes),
        "created_at": record.created_at,
        "updated_at": record.updated_at,
        "lobby": {
            "edition": lobby.edition.value,
            "gold": lobby.options.gold.value,
            "greedy_dwarf": lobby.options.greedy_dwarf,
            "turn_limit_hours": lobby.turn_limit_hours,
            "revision": lobby.revision,
            "players": [_player_doc(p) for p in lobby.players],
        },
        "state": None if record.state is None else state_to_doc(record.state),
        "moves": list(record.moves),
        "messages": {
            "lobby": record.messages.lobby,
            "board": record.messages.board,
            "hands": [[u, m] for u, m in record.messages.hands],
        },
    }
    if lobby.invited:  # older records have none; keep their form
        doc["lobby"]["invited"] = [_player_doc(p) for p in lobby.invited]
    if record.rematch is not None:
        doc["rematch"] = record.rematch
    return orjson.dumps(doc).decode()  # compact, UTF-8 kept: what json.dumps wrote, faster


def _opt_doc(message: Message | None) -> Json:
    return None if message is None else to_doc(message)


def _player_doc(player: LobbyPlayer) -> dict[str, object]:
    doc: dict[str, object] = {
        "id": player.user_id,
        "name": player.name,
        "lang": player.language.code,
    }
    if player.username is not None:  # older records have none; keep their form
        doc["username"] = player.username
    if player.computer is not None:
        doc["computer"] = player.computer.value
    return doc


def _int(value: object, what: str) -> int:
    if type(value) is not int:
        raise CorruptRecordError(f"{what}: expected an integer, got {value!r}")
    return value


def _number(value: object, what: str) -> float:
    if type(value) not in (int, float):
        raise CorruptRecordError(f"{what}: expected a number, got {value!r}")
    return float(value)  # type: ignore[arg-type]


def _opt_int(value: object, what: str) -> int | None:
    return None if value is None else _int(value, what)


def _str(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise CorruptRecordError(f"{what}: expected a string, got {value!r}")
    return value


def _opt_str(value: object, what: str) -> str | None:
    return None if value is None else _str(value, what)


def _bool(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise CorruptRecordError(f"{what}: expected true or false, got {value!r}")
    return value


def _obj(value: object, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise CorruptRecordError(f"{what}: expected an object")
    return value


def _list(value: object, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise CorruptRecordError(f"{what}: expected a list")
    return value


def _hand(pair: object) -> tuple[int, int]:
    items = _list(pair, "messages.hands[]")
    if len(items) != 2:
        raise CorruptRecordError(f"messages.hands[]: expected [user, message], got {items!r}")
    return _int(items[0], "hand user"), _int(items[1], "hand message")


def _level(value: object) -> Level | None:
    return None if value is None else Level(_str(value, "player.computer"))


def _message(value: object, what: str) -> Message:
    try:
        return from_doc(value)
    except ValueError as exc:
        raise CorruptRecordError(f"{what}: {exc}") from exc


def _opt_message(value: object, what: str) -> Message | None:
    return None if value is None else _message(value, what)


def _owed(value: object) -> Owed:
    if value is None:
        return Owed()
    doc = _obj(value, "owed")
    return Owed(
        texts=tuple(_message(x, "owed.texts[]") for x in _list(doc["texts"], "owed.texts")),
        board_lines=tuple(_message(x, "owed.lines[]") for x in _list(doc["board_lines"], "l")),
        lines_struck=_int(doc.get("lines_struck", 0), "owed.lines_struck"),
        board_version=_opt_int(doc["board_version"], "owed.board_version"),
        fresh=tuple(_int(x, "owed.fresh[]") for x in _list(doc["fresh"], "owed.fresh")),
        edits=tuple(_int(x, "owed.edits[]") for x in _list(doc["edits"], "owed.edits")),
        deletions=tuple(
            (_int(c, "owed.deletions chat"), _int(m, "owed.deletions message"))
            for c, m in _list(doc.get("deletions", []), "owed.deletions")
        ),
        notes=tuple(
            (_int(u, "owed.notes user"), _message(note, "owed.notes note"))
            for u, note in _list(doc.get("notes", []), "owed.notes")
        ),
        replays=tuple(_int(r, "owed.replays[]") for r in _list(doc.get("replays", []), "replays")),
        private_texts=tuple(
            (_int(u, "owed.private_texts user"), _message(m, "owed.private_texts text"))
            for u, m in _list(doc.get("private_texts", []), "owed.private_texts")
        ),
        lobby_text=_opt_message(doc.get("lobby_text"), "owed.lobby_text"),
        lobby_redraw=_bool(doc.get("lobby_redraw", False), "owed.lobby_redraw"),
        board_keyboard=_bool(doc.get("board_keyboard", False), "owed.board_keyboard"),
        waits=tuple(
            (_int(c, "owed.waits chat"), _number(t, "owed.waits time"), _int(n, "owed.waits n"))
            for c, t, n in _list(doc.get("waits", []), "owed.waits")
        ),
        uncertain=tuple(
            (_int(c, "owed.uncertain chat"), _int(f, "owed.uncertain floor"))
            for c, f in _list(doc.get("uncertain", []), "owed.uncertain")
        ),
    )


def _player(value: object) -> LobbyPlayer:
    p = _obj(value, "player")
    return LobbyPlayer(
        user_id=_int(p["id"], "player.id"),
        name=_str(p["name"], "player.name"),
        language=Language(_str(p["lang"], "player.lang")),
        username=_opt_str(p.get("username"), "player.username"),
        computer=_level(p.get("computer")),
    )


def _opt_game(value: object) -> GameId | None:
    if value is None:
        return None
    if not is_game_id(value):
        raise CorruptRecordError(f"not a game id: {value!r}")
    return _str(value, "game id")


def record_from_json(text: str | bytes, rev: int) -> GameRecord:
    """Read a `doc` written by `record_to_json`; raises CorruptRecordError on anything else."""
    try:
        doc = _obj(orjson.loads(text), "doc")
        if doc.get("schema") != SCHEMA:
            raise CorruptRecordError(f"unknown record schema {doc.get('schema')!r}")
        lobby = _obj(doc["lobby"], "lobby")
        messages = _obj(doc["messages"], "messages")
        state = doc["state"]
        game_id = _str(doc["game"], "game")
        if not is_game_id(game_id):
            raise CorruptRecordError(f"game: not a game id: {game_id!r}")
        return GameRecord(
            game_id=game_id,
            chat_id=_int(doc["chat"], "chat"),
            title=_str(doc.get("title", ""), "title"),
            thread_id=_opt_int(doc["thread"], "thread"),
            language=Language(_str(doc["lang"], "lang")),
            creator_id=_int(doc["creator"], "creator"),
            creator_name=_str(doc.get("creator_name", ""), "creator_name"),
            owed=_owed(doc.get("owed")),
            turn_started_at=_int(doc.get("turn_started_at", 0), "turn_started_at"),
            misses=tuple(
                (_int(u, "misses user"), _int(n, "misses count"))
                for u, n in _list(doc.get("misses", []), "misses")
            ),
            automatic=tuple(_int(u, "automatic") for u in _list(doc.get("automatic", []), "a")),
            kick_votes=tuple(_int(u, "kick_votes") for u in _list(doc.get("kick_votes", []), "k")),
            unreachable=tuple(
                _int(u, "unreachable") for u in _list(doc.get("unreachable", []), "unreachable")
            ),
            created_at=_int(doc["created_at"], "created_at"),
            updated_at=_int(doc["updated_at"], "updated_at"),
            status=Status(_str(doc["status"], "status")),
            lobby=Lobby(
                edition=Edition(_str(lobby["edition"], "lobby.edition")),
                options=Options(
                    gold=GoldRule(_str(lobby["gold"], "lobby.gold")),
                    greedy_dwarf=_bool(lobby["greedy_dwarf"], "lobby.greedy_dwarf"),
                ),
                turn_limit_hours=_opt_int(lobby["turn_limit_hours"], "lobby.turn_limit_hours"),
                revision=_int(lobby.get("revision", 0), "lobby.revision"),
                players=tuple(_player(x) for x in _list(lobby["players"], "players")),
                invited=tuple(_player(x) for x in _list(lobby.get("invited", []), "invited")),
            ),
            rematch=_opt_game(doc.get("rematch")),
            state=None if state is None else state_from_doc(_obj(state, "state")),
            moves=tuple(_str(m, "moves[]") for m in _list(doc.get("moves", []), "moves")),
            messages=MessageIds(
                lobby=_opt_int(messages["lobby"], "messages.lobby"),
                board=_opt_int(messages["board"], "messages.board"),
                hands=tuple(_hand(pair) for pair in _list(messages["hands"], "messages.hands")),
            ),
            rev=rev,
        )
    except CorruptRecordError:
        raise
    except (ValueError, KeyError, TypeError, IndexError) as exc:
        raise CorruptRecordError(f"not a game record: {exc!r}") from exc
