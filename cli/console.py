"""Shared rich consoles and the bad-input → exit 2 policy for every command."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from typing import Any, TypeVar

from rich.console import Console
from rich.markup import escape
from rich.status import Status

from solver.errors import EngineDisagreement, InputError

out = Console(highlight=False)
"""Standard output: boards, tables, answers (or the one JSON object with --json)."""
err = Console(stderr=True, highlight=False)
"""Standard error: progress, warnings, errors."""

F = TypeVar("F", bound=Callable[..., Any])


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


def print_json(obj: Any) -> None:
    """Print ``obj`` as the single JSON object on standard output."""
    sys.stdout.write(json.dumps(obj, indent=2, sort_keys=False) + "\n")
    sys.stdout.flush()


def user_errors(func: F) -> F:
    """Turn InputError into one line on stderr and exit 2; engine disagreements into exit 1."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except InputError as exc:
            err.print(f"[bold red]error:[/] {escape(str(exc))}", soft_wrap=True)
            sys.exit(2)
        except EngineDisagreement as exc:
            err.print(f"[bold red]engine disagrees with the solver:[/] {escape(str(exc))}",
                      soft_wrap=True)
            sys.exit(1)

    return wrapper  # type: ignore[return-value]
