"""``boardsat review RECORD``: every turn of a game against the best turn there.

The work is :mod:`solver.review`'s; this is the click layer: options, the progress bar
on standard error, the table (80 columns), ``--json``, ``--plot`` and ``--sheet``.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich import box
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from cli.cluster import note_ran_on, scheduler_option
from cli.console import SCREEN, err, print_json, user_errors
from solver.cpsat import SEED_MAX, SEED_MIN, default_workers
from solver.errors import EXIT_INTERRUPTED

if TYPE_CHECKING:
    from solver.protocol import RoundReview, TurnReview

FILE = click.Path(exists=False, dir_okay=False, path_type=Path)
CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}
DEFAULT_TIME_LIMIT = 20.0
"""Seconds per solve unless --time-limit says otherwise: a Terra Nova best turn is proven
in well under a second; a KOSMOS round plan can take minutes to prove, and a review
should end."""


@click.command(context_settings=CONTEXT)
@click.argument("record", type=click.Path(path_type=Path))
@click.option("--worst", type=click.IntRange(1), default=None, metavar="N",
              help="List only the N costliest turns (rounds), costliest first.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (docs/json.md).")
@click.option("--plot", type=FILE, default=None,
              help="Write a PNG of each player's score over the game, played against best.")
@click.option("--sheet", type=FILE, default=None,
              help="Write a printable PDF of the worst turns (--worst N, default 6): the "
                   "board before, the turn played and the best turn drawn.")
@click.option("--time-limit", type=click.FloatRange(0, min_open=True),
              default=DEFAULT_TIME_LIMIT, show_default=True,
              help="CP-SAT seconds per solve; a turn not proven in time says 'not proven' "
                   "with its bound.")
@click.option("--workers", type=click.IntRange(1), default=default_workers,
              show_default="machine cores",
              help="Parallel local processes (each solves with one CP-SAT worker).")
@click.option("--seed", type=click.IntRange(SEED_MIN, SEED_MAX), default=0, show_default=True,
              help="CP-SAT random seed.")
@scheduler_option("the turns' solves")
@user_errors
def review(record: Path, worst: int | None, as_json: bool, plot: Path | None,
           sheet: Path | None, time_limit: float, workers: int, seed: int,
           scheduler: str | None) -> None:
    """Review the game in RECORD: every turn played against the best turn there.

    RECORD is a game record (docs/formats.md; `play --record` writes one). Terra Nova:
    for every turn, the best turn in the position before it (CP-SAT, proven, replayed
    by the engine), what it and the turn played gain, the loss, and the threat each
    left (the next player's best turn after it). Terra Nova (KOSMOS): for every
    player and round, the round played against the best plan from the round's start
    (the best-round puzzle, both objectives; the last round: the last-round puzzle).
    --scheduler spreads the solves over a Dask cluster (docs/commands.md: Running on a
    cluster); the review is the same as a local one. Ctrl-C ends it, keeping what
    was reviewed.

    \b
    Exit status: 0 reviewed; 1 the engine disagrees with the solver; 2 bad input
    (a turn of the record that cannot be played: one line naming it and why);
    130 interrupted by Ctrl-C (what was reviewed is printed).
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from solver.cpsat import SolveParams
    from solver.executor import connect
    from solver.review.run import review_record

    params = SolveParams(time_limit=time_limit, workers=1, seed=seed)
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn())
    with connect(scheduler, workers) as executor, \
            Progress(*columns, console=err, transient=True,
                     disable=not err.is_terminal) as bar:
        task = bar.add_task("replaying the record", total=None)

        def started(replayed: Any, tasks: int) -> None:
            bar.update(task, description=f"reviewing {len(replayed.turns)} turns",
                       total=tasks)
            if bar.disable:  # no bar off a terminal: one line says the solving began
                err.print(f"reviewing {len(replayed.turns)} turns: {tasks} solve tasks on "
                          f"{executor.description}", soft_wrap=True)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done)

        reviewed = review_record(record, params, executor, progress, started)
    note_ran_on(executor, scheduler)
    _report(reviewed, worst, as_json, plot, sheet)
    if reviewed.interrupted:
        err.print(f"interrupted: {reviewed.done} of {reviewed.tasks} solves done; the "
                  "review above has the turns they cover", soft_wrap=True)
        sys.exit(EXIT_INTERRUPTED)


def _report(reviewed: Any, worst: int | None, as_json: bool, plot: Path | None,
            sheet: Path | None) -> None:
    """Print the review (or its JSON) and write the plot and the sheet."""
    from solver.review.report import to_json
    from solver.review.report import worst as costliest

    if as_json:
        print_json(to_json(reviewed))
    else:
        review = reviewed.review
        if review.turns:
            SCREEN.print(turn_table(reviewed, costliest(review.turns, worst) if worst else None))
        elif review.rounds:
            shown = costliest(review.rounds, worst) if worst else None
            SCREEN.print(round_table(reviewed, shown))
            for row in shown if shown is not None else []:
                SCREEN.print(_round_lines(row))
        for line in summary_lines(reviewed):
            SCREEN.print(line)
    if plot is not None:
        from solver.review.plot import write_plot
        write_plot(reviewed, plot)
        SCREEN.note(f"wrote {escape(str(plot))}")
    if sheet is not None:
        from solver.review.sheet import write_sheet
        pages = write_sheet(reviewed, sheet, worst or SHEET_TURNS)
        SCREEN.note(f"wrote {escape(str(sheet))} ({pages} pages)")


