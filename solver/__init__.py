"""boardsat: proven-optimal answers to board-game puzzle positions with CP-SAT.

Each game lives in its own package (``solver.terra_nova``, ``solver.rift_valley``)
with its reference rules engine (``engine/``) and its CP-SAT model(s) (``model/``)
side by side, its position format, generator and terminal views. Below them sit
game-neutral floors: ``solver.geometry``, ``solver.cpsat``, ``solver.protocol``,
``solver.paths``, ``solver.errors`` / ``solver.tomlfile``. The registry
``solver.games`` lists the games for the drivers above (``cli``, ``solver.bench``,
``solver.puzzlegen``). See ARCHITECTURE.md.
"""



def __getattr__(name: str) -> str:
    """``__version__``, read from the installed package's metadata on first use (PEP 562):
    importing :mod:`importlib.metadata` costs more than the error types every command
    loads first."""
    if name != "__version__":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("boardsat")
    except PackageNotFoundError:  # running from a source tree that is not installed
        return "0.0.0"
