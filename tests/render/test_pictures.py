"""Encoding and layout properties of the pictures: stable bytes, small palettes, bounded size."""

from __future__ import annotations

import hashlib
import io
import subprocess
import sys
from pathlib import Path

from PIL import Image

from engine import Card, PlaceTunnel, legal_actions, player_view, public_view
from render import render_board, render_hand, render_placement_preview, to_png
from render.board import layout
from render.style import drawable

from . import boards as b
from .pngs import decoded

ROOT = Path(__file__).resolve().parents[2]


def test_same_view_gives_same_pixels_in_another_process() -> None:
    """The palette and tiles are rebuilt identically by a fresh interpreter (pixels and palette
    compared: ISA-L may, rarely, deflate the same rows to other bytes)."""
    script = (
        "import hashlib, io; from PIL import Image; from engine import public_view, new_game; "
        "from render import render_board, to_png; "
        "v = public_view(new_game([1, 2, 3, 4, 5], seed=1)); "
        "names = {1: 'Alice', 2: 'Bob', 3: 'Chloé', 4: 'Dmitri', 5: 'Eun'}; "
        "i = Image.open(io.BytesIO(to_png(render_board(v, names=names)))); "
        "print(hashlib.sha256(repr((i.mode, i.size, i.getpalette())).encode() + i.tobytes())"
        ".hexdigest())"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    mode, size, pixels, colours = decoded(
        to_png(render_board(public_view(b.base()), names=b.NAMES))
    )
    here = hashlib.sha256(repr((mode, size, colours)).encode() + pixels).hexdigest()
    assert out.stdout.strip() == here


def test_png_is_a_palette_image_without_metadata() -> None:
    """PNGs are 8-bit palette images carrying no text or time chunks."""
    data = to_png(render_hand([Card.CROSS, Card.MAP]))
    with Image.open(io.BytesIO(data)) as image:
        assert image.mode == "P"
    for chunk in (b"tEXt", b"iTXt", b"zTXt", b"tIME", b"eXIf"):
        assert chunk not in data


def test_a_wide_maze_shrinks_its_cells_to_fit_the_width() -> None:
    """A maze dug far west still fits in max_width, with smaller cells."""
    corridor = "EW " * 24 + "@ . . . . . . . ."
    state = b.board(b.base(), corridor)
    view = public_view(state)
    image = render_board(view, names=b.NAMES, max_width=1280)
    assert image.width <= 1280
    assert layout(view.board, max_width=1280).cell < layout(public_view(b.base()).board).cell


def test_preview_frames_every_spot() -> None:
    """The preview grows to show spots at the ring's edge and draws one number per spot."""
    state = b.holding(b.base(), 1, (Card.CROSS,))
    spots = [a for a in legal_actions(state, 1) if isinstance(a, PlaceTunnel)]
    assert len(spots) == 4
    image = render_placement_preview(player_view(state, 1), spots, names=b.NAMES)
    plain = render_board(public_view(state), names=b.NAMES)
    assert image.size == plain.size
    assert image.tobytes() != plain.tobytes()


def test_empty_hand_is_a_small_empty_picture() -> None:
    """A hand with no card still gives a picture (the strip colour), not an error."""
    image = render_hand([])
    assert image.width > 0 and image.height > 0


def test_names_lose_the_characters_the_font_cannot_draw() -> None:
    """Emoji and joiners are dropped from names rather than drawn as empty boxes."""
    assert drawable("Bob 😀") == "Bob"
    assert drawable("윤지우 🐻\u200d❄️ x") == "윤지우 x"
    assert drawable("😀😀") == ""


def test_a_player_without_a_drawable_name_shows_a_seat_number() -> None:
    """A missing or emoji-only name gives "#seat" instead of an empty chip."""
    view = public_view(b.base())
    emoji_only = render_board(view, names={**b.NAMES, 3: "😀"})
    numbered = render_board(view, names={p: n for p, n in b.NAMES.items() if p != 3})
    assert emoji_only.tobytes() == numbered.tobytes()
    assert emoji_only.tobytes() != render_board(view, names=b.NAMES).tobytes()


def test_a_blocked_cards_marks_stay_on_that_card() -> None:
    """A card that cannot be played is hatched with a no-entry sign on it, and nothing around
    it changes: the hatching stopped at the card to its left, not at its own edge, before."""
    from PIL import ImageChops

    from render.faces import CARD
    from render.hand import GAP, PAD

    cards = [Card.CROSS, Card.MAP, Card.T_NEW, Card.BREAK_CART, Card.STRAIGHT_EW]
    plain = render_hand(cards, highlight=2)
    for i in range(len(cards)):
        marked = render_hand(cards, highlight=2, blocked={i})
        changed = ImageChops.difference(plain, marked).getbbox()
        x = PAD + i * (CARD + GAP)
        assert changed is not None, f"card {i + 1} is not marked"
        left, top, right, _ = changed
        # Within the card's column: the card, and under it its number (dimmed) alone.
        assert x <= left and right <= x + CARD and top >= PAD, (i, changed)


def test_a_hand_drawn_in_the_palette_is_the_mapped_hand() -> None:
    """`render_hand_indexed` (cards mapped once, marks drawn by index) gives the very pixels
    and palette of mapping `render_hand`'s picture, for hands of every size and card, chosen
    and turned cards, and unplayable ones."""
    import random

    from render.hand import render_hand_indexed
    from render.png import to_palette

    rng = random.Random(7)
    for _ in range(120):
        size = rng.randint(0, 7)
        cards = [rng.choice(list(Card)) for _ in range(size)]
        chosen = rng.choice([None, *range(size)])
        turned = chosen is not None and rng.random() < 0.5
        blocked = {i for i in range(size) if rng.random() < 0.3}
        mapped = to_palette(render_hand(cards, highlight=chosen, turned=turned, blocked=blocked))
        drawn = render_hand_indexed(cards, highlight=chosen, turned=turned, blocked=blocked)
        assert drawn.mode == "P" and drawn.size == mapped.size
        assert drawn.getpalette() == mapped.getpalette()
        assert drawn.tobytes() == mapped.tobytes(), (cards, chosen, turned, blocked)
        again = render_hand_indexed(cards, highlight=chosen, turned=turned, blocked=blocked)
        assert again.tobytes() == drawn.tobytes(), (cards, chosen, turned, blocked)


def test_boards_drawn_in_the_palette_are_the_mapped_boards() -> None:
    """`render_board_indexed` and `render_private_board_indexed` give the very pixels and
    palette of mapping the RGB boards: random base and Deluxe rounds of 3 to 12 players,
    Korean and Latin names, rockfalls (rubble blended into the palette picture), peeked goals
    and mazes wide enough for small cells."""
    import random

    from engine import Edition, Rockfall, UseMap, apply, current_player, new_game
    from render.board import (
        render_board_indexed,
        render_private_board,
        render_private_board_indexed,
    )
    from render.png import to_palette

    rng = random.Random(11)
    seen: set[str] = set()
    for game in range(8):
        edition = (Edition.BASE, Edition.DELUXE)[game % 2]
        players = list(range(1, rng.randint(3, 10 if edition is Edition.BASE else 12) + 1))
        names = b.KOREAN if game % 3 else {p: f"P{p}" for p in players}
        state = new_game(players, edition=edition, seed=game + 1)
        for turn in range(160):
            player = current_player(state)
            if player is None:
                break
            actions = list(legal_actions(state, player))
            aimed = [a for a in actions if isinstance(a, Rockfall | UseMap)]
            action = rng.choice(aimed if aimed and rng.random() < 0.3 else actions)
            after = apply(state, player, action).state
            if after.round != state.round:
                break
            state = after
            if turn % 5 and not isinstance(action, Rockfall | UseMap):
                continue
            seen.add(type(action).__name__)
            public = public_view(state)
            mapped = to_palette(render_board(public, names=names))
            drawn = render_board_indexed(public, names=names)
            assert drawn.getpalette() == mapped.getpalette()
            assert drawn.tobytes() == mapped.tobytes(), (game, turn)
            mine = player_view(state, player)
            mapped = to_palette(render_private_board(mine, names=names))
            assert render_private_board_indexed(mine, names=names).tobytes() == mapped.tobytes()
    assert {"Rockfall", "UseMap", "PlaceTunnel"} <= seen


def test_a_strip_drawn_in_the_palette_is_the_mapped_strip_at_any_row() -> None:
    """`strip_indexed` (chips drawn once and kept) gives the pixels of mapping the strip that
    `draw_strip` draws from an even or an odd row of pictures of several widths, the same chip
    kept for later strips."""
    from render.png import to_palette
    from render.strip import draw_strip, strip_height, strip_indexed
    from render.style import BACKGROUND

    views = [public_view(b.dug(b.base(n, seed=n), 4, n)) for n in (3, 7, 10)]
    for view in views + views:  # the second time, the chips come from what was kept
        for width in (600, 873, 1280):
            for top in (0, 1, 7, 100):
                height = strip_height(width, len(view.seats))
                canvas = Image.new("RGB", (width, top + height), BACKGROUND)
                draw_strip(canvas, view, b.KOREAN, top=top)
                mapped = to_palette(canvas.crop((0, top, width, top + height)))
                drawn = strip_indexed(view, b.KOREAN, width, top=top)
                assert drawn.tobytes() == mapped.tobytes(), (len(view.seats), width, top)


def test_previews_and_confirms_drawn_in_the_palette_are_the_mapped_pictures() -> None:
    """The numbered spots of a tunnel card (one or several choices in a cell) or of a
    rockfall, and the chosen move (a ghosted card, a crossed-out card), drawn in the palette:
    the very pixels of mapping the RGB pictures, with and without the strip."""
    import random

    from engine import Edition, Rockfall, apply, current_player, new_game
    from render.board import (
        render_confirm,
        render_confirm_indexed,
        render_placement_preview_indexed,
    )
    from render.png import to_palette

    rng = random.Random(5)
    kinds: set[tuple[str, bool]] = set()
    for game in range(6):
        edition = (Edition.BASE, Edition.DELUXE)[game % 2]
        state = new_game(list(range(1, 3 + game % 5 + 1)), edition=edition, seed=40 + game)
        for _ in range(120):
            player = current_player(state)
            if player is None:
                break
            actions = list(legal_actions(state, player))
            view = player_view(state, player)
            tunnels = [a for a in actions if isinstance(a, PlaceTunnel)]
            same = [a for a in tunnels if tunnels and a.card == tunnels[0].card]
            rocks = [a for a in actions if isinstance(a, Rockfall)]
            groups: tuple[list[PlaceTunnel] | list[Rockfall], ...] = (same, rocks)
            for spots in groups:
                if not spots or rng.random() < 0.7:
                    continue
                names = b.KOREAN if rng.random() < 0.5 else None
                several = len({s.at for s in spots}) < len(spots)
                kinds.add((type(spots[0]).__name__, several))
                mapped = to_palette(render_placement_preview(view, spots, names=names))
                drawn = render_placement_preview_indexed(view, spots, names=names)
                assert drawn.tobytes() == mapped.tobytes(), (game, spots[:2])
                chosen: PlaceTunnel | Rockfall = spots[rng.randrange(len(spots))]
                mapped = to_palette(render_confirm(view, chosen, names=names))
                assert (
                    render_confirm_indexed(view, chosen, names=names).tobytes() == mapped.tobytes()
                )
            after = apply(state, player, rng.choice(actions)).state
            if after.round != state.round:
                break
            state = after
    assert {("PlaceTunnel", False), ("PlaceTunnel", True), ("Rockfall", False)} <= kinds
