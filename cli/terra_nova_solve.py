"""Terra Nova commands `solve`, `verify` and `perft --via-model`: read, call the solver, render."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from rich.table import Table

from cli.console import err, print_json
from cli.console import out as stdout
from cli.hexboard import render_position
from solver.cpsat import SolveParams
from solver.errors import InputError
from solver.terra_nova import solve as library
from solver.terra_nova.fileformat import read_position
from solver.terra_nova.notation import Move, Stone
from solver.terra_nova.position import Position
from solver.terra_nova.solve import Answer


def _load(file: Path) -> Position:
    return read_position(file)


@contextmanager
def _located(file: Path) -> Iterator[None]:
    """InputErrors (PuzzleError included) raised inside name ``file``."""
    try:
        yield
    except InputError as exc:
        if exc.path is not None:
            raise
        located = type(exc)(exc.message, path=file, place=exc.place)
        raise located from None


def solve(file: Path, turns: int | None, params: SolveParams, as_json: bool) -> None:
    """Solve the puzzle in ``file``; print the board before/after, the line and the proof status."""
    with _located(file):
        position = _load(file)
        with err.status("solving…", spinner="dots") as status:
            answer = library.solve_puzzle(position, turns, params,
                                  progress=lambda text: status.update(f"solving: {text}"))
    if as_json:
        print_json({
            "game": "terra-nova",
            "kind": answer.kind if answer.kind == "best-turn" else "closing",
            "objective": None if answer.kind == "best-turn" else answer.kind,
            "value": answer.value,
            "others": answer.others,
            "actions": answer.actions,
            "optimal": answer.optimal,
            "line": answer.line_text(position),
            "turn_points": answer.turn_points,
            "turn_others": answer.turn_others,
            "wall_s": round(answer.wall_s, 4),
            "stats": dict(answer.stats, build_s=round(answer.build_s, 4), status=answer.status),
        })
        return
    _show_answer(file, position, answer)


def _touched(answer: Answer) -> set[int]:
    cells: set[int] = set()
    for turn in answer.line:
        for action in turn:
            if isinstance(action, Move):
                cells.update((action.src, action.dst))
            elif isinstance(action, Stone):
                cells.add(action.cell)
    return cells


def _show_answer(file: Path, position: Position, answer: Answer) -> None:
    touched = _touched(answer)
    stdout.print(f"[bold]{file}[/] — {answer.kind}, {position.to_move} to move")
    stdout.print(render_position(position, highlight=touched))
    table = Table(title="solution line", show_header=True)
    table.add_column("turn", justify="right")
    table.add_column("actions")
    table.add_column(f"{position.to_move} gains", justify="right")
    table.add_column("others gain", justify="right")
    for number, (text, own, others) in enumerate(
            zip(answer.line_text(position), answer.turn_points, answer.turn_others, strict=True),
            start=1):
        table.add_row(str(number), text, str(own), str(others))
    stdout.print(table)
    stdout.print("after the line:")
    stdout.print(render_position(answer.final, highlight=touched))
    proof = ("[bold green]proven optimal[/]" if answer.optimal
             else "[bold yellow]not proven optimal (best found)[/]")
    stdout.print(f"value {answer.value} points, others {answer.others}, {answer.actions} "
                 f"actions — {proof}")
    stats = ", ".join(f"{k} {v}" for k, v in answer.stats.items())
    stdout.print(f"time {answer.wall_s:.2f}s (model build {answer.build_s:.2f}s); {stats}")


def verify(file: Path, as_json: bool) -> None:
    """Check the file's [solution] with the engine; exit 1 when it does not hold."""
    with _located(file):
        position = _load(file)
        verdict = library.verify_solution(position)
    if as_json:
        print_json({"game": "terra-nova", "ok": verdict.ok, "message": verdict.message,
                    "points": verdict.points})
    elif verdict.ok:
        stdout.print(f"[bold green]ok[/]: the solution is legal and gains {verdict.points} points")
    else:
        stdout.print(f"[bold red]not ok[/]: {verdict.message}")
    if not verdict.ok:
        sys.exit(1)


def perft_via_model(file: Path, as_json: bool) -> None:
    """Count legal turns by enumerating the CP-SAT turn model's solutions."""
    with _located(file):
        position = _load(file)
        with err.status("enumerating the turn model…", spinner="dots"):
            result = library.perft_via_model(position)
    if as_json:
        print_json({"game": "terra-nova", "turns": result.turns, "positions": result.positions,
                    "wall_s": round(result.wall_s, 4), "via": "model"})
        return
    table = Table(title=f"perft via the CP-SAT model: {file}", show_header=True)
    table.add_column("legal turns", justify="right")
    table.add_column("distinct positions", justify="right")
    table.add_column("seconds", justify="right")
    table.add_row(f"{result.turns:,}", f"{result.positions:,}", f"{result.wall_s:.3f}")
    stdout.print(table)

