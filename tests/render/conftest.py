"""Golden PNGs for the renderer, compared with a tolerance; `pytest --regen-golden` rewrites them.

The `--regen-golden` option itself is declared once for every test folder in tests/conftest.py.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from render import to_png
from render.png import to_palette

GOLDEN = Path(__file__).parent / "golden"
OUTPUT = Path(__file__).parent / "_output"  # git-ignored: what a failing test drew

# Mean absolute difference per channel (0-255) allowed between a picture and its golden file:
# room for font rasteriser noise; one 64-pixel cell drawn differently on a board already gives
# about 0.5.
MAX_MEAN_DIFFERENCE = 0.2


def mean_difference(actual: Image.Image, expected: Image.Image) -> float:
    """Mean absolute pixel difference over the RGB channels (0 for identical pictures)."""
    diff = ImageChops.difference(actual.convert("RGB"), expected.convert("RGB"))
    return sum(ImageStat.Stat(diff).mean) / 3


def assert_image_similar(
    actual: Image.Image, expected: Image.Image, max_mean: float = MAX_MEAN_DIFFERENCE
) -> None:
    """Fail unless both pictures have the same size and differ by at most `max_mean` on average."""
    assert actual.size == expected.size, f"size {actual.size} != golden {expected.size}"
    diff = mean_difference(actual, expected)
    assert diff <= max_mean, f"mean pixel difference {diff:.3f} > {max_mean}"


Golden = Callable[[str, Image.Image], None]


@pytest.fixture
def golden(request: pytest.FixtureRequest) -> Golden:
    """Compare a picture with tests/render/golden/<name>.png, or write it with --regen-golden."""
    regen = bool(request.config.getoption("--regen-golden", default=False))

    def check(name: str, image: Image.Image) -> None:
        path = GOLDEN / f"{name}.png"
        if regen:
            GOLDEN.mkdir(exist_ok=True)
            path.write_bytes(to_png(image))
            return
        if not path.exists():
            pytest.fail(f"missing golden {path}: run `pytest tests/render --regen-golden`")
        # Compare what would be sent: the picture in the fixed palette.
        actual = to_palette(image).convert("RGB")
        try:
            with Image.open(path) as expected:
                assert_image_similar(actual, expected)
        except AssertionError as exc:
            OUTPUT.mkdir(exist_ok=True)
            drawn = OUTPUT / f"{name}.png"
            drawn.write_bytes(to_png(image))
            raise AssertionError(
                f"{name}: {exc}; drawn now: {drawn}; if the change is wanted, "
                "run `pytest tests/render --regen-golden` and review the PNGs"
            ) from None

    return check
