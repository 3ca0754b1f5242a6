"""boardsat: proven-optimal answers to board-game puzzle positions with CP-SAT.

Each game lives in its own package (``solver.terra_nova``, ``solver.rift_valley``)
with its reference rules engine (``engine/``) and its CP-SAT model(s) (``model/``)
side by side, its position format, generator and terminal views. Below them sit
game-neutral floors: ``solver.geometry``, ``solver.cpsat``, ``solver.protocol``,
``solver.paths``, ``solver.errors`` / ``solver.tomlfile``. The registry
``solver.games`` lists the games for the drivers above (``cli``, ``solver.bench``,
``solver.puzzlegen``). See ARCHITECTURE.md.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("boardsat")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0"
