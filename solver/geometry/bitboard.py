"""Sets of cells as Python-int bitboards: bit ``i`` set = cell ``i`` in the set."""

from __future__ import annotations

from collections.abc import Iterable, Iterator


def bits(mask: int) -> Iterator[int]:
    """The cells of ``mask`` in ascending order."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(cells: Iterable[int]) -> int:
    """The bitboard holding ``cells``."""
    mask = 0
    for cell in cells:
        mask |= 1 << cell
    return mask
