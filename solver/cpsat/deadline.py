"""The clock of one command: a time limit that covers reading, model building and solving,
and the Ctrl-C that may end it sooner.

A command that solves starts one :class:`Deadline` when it begins
(:meth:`SolveParams.started`); every solve path calls :meth:`Deadline.check` (through
:meth:`SolveParams.check`) in its long loops (candidate enumeration, model building per
step, between rounds and solves), and the harness gives CP-SAT only what is left and
starts no solve once the deadline is stopped. :meth:`Deadline.stopped_by` says why a
path ended early, for the answer's message.
"""

from __future__ import annotations

import enum
import time

from solver.cpsat import interrupt
from solver.cpsat.interrupt import Interrupted
from solver.errors import NoAnswer


class OutOfTime(NoAnswer):
    """The command's time limit has passed: raised by :meth:`Deadline.check`. A
    :class:`~solver.errors.NoAnswer` (exit status 3 when nothing catches it; the solve
    paths turn it into their best answer, or into a model not built in time)."""


class StopReason(enum.Enum):
    """Why a command stopped before its search ended (:meth:`Deadline.stopped_by`)."""

    INTERRUPTED = "interrupted"
    """Ctrl-C."""
    TIME_LIMIT = "time limit"
    """``--time-limit`` ran out."""


class Deadline:
    """A moment (monotonic clock) a command must be done by (``seconds=None`` is never),
    and the Ctrl-Cs that come after it starts (:mod:`solver.cpsat.interrupt`).

    The seconds count from ``since`` (a ``time.monotonic()`` reading, e.g. taken
    when the program started, before its imports), else from now.
    """

    def __init__(self, seconds: float | None = None, since: float | None = None) -> None:
        self.seconds = seconds
        start = time.monotonic() if since is None else since
        self.at = None if seconds is None else start + seconds
        self.ctrl_c_mark = interrupt.count()
        """Ctrl-Cs before this deadline began (those do not stop it)."""

    def remaining(self) -> float | None:
        """Seconds left (never below 0), or None without a limit."""
        return None if self.at is None else max(0.0, self.at - time.monotonic())

    def expired(self) -> bool:
        """True once the limit has passed."""
        return self.at is not None and time.monotonic() >= self.at

    def interrupted(self) -> bool:
        """True once Ctrl-C came after this deadline began."""
        return interrupt.requested(self.ctrl_c_mark)

    def stopped_by(self) -> StopReason | None:
        """Why the command must stop now: Ctrl-C first, then the time limit; None while
        it may go on."""
        if self.interrupted():
            return StopReason.INTERRUPTED
        if self.expired():
            return StopReason.TIME_LIMIT
        return None

    def check(self) -> None:
        """Raise :class:`~solver.cpsat.interrupt.Interrupted` once Ctrl-C came, else
        :class:`OutOfTime` once the limit has passed (cheap to call: every long loop)."""
        if interrupt.requested(self.ctrl_c_mark):
            raise Interrupted()
        if self.at is not None and time.monotonic() >= self.at:
            raise OutOfTime(f"the time limit ({self.seconds:g} s) ran out before an answer "
                            f"was found (it covers building the model)")
