"""The rules of docs/rules.md: new_game, current_player, legal_actions, apply."""

from __future__ import annotations

from collections.abc import Sequence

from . import board as bd
from .actions import (
    Action,
    Discard,
    PlaceTunnel,
    PlayOnPlayer,
    Rockfall,
    Steal,
    UseMap,
)
from .cards import (
    BROKEN_CARD,
    GOAL_CARDS,
    GOAL_SPOTS,
    GOLD_CARDS,
    ROUNDS,
    START_AT,
    Card,
    Edition,
    deck_cards,
)
from .events import (
    GameEnded,
    GoalPeeked,
    GoalRevealed,
    GoldReceived,
    GoldStolen,
    HandDealt,
    InFrontCleared,
    MapUsed,
    PlayerPassed,
    RockfallPlayed,
    RoleDealt,
    RoleSeen,
    RoundEnded,
    RoundStarted,
)
from .legal import (
    _C_THEFT,
    _C_TRAPPED,
    _K_BREAK,
    _K_FREE,
    _K_HANDS_OFF,
    _K_INSPECTION,
    _K_REPAIR,
    _K_SWAP_HAND,
    _K_SWAP_HATS,
    _K_THEFT,
    _K_TRAPPED,
    _KIND,
    _is_offered,
    can_dig,
    current_player,
    legal_actions,
)
from .model import (
    BASE_COUNTS,
    DELUXE_HAND_SIZE,
    DELUXE_REMOVED,
    DELUXE_ROLES,
    Coord,
    GameState,
    Goal,
    Options,
    Phase,
    PlayerId,
    Role,
    RoundResult,
    player_range,
)
from .payout import _pay_base, _pay_deluxe, deluxe_winners, doors_allow, take_exact
from .refusals import _acting_seat, _checked
from .rng import below, seed_state, shuffled
from .table import (
    Transition,
    _action_played,
    _cards_discarded,
    _listed,
    _seat_row,
    _Table,
    _tunnel_placed,
)
from .views import board_view

# The public names of the rules, some defined in the modules this one is built from.
__all__ = [
    "Transition",
    "apply",
    "can_dig",
    "current_player",
    "deluxe_winners",
    "doors_allow",
    "legal_actions",
    "new_game",
    "take_exact",
]


# ---------------------------------------------------------------- setting up


def new_game(
    players: Sequence[PlayerId],
    *,
    edition: Edition = Edition.BASE,
    seed: int,
    options: Options = Options(),
) -> GameState:
    """A new game for these players in seat order; the first round is dealt."""
    ids = tuple(players)
    if len(set(ids)) != len(ids):
        raise ValueError("players must be distinct")
    if len(ids) not in player_range(edition):
        r = player_range(edition)
        raise ValueError(f"{edition.value} needs {r.start} to {r.stop - 1} players, not {len(ids)}")
    n = len(ids)
    rng = seed_state(seed)
    gold_deck: list[int] = []
    if edition is Edition.BASE:
        rng, gold_deck = shuffled(rng, GOLD_CARDS)
    rng, starter = below(rng, n)
    empty: GameState = GameState(
        edition=edition,
        options=options,
        players=ids,
        seed=seed,
        rng=rng,
        version=0,
        round=0,
        phase=Phase.PLAYING,
        turn=starter,
        roles=(),
        spare_roles=(),
        hands=((),) * n,
        deck=(),
        removed=(),
        discards=(),
        maze={},
        goals=(),
        in_front=((),) * n,
        peeked=((),) * n,
        inspected=((),) * n,
        gold=(0,) * n,
        gold_deck=tuple(gold_deck),
        last_seat=(starter - 1) % n,
        last_at=None,
        results=(),
        thefts=(),
    )
    t = _Table(empty)
    _deal_round(t, 1, starter)
    return t.freeze()


def _deal_round(t: _Table, round_no: int, starter: int) -> None:
    n = len(t.players)
    if t.edition is Edition.BASE:
        counts = BASE_COUNTS[n]
        pool = [Role.SABOTEUR] * counts.saboteurs + [Role.MINER] * counts.miners
        hand_size = counts.hand_size
    else:
        pool = list(DELUXE_ROLES)
        hand_size = DELUXE_HAND_SIZE
    t.rng, roles = shuffled(t.rng, pool)
    t.roles, t.spare_roles = roles[:n], roles[n:]
    t.rng, deck = shuffled(t.rng, deck_cards(t.edition))
    if t.edition is Edition.DELUXE:
        t.removed, deck = tuple(deck[:DELUXE_REMOVED]), deck[DELUXE_REMOVED:]
    else:
        t.removed = ()
    t.hands = [[] for _ in range(n)]
    for i in range(n):
        seat = (starter + i) % n
        t.hands[seat] = deck[-hand_size:]
        del deck[-hand_size:]
    t.deck = tuple(deck)
    t.rng, goal_cards = shuffled(t.rng, GOAL_CARDS)
    t.goals = [Goal(at, card) for at, card in zip(GOAL_SPOTS, goal_cards, strict=True)]
    t.maze = {START_AT: bd.START_CODE}
    t.net = bd.build_net(t.maze, t.hidden_goals())
    t.discards = ()
    t.in_front = [[] for _ in range(n)]
    t.peeked = [[] for _ in range(n)]
    t.inspected = [[] for _ in range(n)]
    t.thefts = []
    t.last_at = None
    t.last_target = None
    t.round = round_no
    t.turn = starter
    t.events.append(RoundStarted(round_no, t.players[starter]))
    for seat, pid in enumerate(t.players):
        t.events.append(RoleDealt(pid, t.roles[seat], audience=pid))
        t.events.append(HandDealt(pid, tuple(sorted(t.hands[seat])), audience=pid))


