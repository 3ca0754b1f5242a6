"""Terra Nova's ``solve --top N`` and ``rate``: what they print, in text and ``--json``.

The answers come from :mod:`solver.terra_nova.ranking` (CP-SAT proofs, every answer
replayed and explained by the engine).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

from solver.cpsat import SolveParams
from solver.cpsat.ranking import Ranking
from solver.drawing.entries import stat_entries
from solver.drawing.report import (
    Listed,
    heading,
    ranked_answers,
    ranking_note,
    ranking_stats,
    rating_lines,
)
from solver.protocol import Screen, Shown, turns_of
from solver.terra_nova.commands import located
from solver.terra_nova.explain import OTHERS
from solver.terra_nova.fileformat import read_position
from solver.terra_nova.notation import format_turn
from solver.terra_nova.position import Position
from solver.terra_nova.ranking import Ranked, ranked_kind, rate_line, top_answers
from solver.terra_nova.view import render_position


def solve_top(file: Path, turns: int | None, params: SolveParams, as_json: bool,
              screen: Screen, show: Shown) -> int:
    """``solve --top N``: the N best answers, each proven in its rank, replayed and
    explained by the engine."""
    start = time.perf_counter()
    count = show.top or 1
    with located(file):
        position = read_position(file)
        kind, _ = ranked_kind(position, turns)
        with screen.status("solving…") as status:
            ranking = top_answers(position, turns, count, params,
                                  progress=lambda text: status.update(f"solving: {text}"))
    wall = time.perf_counter() - start
    if as_json:
        screen.json(top_json(position, kind, ranking, wall))
        return 0
    who = position.to_move
    screen.print(heading(file, f"{kind}, {who} to move: the {count} best answers"))
    screen.print(render_position(position))
    screen.print(*ranked_answers([Listed(
        a.rank, a.proven, " / ".join(format_turn(t, position.grid) for t in a.line),
        f"{who} gains {a.value}, the others gain {a.others}, {a.actions} actions",
        a.explanation.sentences()) for a in ranking.answers]))
    screen.print(ranking_note(ranking, count, "places other stones than those above it"))
    if show.stats:
        screen.print(stat_entries(ranking_stats(ranking.results), wall))
    return 0


def top_json(position: Position, kind: str, ranking: Ranking[Ranked], wall: float) -> dict:
    """The object ``solve --top N --json`` prints (docs/json.md)."""
    return {
        "game": "terra-nova",
        "kind": kind if kind == "best-turn" else "closing",
        "others_meaning": OTHERS,
        "answers": [{"rank": a.rank, "proven": a.proven, "value": a.value,
                     "others": a.others, "actions": a.actions,
                     "line": [format_turn(t, position.grid) for t in a.line],
                     "explain": a.explanation.as_json()} for a in ranking.answers],
        "exhausted": ranking.exhausted,
        "stopped": ranking.stopped,
        "wall_s": round(wall, 4),
        "stats": ranking_stats(ranking.results),
    }


def rate(file: Path, texts: Sequence[str], params: SolveParams, as_json: bool,
         screen: Screen, stats: bool = False) -> int:
    """``rate FILE TURN``: the given line's points, how many answers gain more, the best."""
    start = time.perf_counter()
    with located(file):
        position = read_position(file)
        with screen.status("rating…") as status:
            rating = rate_line(position, turns_of(texts), params,
                               progress=lambda text: status.update(f"rating: {text}"))
    wall = time.perf_counter() - start
    if as_json:
        screen.json({"game": "terra-nova", **rating.as_json(), "wall_s": round(wall, 4)})
        return 0
    screen.print(heading(file, f"{position.to_move} to move"))
    screen.print(*rating_lines(rating, "your turn" if len(turns_of(texts)) == 1
                               else "your line"))
    if stats:
        screen.print(stat_entries({}, wall))
    return 0
