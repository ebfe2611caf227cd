"""Cell labels shared by the board images, the bot's keyboards and its texts.

Columns are letters and rows are numbers, spreadsheet style, placed so that the start card is
E3 and the goals are M1, M3 and M5. Labels hang on the cell's coordinates, never on what is dug,
so a cell keeps its name for the whole round however the maze grows; and no name looks negative:

- column: x = -4 is A, so the start column (x = 0) is E and the goal column (x = 8) is M; Z is
  x = 21. East of Z the letters go on as in a spreadsheet: AA, AB, ... (x = 22, 23, ...). West
  of A the letters go on leftwards with a prime: A′ is x = -5, B′ is x = -6, ..., Z′, AA′.
- row: the number y + 3 (north is up, y grows southward), so the top goal row is 1 and the
  start row is 3. North of row 1 the numbers go on upwards with a prime: 1′ is y = -3 (just
  north of row 1), 2′ is y = -4, and so on.

A cell is its column then its row: E3, M1, A′3, E1′. Parsing ignores case and spaces and takes
an apostrophe (') for the prime.
"""

from __future__ import annotations

import re

from engine import Coord

START_COLUMN = 4  # the start card's column index: A=0, so E
START_ROW = 3

_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
PRIME = "′"
_CELL = re.compile(r"([A-Z]{1,3})(′?)([0-9]{1,4})(′?)")


def _letters(n: int) -> str:
    """Bijective base-26 letters of n >= 0: 0 is A, 25 is Z, 26 is AA."""
    out = ""
    n += 1
    while n:
        n, r = divmod(n - 1, 26)
        out = _LETTERS[r] + out
    return out


def _number(letters: str) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + _LETTERS.index(ch) + 1
    return n - 1


def column_label(x: int) -> str:
    """The letters of a column: A for x = -4, E for the start column, M for the goals."""
    i = x + START_COLUMN
    return _letters(i) if i >= 0 else _letters(-i - 1) + PRIME


def row_label(y: int) -> str:
    """The number of a row: y + 3, so the start row is 3 and the goals lie in rows 1, 3, 5;
    north of row 1, 1′, 2′, ..."""
    n = y + START_ROW
    return str(n) if n >= 1 else f"{1 - n}{PRIME}"


def cell_label(at: Coord) -> str:
    """The label of a cell, column then row: the start is E3."""
    return column_label(at[0]) + row_label(at[1])


def parse_cell_label(text: str) -> Coord | None:
    """The cell of a label such as "E3", "m5" or "A′1′"; None when the text is not a label."""
    m = _CELL.fullmatch("".join(text.split()).upper().replace("'", PRIME))
    if m is None:
        return None
    letters, west, digits, north = m.groups()
    i = _number(letters)
    x = (-i - 1 if west else i) - START_COLUMN
    row = int(digits)
    if north:
        if row < 1 or digits.startswith("0"):
            return None
        return x, 1 - row - START_ROW
    if row < 1 or digits.startswith("0"):
        return None
    return x, row - START_ROW
