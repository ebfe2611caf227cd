"""Pillow pictures of Saboteur boards and hands, drawn from engine views only."""

from .board import render_board, render_confirm, render_placement_preview, render_private_board
from .hand import render_hand
from .labels import cell_label, column_label, parse_cell_label, row_label
from .png import to_png
from .replay import render_round_replay
from .style import FontMissingError, check_fonts, use_font_dir

__all__ = [
    "FontMissingError",
    "cell_label",
    "check_fonts",
    "column_label",
    "parse_cell_label",
    "render_board",
    "render_confirm",
    "render_hand",
    "render_placement_preview",
    "render_private_board",
    "render_round_replay",
    "row_label",
    "to_png",
    "use_font_dir",
]
