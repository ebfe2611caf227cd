"""Announcements owed by a saved move, kept in the game's record until they are delivered.

A move is saved together with what it owes the chats (group texts, a board post, private
messages), in one compare-and-set write; a deliverer then sends them and strikes each off with
another compare-and-set write. Texts, board lines and notes are typed messages
(`tgbot.notices`), rendered at delivery in their recipient's language. If a process dies in
between, the owed announcements are still in Redis and whichever process runs next delivers
them. Owed board posts coalesce: a later move
raises the version the board must show and adds its lines, so one post covers both.

A chat whose last call failed for a passing reason waits (`waits`, with back-off) while the
other chats are served; a send that timed out leaves a mark (`uncertain`) until the retried
send is confirmed and the chat is searched for a copy Telegram may have posted after all.

`replays` is the game's account of itself (tgbot/usecases/history.py): a round's number owes
the group that round's animated replay; `END` owes the game's archive (and its statistics,
counted once) and, for a finished game, the game-end message.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from .notices import Message, Rendered, Said, as_message

MAX_BOARD_LINES = 12  # caption lines owed at most; older ones fold into one summary line first
FOLDED = "earlier_moves"  # the summary's notice (`notice_texts.earlier_moves`): how many folded

END = 0  # in `Owed.replays`: the game's end (archive, statistics, the game-end message)


@dataclass(frozen=True, slots=True)
class Owed:
    """What a game still owes its chats."""

    texts: tuple[Message, ...] = ()  # group texts in order (round and game summaries, notices)
    board_lines: tuple[Message, ...] = ()  # caption lines of moves not yet shown on a board
    lines_struck: int = 0  # how many move lines were struck off (shown) so far, folded or not
    board_version: int | None = None  # a board post showing at least this version is owed
    fresh: tuple[int, ...] = ()  # players owed a new, notifying live message
    edits: tuple[int, ...] = ()  # players whose live message must be redrawn
    deletions: tuple[tuple[int, int], ...] = ()  # (chat, message) replaced by a newer post
    notes: tuple[tuple[int, Message], ...] = ()  # (player, line) shown once on their live message
    replays: tuple[int, ...] = ()  # round replays owed to the group, then END (see above)
    private_texts: tuple[tuple[int, Message], ...] = ()  # (user, text) sent once, on its own
    lobby_text: Message | None = None  # what the lobby message must come to say (edited)
    lobby_redraw: bool = False  # the lobby message must be drawn again (a drawing failed)
    board_keyboard: bool = False  # the board post's keyboard must be set again (a probe took it)
    waits: tuple[tuple[int, float, int], ...] = ()  # (chat, not before, failed attempts)
    uncertain: tuple[tuple[int, int], ...] = ()  # (chat, last id before a send that timed out)

    @property
    def is_empty(self) -> bool:
        """True when nothing is owed."""
        return not (
            self.texts
            or self.lobby_text is not None
            or self.lobby_redraw
            or self.board_keyboard
            or self.board_version is not None
            or self.fresh
            or self.edits
            or self.deletions
            or self.replays
            or self.private_texts
        )


def _union(first: Iterable[int], then: Iterable[int]) -> tuple[int, ...]:
    out: list[int] = []
    for x in (*first, *then):
        if x not in out:
            out.append(x)
    return tuple(out)


def owe(
    owed: Owed,
    *,
    texts: Sequence[str | Message] = (),
    lines: Sequence[str | Message] = (),
    board_version: int | None = None,
    fresh: Iterable[int] = (),
    edits: Iterable[int] = (),
    notes: Sequence[tuple[int, str | Message]] = (),
    replays: Sequence[int] = (),
    private_texts: Sequence[tuple[int, str | Message]] = (),
) -> Owed:
    """Add a move's announcements to what is owed (coalescing board posts); a plain string is
    text already rendered, a typed message (`tgbot.notices`) is rendered at delivery."""
    all_fresh = _union(owed.fresh, fresh)
    noted = [u for u, _ in notes if u not in all_fresh]
    edits = (*edits, *noted)
    version = owed.board_version
    if board_version is not None:
        version = board_version if version is None else max(version, board_version)
    return Owed(
        texts=(*owed.texts, *map(as_message, texts)),
        board_lines=bounded((*owed.board_lines, *map(as_message, lines))),
        lines_struck=owed.lines_struck,
        board_version=version,
        fresh=all_fresh,
        edits=tuple(u for u in _union(owed.edits, edits) if u not in all_fresh),
        deletions=owed.deletions,
        notes=(*owed.notes, *((u, as_message(n)) for u, n in notes)),
        replays=(*owed.replays, *(r for r in replays if r not in owed.replays)),
        private_texts=(*owed.private_texts, *((u, as_message(t)) for u, t in private_texts)),
        lobby_text=owed.lobby_text,
        lobby_redraw=owed.lobby_redraw,
        board_keyboard=owed.board_keyboard,
        waits=owed.waits,
        uncertain=owed.uncertain,
    )


def delete_later(owed: Owed, chat_id: int, message_id: int | None) -> Owed:
    """Owe the deletion of a message a newer post replaced (written with the new post's id, so a
    crash before the deletion cannot leave two boards in a chat)."""
    if message_id is None or (chat_id, message_id) in owed.deletions:
        return owed
    return replace(owed, deletions=(*owed.deletions, (chat_id, message_id)))


def deleted(owed: Owed, chat_id: int, message_id: int) -> Owed:
    """Strike off a deletion once done (or once Telegram says there is nothing to delete)."""
    return replace(owed, deletions=tuple(d for d in owed.deletions if d != (chat_id, message_id)))


def replay_done(owed: Owed, item: int) -> Owed:
    """Strike off the first owed replay item once done (sent, or given up)."""
    if owed.replays[:1] == (item,):
        return replace(owed, replays=owed.replays[1:])
    return owed


def text_sent(owed: Owed, text: Message, rest: str = "") -> Owed:
    """Strike off the first owed text once it was sent (or the part of it that was: `rest` is
    what remains owed in its place, as rendered text)."""
    if owed.texts[:1] == (text,):
        left = (Rendered(rest), *owed.texts[1:]) if rest else owed.texts[1:]
        return replace(owed, texts=left)
    return owed


def folded(line: Message) -> int:
    """How many lines a summary line stands for (0: it is a line of its own)."""
    if isinstance(line, Said) and line.kind == FOLDED:
        return int(line.arguments["count"])
    return 0


def _summary(count: int) -> Said:
    return Said(FOLDED, json.dumps({"count": count}, sort_keys=True))  # as notices.said writes


def bounded(lines: tuple[Message, ...]) -> tuple[Message, ...]:
    """At most MAX_BOARD_LINES lines: the oldest fold into one summary line (a fast game whose
    boards wait for the group's budget keeps a small record)."""
    if len(lines) <= MAX_BOARD_LINES:
        return lines
    cut = len(lines) - (MAX_BOARD_LINES - 1)
    count = units(lines[:cut])
    return (_summary(count), *lines[cut:])


def units(lines: Sequence[Message]) -> int:
    """How many move lines `lines` stand for (a summary line for all it folded)."""
    return sum(folded(x) or 1 for x in lines)


def _strike_lines(owed: Owed, shown: Sequence[Message], start: int) -> Owed:
    """The owed lines once `shown` were shown: the oldest lines a delivery read when
    `owed.lines_struck` was `start`. The move lines are counted from the game's first, so the
    ones shown are known however many folded since, and a strike made again (a retried or a
    second delivery) strikes nothing more."""
    end = start + units(shown)
    todo = end - owed.lines_struck
    if todo <= 0 or owed.lines_struck < start:  # struck already (or read from another count)
        return owed
    rest = list(owed.board_lines)
    while rest and todo > 0:
        count = folded(rest[0]) or 1
        if count > todo:
            rest[0] = _summary(count - todo)  # the part of a summary's lines not shown
            todo = 0
        else:
            rest.pop(0)
            todo -= count
    return replace(owed, board_lines=tuple(rest), lines_struck=end - todo)


def board_posted(owed: Owed, version: int, lines: Sequence[Message], *, start: int) -> Owed:
    """Strike off a board post showing `version` with `lines`, read when `lines_struck` was
    `start` (later moves stay owed)."""
    rest = _strike_lines(owed, lines, start)
    done = owed.board_version is not None and version >= owed.board_version
    return replace(rest, board_version=None if done else owed.board_version)


def private_text_sent(owed: Owed, user_id: int, text: Message) -> Owed:
    """Strike off a private text once sent (or refused for good)."""
    left = list(owed.private_texts)
    if (user_id, text) in left:
        left.remove((user_id, text))
    return replace(owed, private_texts=tuple(left))


def notes_for(owed: Owed, user_id: int) -> tuple[Message, ...]:
    """The lines owed to a player's live message."""
    return tuple(text for u, text in owed.notes if u == user_id)


def private_sent(owed: Owed, user_id: int, *, fresh: bool) -> Owed:
    """Strike off a player's live message and its notes (a fresh one also covers an edit)."""
    notes = tuple(n for n in owed.notes if n[0] != user_id)
    if fresh:
        return replace(
            owed,
            fresh=tuple(u for u in owed.fresh if u != user_id),
            edits=tuple(u for u in owed.edits if u != user_id),
            notes=notes,
        )
    return replace(owed, edits=tuple(u for u in owed.edits if u != user_id), notes=notes)


BACKOFF_FIRST = 1.0
BACKOFF_MAX = 300.0


def first_sends(owed: Owed, group: int) -> tuple[int, ...]:
    """The chats whose next item is likely a new message (the group's text, replay or board;
    a player's new live message or text of their own): a delivery notes their floors (the
    sent-message ledger's highest id) with its lease instead of in a trip before each send."""
    deleting = {chat for chat, _ in owed.deletions}  # (those delete first)
    group_sends = owed.texts or owed.replays or owed.board_version is not None
    users = (*owed.fresh, *(user for user, _ in owed.private_texts))
    chats = ((group,) if group_sends else ()) + users
    return tuple(c for c in dict.fromkeys(chats) if c not in deleting)


def waiting(owed: Owed, chat_id: int, now: float) -> bool:
    """True while a chat must not be tried again yet."""
    return any(c == chat_id and until > now for c, until, _ in owed.waits)


def wait(owed: Owed, chat_id: int, now: float, retry_after: float | None) -> Owed:
    """A chat's call failed for a passing reason: try it again after `retry_after` (Telegram's
    or the budget's) or an exponential back-off (1 s, 2 s, 4 s... at most 5 minutes)."""
    attempts = next((n for c, _, n in owed.waits if c == chat_id), 0) + 1
    delay = retry_after if retry_after is not None else BACKOFF_FIRST * 2 ** (attempts - 1)
    until = now + min(max(delay, 0.0), BACKOFF_MAX)
    rest = tuple(w for w in owed.waits if w[0] != chat_id)
    return replace(owed, waits=(*rest, (chat_id, until, attempts)))


def attempts_in(owed: Owed, chat_id: int) -> int:
    """How many calls to a chat failed in a row."""
    return next((n for c, _, n in owed.waits if c == chat_id), 0)


def went_through(owed: Owed, chat_id: int) -> Owed:
    """A call to a chat worked: it no longer waits (the same `owed` when it did not wait: the
    common case, and `replace` is the costly part of a delivery's bookkeeping)."""
    if all(w[0] != chat_id for w in owed.waits):
        return owed
    return replace(owed, waits=tuple(w for w in owed.waits if w[0] != chat_id))


def doubt(owed: Owed, chat_id: int, floor: int) -> Owed:
    """A send to a chat timed out; every message of the bot's after `floor` that delivery did
    not record may be its copy (the earliest floor is kept)."""
    known = next((f for c, f in owed.uncertain if c == chat_id), None)
    if known is not None and known <= floor:
        return owed
    rest = tuple(u for u in owed.uncertain if u[0] != chat_id)
    return replace(owed, uncertain=(*rest, (chat_id, floor)))


def doubt_in(owed: Owed, chat_id: int) -> int | None:
    """The floor of a chat's timed-out send, if any."""
    return next((f for c, f in owed.uncertain if c == chat_id), None)


def settled(owed: Owed, chat_id: int) -> Owed:
    """A chat's timed-out send was reconciled."""
    return replace(owed, uncertain=tuple(u for u in owed.uncertain if u[0] != chat_id))


def lines_shown(owed: Owed, lines: Sequence[Message], *, start: int) -> Owed:
    """Strike off the first board lines once a text showed them (the board shows the rest),
    read when `lines_struck` was `start`."""
    return _strike_lines(owed, lines, start)


def group_dropped(owed: Owed) -> Owed:
    """The group is gone (the bot was removed, the chat deleted): nothing more goes there (the
    game's archive is still owed: it goes to the store, not to the group)."""
    replays = tuple(r for r in owed.replays if r == END)
    struck = owed.lines_struck + units(owed.board_lines)
    return replace(
        owed,
        texts=(),
        board_lines=(),
        lines_struck=struck,
        board_version=None,
        lobby_text=None,
        lobby_redraw=False,
        board_keyboard=False,
        replays=replays,
    )