# ---------------------------------------------------------------- applying


def apply(state: GameState, player: PlayerId, action: Action) -> Transition:
    """Play an action; raises IllegalAction and leaves `state` as it was if it is not legal."""
    seat = _acting_seat(state, player)
    if not _is_offered(state, seat, action):  # the very value offered needs no checks
        action = _checked(state, seat, action)
    if isinstance(action, Steal):
        return _steal(state, seat, action)
    t = _Table(state)
    t.version += 1
    # The last move's mark: set below by what the move acts on (none after a discard).
    t.last_at = None
    t.last_target = None
    t.last_seat = seat
    pid = state.players[seat]
    draws = 1
    if isinstance(action, PlaceTunnel):
        _place(t, seat, action)
    elif isinstance(action, PlayOnPlayer):
        draws = _play_on_player(t, seat, action)
        t.last_target = action.target
    elif isinstance(action, UseMap):
        t.take_from_hand(seat, Card.MAP)
        t.discards += (Card.MAP,)
        _seat_row(t, "peeked", seat).append(action.at)
        t.last_at = action.at
        t.events.append(MapUsed(pid, action.at))
        card = next(g.card for g in t.goals if g.at == action.at)
        t.events.append(GoalPeeked(pid, action.at, card, audience=pid))
    elif isinstance(action, Rockfall):
        t.take_from_hand(seat, Card.ROCKFALL)
        t.own_maze()
        lying = t.maze.pop(action.at)
        removed = bd.card_of(lying)
        t.discards += (Card.ROCKFALL, removed)
        t.net = bd.build_net(t.maze, t.hidden_goals())
        t.last_at = action.at
        t.events.append(RockfallPlayed(pid, action.at, removed, bd.is_rotated(lying)))
    elif isinstance(action, Discard):
        for c in action.cards:
            t.take_from_hand(seat, c)
        t.discards += action.cards
        t.events.append(_cards_discarded(pid, len(action.cards), None))
        draws = len(action.cards)
    else:
        for c in action.discards:
            t.take_from_hand(seat, c)
        t.discards += action.discards
        _seat_row(t, "in_front", seat).remove(action.removes)
        t.discards += (action.removes,)
        if action.removes is Card.THEFT:
            _listed(t, "thefts").remove(seat)
        t.events.append(_cards_discarded(pid, 2, None))
        t.events.append(InFrontCleared(pid, action.removes))
    if not t.round_over:
        t.draw(seat, draws)
        _advance(t, seat)
    if t.round_over:
        _end_round(t)
    return t.transition()


def _place(t: _Table, seat: int, action: PlaceTunnel) -> None:
    pid = t.players[seat]
    t.take_from_hand(seat, action.card)
    t.own_maze()
    at = action.at
    t.maze[at] = bd.code(action.card, action.rotated)
    t.last_at = at
    t.events.append(_tunnel_placed(pid, action.card, at, action.rotated, None))
    touched = bd.join(t.maze, t.hidden_goals(), t.net, at)
    while touched:
        revealed: list[Coord] = []
        for g_at in sorted(touched):
            i = next(i for i, g in enumerate(t.goals) if g.at == g_at)
            g = t.goals[i]
            rotated = bd.goal_orientation(t.maze, g.card, g_at, at, t.net.reached)
            _listed(t, "goals")[i] = Goal(g_at, g.card, revealed=True, rotated=rotated)
            t.maze[g_at] = bd.code(g.card, rotated)
            t.events.append(GoalRevealed(g_at, g.card, rotated))
            revealed.append(g_at)
            if g.card is Card.GOLD:
                t.finder = seat
                t.round_over = True
        touched = set()
        for g_at in revealed:
            touched |= bd.join(t.maze, t.hidden_goals(), t.net, g_at)


