"""At the bot boundary: the round replays a group gets show what it saw, and nothing hidden.

Seeded games are played through the use cases with the real animator; the test keeps, move by
move, the public view of each saved state (what the group's board showed) and, at each round
end, what the round end revealed. Each GIF the group received must be, frame for frame, the
replay of exactly those views, and a goal seen only with a map stays face down in every frame.
"""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageSequence

from engine import Edition, PublicView
from engine.events import MapUsed
from render.replay import replay_frames, replay_layout
from tgbot.animations import Animations

from .conftest import ANN, BOB, CAT, DAN, EVE, GROUP, Table
from .games import Seen, play_to_end, start

MAX_BYTES = 1024 * 1024


def _decoded(data: bytes) -> list[Image.Image]:
    with Image.open(io.BytesIO(data)) as image:
        return [f.convert("RGB") for f in ImageSequence.Iterator(image)]


def _expected(views: list[PublicView], frames: list[Image.Image]) -> list[bytes]:
    """The frames a replay of these views (drawn as `frames`) must hold: one per change of the
    board."""
    kept = [i for i, v in enumerate(views) if i == 0 or v.board != views[i - 1].board]
    return [frames[i].convert("RGB").tobytes() for i in kept]


async def _check(edition: Edition, players: tuple[int, ...], seed: int) -> int:
    """Play one game; check its replays; the number of goal cells checked face down."""
    table = Table(animator=Animations())
    gid = await start(table, players, edition)
    seen = Seen()
    await play_to_end(table, gid, seed, seen=seen)
    sent = [m for m in table.sender.messages if m.chat_id == GROUP and m.kind == "animation"]
    assert len(sent) == 3
    peeked = [{e.at for e in events if isinstance(e, MapUsed)} for events in seen.events]
    checked = 0
    for number, message in enumerate(sent, start=1):
        data = table.sender.animations[message.message_id]
        assert data[:6] == b"GIF89a" and len(data) <= MAX_BYTES
        views = seen.views[number]
        decoded = _decoded(data)
        frames = replay_frames(views)  # drawn once a round, not once more per peeked goal
        assert [d.tobytes() for d in decoded] == _expected(views, frames)
        revealed = {g.at for g in views[-1].board.goals if g.revealed}
        lay = replay_layout(views)
        for at in set().union(*peeked) - revealed:
            # Every goal is face down as dealt: the cell looks as in the first frame throughout.
            x, y = lay.corner(at)
            box = (x, y, x + lay.cell, y + lay.cell)
            back = decoded[0].crop(box).tobytes()
            framed = {  # the goal's back framed as the last move, right after the map
                frames[i].convert("RGB").crop(box).tobytes()
                for i, v in enumerate(views)
                if v.board.last_at == at
            }
            assert len(framed) <= 1  # the same frame whatever lies under the goal
            assert all(d.crop(box).tobytes() in {back, *framed} for d in decoded), (number, at)
            checked += 1
    return checked


@pytest.mark.parametrize(
    ("edition", "players", "seed"),
    [
        (Edition.BASE, (ANN, BOB, CAT, DAN), 5),
        pytest.param(Edition.DELUXE, (ANN, BOB, CAT, DAN, EVE), 6, marks=pytest.mark.slow),
    ],
)
async def test_the_group_s_replays_are_its_own_views_frame_for_frame(
    edition: Edition, players: tuple[int, ...], seed: int
) -> None:
    assert await _check(edition, players, seed) > 0, "some goal was looked at, never reached"


@pytest.mark.slow
async def test_over_many_seeded_games_no_peeked_goal_shows_in_a_replay() -> None:
    checked = 0
    for seed in range(10, 16):
        for edition, players in ((Edition.BASE, (ANN, BOB, CAT)), (Edition.DELUXE, (ANN, BOB))):
            checked += await _check(edition, players, seed)
    assert checked > 0
