"""The ``boardsat`` command line: a thin click layer over :mod:`solver`."""

import json
import os
import signal
import sys
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
    try:
        import solver.errors  # noqa: F401 -- first: the error object of an early Ctrl-C
        from cli.main import main
        main()
    except SystemExit as done:
        _leave(done.code)


def _leave(code: object) -> None:
    """End the process with ``code`` (as ``sys.exit`` reads it) at once, output flushed.

    Tearing the interpreter down frees every object a solve built, one by one: seconds
    after a large model (a Ctrl-C would wait for it), for nothing the operating system
    does not do itself. The commands close their files, process pools and clusters
    before they return."""
    if code is not None and not isinstance(code, int):
        print(code, file=sys.stderr)
        code = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe: nothing more to say
            pass
    os._exit(code or 0)


def _quit(signum: int, frame: object) -> None:
    """SIGINT outside a command: exit status 130, no traceback; under ``--json`` the
    error object a command prints after Ctrl-C, unless the command printed its own (the
    modules are looked up, not imported: the signal may come in the middle of an import)."""
    printed = getattr(sys.modules.get("cli.console"), "JSON_PRINTED", False)
    errors = sys.modules.get("solver.errors")
    failure = getattr(errors, "Failure", None)
    if "--json" in sys.argv[1:] and not printed and errors is not None and failure is not None:
        stopped = failure(errors.EXIT_INTERRUPTED, "interrupted", errors.INTERRUPTED_MESSAGE)
        sys.stdout.write(json.dumps(stopped.as_json(), indent=2) + "\n")
    # at once, not by raising SystemExit: inside a compiled module's import it becomes an
    # ImportError, which an optional import's guard swallows and the command runs on
    _leave(128 + signal.SIGINT)
