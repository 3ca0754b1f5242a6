"""``boardsat generate``: unique, graded, verified puzzles with a progress bar on stderr."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from pathlib import Path

from rich import box
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Column, Table

import cli
from cli.cluster import note_ran_on
from cli.console import err, out
from solver.cpsat import interrupt
from solver.errors import EXIT_INTERRUPTED, EXIT_NO_ANSWER
from solver.executor import connect
from solver.protocol import Game
from solver.puzzlegen import Request, Written, check_request, generate
from solver.tomlfile import make_folder


def run(game: Game, count: int, seed: int, out_dir: Path, kind: str | None, turns: int | None,
        difficulty: str | None, workers: int, scheduler: str | None = None,
        time_limit: float | None = None) -> None:
    """Generate ``count`` puzzles and print a table of what was written.

    Candidates run in ``workers`` local processes, or on the Dask cluster of
    ``scheduler``; the files are written here either way. ``time_limit`` seconds
    after the program started (:data:`cli.STARTED`, else now) the run ends as
    Ctrl-C ends it, with exit status 3.
    """
    if kind is None:
        kind = game.kinds[0]
    if turns is None:
        turns = game.default_turns(kind)
    request = Request(game=game.key, kind=kind, turns=turns, count=count, seed=seed, out=out_dir,
                      difficulty=difficulty, workers=workers)
    check_request(request)
    make_folder(out_dir)  # a bad --out fails before the progress bar starts
    start = time.perf_counter()
    columns = progress_columns()
    kept_so_far = [0]
    alarm = _Alarm(time_limit)
    try:
        with interrupt.ctrl_c_in_imports(), connect(scheduler, workers) as executor, \
                Progress(*columns, console=err, transient=False, expand=True) as bar, alarm:
            task = bar.add_task(kind, total=count, tried=0, rate="-")

            def progress(kept: int, tried: int) -> None:
                kept_so_far[0] = kept
                minutes = (time.perf_counter() - start) / 60
                bar.update(task, completed=kept, tried=tried,
                           rate=f"{kept / minutes:.1f}" if minutes > 0 else "-")

            written = generate(request, progress, executor)
    except KeyboardInterrupt:
        if alarm.rang:
            err.print(f"time limit ({time_limit:g} s): {kept_so_far[0]} of {count} puzzle(s) "
                      f"written in {escape(str(out_dir))}", soft_wrap=True)
            sys.exit(EXIT_NO_ANSWER)
        err.print(f"interrupted: {kept_so_far[0]} puzzle(s) written in {escape(str(out_dir))}",
                  soft_wrap=True)
        sys.exit(EXIT_INTERRUPTED)
    note_ran_on(executor, scheduler)
    out.print(written_table(written, out_dir))


class _Alarm:
    """While its block runs, ``seconds`` after the program started a Ctrl-C (SIGINT) is
    sent to this process, so a time limit ends the run the way Ctrl-C does (the solve
    running stops, the worker processes end, the files written stay); ``rang`` says
    whether it did. None: no limit."""

    def __init__(self, seconds: float | None):
        self.rang = False
        started = cli.STARTED if cli.STARTED is not None else time.monotonic()
        self._at = None if seconds is None else started + seconds
        self._timer: threading.Timer | None = None

    def _ring(self) -> None:
        self.rang = True
        os.kill(os.getpid(), signal.SIGINT)

    def __enter__(self) -> _Alarm:
        if self._at is not None:
            self._timer = threading.Timer(max(0.0, self._at - time.monotonic()), self._ring)
            self._timer.daemon = True
            self._timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._timer is not None:
            self._timer.cancel()


def progress_columns() -> tuple[ProgressColumn, ...]:
    """The generator's progress line: kind, bar, puzzles kept, candidates tried, rate,
    time elapsed and left. Only the bar gives way, so at 80 columns (with up to six
    digits of candidates) the numbers and the ETA are whole; use with ``expand=True``."""
    def whole() -> Column:
        return Column(no_wrap=True)

    return (TextColumn("[bold]{task.description}", table_column=whole()),
            BarColumn(bar_width=None, table_column=Column(ratio=1)),
            MofNCompleteColumn(table_column=whole()),
            TextColumn("{task.fields[tried]} cand., {task.fields[rate]} puzzles/min",
                       table_column=whole()),
            TimeElapsedColumn(table_column=whole()), TextColumn("ETA", table_column=whole()),
            TimeRemainingColumn(table_column=whole()))


def written_table(written: list[Written], out_dir: Path) -> Table:
    """The files written: names and numbers whole (never cut), signals wrap (80 columns)."""
    table = Table(title=f"{len(written)} puzzles in {escape(str(out_dir))}", box=box.SIMPLE_HEAD,
                  show_edge=False, padding=(0, 1, 0, 0))
    table.add_column("file", no_wrap=True)
    table.add_column("cand.", justify="right", no_wrap=True)
    table.add_column("grade", no_wrap=True)
    table.add_column("signals", overflow="fold")
    for item in written:
        signals = ", ".join(f"{k}={v}" for k, v in item.signals.items())
        table.add_row(item.path.name, str(item.candidate), item.difficulty, signals)
    return table
