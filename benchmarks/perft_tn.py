"""Benchmark the Terra Nova reference engine: perft, turn generation and best-turn search.

Usage::

    .venv/bin/python benchmarks/perft_tn.py                       # bundled positions
    .venv/bin/python benchmarks/perft_tn.py FILE... --repeat 5 --generic --json

For each position: ``perft`` (fast counting path), optionally the generic
``legal_turns`` enumeration (``--generic``, the path every other tool uses) and
the exhaustive ``best_turn`` oracle; the best wall time of ``--repeat`` runs.

Measured on the project machine (2 cores shared with four other engineers, load
average about 5, Python 3.11). Wall times moved by a factor of 2-3 with the load,
so each cell gives the range of best-of-3..7 results seen over several runs:

=======================================  ==========  =========  ========  =========  ========
position                                 turns       positions  perft s   best-turn  generic s
=======================================  ==========  =========  ========  =========  ========
midgame-2p (2x13 pieces, 30 stones)       1,041,121    188,369  0.51-1.2  0.34-0.62  3.3-9.0
midgame-3p (3x10 pieces, 35 stones)         794,450    139,458  0.36-1.0  0.18-0.50  2.4-5.7
midgame-4p (4x8 pieces, 39 stones)          176,360     32,700  0.10-0.28 0.07-0.16  0.55-1.9
late-2p (25 pieces, 52 stones, scored)      244,461     46,210  0.13-0.36 0.08-0.21  0.72-1.8
setup-2p (2x13 pieces, no stones)        10,333,067  1,716,948  8.5-20    2.3-3.6    71
=======================================  ==========  =========  ========  =========  ========

"generic" counts the same turns by iterating ``legal_turns`` (tuples of notation
objects), the path the other tools use.
(The full-size board has 172 hexes, 8 landscapes of 19-24 hexes, one a lake.)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.terra_nova.engine.exhaustive import best_turn  # noqa: E402
from solver.terra_nova.engine.turns import legal_turns, perft  # noqa: E402
from solver.terra_nova.fileformat import read_position  # noqa: E402

DEFAULT = [ROOT / "positions" / "terra-nova" / f"{name}.toml"
           for name in ("midgame-2p", "midgame-3p", "midgame-4p", "late-2p")]


def best_of(repeat: int, func):
    """``(result, best wall seconds)`` of ``repeat`` calls."""
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = func()
        best = min(best, time.perf_counter() - start)
    return result, best


@click.command()
@click.argument("files", nargs=-1, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--repeat", type=click.IntRange(1), default=3, show_default=True)
@click.option("--generic", is_flag=True, help="Also time counting with legal_turns().")
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout.")
def main(files: tuple[Path, ...], repeat: int, generic: bool, as_json: bool) -> None:
    """Time perft and best-turn search of the Terra Nova engine on FILES."""
    rows = []
    for file in files or DEFAULT:
        position = read_position(file)
        counts, perft_s = best_of(repeat, lambda p=position: perft(p))
        best, best_s = best_of(repeat, lambda p=position: best_turn(p))
        row = {"file": str(file), "turns": counts.turns, "positions": counts.positions,
               "perft_s": round(perft_s, 4), "best_turn_key": list(best.key),
               "best_turn_nodes": best.nodes, "best_turn_s": round(best_s, 4)}
        if generic:
            total, generic_s = best_of(1, lambda p=position: sum(1 for _ in legal_turns(p)))
            assert total == counts.turns, "generic enumeration disagrees with perft"
            row["generic_s"] = round(generic_s, 4)
        rows.append(row)
    if as_json:
        import json
        print(json.dumps({"benchmark": "perft_tn", "repeat": repeat, "rows": rows}, indent=2))
        return
    table = Table(title=f"Terra Nova engine (best of {repeat})")
    for column in ("file", "turns", "positions", "perft s", "best-turn s", "generic s"):
        table.add_column(column, justify="left" if column == "file" else "right")
    for row in rows:
        table.add_row(Path(row["file"]).name, f"{row['turns']:,}", f"{row['positions']:,}",
                      f"{row['perft_s']:.3f}", f"{row['best_turn_s']:.3f}",
                      f"{row['generic_s']:.2f}" if "generic_s" in row else "-")
    Console().print(table)


if __name__ == "__main__":
    main()
