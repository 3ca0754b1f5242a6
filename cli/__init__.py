"""The ``boardsat`` command line: a thin click layer over :mod:`solver`."""

import signal
import time

STARTED: float | None = None
"""When the ``boardsat`` program started, before its imports (``time.monotonic()``):
``--time-limit`` counts from here. None when the commands run inside another program
(tests): then it counts from the command."""


def run() -> None:
    """The ``boardsat`` console script: note the start, then import and run the commands."""
    global STARTED
    STARTED = time.monotonic()
    # Ctrl-C before a command's own handling begins (imports, parsing the options) or
    # after it ends: nothing is kept, exit 130 quietly (click would say "Aborted!", 1)
    signal.signal(signal.SIGINT, _quit)
    from cli.main import main
    main()


def _quit(signum: int, frame: object) -> None:
    """SIGINT outside a command: exit status 130 (128 + SIGINT), no traceback."""
    raise SystemExit(128 + signal.SIGINT)
