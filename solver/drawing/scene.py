"""What a game hands the drawing floor: a board scene made of plain shapes.

A game's ``picture`` bridge turns a position (and optionally its answer) into a
:class:`Scene`; :mod:`solver.drawing.board` draws any scene with matplotlib.
Shapes name cells by their index in the scene's lattice; colours are
matplotlib colour strings. Nothing here knows a game.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from solver.geometry import Lattice


@dataclass(frozen=True)
class Cell:
    """The ground of one cell: fill colour, a small letter in its corner, a hatch."""

    cell: int
    face: str
    letter: str = ""
    hatch: str = ""


@dataclass(frozen=True)
class Token:
    """A piece on a cell: ``shape`` is ``disc``, ``square``, ``triangle`` or ``house``.

    ``letter`` is printed on it (greyscale readers tell colours apart by it);
    ``ghost`` draws only a dashed outline (where a piece was);
    ``kind`` names it in the SVG (``piece``, ``stone``, ``stop``…).
    """

    cell: int
    shape: str
    colour: str
    kind: str
    letter: str = ""
    ghost: bool = False
    scale: float = 1.0


@dataclass(frozen=True)
class Line:
    """A line through the centres of ``cells`` (a trail, a bridge, the rift)."""

    cells: tuple[int, ...]
    colour: str
    kind: str
    width: float = 4.0
    style: str = "solid"
    outline: bool = True


@dataclass(frozen=True)
class Border:
    """A thick side between two neighbouring cells ``a`` and ``b`` (e.g. of two areas)."""

    a: int
    b: int


@dataclass(frozen=True)
class Arrow:
    """A move from ``src`` to ``dst`` in ``colour``."""

    src: int
    dst: int
    colour: str


@dataclass(frozen=True)
class Outline:
    """A thick line round a set of cells (e.g. a region an answer scored), ``label``
    written at its middle (e.g. its points and who took them)."""

    cells: tuple[int, ...]
    colour: str
    label: str = ""


@dataclass(frozen=True)
class Badge:
    """A numbered marker (the order of an answer's steps) near a cell or between two."""

    cells: tuple[int, ...]
    number: int


@dataclass(frozen=True)
class Key:
    """One legend entry: a swatch (``face``, ``hatch``, ``letter``) or a token ``shape``."""

    label: str
    face: str = "none"
    hatch: str = ""
    letter: str = ""
    shape: str = "cell"


@dataclass
class Scene:
    """A board and everything drawn on it, with the words around it.

    ``question`` is the puzzle in words (``Red to move: best turn``), ``status``
    lines stand under the board (scores, side to move), ``answer`` lines say
    the solution drawn (empty when none is drawn).
    """

    grid: Lattice
    title: str
    cells: list[Cell] = field(default_factory=list)
    borders: list[Border] = field(default_factory=list)
    lines: list[Line] = field(default_factory=list)
    tokens: list[Token] = field(default_factory=list)
    arrows: list[Arrow] = field(default_factory=list)
    outlines: list[Outline] = field(default_factory=list)
    badges: list[Badge] = field(default_factory=list)
    keys: list[Key] = field(default_factory=list)
    question: str = ""
    status: list[str] = field(default_factory=list)
    answer: list[str] = field(default_factory=list)
