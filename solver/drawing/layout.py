"""Lay scenes out on paper: a block (headings, board, words under it, legend) in a box.

Sizes are in inches; :func:`picture_figure` makes a figure just big enough for
one scene (``boardsat render``), :func:`page_figure` an A4 page holding one or
more blocks (``boardsat sheet``).
"""

from __future__ import annotations

import math
import textwrap
from dataclasses import dataclass

from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from solver.drawing import lattice
from solver.drawing.board import LABEL_GAP, draw_scene
from solver.drawing.palette import EDGE
from solver.drawing.scene import Key, Scene

A4 = (8.27, 11.69)
"""Page size in inches (portrait)."""
PAGE_MARGIN = 0.6
MAX_UNIT = 0.45
"""Largest cell size in inches (small boards are not blown up beyond it)."""
LEGEND_COLUMN = 1.6
"""Width of one legend column in inches."""
LEGEND_ROW = 0.21
STATUS_SIZE = 10
DETAIL_SIZE = 8
"""Points of an answer's detail lines (its explanation), after its first two."""
MARKERS = {"disc": "o", "square": "s", "triangle": "^", "house": "p"}


@dataclass(frozen=True)
class Words:
    """One line of text in a block: its size in points and whether it is bold."""

    text: str
    size: float = STATUS_SIZE
    bold: bool = False
    colour: str = "#000000"

    @property
    def height(self) -> float:
        """Inches the line takes."""
        return self.size * 1.5 / 72


def _board_span(scene: Scene) -> tuple[float, float]:
    x0, x1, y0, y1 = lattice.extent(scene.grid, LABEL_GAP + 0.35)
    return x1 - x0, y1 - y0


def _below(scene: Scene, width: float) -> list[Words]:
    """The status and answer lines under the board, wrapped to ``width`` inches."""
    lines = [Words(text) for text in scene.status]
    lines += [Words(text, STATUS_SIZE + 0.5 if i == 0 else STATUS_SIZE if i == 1
                    else DETAIL_SIZE, bold=i == 0, colour="#000000" if i < 2 else "#555555")
              for i, text in enumerate(scene.answer)]
    wrapped = []
    for words in lines:
        chars = max(20, int(width * 72 / (words.size * (0.58 if words.bold else 0.5))))
        wrapped += [Words(part, words.size, words.bold, words.colour)
                    for part in textwrap.wrap(words.text, chars)]
    return wrapped