SHEET_TURNS = 6
"""Turns a --sheet draws when --worst does not say."""


def _points(value: tuple[int, ...], proven: bool = True) -> str:
    return "" if not value else f"{value[0]}" + ("" if proven else "?")


def _loss(loss: int | None) -> Text:
    if loss is None:
        return Text("-", style="dim")
    if loss == 0:
        return Text("0", style="green")
    return Text(str(loss), style="bold red")


def _table(title: str, caption: str, columns: tuple[str, ...]) -> Table:
    """A compact table (no outer edge, one space between columns); a column name
    ending in ``:l`` is left-justified, the others right-justified."""
    table = Table(title=title, caption=caption, caption_justify="left", box=box.SIMPLE_HEAD,
                  padding=(0, 0), pad_edge=False, show_edge=False)
    for column in columns:
        name, _, left = column.partition(":")
        table.add_column(name, justify="left" if left else "right")
    return table


def _costliest(count: int, unit: str) -> str:
    return f"the {count} costliest {unit}" + ("s" if count != 1 else "")


def turn_table(reviewed: Any, shown: Sequence[TurnReview] | None) -> Table:
    """The turns (all, or ``shown``: the costliest first) as a table for 80 columns."""
    rows = reviewed.review.turns if shown is None else shown
    table = _table("every turn against the best turn" if shown is None else
                   _costliest(len(rows), "turn"),
                   "pts: own points (? not proven in time); threat: the next player's "
                   "best after the turn played / after the best turn",
                   ("#", "player:l", "played:l", "pts", "best turn:l", "pts", "loss",
                    "threat"))
    for row in rows:
        best = row.best
        if best is None:
            table.add_row(str(row.number), row.player, row.played,
                          str(row.played_value[0]), Text("not reviewed", style="dim"),
                          "", _loss(None), "")
            continue
        line = best.line[0] if best.line else "none found in time"
        shown_best = Text("= played", style="dim") if line == row.played else Text(line)
        table.add_row(str(row.number), row.player, row.played, str(row.played_value[0]),
                      shown_best, _points(best.value, best.proven), _loss(row.loss),
                      _threat(row))
    return table


def _threat(row: Any) -> str:
    def own(best: Any) -> str:
        return "-" if best is None or not best.value else _points(best.value, best.proven)
    return f"{own(row.threat_after_played)} / {own(row.threat_after_best)}"


def round_table(reviewed: Any, shown: Sequence[RoundReview] | None) -> Table:
    """The rounds (all, or ``shown``) against the plans from their starts."""
    rows = reviewed.review.rounds if shown is None else shown
    table = _table("every round against the best plan from its start" if shown is None
                   else _costliest(len(rows), "round"),
                   "plan: the player alone from the round's start (the others passed); "
                   "? not proven in time",
                   ("round", "player:l", "objective:l", "turns", "played", "plan", "loss"))
    for row in rows:
        best = row.best
        plan = ("-" if best is None else _points(best.value, best.proven) if best.value
                else "none")
        table.add_row(str(row.round), row.player, row.objective, str(len(row.played)),
                      str(row.played_value["value"]), plan, _loss(row.loss))
    return table


def _round_lines(row: Any) -> str:
    plan = " / ".join(row.best.line) if row.best is not None else "not reviewed"
    return (f"round {row.round}, {escape(row.player)} ({row.objective}):\n"
            f"  played: {escape(' / '.join(row.played))}\n  plan:   {escape(plan)}")


def summary_lines(reviewed: Any) -> list[str]:
    """Per player what was lost, the turns not proven, and how long it took."""
    from solver.review.report import totals

    unit = reviewed.review.unit
    lines = []
    for t in totals(reviewed):
        costliest = (f"; the costliest: {unit} {t.worst} ({t.worst_loss})"
                     if t.worst is not None else "")
        lines.append(f"[bold]{escape(t.player)}[/]: {t.reviewed} {unit}s reviewed, "
                     f"{t.loss} points lost on {t.costly}{costliest}")
    rows = [*reviewed.review.turns, *reviewed.review.rounds]
    unproven = [row for row in rows
                if row.best is not None and row.best.value and not row.best.proven]
    if unproven:
        said = ", ".join(f"{_name(row)} ({_bound(row.best.bound)})" for row in unproven[:8])
        more = f" and {len(unproven) - 8} more" if len(unproven) > 8 else ""
        lines.append(f"[yellow]not proven within the time limit[/]: {said}{more}")
    for row in rows:
        if row.best is not None and not row.best.value:
            lines.append(f"[yellow]no answer[/] for {_name(row)}: {escape(row.best.note)}")
    lines.append(f"{reviewed.done} solve tasks in {reviewed.wall_s:.1f} s")
    return lines


def _bound(bound: int | None) -> str:
    return "no bound" if bound is None else f"bound {bound}"


def _name(row: Any) -> str:
    if hasattr(row, "number"):
        return f"turn {row.number}"
    return f"round {row.round} {row.player} {row.objective}"
