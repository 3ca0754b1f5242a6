"""``boardsat export``: write a puzzle's model, or read a solution of it back."""

from __future__ import annotations

from pathlib import Path

from rich.markup import escape

from cli.console import out as stdout
from solver.cpsat import SolveParams
from solver.export import export, read_back
from solver.protocol import Options


def run(file: Path, options: Options, out: Path | None, solution: Path | None) -> None:
    """Write the model to ``out``, or read ``solution`` back (exactly one is given)."""
    params = SolveParams(workers=1)
    if solution is not None:
        back = read_back(file, options, solution, params)
        value = "/".join(map(str, back.replayed.value))
        stdout.print(f"objective {back.objective:g}: value {value}, replayed by the engine")
        for number, step in enumerate(back.replayed.line, start=1):
            stdout.print(f"  {number}. {escape(step)}")
        return
    assert out is not None
    done = export(file, options, out, params)
    size = (f"{done.variables} variables, {done.constraints} constraints"
            + ("" if done.columns is None else
               f" (MIP: {done.columns} columns, {done.rows} rows)"))
    stdout.print(f"{escape(done.puzzle)}: {size}")
    for path in done.paths:
        stdout.print(f"written to {escape(str(path))}")
