"""Cell names: column letters ``a``…``z``, ``aa``, ``ab``… and 1-based row numbers.

``(row, col)`` are 0-based everywhere in code; names are what users see: ``d7``
is column 3, row 6.
"""

from __future__ import annotations

import re

_NAME = re.compile(r"^([a-z]+)([1-9][0-9]*)$")


def column_name(col: int) -> str:
    """0-based column index → letters (bijective base 26: 0→a, 25→z, 26→aa)."""
    if col < 0:
        raise ValueError(f"negative column {col}")
    letters = ""
    n = col + 1
    while n:
        n, rem = divmod(n - 1, 26)
        letters = chr(ord("a") + rem) + letters
    return letters


def column_index(letters: str) -> int:
    """Letters → 0-based column index; inverse of :func:`column_name`."""
    n = 0
    for ch in letters:
        n = n * 26 + (ord(ch) - ord("a") + 1)
    return n - 1


def cell_name(row: int, col: int) -> str:
    """0-based ``(row, col)`` → name such as ``d7``."""
    return f"{column_name(col)}{row + 1}"


def parse_cell(name: str) -> tuple[int, int]:
    """Name → 0-based ``(row, col)``; raise ValueError for anything that is not a cell name."""
    match = _NAME.match(name.strip())
    if not match:
        raise ValueError(f"'{name}' is not a cell name (column letters, then row number: 'd7')")
    return int(match.group(2)) - 1, column_index(match.group(1))
