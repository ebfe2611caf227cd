"""Announcements owed by a saved move, kept in the game's record until they are delivered.

A move is saved together with what it owes the chats (group texts, a board post, private
messages), in one compare-and-set write; a deliverer then sends them and strikes each off with
another compare-and-set write. If a process dies in between, the owed announcements are still
in Redis and whichever process runs next delivers them. Owed board posts coalesce: a later move
raises the version the board must show and adds its lines, so one post covers both.

`replays` is the work of the game's record of itself (tgbot/usecases/replays.py): a round's
number owes the group that round's animated replay; `END` owes the game's archive (and its
statistics, counted once) and, for a finished game, the game-end message.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

END = 0  # in `Owed.replays`: the game's end (archive, statistics, the game-end message)


@dataclass(frozen=True, slots=True)
class Owed:
    """What a game still owes its chats."""

    texts: tuple[str, ...] = ()  # group texts in order (round and game summaries, notices)
    board_lines: tuple[str, ...] = ()  # caption lines of moves not yet shown on a board post
    board_version: int | None = None  # a board post showing at least this version is owed
    fresh: tuple[int, ...] = ()  # players owed a new, notifying live message
    edits: tuple[int, ...] = ()  # players whose live message must be redrawn
    deletions: tuple[tuple[int, int], ...] = ()  # (chat, message) replaced by a newer post
    notes: tuple[tuple[int, str], ...] = ()  # (player, line) shown once on their live message
    replays: tuple[int, ...] = ()  # round replays owed to the group, then END (see above)

    @property
    def is_empty(self) -> bool:
        """True when nothing is owed."""
        return not (
            self.texts
            or self.board_version is not None
            or self.fresh
            or self.edits
            or self.deletions
            or self.replays
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
    texts: Sequence[str] = (),
    lines: Sequence[str] = (),
    board_version: int | None = None,
    fresh: Iterable[int] = (),
    edits: Iterable[int] = (),
    notes: Sequence[tuple[int, str]] = (),
    replays: Sequence[int] = (),
) -> Owed:
    """Add a move's announcements to what is owed (coalescing board posts)."""
    all_fresh = _union(owed.fresh, fresh)
    noted = [u for u, _ in notes if u not in all_fresh]
    edits = (*edits, *noted)
    version = owed.board_version
    if board_version is not None:
        version = board_version if version is None else max(version, board_version)
    return Owed(
        texts=(*owed.texts, *texts),
        board_lines=(*owed.board_lines, *lines),
        board_version=version,
        fresh=all_fresh,
        edits=tuple(u for u in _union(owed.edits, edits) if u not in all_fresh),
        deletions=owed.deletions,
        notes=(*owed.notes, *notes),
        replays=(*owed.replays, *(r for r in replays if r not in owed.replays)),
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


def text_sent(owed: Owed, text: str) -> Owed:
    """Strike off the first owed text once it was sent."""
    if owed.texts[:1] == (text,):
        return replace(owed, texts=owed.texts[1:])
    return owed


def board_posted(owed: Owed, version: int, lines: Sequence[str]) -> Owed:
    """Strike off a board post showing `version` with `lines` (later moves stay owed)."""
    shown = len(lines) if tuple(owed.board_lines[: len(lines)]) == tuple(lines) else 0
    rest = owed.board_lines[shown:]
    done = owed.board_version is not None and version >= owed.board_version
    return replace(owed, board_lines=rest, board_version=None if done else owed.board_version)


def notes_for(owed: Owed, user_id: int) -> tuple[str, ...]:
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
