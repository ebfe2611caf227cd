"""The bot's guides: /help, built from the command list, and /rules, both editions in short."""

from __future__ import annotations

from . import commands
from .i18n import Language, texts


def help_text(lang: Language) -> str:
    """/help: the commands of groups and of private chats, and how a move is made in private."""
    tr = texts(lang)
    return "\n".join(
        [
            tr.gettext(
                "<b>Saboteur bot</b>\n"
                "Play Saboteur with your group, one move at a time, whenever you have a minute."
            ),
            "",
            tr.gettext("<b>In the group</b>"),
            *commands.help_lines(commands.Scope.GROUP, tr),
            tr.gettext(
                "In the lobby, the game's creator can add computer players (🤖), so one or two "
                "people can play too. When time runs out, or after /kick, the computer plays for "
                "the absent player until they tap any of their buttons."
            ),
            "",
            tr.gettext("<b>In private</b>"),
            tr.gettext(
                "Your cards are in our private chat. Tap a card, pick a numbered spot or a "
                "player, then confirm. To discard, tap Discard, pick the card(s) and confirm."
            ),
            *commands.help_lines(commands.Scope.PRIVATE, tr),
        ]
    )


def rules_texts(lang: Language) -> tuple[str, str]:
    """/rules: both editions in short, one message each."""
    tr = texts(lang)
    base = tr.gettext(
        "<b>Saboteur (3 to 10 players)</b>\n"
        "The dwarves dig from the start card towards three face-down goal cards; only one of "
        "them hides the gold. Some of the dwarves are secretly saboteurs.\n"
        "\n"
        "<b>On your turn</b> do one thing, then draw a card:\n"
        "• place a tunnel card: it must join a tunnel connected to the start and match every "
        "card next to it;\n"
        "• play an action card: break or repair a tool (a player with a broken tool cannot dig), "
        "look at a goal card with a map, or remove a tunnel card with a rockfall;\n"
        "• discard one card face down.\n"
        "\n"
        "<b>End of a round</b>: when a tunnel reaches the gold, the miners win; when all the "
        "cards are played first, the saboteurs win. Roles are revealed and gold is handed out: "
        "the miners share as many gold cards as there are players (9 at most), starting with "
        "whoever reached the gold; each saboteur gets 4, 3 or 2 nuggets when there are 1, 2 or 3, "
        "or 4 saboteurs.\n"
        "\n"
        "After three rounds, the most gold wins. Everyone's gold stays secret until the end."
    )
    deluxe = tr.gettext(
        "<b>Saboteur Deluxe (2 to 12 players)</b>\n"
        "The base game with the Saboteur 2 cards. Roles: blue and green miners (two rival "
        "teams), the boss (wins with either team), the profiteer (always wins), geologists (paid "
        "for crystals) and saboteurs.\n"
        "\n"
        "<b>On your turn</b>: place a tunnel or play an action card, then draw 1; or discard 2 "
        "cards to remove a card in front of you, then draw 1; or pass by discarding 1 to 3 cards "
        "and draw as many.\n"
        "\n"
        "<b>New cards</b>: doors (everyone digs through them, but a team wins only by a route "
        "without a door of the other colour), ladders (count as the start), bridges, crystals; "
        "theft, hands off, swap your hand, inspection, swap your hats, trapped! and free at last!\n"
        "\n"
        "<b>Payout</b>: each winner gets 5, 4, 3, 2 or 1 gold when there are 1, 2, 3, 4, or 5 or "
        "more winners; the boss gets 1 less, the profiteer 2 less. Geologists share the crystals "
        "in the maze. Thefts come last: each thief takes 1 gold from another player of their "
        "choice who has gold."
    )
    return base, deluxe
