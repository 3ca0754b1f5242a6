"""Draw a :class:`~solver.drawing.scene.Scene` on a matplotlib Axes.

Every drawn element gets an id in SVG output (matplotlib ``gid``):
``cell-d7``, ``piece-d7``, ``stone-d7``, ``stop-d7``… for cells and tokens,
``trail-1``, ``arrow-1``, ``outline-1``, ``badge-1`` for lines, arrows, outlines and
badges.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib import patheffects
from matplotlib.axes import Axes
from matplotlib.collections import LineCollection
from matplotlib.patches import Circle, FancyArrowPatch, Patch, Polygon, RegularPolygon

from solver.drawing import lattice
from solver.drawing.palette import EDGE, GRID_EDGE, LABEL, ink_on
from solver.drawing.scene import Badge, Outline, Scene, Token
from solver.geometry import column_name

ARROW_BEND = -0.2
"""Arrows bend a little to their right, so a move and the move back do not overlap."""
LABEL_GAP = 0.85
"""Distance of the row numbers and column letters from the nearest cell centre."""


def draw_scene(ax: Axes, scene: Scene, unit_pt: float) -> None:
    """Draw ``scene`` on ``ax``; ``unit_pt`` is the size of one cell in points (for text)."""
    grid = scene.grid
    centres = lattice.centres(grid)
    ax.set_aspect("equal")
    ax.axis("off")
    x0, x1, y0, y1 = lattice.extent(grid, LABEL_GAP + 0.35)
    ax.set_xlim(x0, x1)
    ax.set_ylim(y0, y1)
    _cells(ax, scene, unit_pt)
    _edge_labels(ax, scene, unit_pt)
    _borders(ax, scene, centres, unit_pt)
    for number, line in enumerate(scene.lines, start=1):
        points = centres[list(line.cells)]
        width = line.width * unit_pt / 30
        effects = ([patheffects.Stroke(linewidth=width + 2.2, foreground=EDGE),
                    patheffects.Normal()] if line.outline else [])
        (drawn,) = ax.plot(points[:, 0], points[:, 1], color=line.colour, linewidth=width,
                           linestyle=line.style, solid_capstyle="round", zorder=3,
                           path_effects=effects)
        drawn.set_gid(f"{line.kind}-{number}")
    for token in scene.tokens:
        _token(ax, scene, token, centres, unit_pt)
    for number, arrow in enumerate(scene.arrows, start=1):
        patch = FancyArrowPatch(
            tuple(centres[arrow.src]), tuple(centres[arrow.dst]),
            arrowstyle="simple,head_length=0.38,head_width=0.38,tail_width=0.13",
            connectionstyle=f"arc3,rad={ARROW_BEND}",
            mutation_scale=unit_pt, shrinkA=0.12 * unit_pt, shrinkB=0.22 * unit_pt,
            facecolor=arrow.colour, edgecolor=EDGE, linewidth=0.8, zorder=6)
        patch.set_gid(f"arrow-{number}")
        ax.add_artist(patch)
    for number, outline in enumerate(scene.outlines, start=1):
        _outline(ax, scene, outline, centres, unit_pt, number)
    taken: list[np.ndarray] = []
    for badge in scene.badges:
        _badge(ax, scene, badge, centres, unit_pt, taken)


def _cells(ax: Axes, scene: Scene, unit_pt: float) -> None:
    grid = scene.grid
    for cell in scene.cells:
        patch = Polygon(lattice.outline(grid, cell.cell), closed=True, facecolor=cell.face,
                        edgecolor=GRID_EDGE, linewidth=max(0.6, unit_pt / 30), hatch=cell.hatch,
                        zorder=1)
        if cell.hatch:
            patch.set_hatch_linewidth(0.6)
            patch.set_hatchcolor(_hatch_colour(cell.face))
        patch.set_gid(f"cell-{grid.name(cell.cell)}")
        ax.add_artist(patch)
        if cell.letter:
            x, y = lattice.corner(grid, cell.cell, "nw")
            ax.text(x, y, cell.letter, ha="center", va="center", fontsize=0.28 * unit_pt,
                    color=ink_on(cell.face), alpha=0.8, zorder=2)


def _borders(ax: Axes, scene: Scene, centres: np.ndarray, unit_pt: float) -> None:
    """The shared side of each border's two cells, drawn thick and dark."""
    half = lattice.HEX_RADIUS / 2 if lattice.is_hex(scene.grid) else 0.5
    for border in scene.borders:
        a, b = centres[border.a], centres[border.b]
        middle, along = (a + b) / 2, b - a
        side = np.array([-along[1], along[0]]) / np.hypot(*along) * half
        ends = np.array([middle - side, middle + side])
        (drawn,) = ax.plot(ends[:, 0], ends[:, 1], color=EDGE, linewidth=max(1.5, unit_pt / 12),
                           solid_capstyle="round", zorder=2)
        drawn.set_gid(f"border-{scene.grid.name(border.a)}-{scene.grid.name(border.b)}")


def _hatch_colour(face: str) -> str:
    return "#ffffff" if ink_on(face) == "#ffffff" else "#00000080"


