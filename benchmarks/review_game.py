"""Write the Terra Nova game record the review benchmark and the README use.

A 40-turn 2-player game on the full 2006 board from ``positions/terra-nova/setup-2p.toml``
in which each player plays the proven best turn (one turn, CP-SAT, replayed by the
engine), except on the turns a seeded coin sends to a random legal turn instead (one in
three): a game with strong turns and missed closings, as a review meets them.

    .venv/bin/python benchmarks/review_game.py positions/terra-nova/records/demo-2p.toml
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from solver.cpsat import SolveParams
from solver.recordfile import RecordedTurn, record_text, start_name
from solver.terra_nova.commands import load
from solver.terra_nova.engine.playout import random_playout
from solver.terra_nova.engine.turns import apply_turn, game_over
from solver.terra_nova.notation import format_turn
from solver.terra_nova.solve import solve_puzzle

START = Path("positions/terra-nova/setup-2p.toml")
TURNS = 40
RANDOM_SHARE = 1 / 3
SEED = 7


def main(out: Path) -> None:
    rng = random.Random(SEED)
    position = load(START)
    played = []
    while len(played) < TURNS and not game_over(position):
        if rng.random() < RANDOM_SHARE:
            _, history = random_playout(position, rng, turns=1)
            turn = history[0][1]
        else:
            turn = solve_puzzle(position, None, SolveParams(workers=1)).line[0]
        played.append(RecordedTurn(position.to_move, format_turn(turn, position.grid)))
        position = apply_turn(position, turn).position
    out.write_text(record_text("terra-nova", start_name(START, out), played), encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
