"""Benchmark: CP-SAT time to a proven optimum vs the engine's exhaustive search (Terra Nova).

Full-size positions: the 2006 board (positions/terra-nova/board-2006.toml), 2 players
x 13 pieces from the engine's seeded setup, then a seeded random playout of 15–60
turns (20–60 stones on the board). For each position and each task (best-turn,
2-turn and 3-turn max-points closing) it reports the CP-SAT wall time (model build
included), whether it proved optimality, the engine's exhaustive time (with a cap)
and the ratio, as a rich table on stderr and one JSON object on stdout.

Run: ``.venv/bin/python benchmarks/terra_nova.py [--positions N] [--tasks 1,2,3]``.
The machine is shared, so timings are noisy.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from solver.cpsat import SolveParams
from solver.terra_nova.engine import exhaustive
from solver.terra_nova.engine.playout import random_playout, setup
from solver.terra_nova.fileformat import read_position
from solver.terra_nova.position import TOTAL_STONES, Position
from solver.terra_nova.solve import solve_puzzle

BOARD = Path(__file__).parent.parent / "positions/terra-nova/board-2006.toml"


def full_positions(count: int, seed: int) -> list[tuple[int, Position]]:
    """``count`` seeded full-size positions with 20–60 stones on the board."""
    board = read_position(BOARD).board
    out = []
    s = seed
    while len(out) < count:
        rng = random.Random(s)
        position = setup(board, ("red", "yellow"), rng)
        position, _ = random_playout(position, rng, turns=rng.randint(15, 60))
        on_board = TOTAL_STONES - position.stones_left
        if 20 <= on_board <= 60 and position.pieces_of(position.to_move):
            out.append((s, position))
        s += 1
    return out


@click.command()
@click.option("--positions", "count", default=6, show_default=True)
@click.option("--seed", default=0, show_default=True)
@click.option("--tasks", default="1,2,3", show_default=True, help="Turns: 1 = best-turn.")
@click.option("--time-limit", default=60.0, show_default=True, help="CP-SAT seconds per solve.")
@click.option("--exhaustive-cap", default=60.0, show_default=True,
              help="Seconds before the exhaustive search gives up.")
@click.option("--workers", default=2, show_default=True)
def main(count: int, seed: int, tasks: str, time_limit: float, exhaustive_cap: float,
         workers: int) -> None:
    """Run the benchmark and print the table (stderr) and JSON (stdout)."""
    console = Console(stderr=True, width=150)
    rows = []
    params = SolveParams(time_limit=time_limit, workers=workers, seed=0)
    for pos_seed, position in full_positions(count, seed):
        stones = TOTAL_STONES - position.stones_left
        for turns in (int(t) for t in tasks.split(",")):
            kind = "best-turn" if turns == 1 else f"{turns}-turn closing"
            answer = solve_puzzle(position, None if turns == 1 else turns, params)
            start = time.perf_counter()
            try:
                if turns == 1:
                    truth = exhaustive.best_turn(position, time_cap=exhaustive_cap)
                else:
                    truth = exhaustive.best_closing(position, turns, time_cap=exhaustive_cap)
                ex_done = True
            except TimeoutError:
                truth, ex_done = None, False
            ex_wall = time.perf_counter() - start
            row = {
                "seed": pos_seed, "stones": stones, "task": kind,
                "cpsat_s": round(answer.wall_s, 3), "build_s": round(answer.build_s, 3),
                "optimal": answer.optimal, "value": list(answer.key),
                "candidates": answer.stats.get("candidates"),
                "exhaustive_s": round(ex_wall, 3) if ex_done else None,
                "exhaustive_value": list(truth.key) if ex_done else None,
                "ratio": round(ex_wall / answer.wall_s, 2) if ex_done else None,
            }
            if ex_done and answer.optimal and tuple(truth.key) != answer.key:
                row["MISMATCH"] = True
            rows.append(row)
            console.print(row)
    table = Table(title="Terra Nova: CP-SAT vs exhaustive (seconds; machine shared, noisy)")
    for col in ("seed", "stones", "task", "cands", "CP-SAT s", "build s", "proven", "value",
                "exhaustive s", "ratio"):
        table.add_column(col, justify="right")
    for r in rows:
        table.add_row(str(r["seed"]), str(r["stones"]), r["task"], str(r["candidates"]),
                      f"{r['cpsat_s']:.2f}", f"{r['build_s']:.2f}", "yes" if r["optimal"] else "NO",
                      str(tuple(r["value"])),
                      f"{r['exhaustive_s']:.2f}" if r["exhaustive_s"] is not None
                      else f">{exhaustive_cap:.0f}",
                      f"{r['ratio']:.2f}" if r["ratio"] is not None else "-")
    console.print(table)
    summary = {}
    for task in sorted({r["task"] for r in rows}):
        times = [r["cpsat_s"] for r in rows if r["task"] == task]
        summary[task] = {"median_cpsat_s": round(statistics.median(times), 3),
                         "proven": sum(r["optimal"] for r in rows if r["task"] == task),
                         "count": len(times)}
    console.print(summary)
    json.dump({"rows": rows, "summary": summary}, sys.stdout, indent=2)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
