"""Rich tables of benchmark records: one row per case, and medians per group.

Both fit 80 columns: text columns (case names, kinds, horizons) wrap, number
columns never do and are as wide as their widest number, so a number is always
printed whole.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich import box
from rich.table import Table

from solver.bench.runner import Record
from solver.games import GAMES

CASE_WIDTH = 14
"""Case names longer than this wrap (fold) onto further lines."""


def _seconds(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def horizon_text(record: Record) -> str:
    """``1 turn``, ``3 turns``, ``8 draws``, ``any draws``."""
    return GAMES[record.game].horizon_text(record.horizon)


def _table(title: str, caption: str, columns: Sequence[tuple[str, str]],
           rows: list[list[str]]) -> Table:
    """A compact table; ``columns`` are ``(header, kind)`` with kind ``text`` (wraps),
    ``name`` (folds past :data:`CASE_WIDTH`), ``label`` (short, never wrapped) or
    ``number`` (right-aligned, never wrapped)."""
    table = Table(title=title, caption=caption, box=box.SIMPLE_HEAD, show_edge=False,
                  padding=(0, 1, 0, 0), header_style="bold", caption_justify="left")
    for header, kind in columns:
        if kind == "number":
            table.add_column(header, justify="right", no_wrap=True)
        elif kind == "label":
            table.add_column(header, no_wrap=True)
        elif kind == "name":
            table.add_column(header, overflow="fold", max_width=CASE_WIDTH)
        else:
            table.add_column(header, overflow="fold")
    for row in rows:
        table.add_row(*row)
    return table


def cases_table(records: list[Record], cap: float) -> Table:
    """One row per case: puzzle, size, value, CP-SAT time, exhaustive time, ratio, agreement."""
    rows = []
    for r in records:
        if r.exhaustive_s is None:
            exhaustive, ratio = f">{cap:g}", f">{cap / max(r.cpsat_s, 1e-9):.1f}"
        else:
            exhaustive, ratio = _seconds(r.exhaustive_s), f"{r.ratio:.2f}"
        agree = "—" if r.agree is None else ("[green]yes[/]" if r.agree else "[red]NO[/]")
        rows.append([r.case, f"{r.kind} {horizon_text(r)}", str(r.cells),
                     "/".join(map(str, r.value)),
                     "[green]yes[/]" if r.optimal else "[red]no[/]",
                     _seconds(r.cpsat_s), exhaustive, ratio, agree])
    columns = (("case", "name"), ("puzzle", "text"), ("cells", "number"), ("value", "number"),
               ("opt", "number"), ("CP-SAT s", "number"), ("exh. s", "number"),
               ("ratio", "number"), ("agree", "number"))
    return _table("CP-SAT vs exhaustive search", "seconds; opt: proven optimal; exh.: the "
                  "exhaustive search, >cap when capped; ratio = exhaustive / CP-SAT",
                  columns, rows)


def summary_table(summary: list[dict[str, Any]]) -> Table:
    """Medians per (game, kind, horizon)."""
    rows = []
    for row in summary:
        horizon = row["horizon"]
        rows.append([GAMES[row["game"]].short, row["kind"],
                     "any" if horizon is None else str(horizon),
                     str(row["cases"]), str(row["optimal"]), _seconds(row["cpsat_median_s"]),
                     f"{row['exhaustive_done']}/{row['cases']}",
                     _seconds(row["exhaustive_median_s"]),
                     "—" if row["ratio_median"] is None else f"{row['ratio_median']:.2f}"])
    columns = (("game", "text"), ("kind", "label"), ("horizon", "number"), ("cases", "number"),
               ("opt", "number"), ("CP-SAT s", "number"), ("done", "number"),
               ("exh. s", "number"), ("ratio", "number"))
    return _table("Medians per group", "opt: proven optimal; done: exhaustive searches not "
                  "capped; exh.: the exhaustive search",
                  columns, rows)
