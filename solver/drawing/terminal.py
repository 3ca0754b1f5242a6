"""Colours for boards in a terminal: fixed per surface, chosen for the terminal's depth.

Rich turns a 24-bit colour into the nearest of the 16 standard ones on a 16-colour
terminal (``TERM=xterm``), and there most soft tints became the same two greys.
So every surface here is a :class:`Swatch` with two choices made by hand: a
colour of the 256-colour palette (used on 256- and 24-bit terminals) and one of
the 16 standard colours, each with the ink written on it. A :class:`Painted`
renderable builds its lines when printed, for the console's :class:`Depth`;
without colour (``NO_COLOR``, ``--no-color``, a pipe) the same lines print as
plain text, so boards carry their meaning in characters too (markers such as
``[##]``), never in colour alone. Every surface sets its own ink and background,
so nothing depends on the terminal's own background, light or dark. Rich only,
no game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from enum import Enum

from rich.console import Console, ConsoleOptions, RenderableType
from rich.measure import Measurement
from rich.style import Style


class Depth(Enum):
    """How many colours the console shows."""

    NONE = "no colour"
    BASIC = "16 colours"
    FULL = "256 colours or more"


def depth_of(console: Console) -> Depth:
    """The console's depth: ``NONE`` without colour, ``BASIC`` on a 16-colour terminal."""
    system = console.color_system
    if system is None or console.no_color:
        return Depth.NONE
    return Depth.BASIC if system in ("standard", "windows") else Depth.FULL


@dataclass(frozen=True)
class Ink:
    """A foreground colour: a 256-colour palette entry and a standard colour."""

    full: str
    basic: str

    def colour(self, depth: Depth) -> str | None:
        """The colour to use at ``depth`` (None without colour)."""
        return None if depth is Depth.NONE else (
            self.basic if depth is Depth.BASIC else self.full)


@dataclass(frozen=True)
class Swatch:
    """A surface: its background and the ink written on it, at both depths."""

    background: Ink
    ink: Ink

    def style(self, depth: Depth, *, bold: bool = False, ink: Ink | None = None) -> Style:
        """The surface's style at ``depth``; ``ink`` writes in another colour on it."""
        if depth is Depth.NONE:
            return Style(bold=bold)
        return Style(color=(ink or self.ink).colour(depth),
                     bgcolor=self.background.colour(depth), bold=bold)


def swatch(full: int, basic: str, ink: str = "black", basic_ink: str | None = None) -> Swatch:
    """A :class:`Swatch` from a 256-colour palette number and a standard colour name, with
    ``ink`` (``black``/``white``) on both unless ``basic_ink`` says otherwise."""
    on_full = "color(16)" if ink == "black" else "color(231)"
    on_basic = basic_ink or ink
    return Swatch(Ink(f"color({full})", basic),
                  Ink(on_full, "bright_white" if on_basic == "white" else "black"))


PLAYERS: dict[str, Ink] = {
    "red": Ink("color(203)", "bright_red"), "yellow": Ink("color(227)", "bright_yellow"),
    "blue": Ink("color(75)", "bright_blue"), "green": Ink("color(83)", "bright_green"),
    "purple": Ink("color(177)", "bright_magenta"), "black": Ink("color(250)", "white"),
    "neutral": Ink("color(255)", "bright_white"),
}
"""Players' colours as ink on :data:`TOKEN` (a dark chip, whatever the terminal's own
background): pieces, and a player's name in a score line."""

TOKEN = swatch(235, "black", "white")
"""The dark chip a piece (or a player's mark in a status line) is drawn on."""


def chip(colour: str, text: str, depth: Depth) -> tuple[str, Style]:
    """``text`` as ``colour``'s chip: the player's ink on :data:`TOKEN`, bold."""
    return text, TOKEN.style(depth, bold=True, ink=PLAYERS.get(colour, TOKEN.ink))


class Painted:
    """A renderable whose lines are built when printed, for the console's depth (and
    the width it is given)."""

    def __init__(self, build: Callable[[Depth, int], Iterable[RenderableType]]) -> None:
        self.build = build

    def __rich_console__(self, console: Console, options: ConsoleOptions
                         ) -> Iterator[RenderableType]:
        yield from self.build(depth_of(console), options.max_width)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(1, options.max_width)
