"""Computer players in the bot: their seats, and each move decided from what one seat may see.

A decision is rebuilt from the stored record every time, so it is the same on any process and
after any restart: the record's `moves` are replayed from the state's seed (here, in the bot),
and the computer player (`ai.Bot`) is handed only that seat's views of its own earlier turns,
the events whose audience includes it, its current `PlayerView` and its legal actions, never a
`GameState`. Its randomness is seeded by the game, the seat and the state's version. A record
whose moves do not lead to the seat's current view (a game begun before moves were kept) gives
the bot its view alone: it then knows less of the round's history, and still plays legally.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from ai import Bot, Budget, Level, visible
from engine import (
    Action,
    Event,
    GameState,
    IllegalAction,
    apply,
    legal_actions,
    new_game,
    player_view,
)
from engine.archive import ArchiveError, parse_seat_move
from engine.model import PlayerId
from engine.views import PlayerView

from .i18n import SOURCE_CODE, Language, texts
from .names import computer_index, computer_name
from .records import GameRecord, Lobby, LobbyPlayer

DEFAULT_LEVEL = Level.SEARCH  # a computer seat added in a lobby
STAND_IN_LEVEL = Level.SEARCH  # who plays for an absent player (timeouts, /kick)
BUDGET = Budget(worlds=8, width=4)  # a small search: tens of milliseconds a move on one core


def new_computer(lobby: Lobby, language: Language, level: Level = DEFAULT_LEVEL) -> LobbyPlayer:
    """The lobby's next computer seat: the first free negative id, a name not taken yet (stored
    in English, shown in the language of each text: `names.local_computer_name`)."""
    taken = {p.user_id for p in lobby.players}
    uid = -1
    while uid in taken:
        uid -= 1
    used = {computer_index(p.name) for p in lobby.computers}
    index = 0
    while index in used:
        index += 1
    name = computer_name(texts(Language(SOURCE_CODE)), index)
    return LobbyPlayer(uid, name, language, computer=level)


def seed_of(game: str, seat: int, version: int) -> int:
    """The seed of one decision: the same for the same game, seat and turn, on any process."""
    digest = hashlib.blake2b(f"{game}:{seat}:{version}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") % 2**63


@dataclass(frozen=True, slots=True)
class Seen:
    """One earlier move as a seat saw it: its own (its view then, what it played), if it was,
    and the events of the move whose audience includes the seat."""

    own: tuple[PlayerView, Action] | None
    events: tuple[Event, ...]


def history(record: GameRecord, player: PlayerId) -> tuple[Seen, ...] | None:
    """What a seat saw of the game so far, replayed from the record's moves; None when they do
    not lead to the seat's current view (moves missing, or a record from before they were kept).
    """
    state = record.state
    if state is None or len(record.moves) != state.version:
        return None
    try:
        replayed: GameState = new_game(
            state.players, edition=state.edition, seed=state.seed, options=state.options
        )
        seen: list[Seen] = []
        for line in record.moves:
            actor, action = parse_seat_move(replayed.players, line)
            own = (player_view(replayed, player), action) if actor == player else None
            transition = apply(replayed, actor, action)
            seen.append(Seen(own, visible(transition.events, player)))
            replayed = transition.state
    except (ArchiveError, IllegalAction, ValueError):
        return None
    if player_view(replayed, player) != player_view(state, player):
        return None
    return tuple(seen)


def level_of(record: GameRecord, player: PlayerId) -> Level:
    """How hard the computer thinks for this seat: a computer seat's level, else a stand-in's."""
    seat = record.lobby.player(player)
    return seat.computer if seat is not None and seat.computer is not None else STAND_IN_LEVEL


def decide(record: GameRecord, player: PlayerId) -> Action | None:
    """The computer's move for this seat (a computer player, or a stand-in for a person), from
    that seat's view and history only; None when the seat has nothing to play."""
    state = record.state
    if state is None:
        return None
    legal = legal_actions(state, player)
    if not legal:
        return None
    seat = state.seat_of(player)
    level = level_of(record, player)
    bot = Bot(player, seed=seed_of(record.game_id, seat, state.version), level=level, budget=BUDGET)
    seen = history(record, player) if level is not Level.RANDOM else None  # random needs none
    for step in seen or ():
        if step.own is not None:
            bot.recall(*step.own)
        bot.observe(step.events)
    return bot.choose(player_view(state, player), legal)