def _legend_height(scene: Scene, width: float) -> float:
    if not scene.keys:
        return 0.0
    columns = max(1, int(width // LEGEND_COLUMN))
    return math.ceil(len(scene.keys) / columns) * LEGEND_ROW + 0.12


def block_height(scene: Scene, headings: list[Words], width: float, unit: float) -> float:
    """Inches a block needs at cell size ``unit`` and ``width``."""
    _, span_h = _board_span(scene)
    words = sum(w.height for w in headings) + sum(w.height for w in _below(scene, width))
    return words + span_h * unit + _legend_height(scene, width) + 0.1


def fitting_unit(scene: Scene, headings: list[Words], width: float, height: float) -> float:
    """The largest cell size (at most :data:`MAX_UNIT`) at which the block fits the box."""
    span_w, span_h = _board_span(scene)
    fixed = block_height(scene, headings, width, 0.0)
    return max(0.05, min(MAX_UNIT, width / span_w, (height - fixed) / span_h))


def draw_block(fig: Figure, scene: Scene, headings: list[Words],
               box: tuple[float, float, float, float]) -> float:
    """Draw the block into ``box = (left, bottom, width, height)`` (inches), top-aligned;
    returns the height (from the figure's bottom) where the block ends."""
    left, bottom, width, height = box
    fig_w, fig_h = fig.get_size_inches()
    unit = fitting_unit(scene, headings, width, height)
    y = bottom + height
    for words in headings:
        y -= words.height
        _text(fig, left + width / 2, y + words.height * 0.3, words)
    span_w, span_h = _board_span(scene)
    board_w, board_h = span_w * unit, span_h * unit
    y -= board_h
    ax = fig.add_axes(((left + (width - board_w) / 2) / fig_w, y / fig_h,
                       board_w / fig_w, board_h / fig_h))
    draw_scene(ax, scene, unit * 72)
    for words in _below(scene, width):
        y -= words.height
        _text(fig, left + width / 2, y + words.height * 0.3, words)
    if scene.keys:
        legend_h = _legend_height(scene, width)
        y -= legend_h
        _legend(fig, scene.keys, (left, y, width, legend_h))
    return y


def _text(fig: Figure, x: float, y: float, words: Words) -> None:
    fig.text(x, y, words.text, transform=fig.dpi_scale_trans, ha="center", va="baseline",
             fontsize=words.size, fontweight="bold" if words.bold else "normal",
             color=words.colour)


def _legend(fig: Figure, keys: list[Key], box: tuple[float, float, float, float]) -> None:
    left, bottom, width, height = box
    fig_w, fig_h = fig.get_size_inches()
    ax = fig.add_axes((left / fig_w, bottom / fig_h, width / fig_w, height / fig_h))
    ax.axis("off")
    handles = [_handle(key) for key in keys]
    columns = max(1, min(len(keys), int(width // LEGEND_COLUMN)))
    ax.legend(handles=handles, loc="upper center", ncol=columns, frameon=False, fontsize=9,
              handlelength=1.5, handleheight=1.1, columnspacing=1.2, borderaxespad=0.0,
              labelspacing=0.35)


def _handle(key: Key) -> Patch | Line2D:
    label = f"{key.letter}  {key.label}" if key.letter else key.label
    if key.shape == "cell":
        return Patch(facecolor=key.face, edgecolor="#999999", hatch=key.hatch, label=label)
    if key.shape == "line":
        return Line2D([], [], color=key.face, linewidth=4, label=label)
    return Line2D([], [], marker=MARKERS[key.shape], markersize=10, markerfacecolor=key.face,
                  markeredgecolor=EDGE, linestyle="none", label=label)


def picture_figure(scene: Scene, headings: list[Words]) -> Figure:
    """A figure just big enough for ``scene`` (cells at most :data:`MAX_UNIT` inches)."""
    span_w, _ = _board_span(scene)
    unit = min(MAX_UNIT, 9.0 / span_w)
    width = max(6.5, span_w * unit) + 0.4
    height = block_height(scene, headings, width - 0.4, unit) + 0.3
    fig = Figure(figsize=(width, height))
    draw_block(fig, scene, headings, (0.2, 0.15, width - 0.4, height - 0.3))
    return fig


def page_slot(slots: int) -> tuple[float, float]:
    """``(width, height)`` in inches of one of ``slots`` equal blocks on an A4 page."""
    return A4[0] - 2 * PAGE_MARGIN, (A4[1] - 2 * PAGE_MARGIN - 0.5) / slots


def page_figure(blocks: list[tuple[Scene, list[Words]]], header: str, footer: str,
                notes: str = "") -> Figure:
    """An A4 page: ``blocks`` stacked in equal slots, small ``header``/``footer`` lines;
    ``notes`` heads ruled lines for the reader's answer in the room left under one block."""
    fig = Figure(figsize=A4)
    width, slot = page_slot(len(blocks))
    _text(fig, A4[0] / 2, A4[1] - PAGE_MARGIN + 0.05, Words(header, 8, colour="#777777"))
    _text(fig, A4[0] / 2, PAGE_MARGIN - 0.25, Words(footer, 8, colour="#777777"))
    end = A4[1]
    for i, (scene, headings) in enumerate(blocks):
        top = A4[1] - PAGE_MARGIN - 0.25 - i * slot
        end = draw_block(fig, scene, headings, (PAGE_MARGIN, top - slot, width, slot))
    if notes:
        _ruled(fig, notes, end - 0.35, PAGE_MARGIN + 0.1)
    return fig


NOTE_LINE = 0.42
"""Distance between the ruled lines of a puzzle page, inches."""


def _ruled(fig: Figure, title: str, top: float, bottom: float) -> None:
    lines = min(4, int((top - bottom) / NOTE_LINE) - 1)
    if lines < 1:
        return
    fig.text(PAGE_MARGIN, top, title, transform=fig.dpi_scale_trans, fontsize=10,
             color="#555555", va="top")
    for k in range(1, lines + 1):
        y = top - k * NOTE_LINE - 0.1
        fig.add_artist(Line2D([PAGE_MARGIN, A4[0] - PAGE_MARGIN], [y, y],
                              transform=fig.dpi_scale_trans, color="#bbbbbb", linewidth=0.6))
