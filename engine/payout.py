"""The round's payout: gold for the base game's winners and the Deluxe table."""

from __future__ import annotations

from collections import Counter

from . import board as bd
from .cards import (
    CARDS,
    EDGES,
    OPPOSITE,
    Card,
    Door,
)
from .legal import _TOOL_CARDS
from .model import (
    DELUXE_PAY,
    DELUXE_PAY_LESS,
    DELUXE_PAY_MANY,
    MAX_MINER_GOLD_CARDS,
    SABOTEUR_SHARE,
    Coord,
    GoldRule,
    Role,
    Side,
)
from .table import _listed, _Table


def _pay_base(t: _Table) -> tuple[tuple[Side, ...], dict[int, list[int]]]:
    """Gold for the miners or the saboteurs (rules base.payout.miners and base.payout.saboteurs)."""
    n = len(t.players)
    paid: dict[int, list[int]] = {}
    if t.finder is not None:
        finder = t.finder
        miners = [s for s in range(n) if t.roles[s] is Role.MINER]
        if t.options.greedy_dwarf:
            miners = [s for s in miners if not any(c in _TOOL_CARDS for c in t.in_front[s])]
        # Counter-clockwise from the finder: the finder first, then the previous seats.
        order = sorted(miners, key=lambda s: (finder - s) % n)
        count = min(n, MAX_MINER_GOLD_CARDS) if t.options.gold is GoldRule.OFFICIAL else len(order)
        if order:
            gold_deck = _listed(t, "gold_deck")
            drawn = [gold_deck.pop() for _ in range(min(count, len(gold_deck)))]
            for i, value in enumerate(sorted(drawn, reverse=True)):
                paid.setdefault(order[i % len(order)], []).append(value)
        winners: tuple[Side, ...] = (Side.MINERS,)
    else:
        saboteurs = [s for s in range(n) if t.roles[s] is Role.SABOTEUR]
        if saboteurs:
            share = SABOTEUR_SHARE[len(saboteurs)]
            for s in saboteurs:
                cards = take_exact(_listed(t, "gold_deck"), share)
                if cards:
                    paid[s] = cards
        winners = (Side.SABOTEURS,)
    for s, cards in paid.items():
        _listed(t, "gold")[s] += sum(cards)
    return winners, paid


def take_exact(gold_deck: list[int], amount: int) -> list[int]:
    """Remove from the gold deck the fewest cards worth `amount`, or the most below it."""
    have = Counter(gold_deck)
    for target in range(amount, 0, -1):
        best: tuple[int, int, int] | None = None
        for n3 in range(min(have[3], target // 3), -1, -1):
            for n2 in range(min(have[2], (target - 3 * n3) // 2), -1, -1):
                n1 = target - 3 * n3 - 2 * n2
                if n1 <= have[1] and (best is None or n3 + n2 + n1 < sum(best)):
                    best = (n3, n2, n1)
        if best is not None:
            cards = [3] * best[0] + [2] * best[1] + [1] * best[2]
            for c in cards:
                gold_deck.remove(c)
            return cards
    return []


def doors_allow(maze: dict[Coord, int], goal: Coord, banned: Door | None) -> bool:
    """Whether a joined route leads from the start or a ladder to `goal` with no `banned` door."""
    roots = [at for at, c in maze.items() if c == bd.START_CODE or c in bd.LADDER_CODES]
    reached: dict[Coord, int] = {}
    queue: list[tuple[Coord, int]] = []
    for at in roots:
        if banned is not None and CARDS[bd.card_of(maze[at])].door is banned:
            continue
        for tun in bd.TUNNELS[maze[at]]:
            reached[at] = reached.get(at, 0) | tun
            queue.append((at, tun))
    while queue:
        at, tun = queue.pop()
        if at == goal:
            return True
        for e in EDGES:
            if not tun & e:
                continue
            n = bd.neighbour(at, e)
            c = maze.get(n)
            if c is None or (banned is not None and CARDS[bd.card_of(c)].door is banned):
                continue
            nt = bd.TUNNEL_AT[c][OPPOSITE[e]]
            if nt and not reached.get(n, 0) & nt:
                reached[n] = reached.get(n, 0) | nt
                queue.append((n, nt))
    return False


def deluxe_winners(
    maze: dict[Coord, int], gold_at: Coord | None, finder_role: Role | None
) -> tuple[Side, ...]:
    """Which side wins, from the routes to the gold and who reached it (rule deluxe.win.routes)."""
    if gold_at is None:
        return (Side.SABOTEURS,)
    no_green = doors_allow(maze, gold_at, Door.GREEN)
    no_blue = doors_allow(maze, gold_at, Door.BLUE)
    if finder_role is Role.GREEN_MINER:
        blue = not no_blue and no_green
    else:
        blue = no_green
    if finder_role is Role.BLUE_MINER:
        green = not no_green and no_blue
    else:
        green = no_blue
    if blue and green:
        return (Side.BOTH_TEAMS,)
    if blue:
        return (Side.BLUE,)
    if green:
        return (Side.GREEN,)
    return (Side.BOSS,)


def _pay_deluxe(t: _Table) -> tuple[tuple[Side, ...], dict[int, list[int]]]:
    """The Deluxe payout (rules deluxe.payout.table and deluxe.payout.geologists)."""
    n = len(t.players)
    gold_at = next((g.at for g in t.goals if g.card is Card.GOLD and g.revealed), None)
    if t.finder is None:
        gold_at = None
    finder_role = None if t.finder is None else t.roles[t.finder]
    sides = deluxe_winners(t.maze, gold_at, finder_role)
    side = sides[0]
    winning_roles: set[Role] = {Role.PROFITEER}
    if side is Side.SABOTEURS:
        winning_roles.add(Role.SABOTEUR)
    else:
        winning_roles.add(Role.BOSS)
        if side in (Side.BLUE, Side.BOTH_TEAMS):
            winning_roles.add(Role.BLUE_MINER)
        if side in (Side.GREEN, Side.BOTH_TEAMS):
            winning_roles.add(Role.GREEN_MINER)
    trapped = {s for s in range(n) if Card.TRAPPED in t.in_front[s]}
    winners = [s for s in range(n) if t.roles[s] in winning_roles and s not in trapped]
    paid: dict[int, list[int]] = {}
    if winners:
        each = DELUXE_PAY.get(len(winners), DELUXE_PAY_MANY)
        for s in winners:
            amount = each - DELUXE_PAY_LESS.get(t.roles[s], 0)
            if amount > 0:
                paid[s] = [amount]
    geologists = [s for s in range(n) if t.roles[s] is Role.GEOLOGIST]
    if geologists:
        crystals = sum(1 for c in t.maze.values() if CARDS[bd.card_of(c)].crystal)
        share = crystals // len(geologists)
        for s in geologists:
            if s not in trapped and share > 0:
                paid[s] = [share]
    for s, cards in paid.items():
        _listed(t, "gold")[s] += sum(cards)
    return sides, paid
