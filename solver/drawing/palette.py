"""Colours every picture shares: players' colours and ink that stays readable on them."""

from __future__ import annotations

from matplotlib.colors import to_rgb

PLAYER: dict[str, str] = {
    "red": "#d7261e", "yellow": "#f4c20d", "blue": "#1f50c8", "green": "#2e9a3e",
    "purple": "#8e3bb0", "black": "#202020", "white": "#f4f4f4", "neutral": "#b8b8b8",
}
"""Fill colour of a player's pieces, by colour name."""

STONE = "#4a4a4a"
EDGE = "#303030"
GRID_EDGE = "#ffffff"
LABEL = "#555555"
HIGHLIGHT = "#ff7f00"


def luminance(colour: str) -> float:
    """Perceived brightness 0…1 (what a greyscale print keeps of ``colour``)."""
    r, g, b = to_rgb(colour)
    return 0.299 * r + 0.587 * g + 0.114 * b


def ink_on(colour: str) -> str:
    """Black or white, whichever reads better on ``colour``."""
    return "#000000" if luminance(colour) > 0.5 else "#ffffff"


def player(colour: str) -> str:
    """The fill of ``colour``'s pieces (the name itself if it is not a player colour)."""
    return PLAYER.get(colour, colour)