def _edge_labels(ax: Axes, scene: Scene, unit_pt: float) -> None:
    """Column letters above and below, row numbers left and right."""
    grid = scene.grid
    size = 0.3 * unit_pt
    last = grid.rows - 1
    for col in range(grid.cols):
        name = column_name(col)
        for row, dy in ((0, LABEL_GAP), (last, -LABEL_GAP)):
            x, y = lattice.position(grid, row, col)
            ax.text(x, y + dy, name, ha="center", va="center", fontsize=size, color=LABEL)
    for row in range(grid.rows):
        y = lattice.row_y(grid, row)
        shift = lattice.row_shift(grid, row)
        for x in (shift - LABEL_GAP, grid.cols - 1 + shift + LABEL_GAP):
            ax.text(x, y, str(row + 1), ha="center", va="center", fontsize=size, color=LABEL)


def _token(ax: Axes, scene: Scene, token: Token, centres: np.ndarray, unit_pt: float) -> None:
    x, y = centres[token.cell]
    r = 0.32 * token.scale
    common: dict[str, Any] = {"facecolor": "none" if token.ghost else token.colour,
                              "edgecolor": token.colour if token.ghost else EDGE,
                              "linewidth": 1.6 if token.ghost else 0.9,
                              "linestyle": "--" if token.ghost else "-", "zorder": 4}
    patch: Patch
    if token.shape == "disc":
        patch = Circle((x, y), r, **common)
    elif token.shape == "square":
        patch = RegularPolygon((x, y), 4, radius=r, orientation=np.pi / 4, **common)
    elif token.shape == "triangle":
        patch = RegularPolygon((x, y - 0.06), 3, radius=r * 1.2, **common)
    elif token.shape == "house":
        patch = Polygon([(x - r, y - r), (x + r, y - r), (x + r, y + 0.2 * r), (x, y + r),
                         (x - r, y + 0.2 * r)], closed=True, **common)
    else:
        raise ValueError(f"unknown token shape {token.shape!r}")
    patch.set_gid(f"{token.kind}-{scene.grid.name(token.cell)}")
    ax.add_artist(patch)
    if token.letter and not token.ghost:
        ax.text(x, y - (0.05 if token.shape == "triangle" else 0), token.letter, ha="center",
                va="center", fontsize=0.3 * unit_pt * token.scale, fontweight="bold",
                color=ink_on(token.colour), zorder=5)


def _outline(ax: Axes, scene: Scene, outline: Outline, centres: np.ndarray, unit_pt: float,
             number: int) -> None:
    """The sides of the outline's cells that face no other cell of it, and its label at
    the middle of its cells. A side faces the cell whose centre lies twice as far out as
    the side's middle (hex and square alike)."""
    grid = scene.grid
    inside = centres[list(outline.cells)]
    segments = []
    for cell in outline.cells:
        corners = lattice.outline(grid, cell)
        for a, b in zip(corners, np.roll(corners, -1, axis=0), strict=True):
            across = 2 * (a + b) / 2 - centres[cell]
            if not np.any(np.hypot(*(inside - across).T) < 0.2):
                segments.append((a, b))
    lines = LineCollection(segments, colors=outline.colour, linewidths=max(2.0, unit_pt / 9),
                           capstyle="round", zorder=6)
    lines.set_gid(f"outline-{number}")
    ax.add_collection(lines)
    if outline.label:
        x, y = inside.mean(axis=0)
        ax.text(x, y, outline.label, ha="center", va="center", fontsize=0.3 * unit_pt,
                fontweight="bold", color="#000000", zorder=8, gid=f"outline-label-{number}",
                bbox={"boxstyle": "round,pad=0.2", "facecolor": "#ffffff",
                      "edgecolor": outline.colour, "linewidth": 1.2})


BADGE_RADIUS = 0.19
"""Radius of a numbered badge, in cells."""


def _badge_spots(scene: Scene, badge: Badge, centres: np.ndarray) -> list[np.ndarray]:
    """Where a badge may go, best first: beside the middle of a move (either side), else
    around the corners of its cell (the middle cell of a longer line)."""
    points = centres[list(badge.cells)]
    if len(points) == 2:
        a, b = points
        along = (b - a) / max(1e-9, float(np.hypot(*(b - a))))
        side = np.array([-along[1], along[0]])
        middle = (a + b) / 2
        return [middle + 0.3 * side, middle - 0.3 * side, middle + 0.3 * side + 0.3 * along,
                middle - 0.3 * side - 0.3 * along]
    cell = badge.cells[len(points) // 2]
    centre = centres[cell]
    ne = np.array(lattice.corner(scene.grid, cell, "ne")) - centre
    return [centre + ne * np.array(flip) for flip in ((1, 1), (-1, 1), (1, -1), (-1, -1))]


def _badge(ax: Axes, scene: Scene, badge: Badge, centres: np.ndarray, unit_pt: float,
           taken: list[np.ndarray]) -> None:
    """A white disc with the step number, at the first of its spots that overlaps no
    badge drawn before (else the first spot)."""
    spots = _badge_spots(scene, badge, centres)
    free = [p for p in spots if all(np.hypot(*(p - q)) >= 2 * BADGE_RADIUS for q in taken)]
    x, y = (free or spots)[0]
    taken.append(np.array((x, y)))
    patch = Circle((x, y), BADGE_RADIUS, facecolor="#ffffff", edgecolor="#000000",
                   linewidth=1.0, zorder=7)
    patch.set_gid(f"badge-{badge.number}")
    ax.add_artist(patch)
    ax.text(x, y, str(badge.number), ha="center", va="center", fontsize=0.24 * unit_pt,
            fontweight="bold", color="#000000", zorder=8)
