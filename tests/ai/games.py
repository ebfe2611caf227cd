"""Whole seeded games between computer players, checking every choice is legal."""

from __future__ import annotations

from ai import Bot, Budget, Level, visible
from engine import Action, Edition, apply, current_player, legal_actions, new_game, player_view

SMALL = Budget(worlds=2, width=3, depth=2)


def bot_game(
    players: int, edition: Edition, seed: int, level: Level, budget: Budget = SMALL
) -> list[Action]:
    """Play a whole game with one bot per seat; return the actions taken in order."""
    ids = [100 + i for i in range(players)]
    state = new_game(ids, edition=edition, seed=seed)
    bots = {p: Bot(p, seed=seed * 31 + i, level=level, budget=budget) for i, p in enumerate(ids)}
    taken: list[Action] = []
    while (player := current_player(state)) is not None:
        legal = legal_actions(state, player)
        action = bots[player].choose(player_view(state, player), legal)
        assert action in legal, f"{level.value} chose an illegal {action}"
        transition = apply(state, player, action)
        for p, bot in bots.items():
            bot.observe(visible(transition.events, p))
        taken.append(action)
        state = transition.state
    return taken
