"""Rich tables of benchmark records: one row per case, and medians per group."""

from __future__ import annotations

from typing import Any

from rich.table import Table

from solver.bench.runner import Record
from solver.games import GAMES


def _seconds(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def horizon_text(record: Record) -> str:
    """``1 turn``, ``3 turns``, ``8 draws``, ``any draws``."""
    return GAMES[record.game].horizon_text(record.horizon)


def cases_table(records: list[Record], cap: float) -> Table:
    """One row per case: size, horizon, value, CP-SAT time, exhaustive time, ratio."""
    table = Table(title="CP-SAT vs exhaustive search (seconds; ratio = exhaustive / CP-SAT)")
    for name, justify in (("case", "left"), ("kind", "left"), ("cells", "right"),
                          ("horizon", "right"), ("value", "right"), ("proven", "center"),
                          ("CP-SAT s", "right"), ("exhaustive s", "right"), ("ratio", "right"),
                          ("agree", "center")):
        table.add_column(name, justify=justify, no_wrap=name == "case")  # type: ignore[arg-type]
    for r in records:
        if r.exhaustive_s is None:
            exhaustive, ratio = f"capped >{cap:g}", f">{cap / max(r.cpsat_s, 1e-9):.1f}"
        else:
            exhaustive, ratio = _seconds(r.exhaustive_s), f"{r.ratio:.2f}"
        agree = "—" if r.agree is None else ("[green]yes[/]" if r.agree else "[red]NO[/]")
        table.add_row(r.case, r.kind, str(r.cells), horizon_text(r),
                      "/".join(map(str, r.value)), "[green]yes[/]" if r.optimal else "[red]no[/]",
                      _seconds(r.cpsat_s), exhaustive, ratio, agree)
    return table


def summary_table(summary: list[dict[str, Any]]) -> Table:
    """Medians per (game, kind, horizon)."""
    table = Table(title="Medians per group")
    for name in ("game", "kind", "horizon", "cases", "proven", "CP-SAT s",
                 "exhaustive done", "exhaustive s", "ratio"):
        table.add_column(name, justify="left" if name in ("game", "kind") else "right")
    for row in summary:
        horizon = row["horizon"]
        table.add_row(row["game"], row["kind"], "any" if horizon is None else str(horizon),
                      str(row["cases"]), str(row["optimal"]), _seconds(row["cpsat_median_s"]),
                      f"{row['exhaustive_done']}/{row['cases']}",
                      _seconds(row["exhaustive_median_s"]),
                      "—" if row["ratio_median"] is None else f"{row['ratio_median']:.2f}")
    return table
