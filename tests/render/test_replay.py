"""The round's replay (render/replay.py): public frames only, each the group's board of its view.

The leak tests prove it twice: by structure (the function takes public views and nothing else)
and by content (every frame is the render of a public view; a goal peeked with a map but never
revealed is face down in every frame, where the peeking player's own board shows it).
"""

from __future__ import annotations

import dataclasses
import inspect
import io
import typing
from collections.abc import Sequence
from functools import lru_cache

import pytest
from PIL import Image, ImageSequence

from engine import Edition, GameState, PublicView, player_view, public_view
from engine.archive import Played, RoundReplay, public_rounds
from engine.events import MapUsed, RockfallPlayed
from engine.model import Goal
from render import render_round_replay
from render.board import _board_image
from render.png import to_palette
from render.replay import replay_frames, replay_layout

from ..engine.playout import Step, played, playout

# (edition, seed, dig, round): rounds with maps on goals that stay face down, rockfalls, goals
# reached; one base round runs to the last card (67 moves), one Deluxe round ends on the gold.
ROUNDS = [
    (Edition.BASE, 1, 0.7, 1),
    (Edition.DELUXE, 5, 0.7, 2),
    (Edition.BASE, 5, 0.7, 1),
]
RIDS = [f"{e.value}-seed{s}-round{r}" for e, s, _, r in ROUNDS]
MAX_BYTES = 1024 * 1024


@lru_cache(maxsize=8)
def _game(edition: Edition, seed: int, dig: float) -> tuple[Step, ...]:
    return played(5, edition, seed, dig)


def _round(edition: Edition, seed: int, dig: float, number: int) -> tuple[RoundReplay, list[Step]]:
    steps = _game(edition, seed, dig)
    rounds = public_rounds(Played(s.before, s.player, s.action, s.transition) for s in steps)
    inside = [s for s in steps if s.before.round == number]
    return rounds[number - 1], inside


def _reference(view: PublicView, frames: Sequence[PublicView]) -> Image.Image:
    """The group's board of one view as render/board.py draws it, on the replay's layout."""
    lay = replay_layout(frames)
    image, _ = _board_image(view, view.board, None, private=False, max_width=0, lay=lay)
    return to_palette(image).convert("RGB")


def _decoded(data: bytes) -> list[Image.Image]:
    with Image.open(io.BytesIO(data)) as image:
        return [f.convert("RGB") for f in ImageSequence.Iterator(image)]


def _distinct(views: Sequence[PublicView]) -> list[int]:
    return [i for i, v in enumerate(views) if i == 0 or v.board != views[i - 1].board]


def test_the_replay_takes_public_views_and_nothing_else() -> None:
    """Structurally: the one positional parameter is a sequence of PublicView."""
    signature = inspect.signature(render_round_replay)
    hints = typing.get_type_hints(render_round_replay)
    positional = [p for p in signature.parameters.values() if p.kind is p.POSITIONAL_OR_KEYWORD]
    assert [p.name for p in positional] == ["frames"]
    assert hints["frames"] == Sequence[PublicView]
    assert all(
        p.kind is p.KEYWORD_ONLY and hints[p.name] in (int, typing.Literal["gif", "webp"])
        for p in signature.parameters.values()
        if p.name != "frames"
    )


@pytest.mark.parametrize(("edition", "seed", "dig", "number"), ROUNDS, ids=RIDS)
def test_every_frame_is_the_render_of_its_public_view(
    edition: Edition, seed: int, dig: float, number: int
) -> None:
    """Frame by frame, the replay is render/board.py's group board of the view, pixel for
    pixel; the GIF holds exactly the frames where the board changed, the round end last."""
    r, _ = _round(edition, seed, dig, number)
    frames = replay_frames(r.views)
    assert len(frames) == len(r.views)
    for view, frame in zip(r.views, frames, strict=True):
        assert frame.convert("RGB").tobytes() == _reference(view, r.views).tobytes()
    data = render_round_replay(r.views)
    assert data[:6] == b"GIF89a" and len(data) <= MAX_BYTES
    decoded = _decoded(data)
    kept = _distinct(r.views)
    assert len(decoded) == len(kept)
    for i, image in zip(kept, decoded, strict=True):
        assert image.tobytes() == frames[i].convert("RGB").tobytes()


def test_the_rounds_cover_what_a_replay_must_draw() -> None:
    """The rounds above hold rockfalls, goals reached, and maps on goals never revealed."""
    moves = [m for e, s, d, n in ROUNDS for m in _round(e, s, d, n)[0].moves]
    assert any(isinstance(ev, RockfallPlayed) for m in moves for ev in m)
    ends = [_round(e, s, d, n)[0].views[-1].board for e, s, d, n in ROUNDS]
    assert all(any(g.revealed for g in b.goals) for b in ends)
    assert all(_peeked_never_revealed(_round(e, s, d, n)[0]) for e, s, d, n in ROUNDS)


def _peeked_never_revealed(r: RoundReplay) -> set[tuple[int, int]]:
    peeked = {ev.at for m in r.moves for ev in m if isinstance(ev, MapUsed)}
    return peeked - {g.at for g in r.views[-1].board.goals if g.revealed}


