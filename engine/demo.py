"""Play one seeded game of random players and print what the group would follow.

`python -m engine.demo [--players N] [--seed S] [--deluxe]`: the main job until the bot exists.
"""

from __future__ import annotations

import argparse
import random

from .cards import Edition
from .events import GameEnded, RoundEnded
from .notation import board_text
from .rules import apply, current_player, legal_actions, new_game
from .transcript import describe_action, describe_event


def main(argv: list[str] | None = None) -> None:
    """Run the demo game."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--deluxe", action="store_true")
    args = parser.parse_args(argv)
    edition = Edition.DELUXE if args.deluxe else Edition.BASE
    state = new_game(list(range(1, args.players + 1)), edition=edition, seed=args.seed)
    rng = random.Random(args.seed)
    while (player := current_player(state)) is not None:
        actions = legal_actions(state, player)
        action = actions[rng.randrange(len(actions))]
        transition = apply(state, player, action)
        print(f"player {player}: {describe_action(action)}")
        for event in transition.events:
            if event.audience is None:
                print(describe_event(event))
            if isinstance(event, RoundEnded):
                print(board_text(event.board))
            if isinstance(event, GameEnded):
                print(f"winners: {event.winners}")
        state = transition.state


if __name__ == "__main__":
    main()
