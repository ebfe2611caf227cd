"""Cell labels: the start is E3, the goals M1, M3, M5, and every label reads back to its cell."""

from __future__ import annotations

import pytest

from engine.cards import GOAL_SPOTS, START_AT
from render import cell_label, column_label, parse_cell_label, row_label


def test_start_and_goals_have_their_familiar_labels() -> None:
    """The start is E3 and the goals, north to south, are M1, M3 and M5."""
    assert cell_label(START_AT) == "E3"
    assert [cell_label(g) for g in GOAL_SPOTS] == ["M1", "M3", "M5"]


@pytest.mark.parametrize(
    ("x", "label"),
    [
        (-4, "A"),
        (0, "E"),
        (8, "M"),
        (21, "Z"),
        (22, "AA"),
        (23, "AB"),
        (-5, "A′"),
        (-6, "B′"),
        (-30, "Z′"),
        (-31, "AA′"),
    ],
)
def test_columns_are_letters_with_a_at_minus_four(x: int, label: str) -> None:
    """Columns run A..Z from x = -4, then AA, AB...; west of A they go on leftwards as A′, B′..."""
    assert column_label(x) == label


@pytest.mark.parametrize(
    ("y", "label"), [(-2, "1"), (0, "3"), (2, "5"), (-3, "1′"), (-5, "3′"), (30, "33")]
)
def test_rows_are_numbers_y_plus_three(y: int, label: str) -> None:
    """Rows are y + 3; north of row 1 they go on upwards as 1′, 2′..."""
    assert row_label(y) == label


def test_no_label_looks_negative_or_is_zero() -> None:
    """However far the maze grows, a name has no minus sign and no row 0."""
    for x in range(-60, 60):
        assert "-" not in column_label(x)
    for y in range(-40, 40):
        assert "-" not in row_label(y)
        assert row_label(y).rstrip("′") != "0"


def test_every_label_reads_back_to_its_cell() -> None:
    """parse_cell_label(cell_label(at)) == at over a wide area, both sides of A and of row 0."""
    for x in range(-60, 720, 7):
        for y in range(-30, 40):
            assert parse_cell_label(cell_label((x, y))) == (x, y)


@pytest.mark.parametrize(
    ("text", "at"),
    [("e3", (0, 0)), (" M 5 ", (8, 2)), ("a′1′", (-5, -3)), ("AA2'", (22, -4)), ("b'3", (-6, 0))],
)
def test_parsing_ignores_case_and_spaces(text: str, at: tuple[int, int]) -> None:
    """Typed labels are accepted in either case and with stray spaces."""
    assert parse_cell_label(text) == at


@pytest.mark.parametrize(
    "text",
    [
        "",
        "E",
        "3",
        "3E",
        "E3x",
        "É3",
        "E+3",
        "-A3",
        "E-1",
        "E0",
        "E0′",
        "E03",
        "A′′3",
        "ABCD1",
        "E12345",
    ],
)
def test_other_text_is_not_a_label(text: str) -> None:
    """Anything that is not letters then a number gives None."""
    assert parse_cell_label(text) is None
