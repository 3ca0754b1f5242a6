"""Rift Valley's ``solve --top N`` and ``rate``: what they print, in text and ``--json``.

The answers come from :mod:`solver.rift_valley.ranking` (CP-SAT proofs, every answer
replayed and explained by the engine).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

from solver.cpsat import SolveParams
from solver.drawing.entries import stat_entries
from solver.drawing.report import (
    Listed,
    ranked_answers,
    ranking_note,
    ranking_stats,
    rating_lines,
)
from solver.errors import InputError
from solver.protocol import Screen, Shown
from solver.rift_valley.commands import KIND, heading, load
from solver.rift_valley.notation import draws_of, format_draw
from solver.rift_valley.ranking import rate_draws, top_answers
from solver.rift_valley.rules import Rules
from solver.rift_valley.view import render_board


def solve_top(file: Path, params: SolveParams, as_json: bool, screen: Screen, show: Shown,
              rules: Rules, draws: int | None = None) -> int:
    """``solve --top N``: the N best element sets, each proven in its rank."""
    start = time.perf_counter()
    count = show.top or 1
    position = load(file, rules)
    if draws is not None:
        position = position.replace(draws=draws)
    with screen.status("solving…") as status:
        try:
            ranking = top_answers(position, count, params, rules,
                                  progress=lambda text: status.update(f"solving: {text}"))
        except InputError as exc:
            raise exc.located(path=file) from None
    wall = time.perf_counter() - start
    grid = position.grid
    if as_json:
        screen.json({"game": "rift-valley", "kind": KIND,
                     "answers": [{"rank": a.rank, "proven": a.proven, "value": a.value,
                                  "draws": [format_draw(d, grid) for d in a.draws],
                                  "explain": a.explanation.as_json()}
                                 for a in ranking.answers],
                     "exhausted": ranking.exhausted, "stopped": ranking.stopped,
                     "wall_s": round(wall, 4), "stats": ranking_stats(ranking.results)})
        return 0
    screen.print(heading(file, position, f"the {count} best answers"))
    screen.print(render_board(position))
    screen.print(*ranked_answers([Listed(
        a.rank, a.proven, ", ".join(format_draw(d, grid) for d in a.draws) or "draw nothing",
        f"{position.player} scores {a.value} with {len(a.draws)} draws",
        a.explanation.sentences()) for a in ranking.answers]))
    screen.print(ranking_note(ranking, count, "draws other elements than those above it"))
    if show.stats:
        screen.print(stat_entries(ranking_stats(ranking.results), wall))
    return 0


def rate(file: Path, texts: Sequence[str], params: SolveParams, as_json: bool,
         screen: Screen, show: Shown, rules: Rules) -> int:
    """``rate FILE DRAW…``: the draws' score, how many answers score more, the best."""
    start = time.perf_counter()
    position = load(file, rules)
    with screen.status("rating…") as status:
        try:
            rating = rate_draws(position, draws_of(texts), params, rules,
                                progress=lambda text: status.update(f"rating: {text}"))
        except InputError as exc:
            raise exc.located(path=file) from None
    wall = time.perf_counter() - start
    if as_json:
        screen.json({"game": "rift-valley", **rating.as_json(), "wall_s": round(wall, 4)})
        return 0
    screen.print(heading(file, position, "rating"))
    screen.print(*rating_lines(rating, "your draws"))
    if show.stats:
        screen.print(stat_entries({}, wall))
    return 0
