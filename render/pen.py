"""Antialiased drawing in unit coordinates: shapes are drawn four times larger, then shrunk."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PIL import Image, ImageDraw

from .style import RGB, font

SUPERSAMPLE = 4
RGBA = tuple[int, int, int, int]
Point = tuple[float, float]


class Pen:
    """Draws on a supersampled canvas; x and y run from 0 to 1 across it, sizes are in x units."""

    def __init__(self, draw: ImageDraw.ImageDraw, width: int, height: int) -> None:
        self.draw = draw
        self.w = width
        self.h = height

    def _xy(self, x: float, y: float) -> tuple[float, float]:
        return x * self.w, y * self.h

    def _box(self, x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
        return x0 * self.w, y0 * self.h, x1 * self.w - 1, y1 * self.h - 1

    def rect(
        self,
        x0: float,
        y0: float,
        x1: float,
        y1: float,
        fill: RGB | None,
        *,
        outline: RGB | None = None,
        width: float = 0.0,
        radius: float = 0.0,
    ) -> None:
        """A rectangle, rounded when `radius` > 0."""
        box = self._box(x0, y0, x1, y1)
        px = max(1, round(width * self.w)) if outline else 0
        if radius:
            self.draw.rounded_rectangle(
                box, radius=radius * self.w, fill=fill, outline=outline, width=px
            )
        else:
            self.draw.rectangle(box, fill=fill, outline=outline, width=px)

    def ellipse(
        self,
        cx: float,
        cy: float,
        rx: float,
        ry: float | None = None,
        *,
        fill: RGB | None,
        outline: RGB | None = None,
        width: float = 0.0,
    ) -> None:
        """An ellipse around a centre; radii in x units."""
        ry = rx if ry is None else ry
        box = (cx * self.w - rx * self.w, cy * self.h - ry * self.w)
        box2 = (cx * self.w + rx * self.w, cy * self.h + ry * self.w)
        px = max(1, round(width * self.w)) if outline else 0
        self.draw.ellipse((*box, *box2), fill=fill, outline=outline, width=px)

    def polygon(
        self,
        points: Sequence[Point],
        fill: RGB | None,
        *,
        outline: RGB | None = None,
        width: float = 0.0,
    ) -> None:
        """A filled polygon."""
        px = max(1, round(width * self.w)) if outline else 0
        self.draw.polygon([self._xy(x, y) for x, y in points], fill=fill, outline=outline, width=px)

    def line(self, points: Sequence[Point], fill: RGB, width: float) -> None:
        """A polyline with joined corners."""
        self.draw.line(
            [self._xy(x, y) for x, y in points],
            fill=fill,
            width=max(1, round(width * self.w)),
            joint="curve",
        )

    def arc(
        self, cx: float, cy: float, radius: float, start: float, end: float, fill: RGB, width: float
    ) -> None:
        """An arc of a band `width` wide centred on `radius` (angles clockwise from east)."""
        outer = (radius + width / 2) * self.w
        x, y = self._xy(cx, cy)
        self.draw.arc(
            (x - outer, y - outer, x + outer, y + outer),
            start,
            end,
            fill=fill,
            width=max(1, round(width * self.w)),
        )

    def text(
        self, cx: float, cy: float, text: str, size: float, fill: RGB, *, bold: bool = True
    ) -> None:
        """Text centred on a point; size in x units."""
        f = font(max(4, round(size * self.w)), bold=bold)
        self.draw.text(self._xy(cx, cy), text, font=f, fill=fill, anchor="mm")


def painted(
    size: tuple[int, int], paint: Callable[[Pen], None], background: RGBA = (0, 0, 0, 0)
) -> Image.Image:
    """An RGBA image of `size` painted by `paint` at four times the size and shrunk smoothly."""
    w, h = size[0] * SUPERSAMPLE, size[1] * SUPERSAMPLE
    big = Image.new("RGBA", (w, h), background)
    paint(Pen(ImageDraw.Draw(big), w, h))
    return big.resize(size, Image.Resampling.BOX)