@pytest.mark.parametrize(("edition", "seed", "dig", "number"), ROUNDS, ids=RIDS)
def test_a_goal_only_peeked_stays_face_down_in_every_frame(
    edition: Edition, seed: int, dig: float, number: int
) -> None:
    """The cell of a goal seen with a map but never reached shows the goal's back in every
    decoded frame (framed as the last move right after the map), while the peeking player's own
    board of the same moment shows the card."""
    r, steps = _round(edition, seed, dig, number)
    lay = replay_layout(r.views)
    decoded = _decoded(render_round_replay(r.views))
    for at in _peeked_never_revealed(r):
        x, y = lay.corner(at)
        box = (x, y, x + lay.cell, y + lay.cell)
        back = _reference(r.views[0], r.views).crop(box).tobytes()
        framed = {
            _reference(v, r.views).crop(box).tobytes() for v in r.views if v.board.last_at == at
        }
        assert len(framed) <= 1  # the same frame whatever lies under the goal
        assert all(image.crop(box).tobytes() in {back, *framed} for image in decoded)
        peek = next(s for s in steps if any(getattr(e, "at", None) == at for e in _maps(s)))
        after = peek.transition.state
        own = player_view(after, peek.player)
        mine, _ = _board_image(own.public, own.board, None, private=True, max_width=0, lay=lay)
        assert to_palette(mine).convert("RGB").crop(box).tobytes() != back


def _maps(step: Step) -> list[MapUsed]:
    return [e for e in step.transition.events if isinstance(e, MapUsed)]


def _secrets_changed(state: GameState) -> GameState:
    """The same public position with the face-down goals swapped round and the deck reversed."""
    hidden = [g.card for g in state.goals if not g.revealed]
    turned = hidden[1:] + hidden[:1]
    goals = tuple(g if g.revealed else Goal(g.at, turned.pop(0)) for g in state.goals)
    return dataclasses.replace(state, goals=goals, deck=tuple(reversed(state.deck)), cache={})


def test_secrets_do_not_change_a_byte_of_the_replay() -> None:
    """Views of positions that differ only in hidden goals and the deck's order: same bytes."""
    r, steps = _round(Edition.BASE, 1, 0.7, 1)
    views = [public_view(_secrets_changed(s.before)) for s in steps] + [r.views[-1]]
    assert [g.card for g in _secrets_changed(steps[0].before).goals] != [
        g.card for g in steps[0].before.goals
    ]
    assert render_round_replay(views) == render_round_replay(r.views)


def test_durations_and_the_webp_variant() -> None:
    """The first and last frames stay longer; WebP gives the same number of frames."""
    r, _ = _round(Edition.BASE, 5, 0.7, 1)
    data = render_round_replay(r.views, first_ms=900, move_ms=300, last_ms=4000)
    with Image.open(io.BytesIO(data)) as image:
        durations = []
        for frame in ImageSequence.Iterator(image):
            durations.append(frame.info["duration"])
    assert durations[0] == 900 and durations[-1] == 4000 and set(durations[1:-1]) == {300}
    webp = render_round_replay(r.views, image_format="webp")
    assert webp[:4] == b"RIFF" and webp[8:12] == b"WEBP"
    assert len(_decoded(webp)) == len(durations)


def test_no_views_is_an_error() -> None:
    """A replay needs at least one view."""
    with pytest.raises(ValueError):
        render_round_replay([])


@pytest.mark.slow
def test_a_long_round_renders_within_a_megabyte() -> None:
    """1 MB for a round of 60 moves and more (its time, within 1 s here, is printed by
    bench/render.py: a test never checks wall-clock time)."""
    for edition, seed, dig, number in ((Edition.DELUXE, 6, 0.9, 2), (Edition.DELUXE, 7, 0.9, 2)):
        r, _ = _round(edition, seed, dig, number)
        assert len(r.moves) >= 60
        data = render_round_replay(r.views)
        assert len(data) <= MAX_BYTES


@pytest.mark.slow
@pytest.mark.parametrize("edition", list(Edition))
def test_seeded_replays_show_only_what_the_group_saw(edition: Edition) -> None:
    """Over many seeded rounds: each frame is its public view's board, and no goal seen only
    with a map is ever drawn face up."""
    checked = 0
    for seed in range(20, 26):
        steps = tuple(playout(5, edition, seed, dig=0.8))
        for r in public_rounds(Played(s.before, s.player, s.action, s.transition) for s in steps):
            lay = replay_layout(r.views)
            frames = replay_frames(r.views)
            for view, frame in zip(r.views, frames, strict=True):
                assert frame.convert("RGB").tobytes() == _reference(view, r.views).tobytes()
            decoded = _decoded(render_round_replay(r.views))
            back = _reference(r.views[0], r.views)
            for at in _peeked_never_revealed(r):
                x, y = lay.corner(at)
                box = (x, y, x + lay.cell, y + lay.cell)
                seen = {back.crop(box).tobytes()} | {
                    _reference(v, r.views).crop(box).tobytes()
                    for v in r.views
                    if v.board.last_at == at  # the goal's back framed as the last move
                }
                assert len(seen) <= 2
                assert all(d.crop(box).tobytes() in seen for d in decoded)
                checked += 1
    assert checked > 0
