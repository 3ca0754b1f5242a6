"""The drawing floor: boards as pictures with matplotlib, knowing no game.

A game's ``picture`` bridge describes a position as a :class:`Scene` of plain
shapes on its lattice (:mod:`solver.drawing.scene`); this floor draws scenes
(:mod:`~solver.drawing.board`), lays them out on figures and A4 pages
(:mod:`~solver.drawing.layout`) and writes SVG, PNG or (multipage) PDF
reproducibly (:mod:`~solver.drawing.output`). Import it only where a picture is
made: matplotlib is slow to load. For the terminal, :mod:`~solver.drawing.entries`
(rich only) wraps legend and status lines between their entries.
"""
