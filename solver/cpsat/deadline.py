"""The clock of one command: a time limit that covers reading, model building and solving.

A command that takes ``--time-limit`` starts one :class:`Deadline` when it
begins; model building calls :meth:`Deadline.check` in its long loops (candidate
enumeration, per step), and the harness gives CP-SAT only what is left.
"""

from __future__ import annotations

import time

from solver.errors import NoAnswer


class Deadline:
    """A moment (monotonic clock) a command must be done by; ``seconds=None`` is never.

    The seconds count from ``since`` (a ``time.monotonic()`` reading, e.g. taken
    when the program started, before its imports), else from now.
    """

    def __init__(self, seconds: float | None = None, since: float | None = None) -> None:
        self.seconds = seconds
        start = time.monotonic() if since is None else since
        self.at = None if seconds is None else start + seconds

    def remaining(self) -> float | None:
        """Seconds left (never below 0), or None without a limit."""
        return None if self.at is None else max(0.0, self.at - time.monotonic())

    def expired(self) -> bool:
        """True once the limit has passed."""
        return self.at is not None and time.monotonic() >= self.at

    def check(self) -> None:
        """Raise :class:`~solver.errors.NoAnswer` once the limit has passed (cheap to call)."""
        if self.at is not None and time.monotonic() >= self.at:
            raise NoAnswer(f"the time limit ({self.seconds:g} s) ran out before an answer "
                           f"was found (it covers building the model)")
