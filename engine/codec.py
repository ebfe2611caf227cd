"""The game state as versioned JSON (schema in docs/state-json.md); no pickle anywhere.

Cards, roles and enums are written by name, coordinates as [x, y], the generator state as a hex
string, so that a stored game reads well and survives a change of card order in the code.
"""

from __future__ import annotations

import json
from typing import Any

from . import board as bd
from .cards import Card, Edition
from .model import GameState, Goal, GoldRule, Options, Phase, Role, RoundResult, Side

SCHEMA = 1

# Names and values read from tables: an enum's `name` and `value`, `Card[name]` and `Role(value)`
# each run Python code in the enum module, and a state holds a hundred cards.
_NAME: tuple[str, ...] = tuple(c.name for c in Card)  # by card number
_CARD: dict[str, Card] = {c.name: c for c in Card}
_ROLE: dict[str, Role] = {r.value: r for r in Role}
# An orientation code's card name and rotation (written), and a card name's two codes (read).
_CELL: tuple[tuple[str, int], ...] = tuple(
    (bd.card_of(c).name, int(bd.is_rotated(c))) for c in range(2 * len(Card))
)
_CODES: dict[str, tuple[int, int]] = {c.name: (bd.code(c, False), bd.code(c, True)) for c in Card}


def _cards(cards: tuple[Card, ...]) -> list[str]:
    return [_NAME[c] for c in cards]


def to_json(state: GameState) -> str:
    """Serialise a state (compact, keys in a fixed order)."""
    return json.dumps(state_to_doc(state), separators=(",", ":"), ensure_ascii=False)


def state_to_doc(state: GameState) -> dict[str, Any]:
    """The state as the JSON document `to_json` writes, not yet encoded (to nest it in another
    document encoded once)."""
    doc: dict[str, Any] = {
        "schema": SCHEMA,
        "edition": state.edition.value,
        "options": {"gold": state.options.gold.value, "greedy_dwarf": state.options.greedy_dwarf},
        "players": list(state.players),
        "seed": state.seed,
        "rng": format(state.rng, "x"),
        "version": state.version,
        "round": state.round,
        "phase": state.phase.value,
        "turn": state.turn,
        "roles": [r._value_ for r in state.roles],
        "spare_roles": [r._value_ for r in state.spare_roles],
        "hands": [_cards(h) for h in state.hands],
        "deck": _cards(state.deck),
        "removed": _cards(state.removed),
        "discards": _cards(state.discards),
        "maze": [[x, y, *_CELL[c]] for (x, y), c in sorted(state.maze.items())],
        "goals": [
            [g.at[0], g.at[1], _NAME[g.card], int(g.revealed), int(g.rotated)] for g in state.goals
        ],
        "in_front": [_cards(f) for f in state.in_front],
        "peeked": [[list(at) for at in p] for p in state.peeked],
        "inspected": [[[s, r._value_] for s, r in i] for i in state.inspected],
        "gold": list(state.gold),
        "gold_deck": list(state.gold_deck),
        "last_seat": state.last_seat,
        "last_at": list(state.last_at) if state.last_at is not None else None,
        "last_target": state.last_target,
        "thefts": list(state.thefts),
        "stealing": list(state.stealing),
        "results": [
            {
                "round": r.round,
                "winners": [w.value for w in r.winners],
                "finder": r.finder,
                "roles": [[p, role._value_] for p, role in r.roles],
                "paid": list(r.paid),
            }
            for r in state.results
        ],
    }
    return doc


def from_json(text: str) -> GameState:
    """Read a state written by to_json; raises ValueError on anything else."""
    try:
        doc = json.loads(text)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"not a saved game: {exc!r}") from exc
    return state_from_doc(doc)


def state_from_doc(doc: Any) -> GameState:
    """Read a state from the decoded document `state_to_doc` gives; ValueError on anything else."""
    try:
        if doc.get("schema") != SCHEMA:
            raise ValueError(f"unknown state schema {doc.get('schema')!r}")
        return _read(doc)
    except (KeyError, TypeError, IndexError, AttributeError) as exc:
        raise ValueError(f"not a saved game: {exc!r}") from exc


def _read(doc: dict[str, Any]) -> GameState:
    card = _CARD.__getitem__  # KeyError for a name that is no card, as Card[name]
    role = _ROLE.__getitem__

    def cards(names: list[str]) -> tuple[Card, ...]:
        return tuple(map(card, names))

    maze = {(int(x), int(y)): _CODES[name][bool(rot)] for x, y, name, rot in doc["maze"]}
    goals = tuple(
        Goal((int(x), int(y)), card(name), bool(rev), bool(rot))
        for x, y, name, rev, rot in doc["goals"]
    )
    hidden = [g.at for g in goals if not g.revealed]
    last_at = doc["last_at"]
    return GameState(
        edition=Edition(doc["edition"]),
        options=Options(
            gold=GoldRule(doc["options"]["gold"]), greedy_dwarf=bool(doc["options"]["greedy_dwarf"])
        ),
        players=tuple(int(p) for p in doc["players"]),
        seed=int(doc["seed"]),
        rng=int(doc["rng"], 16),
        version=int(doc["version"]),
        round=int(doc["round"]),
        phase=Phase(doc["phase"]),
        turn=int(doc["turn"]),
        roles=tuple(map(role, doc["roles"])),
        spare_roles=tuple(map(role, doc["spare_roles"])),
        hands=tuple(cards(h) for h in doc["hands"]),
        deck=cards(doc["deck"]),
        removed=cards(doc["removed"]),
        discards=cards(doc["discards"]),
        maze=maze,
        goals=goals,
        in_front=tuple(cards(f) for f in doc["in_front"]),
        peeked=tuple(tuple((int(a[0]), int(a[1])) for a in p) for p in doc["peeked"]),
        inspected=tuple(tuple((int(s), role(r)) for s, r in i) for i in doc["inspected"]),
        gold=tuple(int(g) for g in doc["gold"]),
        gold_deck=tuple(int(g) for g in doc["gold_deck"]),
        last_seat=int(doc["last_seat"]),
        last_at=None if last_at is None else (int(last_at[0]), int(last_at[1])),
        # absent from states saved before it existed
        last_target=None if doc.get("last_target") is None else int(doc["last_target"]),
        results=tuple(
            RoundResult(
                round=int(r["round"]),
                winners=tuple(Side(w) for w in r["winners"]),
                finder=None if r["finder"] is None else int(r["finder"]),
                roles=tuple((int(p), role(name)) for p, name in r["roles"]),
                paid=tuple(int(p) for p in r["paid"]),
            )
            for r in doc["results"]
        ),
        thefts=tuple(int(s) for s in doc["thefts"]),
        # absent from states saved before thieves chose (none of them waits for one)
        stealing=tuple(int(s) for s in doc.get("stealing", ())),
        net=bd.build_net(maze, hidden),
    )
