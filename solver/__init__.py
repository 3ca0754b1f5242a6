"""boardsat: proven-optimal answers to board-game puzzle positions with CP-SAT.

Each game lives in its own package (``solver.terra_nova``, ``solver.rift_valley``)
holding its reference rules engine, its position format, its CP-SAT model(s) and
its puzzle generator. Below them sit game-neutral floors: ``solver.geometry``
(hex and square grids, cell names), ``solver.cpsat`` (one solve harness) and
``solver.errors`` / ``solver.tomlfile`` (bad-input reporting).
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("boardsat")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0"
