"""English messages (the fallback catalog): key to `str.format` template."""

MESSAGES: dict[str, str] = {
    # ------------------------------------------------------------------ names
    "edition.base": "Saboteur",
    "edition.deluxe": "Saboteur Deluxe",
    "variant.per_miner": "one gold card per miner",
    "variant.greedy_dwarf": "greedy dwarf (miners with a broken tool get no gold)",
    "variant.none": "none",
    "role.miner": "Miner",
    "role.saboteur": "Saboteur",
    "role.blue_miner": "Blue miner",
    "role.green_miner": "Green miner",
    "role.boss": "Boss",
    "role.profiteer": "Profiteer",
    "role.geologist": "Geologist",
    "side.miners": "the miners",
    "side.saboteurs": "the saboteurs",
    "side.blue": "the blue team",
    "side.green": "the green team",
    "side.both_teams": "both teams",
    "side.boss": "the boss",
    "tool.pickaxe": "pickaxe",
    "tool.lantern": "lantern",
    "tool.cart": "cart",
    "goal.0": "top",
    "goal.1": "middle",
    "goal.2": "bottom",
    "lang.ko": "한국어",
    "lang.en": "English",
    # ------------------------------------------------------------------ cards
    "card.START": "Start",
    "card.GOLD": "Gold",
    "card.COAL_NE": "Coal",
    "card.COAL_NW": "Coal",
    "card.CROSS": "Tunnel ┼",
    "card.T_NES": "Tunnel ├",
    "card.T_NEW": "Tunnel ┴",
    "card.STRAIGHT_NS": "Tunnel │",
    "card.STRAIGHT_EW": "Tunnel ─",
    "card.CURVE_NW": "Tunnel ┘",
    "card.CURVE_NE": "Tunnel └",
    "card.DEAD_NESW": "Dead end ┼",
    "card.DEAD_NES": "Dead end ├",
    "card.DEAD_NEW": "Dead end ┴",
    "card.DEAD_NS": "Dead end │",
    "card.DEAD_EW": "Dead end ─",
    "card.DEAD_NW": "Dead end ┘",
    "card.DEAD_NE": "Dead end └",
    "card.DEAD_N": "Dead end ╵",
    "card.DEAD_E": "Dead end ╶",
    "card.BREAK_PICKAXE": "Broken pickaxe",
    "card.BREAK_LANTERN": "Broken lantern",
    "card.BREAK_CART": "Broken cart",
    "card.REPAIR_PICKAXE": "Repair pickaxe",
    "card.REPAIR_LANTERN": "Repair lantern",
    "card.REPAIR_CART": "Repair cart",
    "card.REPAIR_PICKAXE_LANTERN": "Repair pickaxe or lantern",
    "card.REPAIR_PICKAXE_CART": "Repair pickaxe or cart",
    "card.REPAIR_LANTERN_CART": "Repair lantern or cart",
    "card.MAP": "Map",
    "card.ROCKFALL": "Rockfall",
    "card.BRIDGE": "Bridge ┼",
    "card.DOUBLE_CURVE": "Double curve ┘┌",
    "card.LADDER_N": "Ladder ╵",
    "card.LADDER_E": "Ladder ╶",
    "card.LADDER_NE": "Ladder └",
    "card.LADDER_NW": "Ladder ┘",
    "card.BLUE_DOOR_NS": "Blue door │",
    "card.BLUE_DOOR_EW": "Blue door ─",
    "card.BLUE_DOOR_NW": "Blue door ┘",
    "card.GREEN_DOOR_NS": "Green door │",
    "card.GREEN_DOOR_NE": "Green door └",
    "card.GREEN_DOOR_NS_E": "Green door │ +╶",
    "card.CRYSTAL_N": "Crystal ╵",
    "card.CRYSTAL_E": "Crystal ╶",
    "card.CRYSTAL_NESW": "Crystal ┼",
    "card.CRYSTAL_NES": "Crystal ├",
    "card.CRYSTAL_ESW": "Crystal ┬",
    "card.CRYSTAL_ESW_N": "Crystal ┬ +╵",
    "card.CRYSTAL_NES_W": "Crystal ├ +╴",
    "card.CRYSTAL_NS_E": "Crystal │ +╶",
    "card.CRYSTAL_NE": "Crystal └",
    "card.CRYSTAL_NS": "Crystal │",
    "card.CRYSTAL_EW": "Crystal ─",
    "card.CRYSTAL_NEW": "Crystal ┴",
    "card.THEFT": "Theft",
    "card.HANDS_OFF": "Hands off",
    "card.SWAP_HAND": "Swap your hand",
    "card.INSPECTION": "Inspection",
    "card.SWAP_HATS": "Swap your hats",
    "card.TRAPPED": "Trapped!",
    "card.FREE": "Free at last!",
    # ------------------------------------------------------------------ commands (menu)
    "command.new": "Open a new game in this chat",
    "command.join": "Join the game being set up",
    "command.leave": "Leave the game being set up",
    "command.start": "Start the game (or open the bot in private)",
    "command.board": "Post the board again",
    "command.status": "Whose turn it is and how long is left",
    "command.cancel": "Cancel the game (creator or admin)",
    "command.kick": "Skip a player who is away",
    "command.settings": "Game settings",
    "command.rules": "The rules in short",
    "command.help": "How to play with this bot",
    "command.lang": "Choose the language",
    # ------------------------------------------------------------------ buttons
    "button.join": "✋ Join",
    "button.leave": "🚪 Leave",
    "button.start": "▶️ Start",
    "button.cancel": "✖️ Cancel game",
    "button.edition": "{mark} {edition}",
    "button.variant_per_miner": "{mark} One gold card per miner",
    "button.variant_greedy_dwarf": "{mark} Greedy dwarf",
    "button.turn_limit_hours": "{mark} {hours} h",
    "button.turn_limit_none": "{mark} No limit",
    "button.card": "{number}. {card}",
    "button.spot": "{spot}",
    "button.target": "{name}",
    "button.target_self": "{name} (you)",
    "button.goal": "{goal}",
    "button.tool": "{tool}",
    "button.confirm": "✅ Confirm",
    "button.back": "↩️ Back",
    "button.discard": "🗑 Discard",
    "button.discard_toggle": "{mark} {card}",
    "button.discard_confirm": "🗑 Discard {count} and draw {count}",
    "button.discard_confirm_one": "🗑 Discard this card",
    "button.clear_front": "🧹 Discard 2 to remove {card}",
    "button.refresh": "🔄 Refresh",
    "button.show_hand": "🎴 My hand",
    "button.open_private": "🎴 Open my hand",
    "button.lang_ko": "한국어",
    "button.lang_en": "English",
    "button.selected": "✅",
    "button.unselected": "▫️",
    # ------------------------------------------------------------------ lobby (group)
    "lobby.title": "⛏ <b>{edition}</b>: new game",
    "lobby.created_by": "Opened by {name}",
    "lobby.variants": "Variants: {variants}",
    "lobby.turn_limit_hours": "Time per turn: {hours} h",
    "lobby.turn_limit_none": "Time per turn: no limit",
    "lobby.players": "Players ({count}/{max}):",
    "lobby.player_line": "{number}. {name}",
    "lobby.no_players": "Nobody has joined yet.",
    "lobby.need_players": "{edition} is for {min} to {max} players.",
    "lobby.waiting_more": "Waiting for {count} more to join.",
    "lobby.ready_creator": "Ready! {name} can start the game.",
    "lobby.ready_anyone": "Ready! Any player can start the game.",
    "lobby.join_hint": (
        "Tap Join: it opens a private chat with me, where your cards will be. "
        "Press Start there if Telegram asks."
    ),
    "lobby.started": "The game has started with {count} players. Good digging!",
    "lobby.cancelled": "The game was cancelled.",
    "lobby.already_running": "A game is already running here. /status shows whose turn it is.",
    "lobby.no_game": "There is no game here. Open one with /new.",
    "lobby.joined_private": "You joined the game in <b>{chat}</b>. Your cards will appear here.",
    "lobby.left_private": "You left the game in <b>{chat}</b>.",
    "lobby.need_private": (
        "{name}, I cannot write to you in private yet. Tap the link, press Start, and you are in."
    ),
    # ------------------------------------------------------------------ private chat
    "start.welcome": (
        "Hi! I run games of Saboteur in groups.\n"
        "Add me to a group and type /new there. Your cards will come to this chat."
    ),
    "start.group_only": "This command works in a group.",
    "start.private_only": "This works in our private chat.",
    "hand.title": "🎴 <b>{chat}</b> · round {round}/3",
    "hand.role": "Your role: <b>{role}</b>",
    "hand.gold": "Your gold: {gold}",
    "hand.in_front": "In front of you: {cards}",
    "hand.nothing_in_front": "Nothing in front of you.",
    "hand.peeked": "Your map showed: the {goal} goal is {card}.",
    "hand.inspected": "You saw: {name} is {role}.",
    "hand.empty": "Your hand is empty.",
    "hand.deck": "Cards left in the deck: {count}",
    "hand.waiting": "Waiting for {name} to play.",
    "hand.other_games": "You also play in: {chats}",
    "turn.your_turn": "<b>Your turn!</b>",
    "turn.deadline": "Play within {time}.",
    "turn.reminder": "⏰ Your turn in <b>{chat}</b> ends in {time}.",
    "turn.timed_out": "Time is up: I played for you ({what}).",
    "turn.auto_on": "You missed several turns, so I now play for you. Tap any button to return.",
    "turn.discarded": "discarded {card}",
    "turn.auto_off": "Welcome back: you play your own turns again.",
    "prompt.pick_card": "Pick a card to play.",
    "prompt.pick_spot": "Where does {card} go? Pick a numbered spot on the board.",
    "prompt.pick_rockfall": "Which tunnel card does the rockfall remove? Pick a numbered spot.",
    "prompt.pick_target": "Who gets {card}?",
    "prompt.pick_goal": "Which goal card do you look at?",
    "prompt.pick_tool": "Which tool does {card} repair for {name}?",
    "prompt.confirm_place": "Place {card} on spot {spot} ({cell})?",
    "prompt.confirm_rockfall": "Remove the tunnel card on spot {spot} ({cell})?",
    "prompt.confirm_target": "Play {card} on {name}?",
    "prompt.confirm_repair": "Repair {name}'s {tool} with {card}?",
    "prompt.confirm_goal": "Look at the {goal} goal card?",
    "prompt.discard_base": "Pick one card to discard face down. You then draw one.",
    "prompt.discard_deluxe": (
        "Pick 1 to 3 cards to discard and draw as many, "
        "or pick 2 to remove a card lying in front of you."
    ),
    "prompt.cannot_dig": "A tool of yours is broken ({tools}): you cannot place tunnel cards.",
    "prompt.trapped": "You are trapped: you cannot place tunnel cards.",
    "prompt.no_spot": "{card} fits nowhere on the board right now.",
    "prompt.no_cards": "You have no cards left: your turn passes.",
    # ------------------------------------------------------------------ board post (group)
    "board.caption": "Round {round}/3 · deck {deck}\n{name}, your turn!",
    "board.caption_deadline": "Round {round}/3 · deck {deck}\n{name}, your turn! ({time} left)",
    "board.last_move": "Last move: {move}",
    "board.move_tunnel": "{name} placed {card} at {cell}",
    "board.move_action": "{name} played {card} on {target}",
    "board.move_map": "{name} looked at the {goal} goal card",
    "board.move_rockfall": "{name} caused a rockfall at {cell}",
    "board.move_discard": "{name} discarded {count} card(s)",
    "board.move_clear": "{name} discarded 2 cards and removed {card}",
    "board.move_pass": "{name} passed",
    "board.goal_revealed": "The {goal} goal card is {card}!",
    "status.turn": "Round {round}/3. {name} is playing.",
    "status.time_left": "Time left for this turn: {time}.",
    "status.no_limit": "No time limit.",
    "status.lobby": "The game is being set up: {count} players so far.",
    "time.hours_minutes": "{hours} h {minutes} min",
    "time.minutes": "{minutes} min",
    "kick.voted": "{name} votes to let the game play for {target} ({votes}/{needed}).",
    "kick.done": "The game now plays for {name} until they come back.",
    "kick.nobody": "Nobody is being waited for right now.",
    "kick.self": "You cannot vote about your own turn.",
    "kick.not_player": "Only players of this game can vote.",
    "kick.already": "You have already voted.",
    "game.bot_removed": "I was removed from <b>{chat}</b>, so the game there has ended.",
    "lobby.limit_hint": "Time per turn: tap a button below (or no limit).",
    "status.away": "{name} did not play in time.",
    "status.auto": "{name} is away; I play for them.",
    # ------------------------------------------------------------------ round and game end
    "round.over": "<b>Round {round} is over!</b>",
    "round.gold_found": "{name} reached the gold!",
    "round.gold_not_found": "Nobody reached the gold.",
    "round.winners": "Winners: {sides}",
    "round.no_winner": "Nobody wins this round.",
    "round.roles": "Roles:",
    "round.role_line": "{name}: {role}",
    "round.paid": "Gold goes to: {names}",
    "round.nobody_paid": "Nobody gets gold this round.",
    "round.theft": "{thief} steals a gold nugget from {victim}.",
    "round.next": "Round {round} begins; {name} plays first.",
    "game.over": "🏆 <b>Game over!</b>",
    "game.score_line": "{rank}. {name}: {gold} gold",
    "game.winner": "Winner: {names}",
    "game.winners": "Winners (tied): {names}",
    "game.new_hint": "Play again with /new.",
    # ------------------------------------------------------------------ taps (toasts)
    "toast.joined": "You joined the game.",
    "toast.left": "You left the game.",
    "toast.already_joined": "You are already in this game.",
    "toast.not_joined": "You are not in this game.",
    "toast.full": "The game is full.",
    "toast.only_creator": "Only {name} can do that for now.",
    "toast.admin_only": "Only the game's creator or a group admin can do that.",
    "toast.not_enough_players": "{edition} needs at least {min} players.",
    "toast.started": "The game is already running.",
    "toast.settings_saved": "Saved.",
    "toast.stale": "This hand is from turn {old}; here is your current hand.",
    "toast.stale_lobby": "That button was out of date; the lobby has been updated.",
    "toast.foreign": "These buttons are not yours.",
    "toast.forged": "This button is not valid.",
    "toast.not_your_turn": "It is not your turn: {name} is playing.",
    "toast.game_over": "This game is over.",
    "toast.game_gone": "This game no longer exists.",
    "toast.cancelled": "This game was cancelled.",
    "toast.busy": "Something else happened at the same moment. Please tap again.",
    "toast.played": "Done!",
    "toast.illegal": "Not allowed: {reason}",
    "toast.pick_cards_first": "Pick the cards to discard first.",
    "toast.too_many_cards": "You can discard at most {max} cards.",
    "toast.language_set": "Language: English",
    "toast.error": "Something went wrong. The game is safe; please try again.",
    # ------------------------------------------------------------------ errors (messages)
    "error.internal": "Something went wrong. The game is safe; please try again.",
    "error.private_blocked": (
        "I could not send {name} their cards. {name}, please open a private chat with me "
        "and press Start."
    ),
    "error.admin_only": "Only the game's creator or a group admin can do that.",
    "error.unknown_command": "I do not know that command. /help lists what I understand.",
    # ------------------------------------------------------------------ engine refusals
    "reason.game_over": "the game is over",
    "reason.not_a_player": "you are not playing in this game",
    "reason.not_your_turn": "it is not your turn",
    "reason.not_an_action": "that is not a move",
    "reason.card_not_in_hand": "that card is not in your hand",
    "reason.wrong_edition": "that card is not in this edition",
    "reason.tool_broken": "a broken tool stops you from digging",
    "reason.trapped": "you are trapped",
    "reason.cell_taken": "that spot is taken",
    "reason.not_connected": "the card must join a tunnel connected to the start",
    "reason.does_not_fit": "the card does not match its neighbours",
    "reason.rotation_not_offered": "that turn of the card is not offered",
    "reason.next_to_goal": "a ladder cannot go next to a goal card",
    "reason.bad_target": "that target is not allowed",
    "reason.already_in_front": "that player already has such a card in front of them",
    "reason.nothing_to_repair": "there is nothing to repair",
    "reason.not_a_hidden_goal": "that goal card is already face up",
    "reason.nothing_to_remove": "there is nothing to remove",
    "reason.bad_discard": "that discard is not allowed",
    # ------------------------------------------------------------------ settings and language
    "settings.title": "<b>Settings of this chat</b>",
    "settings.language": "Language: {language}",
    "lang.choose": "Choose a language:",
    "lang.set_group": "This group now plays in English.",
    "lang.set_private": "I will write to you in English.",
    # ------------------------------------------------------------------ help and rules
    "help.text": (
        "<b>Saboteur bot</b>\n"
        "Play Saboteur with your group, one move at a time, whenever you have a minute.\n\n"
        "<b>In the group</b>\n"
        "/new: open a game (edition, time per turn, variants)\n"
        "/join: join it · /leave: leave it\n"
        "/start: start the game\n"
        "/board: post the board again · /status: whose turn it is\n"
        "/cancel: cancel the game (creator or admin)\n"
        "/kick: skip a player who is away\n"
        "/settings: settings · /lang: the group's language\n"
        "/rules: the rules in short\n\n"
        "<b>In private</b>\n"
        "Your cards are in our private chat. Tap a card, pick a numbered spot or a player, "
        "then confirm. To discard, tap Discard, pick the card(s) and confirm.\n"
        "/lang: your own language"
    ),
    "rules.base": (
        "<b>Saboteur (3 to 10 players)</b>\n"
        "The dwarves dig from the start card towards three face-down goal cards; only one of "
        "them hides the gold. Some of the dwarves are secretly saboteurs.\n\n"
        "<b>On your turn</b> do one thing, then draw a card:\n"
        "• place a tunnel card: it must join a tunnel connected to the start and match every "
        "card next to it;\n"
        "• play an action card: break or repair a tool (a player with a broken tool cannot "
        "dig), look at a goal card with a map, or remove a tunnel card with a rockfall;\n"
        "• discard one card face down.\n\n"
        "<b>End of a round</b>: when a tunnel reaches the gold, the miners win; when all the "
        "cards are played first, the saboteurs win. Roles are revealed and gold is handed out: "
        "the miners share as many gold cards as there are players, starting with whoever "
        "reached the gold; each saboteur gets 4, 3 or 2 nuggets, depending on how many there "
        "are.\n\n"
        "After three rounds, the most gold wins. Everyone's gold stays secret until the end."
    ),
    "rules.deluxe": (
        "<b>Saboteur Deluxe (2 to 12 players)</b>\n"
        "The base game with the Saboteur 2 cards. Roles: blue and green miners (two rival "
        "teams), the boss (wins with either team), the profiteer (always wins), geologists "
        "(paid for crystals) and saboteurs.\n\n"
        "<b>On your turn</b>: place a tunnel or play an action card, then draw 1; or discard 2 "
        "cards to remove a card in front of you, then draw 1; or pass by discarding 1 to 3 "
        "cards and draw as many.\n\n"
        "<b>New cards</b>: doors (only miners of that colour and the boss get through), "
        "ladders (count as the start), bridges, crystals; theft, hands off, swap your hand, "
        "inspection, swap your hats, trapped! and free at last!\n\n"
        "<b>Payout</b>: each winner gets 5, 4, 3, 2 or 1 gold when there are 1, 2, 3, 4, or 5 "
        "or more winners; the boss gets 1 less, the profiteer 2 less. Geologists share the "
        "crystals in the maze. Thefts come last."
    ),
}