def _play_on_player(t: _Table, seat: int, action: PlayOnPlayer) -> int:
    """Carry out a card played at a player; return how many cards the player then draws."""
    pid = t.players[seat]
    card = action.card
    target = t.players.index(action.target)
    kind = _KIND[card]
    t.take_from_hand(seat, card)
    t.events.append(_action_played(pid, card, action.target, action.tool, None))
    if kind is _K_BREAK or kind is _K_TRAPPED or kind is _K_THEFT:
        _seat_row(t, "in_front", target).append(card)
        if kind is _K_THEFT:
            _listed(t, "thefts").append(target)
        return 1
    t.discards += (card,)
    if kind is _K_REPAIR:
        assert action.tool is not None
        broken = BROKEN_CARD[action.tool]
        _seat_row(t, "in_front", target).remove(broken)
        t.discards += (broken,)
    elif kind is _K_HANDS_OFF or kind is _K_FREE:
        removed = _C_THEFT if kind is _K_HANDS_OFF else _C_TRAPPED
        _seat_row(t, "in_front", target).remove(removed)
        t.discards += (removed,)
        if removed is _C_THEFT:
            _listed(t, "thefts").remove(target)
    elif kind is _K_SWAP_HAND:
        t.hands[seat], t.hands[target] = t.hands[target], t.hands[seat]
        t.draw(target, 1)
        for s in (seat, target):
            p = t.players[s]
            t.events.append(HandDealt(p, tuple(sorted(t.hands[s])), audience=p))
        return 0
    elif kind is _K_INSPECTION:
        _seat_row(t, "inspected", seat).append((target, t.roles[target]))
        t.events.append(RoleSeen(pid, action.target, t.roles[target], audience=pid))
    elif kind is _K_SWAP_HATS:
        t.rng, i = below(t.rng, len(t.spare_roles))
        _listed(t, "roles")[target] = _listed(t, "spare_roles").pop(i)
        t.events.append(RoleDealt(action.target, t.roles[target], audience=action.target))
    return 1


def _advance(t: _Table, seat: int) -> None:
    """Pass the turn to the next player holding cards; end the round when nobody does."""
    n = len(t.players)
    skipped: list[int] = []
    for step in range(1, n + 1):
        nxt = (seat + step) % n
        if t.hands[nxt]:
            t.turn = nxt
            if skipped:
                t.events += [PlayerPassed(t.players[p]) for p in skipped]
            return
        skipped.append(nxt)
    t.round_over = True


# ---------------------------------------------------------------- round end and payout


def _end_round(t: _Table) -> None:
    if t.edition is Edition.BASE:
        winners, paid = _pay_base(t)
    else:
        winners, paid = _pay_deluxe(t)
    result = RoundResult(
        round=t.round,
        winners=winners,
        finder=None if t.finder is None else t.players[t.finder],
        roles=tuple(zip(t.players, t.roles, strict=True)),
        paid=tuple(t.players[s] for s in sorted(paid)),
    )
    t.results = (*t.results, result)
    t.events.append(RoundEnded(result, board_view(t.maze, t.goals, t.last_at)))
    for s in sorted(paid):
        p = t.players[s]
        t.events.append(GoldReceived(p, sum(paid[s]), tuple(paid[s]), audience=p))
    # rule deluxe.payout.theft: untrapped thieves choose, the last theft played first.
    t.stealing = [s for s in reversed(t.thefts) if Card.TRAPPED not in t.in_front[s]]
    _next_thief(t)


def _next_thief(t: _Table) -> None:
    """Wait for the next thief who has someone to steal from; when none is left, move on."""
    n = len(t.players)
    while t.stealing:
        thief = t.stealing[0]
        if any(t.gold[s] > 0 for s in range(n) if s != thief):
            t.phase = Phase.THEFT
            t.turn = thief
            return
        _listed(t, "stealing").pop(0)  # nobody else has gold: this theft takes nothing
    t.phase = Phase.PLAYING
    _close_round(t)


def _steal(state: GameState, seat: int, action: Steal) -> Transition:
    """A thief's choice at a round's end (legal already): one nugget moves, the group learns
    who stole from whom (rules deluxe.payout.theft and privacy.theft)."""
    t = _Table(state)
    t.version += 1
    victim = state.players.index(action.victim)
    gold = _listed(t, "gold")
    gold[victim] -= 1
    gold[seat] += 1
    t.events.append(GoldStolen(t.players[seat], action.victim))
    _listed(t, "stealing").pop(0)
    _next_thief(t)
    return t.transition()


def _close_round(t: _Table) -> None:
    """After the payout and the thefts: the game's end, or the next round dealt."""
    n = len(t.players)
    if t.round >= ROUNDS:
        t.phase = Phase.OVER
        t.turn = -1
        best = max(t.gold)
        t.events.append(
            GameEnded(
                gold=tuple(zip(t.players, t.gold, strict=True)),
                winners=tuple(p for p, g in zip(t.players, t.gold, strict=True) if g == best),
            )
        )
        return
    t.round_over = False
    t.finder = None
    _deal_round(t, t.round + 1, (t.last_seat + 1) % n)
