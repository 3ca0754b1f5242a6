"""``boardsat batch FILES…``: solve or verify many files, one JSON object per line.

Files are read here; tasks run in local processes or on a Dask cluster
(``--scheduler``); the lines come out in the order of the files, whichever task
finished first, to standard output or atomically to ``--out``.
"""

from __future__ import annotations

import json
import sys
from contextlib import closing
from pathlib import Path
from typing import Any

import click
from rich.markup import escape

from cli.cluster import note_ran_on, scheduler_option
from cli.console import err, user_errors
from solver.cpsat import SEED_MAX, SEED_MIN, SolveParams, default_workers, interrupt
from solver.tomlfile import atomic_write_text

FILE = click.Path(dir_okay=False, path_type=Path)


@click.command(context_settings={"help_option_names": ["-h", "--help"],
                                 "max_content_width": 100})
@click.argument("files", type=click.Path(path_type=Path), nargs=-1, required=True)
@click.option("--verify", is_flag=True,
              help="Check each file's [solution] (as `verify --json`) instead of solving it.")
@click.option("--out", type=FILE, default=None,
              help="Write the JSON lines to this file (atomically) instead of standard output.")
@click.option("--turns", type=click.IntRange(1), default=None,
              help="Terra Nova: solve closing puzzles over N turns (as `solve`).")
@click.option("--draws", type=click.IntRange(0), default=None,
              help="Rift Valley: element budget (as `solve`).")
@click.option("--stops-block-all-colours", is_flag=True,
              help="Rift Valley rule option: stops of any two colours may not touch.")
@click.option("--time-limit", type=click.FloatRange(0, min_open=True), default=None,
              help="CP-SAT seconds per file; past it the best answer, marked not optimal.")
@click.option("--seed", type=click.IntRange(SEED_MIN, SEED_MAX), default=0, show_default=True,
              help="CP-SAT random seed.")
@click.option("--workers", type=click.IntRange(1), default=default_workers,
              show_default="machine cores",
              help="Parallel local processes (each solves with one CP-SAT worker).")
@scheduler_option("the files' solves")
@user_errors
def batch(files: tuple[Path, ...], verify: bool, out: Path | None, turns: int | None,
          draws: int | None, stops_block_all_colours: bool, time_limit: float | None,
          seed: int, workers: int, scheduler: str | None) -> None:
    """Solve (or --verify) every position in FILES; one JSON object per line.

    Each line is the object `solve --json` (or `verify --json`) prints for the
    file, with "file" first and "status" (its exit status) last; a file that
    cannot be read or solved gives {"file", "error", "status": 2}. Lines follow
    the order of FILES (fields: docs/json.md). --scheduler runs the files on
    a Dask cluster (docs/commands.md: Running on a cluster); the files are read and
    written here.

    \b
    Exit status: 1 when any file's status is 1 (the engine disagrees with the
    solver, or a --verify solution does not hold), even after Ctrl-C; else 130
    after Ctrl-C; else the highest of the files' (2 bad input, 3 no answer
    within --time-limit); 0 when every file is done.
    """
    if verify and (turns is not None or draws is not None):
        raise click.UsageError("--turns and --draws are for solving, not --verify")
    # imported here, not at the top: every command's start-up (and --help) pays for
    # what cli.main imports
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    from solver.batch import run_batch
    from solver.executor import connect

    options = {"turns": turns, "draws": draws, "stops_block_all_colours": stops_block_all_colours}
    params = SolveParams(time_limit=time_limit, workers=1, seed=seed)
    lines: list[dict[str, Any]] = []
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn())
    interrupted = False
    with connect(scheduler, workers) as executor, \
            Progress(*columns, console=err, transient=True, disable=not err.is_terminal,
                     redirect_stdout=False) as bar:  # the lines go to stdout, not the bar's
        task = bar.add_task("verify" if verify else "solve", total=len(files))
        try:
            with interrupt.ctrl_c_in_imports(), \
                    closing(run_batch(files, verify, options, params, executor)) as results:
                for ready in results:
                    if out is None:  # printed before counted: Ctrl-C keeps every line done
                        _emit(ready)
                    lines.extend(ready)
                    bar.advance(task)
        except KeyboardInterrupt:
            interrupted = True
    note_ran_on(executor, scheduler)
    if out is not None:
        atomic_write_text(out, "".join(json.dumps(line) + "\n" for line in lines))
    _finish(lines, len(files), out, interrupted)


def _emit(objs: list[dict[str, Any]]) -> None:
    """Print objects as JSON lines on standard output, at once."""
    for obj in objs:
        sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def _finish(lines: list[dict[str, Any]], total: int, out: Path | None,
            interrupted: bool) -> None:
    """Summary on stderr; exit with :func:`solver.batch.batch_status` of the lines."""
    from solver.batch import batch_status

    failed = sum(1 for line in lines if line.get("status"))
    where = f" in {escape(str(out))}" if out is not None else ""
    if interrupted:
        err.print(f"interrupted: {len(lines)} of {total} files done, kept{where}",
                  soft_wrap=True)
    else:
        files = "1 file" if total == 1 else f"{total} files"
        err.print(f"{files}: {total - failed} ok, {failed} failed{where}", soft_wrap=True)
    status = batch_status([line.get("status", 0) for line in lines], interrupted)
    if status:
        sys.exit(status)
