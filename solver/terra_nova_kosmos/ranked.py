"""Terra Nova (KOSMOS)'s ``solve --top N`` and ``rate``: what they print, text and JSON.

The answers come from :mod:`solver.terra_nova_kosmos.ranking` (CP-SAT proofs, every
answer replayed and explained by the engine).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

from solver.cpsat import SolveParams
from solver.drawing.entries import stat_entries
from solver.drawing.report import (
    Listed,
    heading,
    ranked_answers,
    ranking_note,
    ranking_stats,
    rating_lines,
)
from solver.errors import InputError
from solver.protocol import Screen, Shown, turns_of
from solver.terra_nova_kosmos.commands import kind_of, load, said, turns_said
from solver.terra_nova_kosmos.explain import OTHERS
from solver.terra_nova_kosmos.notation import format_turn
from solver.terra_nova_kosmos.ranking import rate_line, top_answers
from solver.terra_nova_kosmos.view import render_position


def solve_top(file: Path, params: SolveParams, as_json: bool, screen: Screen,
              show: Shown) -> int:
    """``solve --top N``: the N best plans, each proven in its rank."""
    start = time.perf_counter()
    count = show.top or 1
    position = load(file)
    with screen.status("solving…") as status:
        try:
            ranking = top_answers(position, count, params,
                                  progress=lambda text: status.update(f"solving: {text}"))
        except InputError as exc:
            raise exc.located(path=file) from None
    wall = time.perf_counter() - start
    grid = position.grid
    if as_json:
        screen.json({"game": "terra-nova-kosmos", "kind": kind_of(position),
                     **({} if kind_of(position) == "best-round"
                        else {"others_meaning": OTHERS}),
                     "answers": [{"rank": a.rank, "proven": a.proven,
                                  "value": a.result.value, "turns": len(a.line),
                                  "line": [format_turn(t, grid) for t in a.line],
                                  "explain": a.explanation.as_json()}
                                 for a in ranking.answers],
                     "exhausted": ranking.exhausted, "stopped": ranking.stopped,
                     "wall_s": round(wall, 4), "stats": ranking_stats(ranking.results)})
        return 0
    screen.print(heading(file, f"{kind_of(position)}, {position.to_move} to move: the "
                               f"{count} best answers"))
    screen.print(render_position(position))
    screen.print(*ranked_answers([Listed(
        a.rank, a.proven, " / ".join(format_turn(t, grid) for t in a.line),
        f"worth {a.result.value} ({said(a.result)}, {turns_said(len(a.line))})",
        a.explanation.sentences()) for a in ranking.answers]))
    screen.print(ranking_note(ranking, count, "is another plan than those above it"))
    if show.stats:
        screen.print(stat_entries(ranking_stats(ranking.results), wall))
    return 0


def rate(file: Path, texts: Sequence[str], params: SolveParams, as_json: bool,
         screen: Screen, show: Shown) -> int:
    """``rate FILE TURN…``: the line's value, how many plans are worth more, the best."""
    start = time.perf_counter()
    position = load(file)
    with screen.status("rating…") as status:
        try:
            rating = rate_line(position, turns_of(texts), params,
                               progress=lambda text: status.update(f"rating: {text}"))
        except InputError as exc:
            raise exc.located(path=file) from None
    wall = time.perf_counter() - start
    if as_json:
        screen.json({"game": "terra-nova-kosmos", "kind": kind_of(position),
                     **rating.as_json(), "wall_s": round(wall, 4)})
        return 0
    screen.print(heading(file, f"{kind_of(position)}, {position.to_move} to move"))
    screen.print(*rating_lines(rating, "your line"))
    if show.stats:
        screen.print(stat_entries({}, wall))
    return 0
