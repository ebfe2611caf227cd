"""Korean messages (the default language), with the Korean edition's card and role names."""

MESSAGES: dict[str, str] = {
    # ------------------------------------------------------------------ names
    "edition.base": "사보타지",
    "edition.deluxe": "사보타지 디럭스",
    "variant.per_miner": "광부 한 명당 금덩이 카드 한 장",
    "variant.greedy_dwarf": "욕심쟁이 드워프 (장비가 망가진 광부는 금덩이를 못 받음)",
    "variant.none": "없음",
    "role.miner": "광부",
    "role.saboteur": "방해꾼",
    "role.blue_miner": "파란색 광부",
    "role.green_miner": "녹색 광부",
    "role.boss": "대장",
    "role.profiteer": "부당이익자",
    "role.geologist": "지질학자",
    "side.miners": "광부",
    "side.saboteurs": "방해꾼",
    "side.blue": "파란 팀",
    "side.green": "녹색 팀",
    "side.both_teams": "두 팀 모두",
    "side.boss": "대장",
    "tool.pickaxe": "곡괭이",
    "tool.lantern": "등불",
    "tool.cart": "수레",
    "goal.0": "위쪽",
    "goal.1": "가운데",
    "goal.2": "아래쪽",
    "lang.ko": "한국어",
    "lang.en": "English",
    # ------------------------------------------------------------------ cards
    "card.START": "출발지",
    "card.GOLD": "금덩이",
    "card.COAL_NE": "돌덩이",
    "card.COAL_NW": "돌덩이",
    "card.CROSS": "굴 ┼",
    "card.T_NES": "굴 ├",
    "card.T_NEW": "굴 ┴",
    "card.STRAIGHT_NS": "굴 │",
    "card.STRAIGHT_EW": "굴 ─",
    "card.CURVE_NW": "굴 ┘",
    "card.CURVE_NE": "굴 └",
    "card.DEAD_NESW": "막힌 굴 ┼",
    "card.DEAD_NES": "막힌 굴 ├",
    "card.DEAD_NEW": "막힌 굴 ┴",
    "card.DEAD_NS": "막힌 굴 │",
    "card.DEAD_EW": "막힌 굴 ─",
    "card.DEAD_NW": "막힌 굴 ┘",
    "card.DEAD_NE": "막힌 굴 └",
    "card.DEAD_N": "막힌 굴 ╵",
    "card.DEAD_E": "막힌 굴 ╶",
    "card.BREAK_PICKAXE": "망가진 곡괭이",
    "card.BREAK_LANTERN": "망가진 등불",
    "card.BREAK_CART": "망가진 수레",
    "card.REPAIR_PICKAXE": "곡괭이 수리",
    "card.REPAIR_LANTERN": "등불 수리",
    "card.REPAIR_CART": "수레 수리",
    "card.REPAIR_PICKAXE_LANTERN": "곡괭이·등불 수리",
    "card.REPAIR_PICKAXE_CART": "곡괭이·수레 수리",
    "card.REPAIR_LANTERN_CART": "등불·수레 수리",
    "card.MAP": "지도",
    "card.ROCKFALL": "낙석",
    "card.BRIDGE": "다리 ┼",
    "card.DOUBLE_CURVE": "겹친 굽은 굴 ┘┌",
    "card.LADDER_N": "사다리 ╵",
    "card.LADDER_E": "사다리 ╶",
    "card.LADDER_NE": "사다리 └",
    "card.LADDER_NW": "사다리 ┘",
    "card.BLUE_DOOR_NS": "파란 문 │",
    "card.BLUE_DOOR_EW": "파란 문 ─",
    "card.BLUE_DOOR_NW": "파란 문 ┘",
    "card.GREEN_DOOR_NS": "녹색 문 │",
    "card.GREEN_DOOR_NE": "녹색 문 └",
    "card.GREEN_DOOR_NS_E": "녹색 문 │ +╶",
    "card.CRYSTAL_N": "수정 ╵",
    "card.CRYSTAL_E": "수정 ╶",
    "card.CRYSTAL_NESW": "수정 ┼",
    "card.CRYSTAL_NES": "수정 ├",
    "card.CRYSTAL_ESW": "수정 ┬",
    "card.CRYSTAL_ESW_N": "수정 ┬ +╵",
    "card.CRYSTAL_NES_W": "수정 ├ +╴",
    "card.CRYSTAL_NS_E": "수정 │ +╶",
    "card.CRYSTAL_NE": "수정 └",
    "card.CRYSTAL_NS": "수정 │",
    "card.CRYSTAL_EW": "수정 ─",
    "card.CRYSTAL_NEW": "수정 ┴",
    "card.THEFT": "도둑",
    "card.HANDS_OFF": "손 치워",
    "card.SWAP_HAND": "손 바꿔",
    "card.INSPECTION": "염탐",
    "card.SWAP_HATS": "직업 바꾸기",
    "card.TRAPPED": "감옥",
    "card.FREE": "감옥 탈출",
    # ------------------------------------------------------------------ commands (menu)
    "command.new": "이 채팅방에서 새 게임 열기",
    "command.join": "모집 중인 게임에 참가",
    "command.leave": "모집 중인 게임에서 나가기",
    "command.start": "게임 시작 (개인 채팅에서는 봇 열기)",
    "command.board": "보드 다시 올리기",
    "command.status": "지금 누구 차례인지, 남은 시간",
    "command.cancel": "게임 취소 (만든 사람 또는 관리자)",
    "command.kick": "자리를 비운 플레이어 넘기기",
    "command.settings": "게임 설정",
    "command.rules": "규칙 요약",
    "command.help": "봇 사용법",
    "command.lang": "언어 선택",
    # ------------------------------------------------------------------ buttons
    "button.join": "✋ 참가하기",
    "button.leave": "🚪 나가기",
    "button.start": "▶️ 시작",
    "button.cancel": "✖️ 게임 취소",
    "button.edition": "{mark} {edition}",
    "button.variant_per_miner": "{mark} 광부당 금덩이 한 장",
    "button.variant_greedy_dwarf": "{mark} 욕심쟁이 드워프",
    "button.turn_limit_hours": "{mark} {hours}시간",
    "button.turn_limit_none": "{mark} 제한 없음",
    "button.card": "{number}. {card}",
    "button.spot": "{spot}",
    "button.target": "{name}",
    "button.target_self": "{name} (나)",
    "button.goal": "{goal}",
    "button.tool": "{tool}",
    "button.confirm": "✅ 확인",
    "button.back": "↩️ 뒤로",
    "button.discard": "🗑 버리기",
    "button.discard_toggle": "{mark} {card}",
    "button.discard_confirm": "🗑 {count}장 버리고 {count}장 받기",
    "button.discard_confirm_one": "🗑 이 카드 버리기",
    "button.clear_front": "🧹 2장 버리고 {card} 치우기",
    "button.refresh": "🔄 새로고침",
    "button.show_hand": "🎴 내 손패",
    "button.open_private": "🎴 내 손패 열기",
    "button.lang_ko": "한국어",
    "button.lang_en": "English",
    "button.selected": "✅",
    "button.unselected": "▫️",
    # ------------------------------------------------------------------ lobby (group)
    "lobby.title": "⛏ <b>{edition}</b> 새 게임",
    "lobby.created_by": "만든 사람: {name}",
    "lobby.variants": "변형 규칙: {variants}",
    "lobby.turn_limit_hours": "차례당 제한 시간: {hours}시간",
    "lobby.turn_limit_none": "차례당 제한 시간: 없음",
    "lobby.players": "참가자 ({count}/{max}명):",
    "lobby.player_line": "{number}. {name}",
    "lobby.no_players": "아직 아무도 참가하지 않았어요.",
    "lobby.need_players": "{edition}는 {min}~{max}명이 함께 할 수 있어요.",
    "lobby.waiting_more": "{count}명 더 모이면 시작할 수 있어요.",
    "lobby.ready_creator": "준비 완료! {name}님이 게임을 시작할 수 있어요.",
    "lobby.ready_anyone": "준비 완료! 참가자 누구나 게임을 시작할 수 있어요.",
    "lobby.join_hint": (
        "[참가하기]를 누르면 저와의 개인 채팅이 열리고, 거기로 카드가 가요. "
        "텔레그램이 물어보면 [시작]을 눌러 주세요."
    ),
    "lobby.started": "{count}명이 게임을 시작했어요. 금을 찾아 힘차게 파 봅시다!",
    "lobby.cancelled": "게임이 취소됐어요.",
    "lobby.already_running": (
        "이 채팅방에서 이미 게임이 진행 중이에요. /status 로 누구 차례인지 볼 수 있어요."
    ),
    "lobby.no_game": "진행 중인 게임이 없어요. /new 로 새 게임을 열어 보세요.",
    "lobby.joined_private": "<b>{chat}</b>의 게임에 참가했어요. 카드는 여기로 보내 드릴게요.",
    "lobby.left_private": "<b>{chat}</b>의 게임에서 나왔어요.",
    "lobby.need_private": (
        "{name}님, 아직 개인 메시지를 보낼 수 없어요. 링크를 누르고 [시작]을 누르면 바로 참가돼요."
    ),
    # ------------------------------------------------------------------ private chat
    "start.welcome": (
        "안녕하세요! 그룹 채팅방에서 사보타지 게임을 진행하는 봇이에요.\n"
        "저를 그룹에 초대하고 거기서 /new 를 입력해 보세요. 내 카드는 이 채팅으로 와요."
    ),
    "start.group_only": "이 명령어는 그룹에서만 쓸 수 있어요.",
    "start.private_only": "이 기능은 개인 채팅에서만 쓸 수 있어요.",
    "hand.title": "🎴 <b>{chat}</b> · {round}/3 라운드",
    "hand.role": "내 직업: <b>{role}</b>",
    "hand.gold": "내 금덩이: {gold}개",
    "hand.in_front": "내 앞에 놓인 카드: {cards}",
    "hand.nothing_in_front": "내 앞에 놓인 카드가 없어요.",
    "hand.peeked": "지도로 본 {goal} 목적지 카드: {card}",
    "hand.inspected": "염탐 결과: {name}님은 {role}",
    "hand.empty": "손패가 없어요.",
    "hand.deck": "남은 카드 더미: {count}장",
    "hand.waiting": "{name}님의 차례를 기다리는 중이에요.",
    "hand.other_games": "참가 중인 다른 게임: {chats}",
    "turn.your_turn": "<b>내 차례예요!</b>",
    "turn.deadline": "{time} 안에 카드를 내 주세요.",
    "turn.reminder": "⏰ <b>{chat}</b>에서 내 차례가 {time} 뒤에 끝나요.",
    "turn.timed_out": "시간이 다 돼서 대신 진행했어요 ({what}).",
    "turn.auto_on": (
        "여러 번 차례를 놓쳐서 이제부터 제가 대신 진행할게요. "
        "아무 버튼이나 누르면 돌아올 수 있어요."
    ),
    "turn.discarded": "「{card}」 카드를 버림",
    "turn.auto_off": "돌아오신 걸 환영해요! 이제 다시 직접 카드를 내요.",
    "prompt.pick_card": "낼 카드를 고르세요.",
    "prompt.pick_spot": "「{card}」 카드를 어디에 놓을까요? 보드에서 번호를 고르세요.",
    "prompt.pick_rockfall": "낙석으로 없앨 굴 카드의 번호를 고르세요.",
    "prompt.pick_target": "「{card}」 카드를 누구에게 쓸까요?",
    "prompt.pick_goal": "어느 목적지 카드를 볼까요?",
    "prompt.pick_tool": "「{card}」 카드로 {name}님의 어떤 장비를 고칠까요?",
    "prompt.confirm_place": "「{card}」 카드를 {spot}번 자리({cell})에 놓을까요?",
    "prompt.confirm_rockfall": "{spot}번 자리({cell})의 굴 카드를 없앨까요?",
    "prompt.confirm_target": "「{card}」 카드를 {name}님에게 쓸까요?",
    "prompt.confirm_repair": "「{card}」 카드로 {name}님의 장비({tool})를 고칠까요?",
    "prompt.confirm_goal": "{goal} 목적지 카드를 볼까요?",
    "prompt.discard_base": "뒷면으로 버릴 카드 한 장을 고르세요. 버린 뒤 한 장을 가져와요.",
    "prompt.discard_deluxe": (
        "버릴 카드를 1~3장 고르면 버린 만큼 가져와요. "
        "2장을 고르면 내 앞에 놓인 카드 한 장을 치울 수도 있어요."
    ),
    "prompt.cannot_dig": "장비가 망가져서({tools}) 굴 카드를 놓을 수 없어요.",
    "prompt.trapped": "감옥에 갇혀서 굴 카드를 놓을 수 없어요.",
    "prompt.no_spot": "지금은 「{card}」 카드를 놓을 자리가 없어요.",
    "prompt.no_cards": "손패가 없어서 이번 차례는 넘어가요.",
    # ------------------------------------------------------------------ board post (group)
    "board.caption": "{round}/3 라운드 · 카드 더미 {deck}장\n{name}님 차례예요!",
    "board.caption_deadline": (
        "{round}/3 라운드 · 카드 더미 {deck}장\n{name}님 차례예요! (남은 시간 {time})"
    ),
    "board.last_move": "직전 행동: {move}",
    "board.move_tunnel": "{name}님이 {cell}에 「{card}」 카드를 놓았어요",
    "board.move_action": "{name}님이 {target}님에게 「{card}」 카드를 썼어요",
    "board.move_map": "{name}님이 {goal} 목적지 카드를 지도로 봤어요",
    "board.move_rockfall": "{name}님이 {cell}에 낙석을 일으켰어요",
    "board.move_discard": "{name}님이 카드 {count}장을 버렸어요",
    "board.move_clear": "{name}님이 카드 2장을 버리고 「{card}」 카드를 치웠어요",
    "board.move_pass": "{name}님이 차례를 넘겼어요",
    "board.goal_revealed": "{goal} 목적지 카드는 {card}!",
    "status.turn": "{round}/3 라운드, 지금은 {name}님 차례예요.",
    "status.time_left": "이번 차례 남은 시간: {time}",
    "status.no_limit": "시간 제한은 없어요.",
    "status.lobby": "참가자를 모으는 중이에요. 지금까지 {count}명.",
    "time.hours_minutes": "{hours}시간 {minutes}분",
    "time.minutes": "{minutes}분",
    "kick.voted": "{name}님이 {target}님 차례를 자동으로 진행하자고 투표했어요 ({votes}/{needed}).",
    "kick.done": "{name}님이 돌아올 때까지 제가 대신 진행할게요.",
    "kick.nobody": "지금 기다리는 사람이 없어요.",
    "kick.self": "자기 차례에는 투표할 수 없어요.",
    "kick.not_player": "이 게임의 참가자만 투표할 수 있어요.",
    "kick.already": "이미 투표했어요.",
    "game.bot_removed": "제가 <b>{chat}</b>에서 내보내져서 그곳의 게임이 끝났어요.",
    "lobby.limit_hint": "차례당 시간: 아래 버튼으로 고르세요 (제한 없음도 가능).",
    "status.away": "{name}님이 제한 시간 안에 카드를 내지 않았어요.",
    "status.auto": "{name}님이 자리를 비워서 제가 대신 진행하고 있어요.",
    # ------------------------------------------------------------------ round and game end
    "round.over": "<b>{round}라운드 종료!</b>",
    "round.gold_found": "{name}님이 금덩이에 닿았어요!",
    "round.gold_not_found": "아무도 금덩이에 닿지 못했어요.",
    "round.winners": "승리: {sides}",
    "round.no_winner": "이번 라운드는 승자가 없어요.",
    "round.roles": "직업 공개:",
    "round.role_line": "{name}: {role}",
    "round.paid": "금덩이를 받은 사람: {names}",
    "round.nobody_paid": "이번 라운드에는 아무도 금덩이를 받지 못했어요.",
    "round.theft": "{thief}님이 {victim}님의 금덩이 1개를 훔쳤어요.",
    "round.next": "{round}라운드 시작! {name}님부터 시작해요.",
    "game.over": "🏆 <b>게임 종료!</b>",
    "game.score_line": "{rank}. {name}: 금덩이 {gold}개",
    "game.winner": "우승: {names}",
    "game.winners": "공동 우승: {names}",
    "game.new_hint": "/new 로 한 판 더 해요!",
    # ------------------------------------------------------------------ taps (toasts)
    "toast.joined": "게임에 참가했어요.",
    "toast.left": "게임에서 나왔어요.",
    "toast.already_joined": "이미 참가한 게임이에요.",
    "toast.not_joined": "참가하지 않은 게임이에요.",
    "toast.full": "자리가 다 찼어요.",
    "toast.only_creator": "지금은 {name}님만 할 수 있어요.",
    "toast.admin_only": "게임을 만든 사람이나 그룹 관리자만 할 수 있어요.",
    "toast.not_enough_players": "{edition}는 최소 {min}명이 필요해요.",
    "toast.started": "이미 게임이 시작됐어요.",
    "toast.settings_saved": "저장했어요.",
    "toast.stale": "{old}번째 턴의 손패예요. 지금 손패를 보여 드릴게요.",
    "toast.stale_lobby": "지난 버튼이에요. 모집 화면을 새로 고쳤어요.",
    "toast.foreign": "내 버튼이 아니에요.",
    "toast.forged": "올바르지 않은 버튼이에요.",
    "toast.not_your_turn": "아직 내 차례가 아니에요. 지금은 {name}님 차례예요.",
    "toast.game_over": "끝난 게임이에요.",
    "toast.game_gone": "더 이상 없는 게임이에요.",
    "toast.cancelled": "취소된 게임이에요.",
    "toast.busy": "같은 순간에 다른 일이 처리됐어요. 다시 눌러 주세요.",
    "toast.played": "완료!",
    "toast.illegal": "할 수 없어요: {reason}",
    "toast.pick_cards_first": "먼저 버릴 카드를 고르세요.",
    "toast.too_many_cards": "최대 {max}장까지 버릴 수 있어요.",
    "toast.language_set": "언어: 한국어",
    "toast.error": "문제가 생겼어요. 게임은 안전하니 다시 시도해 주세요.",
    # ------------------------------------------------------------------ errors (messages)
    "error.internal": "문제가 생겼어요. 게임은 안전하니 다시 시도해 주세요.",
    "error.private_blocked": (
        "{name}님에게 카드를 보내지 못했어요. "
        "{name}님, 저와의 개인 채팅을 열고 [시작]을 눌러 주세요."
    ),
    "error.admin_only": "게임을 만든 사람이나 그룹 관리자만 할 수 있어요.",
    "error.unknown_command": "모르는 명령어예요. /help 에서 쓸 수 있는 명령어를 확인하세요.",
    # ------------------------------------------------------------------ engine refusals
    "reason.game_over": "게임이 끝났어요",
    "reason.not_a_player": "이 게임의 참가자가 아니에요",
    "reason.not_your_turn": "내 차례가 아니에요",
    "reason.not_an_action": "할 수 있는 행동이 아니에요",
    "reason.card_not_in_hand": "손패에 없는 카드예요",
    "reason.wrong_edition": "이 판에서 쓰지 않는 카드예요",
    "reason.tool_broken": "장비가 망가져서 굴을 팔 수 없어요",
    "reason.trapped": "감옥에 갇혀 있어요",
    "reason.cell_taken": "이미 카드가 있는 자리예요",
    "reason.not_connected": "출발지와 이어진 길에 붙여야 해요",
    "reason.does_not_fit": "옆 카드와 길이 맞지 않아요",
    "reason.rotation_not_offered": "그 방향으로는 놓을 수 없어요",
    "reason.next_to_goal": "사다리는 목적지 카드 옆에 놓을 수 없어요",
    "reason.bad_target": "그 대상에게는 쓸 수 없어요",
    "reason.already_in_front": "그 플레이어 앞에 같은 카드가 이미 있어요",
    "reason.nothing_to_repair": "고칠 장비가 없어요",
    "reason.not_a_hidden_goal": "이미 공개된 목적지 카드예요",
    "reason.nothing_to_remove": "치울 카드가 없어요",
    "reason.bad_discard": "그렇게는 버릴 수 없어요",
    # ------------------------------------------------------------------ settings and language
    "settings.title": "<b>이 채팅방 설정</b>",
    "settings.language": "언어: {language}",
    "lang.choose": "언어를 고르세요:",
    "lang.set_group": "이제 이 그룹에서는 한국어로 진행해요.",
    "lang.set_private": "이제 한국어로 말씀드릴게요.",
    # ------------------------------------------------------------------ help and rules
    "help.text": (
        "<b>사보타지 봇</b>\n"
        "그룹 채팅방에서 틈날 때마다 한 수씩, 친구들과 사보타지를 즐겨 보세요.\n\n"
        "<b>그룹에서</b>\n"
        "/new: 새 게임 열기 (판 종류, 차례당 시간, 변형 규칙)\n"
        "/join: 참가 · /leave: 나가기\n"
        "/start: 게임 시작\n"
        "/board: 보드 다시 보기 · /status: 지금 누구 차례인지\n"
        "/cancel: 게임 취소 (만든 사람 또는 관리자)\n"
        "/kick: 자리를 비운 플레이어 넘기기\n"
        "/settings: 설정 · /lang: 그룹 언어\n"
        "/rules: 규칙 요약\n\n"
        "<b>개인 채팅에서</b>\n"
        "내 카드는 저와의 개인 채팅에 있어요. 카드를 누르고, 번호가 붙은 자리나 플레이어를 "
        "고른 뒤 [확인]을 누르면 돼요. 카드를 버리려면 [버리기]를 누르고 카드를 골라 확인하세요.\n"
        "/lang: 내 언어 설정"
    ),
    "rules.base": (
        "<b>사보타지 (3~10명)</b>\n"
        "드워프들이 출발지 카드에서 뒤집어 놓은 목적지 카드 세 장을 향해 굴을 팝니다. "
        "금덩이는 그중 한 장에만 있어요. 그런데 광부들 사이에 방해꾼이 몰래 섞여 있답니다.\n\n"
        "<b>내 차례</b>에는 아래 중 하나를 하고 카드 한 장을 가져와요.\n"
        "• 굴 카드 놓기: 출발지와 이어진 길에 붙여야 하고, 맞닿는 모든 카드와 길이 맞아야 "
        "해요.\n"
        "• 행동 카드 쓰기: 장비를 망가뜨리거나 고치기(장비가 망가지면 굴 카드를 놓을 수 "
        "없어요), 지도로 목적지 카드 한 장 몰래 보기, 낙석으로 굴 카드 한 장 없애기.\n"
        "• 카드 한 장을 뒷면으로 버리기.\n\n"
        "<b>라운드 종료</b>: 길이 금덩이에 닿으면 광부 승리, 그 전에 카드가 다 떨어지면 "
        "방해꾼 승리예요. 모두 직업을 공개하고 금덩이를 나눕니다. 광부는 금덩이에 닿은 "
        "사람부터 인원수만큼의 금덩이 카드를 나눠 갖고, 방해꾼은 인원에 따라 한 명당 "
        "금덩이 4개, 3개 또는 2개를 받아요.\n\n"
        "3라운드가 끝나면 금덩이가 가장 많은 사람이 우승! 각자의 금덩이 수는 끝날 때까지 "
        "비밀이에요."
    ),
    "rules.deluxe": (
        "<b>사보타지 디럭스 (2~12명)</b>\n"
        "기본판에 사보타지 2 카드를 더해 즐겨요. 직업은 파란색 광부와 녹색 광부(서로 "
        "경쟁하는 두 팀), 대장(어느 팀이 이겨도 승리), 부당이익자(누가 이기든 승리), "
        "지질학자(수정 개수만큼 금덩이), 방해꾼이 있어요.\n\n"
        "<b>내 차례</b>: 굴 카드나 행동 카드를 내고 한 장 가져오기, 또는 카드 2장을 버리고 "
        "내 앞에 놓인 카드 한 장을 치운 뒤 한 장 가져오기, 또는 카드를 1~3장 버리고 버린 "
        "만큼 가져오며 넘기기.\n\n"
        "<b>새 카드</b>: 문이 있는 통로(그 색 광부와 대장만 지나가요), 사다리(출발지로 "
        "쳐요), 다리, 수정; 도둑, 손 치워, 손 바꿔, 염탐, 직업 바꾸기, 감옥, 감옥 탈출.\n\n"
        "<b>금덩이 분배</b>: 승자가 1·2·3·4·5명 이상이면 한 명당 5·4·3·2·1개씩 받아요. "
        "대장은 1개, 부당이익자는 2개 적게 받고, 지질학자는 미로의 수정 개수를 나눠 "
        "가져요. 도둑은 맨 마지막에 처리해요."
    ),
}
