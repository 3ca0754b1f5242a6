"""``--scheduler``: the option of the commands that can run on a Dask cluster, and the note
of where they ran."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from cli.console import err
from solver.executor import SCHEDULER_ENV, Executor


def scheduler_option(what: str) -> Callable[[Any], Any]:
    """``--scheduler tcp://HOST:PORT`` (or ``$BOARDSAT_SCHEDULER``): run ``what`` on Dask."""
    return click.option(
        "--scheduler", envvar=SCHEDULER_ENV, default=None, metavar="tcp://HOST:PORT",
        help=f"Run {what} on the workers of this Dask scheduler (also ${SCHEDULER_ENV}); "
             "files stay here. Default: this machine.")


def note_ran_on(executor: Executor, scheduler: str | None) -> None:
    """On a cluster, say on stderr which workers ran how many tasks."""
    if not scheduler:
        return
    places = ", ".join(f"{where} ({count})" for where, count in sorted(executor.ran_on.items()))
    err.print(f"{sum(executor.ran_on.values())} tasks ran on {executor.description}: "
              f"{places or 'none'}", soft_wrap=True)
