"""A finished or cancelled game as a compact record that replays exactly (docs/archive.md).

The engine is deterministic given the seed, so an archive holds only what the players chose:
the edition, the options, the seats, the seed and the moves. A replay re-applies every move
through `apply`, so a forged or damaged archive fails as an illegal move or at the end check
instead of replaying some other game.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .actions import (
    Action,
    ClearInFront,
    Discard,
    PlaceTunnel,
    PlayOnPlayer,
    Rockfall,
    Steal,
    UseMap,
)
from .cards import CARDS, Card, Edition, Tool
from .errors import IllegalAction
from .events import PUBLIC, Event, GameEnded, RoundEnded
from .model import Coord, GameState, GoldRule, Options, Phase, PlayerId
from .rules import Transition, apply, new_game
from .views import PublicView, public_view

SCHEMA = 1


class ArchiveError(ValueError):
    """An archive that is malformed, of another schema, or does not replay to its recorded end."""


@dataclass(frozen=True, slots=True)
class End:
    """Where the recorded game stopped: checked by every replay, and readable without one."""

    over: bool  # False for a game cancelled before its last round ended
    rng: int  # the generator state after the last move: differs for any other seed
    gold: tuple[int, ...]  # nuggets per seat after the last move


@dataclass(frozen=True, slots=True)
class Archive:
    """Everything needed to replay a game: its set-up and the (player, action) of every move."""

    edition: Edition
    options: Options
    players: tuple[PlayerId, ...]  # in seat order
    seed: int
    moves: tuple[tuple[PlayerId, Action], ...]
    end: End


@dataclass(frozen=True, slots=True)
class Played:
    """One replayed move: the state it was played on, who played what, and the result."""

    before: GameState
    player: PlayerId
    action: Action
    transition: Transition


def _end_of(state: GameState) -> End:
    return End(state.phase is Phase.OVER, state.rng, state.gold)


def archive_of(final: GameState, moves: Iterable[tuple[PlayerId, Action]]) -> Archive:
    """The archive of a game that reached `final` by these moves; ArchiveError if it did not."""
    archive = Archive(
        edition=final.edition,
        options=final.options,
        players=final.players,
        seed=final.seed,
        moves=tuple(moves),
        end=_end_of(final),
    )
    try:
        reached = replay(archive)[-1]
    except ArchiveError as exc:
        raise ArchiveError(f"these moves do not lead to the given state: {exc}") from exc
    if reached != final:
        raise ArchiveError("these moves do not lead to the given state")
    return archive


def _first(archive: Archive) -> GameState:
    try:
        return new_game(
            archive.players, edition=archive.edition, seed=archive.seed, options=archive.options
        )
    except ValueError as exc:
        raise ArchiveError(f"cannot set the game up: {exc}") from exc


def _described(players: Sequence[PlayerId], action: Action) -> str:
    try:
        return move_text(players, action)
    except (ValueError, AttributeError, IndexError):  # a forged action: say what it is
        return repr(action)


def transitions(archive: Archive) -> Iterator[Played]:
    """Replay an archive move by move; raises ArchiveError at the first move that does not fit."""
    state = _first(archive)
    for number, (player, action) in enumerate(archive.moves, start=1):
        try:
            transition = apply(state, player, action)
        except IllegalAction as exc:
            what = _described(state.players, action)
            raise ArchiveError(f"move {number} ({player}: {what}) is illegal: {exc}") from exc
        yield Played(state, player, action, transition)
        state = transition.state
    if _end_of(state) != archive.end:
        raise ArchiveError("the replay does not end where the archive says (wrong seed or moves)")


def replay(archive: Archive) -> tuple[GameState, ...]:
    """The first state and the state after every move; raises ArchiveError for a bad archive."""
    states = [_first(archive)]
    states += [played.transition.state for played in transitions(archive)]
    return tuple(states)


# ---------------------------------------------------------------- rounds as the group saw them


@dataclass(frozen=True, slots=True)
class RoundReplay:
    """One round as the group saw it: a view per position and the public events of each move.

    `views[0]` is the round as dealt, `views[k]` the group's view after move k; when the round
    ended, the view after its last move is the round end (see `round_end_view`), followed (Deluxe)
    by one view per thief's choice. `moves[k - 1]` holds the public
    events of move k (audience everyone) and nothing else.
    """

    round: int
    views: tuple[PublicView, ...]
    moves: tuple[tuple[Event, ...], ...]
    ended: RoundEnded | None


def round_end_view(before: PublicView, events: Sequence[Event]) -> PublicView:
    """The group's view at a round's end, from the view before its last move and that move's
    public events: the board, results and final gold as revealed; other fields stay as before
    (the engine deals the next round in the move that ends it, or in the last thief's choice)."""
    ended = next(e for e in events if isinstance(e, RoundEnded))
    over = next((e for e in events if isinstance(e, GameEnded)), None)
    return dataclasses.replace(
        before,
        version=before.version + 1,
        current=None,
        phase=Phase.OVER if over is not None else before.phase,
        board=ended.board,
        results=(*before.results, ended.result),
        final_gold=over.gold if over is not None else None,
        crystals=sum(1 for c in ended.board.cards if CARDS[c.card].crystal),
    )


def public_rounds(played: Iterable[Played]) -> tuple[RoundReplay, ...]:
    """Split replayed moves into rounds as the group saw them (public views and events only)."""
    out: list[RoundReplay] = []
    views: list[PublicView] = []
    moves: list[tuple[Event, ...]] = []
    for p in played:
        if p.before.phase is Phase.THEFT and out:
            # A thief's choice at the round's end belongs to the round just ended.
            last = out[-1]
            public = tuple(e for e in p.transition.events if e.audience is PUBLIC)
            over = next((e for e in public if isinstance(e, GameEnded)), None)
            view = dataclasses.replace(
                last.views[-1],
                version=last.views[-1].version + 1,
                phase=Phase.OVER if over is not None else last.views[-1].phase,
                final_gold=over.gold if over is not None else None,
            )
            out[-1] = dataclasses.replace(
                last, views=(*last.views, view), moves=(*last.moves, public)
            )
            continue
        if not views:
            views.append(public_view(p.before))
        public = tuple(e for e in p.transition.events if e.audience is PUBLIC)
        moves.append(public)
        ended = next((e for e in public if isinstance(e, RoundEnded)), None)
        if ended is None:
            views.append(public_view(p.transition.state))
            continue
        views.append(round_end_view(views[-1], public))
        out.append(RoundReplay(p.before.round, tuple(views), tuple(moves), ended))
        views, moves = [], []
    if views:
        out.append(RoundReplay(views[0].round, tuple(views), tuple(moves), None))
    return tuple(out)


# ---------------------------------------------------------------- the moves as text


def _at(text: str) -> Coord:
    x, y = text.split(",")
    return int(x), int(y)


def move_text(players: Sequence[PlayerId], action: Action) -> str:
    """An action in the archive's move notation (players named by seat)."""
    if isinstance(action, PlaceTunnel):
        x, y = action.at
        return f"T {action.card.name} {x},{y}" + (" r" if action.rotated else "")
    if isinstance(action, PlayOnPlayer):
        seat = players.index(action.target)
        tool = f" {action.tool.value}" if action.tool is not None else ""
        return f"A {action.card.name} {seat}{tool}"
    if isinstance(action, UseMap):
        return f"M {action.at[0]},{action.at[1]}"
    if isinstance(action, Rockfall):
        return f"R {action.at[0]},{action.at[1]}"
    if isinstance(action, Discard):
        return "D " + " ".join(c.name for c in action.cards)
    if isinstance(action, Steal):
        return f"S {players.index(action.victim)}"
    return f"C {action.discards[0].name} {action.discards[1].name} {action.removes.name}"


def seat_move_text(players: Sequence[PlayerId], player: PlayerId, action: Action) -> str:
    """One move as an archive's `moves` line: the player's seat, then the move."""
    return f"{players.index(player)} {move_text(players, action)}"


def parse_seat_move(players: Sequence[PlayerId], line: str) -> tuple[PlayerId, Action]:
    """Read a line written by seat_move_text; raises ArchiveError for anything else."""
    seat, _, move = str(line).partition(" ")
    if not seat.isdigit() or int(seat) >= len(players):
        raise ArchiveError(f"bad move {line!r}: no such seat")
    return players[int(seat)], parse_move(players, move)


def parse_move(players: Sequence[PlayerId], text: str) -> Action:
    """Read an action written by move_text; raises ArchiveError for anything else."""
    verb, *args = text.split(" ")
    try:
        if verb == "T" and len(args) in (2, 3) and args[2:] in ([], ["r"]):
            return PlaceTunnel(Card[args[0]], _at(args[1]), rotated=len(args) == 3)
        if verb == "A" and len(args) in (2, 3):
            tool = Tool(args[2]) if len(args) == 3 else None
            seat = int(args[1])
            if not 0 <= seat < len(players):
                raise ValueError(f"no seat {seat}")
            return PlayOnPlayer(Card[args[0]], players[seat], tool)
        if verb == "M" and len(args) == 1:
            return UseMap(_at(args[0]))
        if verb == "R" and len(args) == 1:
            return Rockfall(_at(args[0]))
        if verb == "D" and args:
            return Discard(tuple(Card[a] for a in args))
        if verb == "S" and len(args) == 1:
            seat = int(args[0])
            if not 0 <= seat < len(players):
                raise ValueError(f"no seat {seat}")
            return Steal(players[seat])
        if verb == "C" and len(args) == 3:
            return ClearInFront((Card[args[0]], Card[args[1]]), Card[args[2]])
    except (KeyError, ValueError) as exc:
        raise ArchiveError(f"bad move {text!r}: {exc}") from exc
    raise ArchiveError(f"bad move {text!r}")


# ---------------------------------------------------------------- JSON


def to_archive_json(archive: Archive) -> str:
    """Serialise an archive (compact, keys in a fixed order)."""
    players = archive.players
    doc: dict[str, Any] = {
        "schema": SCHEMA,
        "edition": archive.edition.value,
        "options": {
            "gold": archive.options.gold.value,
            "greedy_dwarf": archive.options.greedy_dwarf,
        },
        "players": list(players),
        "seed": archive.seed,
        "moves": [seat_move_text(players, p, a) for p, a in archive.moves],
        "end": {
            "over": archive.end.over,
            "rng": format(archive.end.rng, "x"),
            "gold": list(archive.end.gold),
        },
    }
    return json.dumps(doc, separators=(",", ":"), ensure_ascii=False)


def from_archive_json(text: str) -> Archive:
    """Read an archive written by to_archive_json (not yet replayed: `replay` checks the moves)."""
    try:
        doc = json.loads(text)
    except ValueError as exc:
        raise ArchiveError(f"not JSON: {exc}") from exc
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
        schema = doc.get("schema") if isinstance(doc, dict) else None
        raise ArchiveError(f"unknown archive schema {schema!r} (this engine reads {SCHEMA})")
    try:
        players = tuple(_int(p) for p in doc["players"])
        moves = [parse_seat_move(players, line) for line in doc["moves"]]
        end = doc["end"]
        return Archive(
            edition=Edition(doc["edition"]),
            options=Options(
                gold=GoldRule(doc["options"]["gold"]),
                greedy_dwarf=_bool(doc["options"]["greedy_dwarf"]),
            ),
            players=players,
            seed=_int(doc["seed"]),
            moves=tuple(moves),
            end=End(_bool(end["over"]), int(end["rng"], 16), tuple(_int(g) for g in end["gold"])),
        )
    except (KeyError, TypeError, IndexError, ValueError) as exc:
        if isinstance(exc, ArchiveError):
            raise
        raise ArchiveError(f"not an archive: {exc!r}") from exc


def _int(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{value!r} is not an integer")
    return value


def _bool(value: object) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{value!r} is not true or false")
    return value
