"""Rift Valley `solve`: the CP-SAT max-score answer, checked by the engine, rendered."""

from __future__ import annotations

from pathlib import Path

from rich.table import Table
from rich.text import Text

from cli.console import err, print_json
from cli.console import out as stdout
from cli.gridboard import PLAYER_FG, render_board
from cli.rift_valley import load
from solver.cpsat import SolveParams
from solver.rift_valley.notation import DrawStop, DrawTent, DrawTrail
from solver.rift_valley.rules import DEFAULT_RULES, Rules
from solver.rift_valley.solve import Answer, solve_max_score

KIND = "max-score"


def solve(file: Path, draws: int | None, params: SolveParams, as_json: bool,
          rules: Rules = DEFAULT_RULES) -> None:
    """Solve the max-score puzzle in ``file`` (``draws`` overrides its budget) and print it."""
    position = load(file, rules)
    with err.status("building the model…") as status:
        def progress(objective: float, bound: float, seconds: float) -> None:
            status.update(f"solving: best {objective:.0f}, bound {bound:.0f}, {seconds:.1f} s")

        answer = solve_max_score(position, draws, params, rules=rules, progress=progress)
    if as_json:
        print_json(_json(answer))
        return
    _print(file, answer)


def _json(answer: Answer) -> dict:
    s = answer.breakdown
    return {
        "game": "rift-valley",
        "kind": KIND,
        "player": answer.before.player,
        "budget": answer.before.draws,
        "value": answer.value,
        "optimal": answer.optimal,
        "bound": answer.bound,
        "draws": answer.draw_strings(),
        "score": {"trails": s.trails, "animals": s.animals, "tents": s.tents,
                  "unconnected": s.unconnected, "total": s.total},
        "wall_s": round(answer.wall_s, 3),
        "stats": answer.stats,
    }


def _new_cells(answer: Answer) -> set[int]:
    grid = answer.before.grid
    cells: set[int] = set()
    for draw in answer.draws:
        if isinstance(draw, DrawTrail):
            cells.update(draw.trail.cells(grid))
        else:
            cells.add(draw.cell)
    return cells


def _draws_table(answer: Answer) -> Table:
    table = Table(box=None, pad_edge=False, header_style="bold")
    table.add_column("#", justify="right")
    table.add_column("draw")
    table.add_column("element")
    kinds = {DrawStop: "stop", DrawTrail: "trail", DrawTent: "tent"}
    for number, (draw, text) in enumerate(zip(answer.draws, answer.draw_strings(), strict=True),
                                          start=1):
        table.add_row(str(number), text, kinds[type(draw)])
    return table


def _print(file: Path, answer: Answer) -> None:
    before, player = answer.before, answer.before.player
    head = Text(f"{file}", style="bold")
    head.append("  max-score for ")
    head.append(player, style=PLAYER_FG[player])
    head.append(", draws " + ("unlimited" if before.draws is None else str(before.draws)))
    if before.first_stop_rule:
        head.append(", first-stop rule")
    stdout.print(head)
    stdout.print(Text("before", style="bold underline"))
    stdout.print(render_board(before))
    stdout.print(Text(f"draws in order ({len(answer.draws)})", style="bold underline"))
    if answer.draws:
        stdout.print(_draws_table(answer))
    else:
        stdout.print("no draw improves the score")
    stdout.print(Text("after (new elements underlined)", style="bold underline"))
    stdout.print(render_board(answer.after, highlight=_new_cells(answer)))
    verdict = ("[bold green]proven optimal[/]" if answer.optimal
               else f"[bold yellow]not proven optimal (best found; bound {answer.bound})[/]")
    stdout.print(f"score [bold]{answer.value}[/] for {player}: {verdict}, "
                 f"replayed by the engine")
    stats = answer.stats
    stdout.print(f"[grey50]{answer.wall_s:.2f} s, {stats.get('branches', 0)} branches, "
                 f"{stats.get('conflicts', 0)} conflicts, {stats.get('trails', 0)} candidate "
                 f"trails, {stats.get('stop_cells', 0)} stop cells[/]")
