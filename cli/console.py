"""Shared rich consoles and the exit-status policy every command follows.

0 done; 1 the engine disagrees with the solver (or a claimed solution is
wrong); 2 bad input; 3 no answer within the time limit; 130 interrupted. Every
failure is one line on standard error; under ``--json`` also one JSON object
(:class:`solver.errors.Failure`) on standard output.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from typing import Any, TypeVar

from rich.console import Console
from rich.markup import escape
from rich.status import Status

from solver.cpsat import interrupt
from solver.errors import EngineDisagreement, Failure, InputError, NoAnswer, failure

out = Console(highlight=False)
"""Standard output: boards, tables, answers (or the one JSON object with --json)."""
err = Console(stderr=True, highlight=False)
"""Standard error: progress, warnings, errors."""

F = TypeVar("F", bound=Callable[..., Any])


def without_colour() -> None:
    """Print without colour from now on, on both consoles (``--no-color``, as the
    ``NO_COLOR`` environment variable does). Boards keep their markers in characters."""
    out.no_color = True
    err.no_color = True


class ConsoleScreen:
    """The :class:`solver.protocol.Screen` games print on: the two consoles above."""

    def print(self, *renderables: Any) -> None:
        """Standard output."""
        out.print(*renderables)

    def note(self, *renderables: Any) -> None:
        """Standard error."""
        err.print(*renderables)

    def json(self, obj: Any) -> None:
        """The one JSON object on standard output."""
        print_json(obj)

    def status(self, text: str) -> Status:
        """A spinner on standard error."""
        return err.status(text, spinner="dots")


SCREEN = ConsoleScreen()


JSON_PRINTED = False
"""Whether the command's one JSON object is out (Ctrl-C after it adds no error object)."""


def print_json(obj: Any) -> None:
    """Print ``obj`` as the single JSON object on standard output."""
    global JSON_PRINTED
    JSON_PRINTED = True
    sys.stdout.write(json.dumps(obj, indent=2, sort_keys=False) + "\n")
    sys.stdout.flush()


def user_errors(func: F) -> F:
    """Turn the expected failures into one line on stderr and their exit status.

    InputError → 2 (its ``status``: a WrongSolution 1), EngineDisagreement → 1,
    NoAnswer → 3, Ctrl-C → 130 (also when it broke an import). A
    command called with ``as_json=True`` also prints the error as its JSON object.
    The command runs inside :func:`solver.cpsat.interrupt.command` (Ctrl-C requests a
    stop that every solve path checks).
    """

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        as_json = bool(kwargs.get("as_json"))
        try:
            with interrupt.command(), interrupt.ctrl_c_in_imports():
                return func(*args, **kwargs)
        except (InputError, EngineDisagreement, NoAnswer, KeyboardInterrupt) as exc:
            _fail(failure(exc, kwargs.get("file")), as_json)

    return wrapper  # type: ignore[return-value]


def _fail(failed: Failure, as_json: bool) -> None:
    """Print the one error line (and the JSON object) and leave with its status."""
    err.print(f"[bold red]{failed.label}:[/] {escape(failed.text)}", soft_wrap=True)
    if as_json:
        print_json(failed.as_json())
    sys.exit(failed.status)
