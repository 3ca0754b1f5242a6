"""The ``boardsat`` command line: a thin click layer over :mod:`solver`."""

import time

STARTED: float | None = None
"""When the ``boardsat`` program started, before its imports (``time.monotonic()``):
``--time-limit`` counts from here. None when the commands run inside another program
(tests): then it counts from the command."""


def run() -> None:
    """The ``boardsat`` console script: note the start, then import and run the commands."""
    global STARTED
    STARTED = time.monotonic()
    from cli.main import main
    main()
