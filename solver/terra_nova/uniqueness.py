"""Is a Terra Nova puzzle's optimal answer unique? CP-SAT on the answer variables.

A puzzle (best-turn, or max-points closing over ``turns`` turns) has a unique
answer when every optimal line leads to the same final position: the same own
pieces, stones and points of every player. The objective tuple is the rules'
(best-turn: points, then others' points; closing: also fewest actions).

:func:`check_unique` is the authoritative check: solve the
:class:`~solver.terra_nova.model.turn_model.TurnModel` with the rules' order of
lines as one objective, fix it at its optimum, add the clause "some final-state
variable differs from the found answer" and solve again: INFEASIBLE means unique. The found line
is replayed through the reference engine, which must agree on the objective.

:func:`engine_finals` is a cheap exact pre-filter on the engine side: it finds
up to two distinct optimal final positions by search, so most non-unique
candidates are rejected before the (slower) CP-SAT check runs.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from ortools.sat.python import cp_model

from solver.cpsat import SolveParams
from solver.cpsat.uniqueness import unique_answer
from solver.errors import EngineDisagreement, InputError
from solver.terra_nova.engine.exhaustive import OneTurnSearch, SearchClock
from solver.terra_nova.engine.turngen import TurnState
from solver.terra_nova.engine.turns import play_line, turn_state
from solver.terra_nova.model.turn_model import TurnModel
from solver.terra_nova.notation import Turn
from solver.terra_nova.position import Position
from solver.terra_nova.settings import line_objective, settings


@dataclass(frozen=True)
class Checked:
    """The optimum of a puzzle and whether its final position is unique.

    ``key`` is the objective tuple: ``(points, others)`` for best-turn,
    ``(points, others, actions)`` for closing. ``unique`` is None when a solve
    did not finish within its effort limit.
    """

    key: tuple[int, ...]
    line: tuple[Turn, ...]
    unique: bool | None
    stats: dict[str, Any] = field(default_factory=dict)


def check_unique(position: Position, turns: int, params: SolveParams | None = None,
                 effort: float | None = None, target: int | None = None) -> Checked | None:
    """Solve the puzzle over ``turns`` turns and check that its final position is unique.

    Without ``target`` the puzzle is best-turn or a max-points closing (the rules'
    order of lines); with it, the ``turns``-turn lines gaining at least ``target``
    own points with the fewest actions (a min-turns puzzle whose minimum is
    ``turns``: the caller proves that fewer turns fall short). ``effort`` limits
    each solve in CP-SAT deterministic seconds (reproducible). Returns None when
    the optimum is not proven within it (or no line reaches ``target``).
    """
    params = (params or SolveParams(workers=1)).with_settings(
        **settings(), max_deterministic_time=effort)
    start = time.perf_counter()
    tm = TurnModel(position, turns)
    finals = tm.state_vars()
    if target is None:
        objectives = [(line_objective(tm, turns, actions=turns > 1).expr, "max")]
    else:
        tm.model.add(tm.own_points() >= target)
        objectives = [(tm.actions(), "min")]
    found: dict[str, Any] = {}

    def replay(solver: cp_model.CpSolver) -> None:
        line = tuple(tm.line(solver))
        key: tuple[int, ...] = (int(solver.value(tm.own_points())),
                                int(solver.value(tm.other_points())))
        if turns > 1 or target is not None:
            key += (int(solver.value(tm.actions())),)
        try:
            outcome = play_line(position, line)
        except InputError as exc:  # the engine refuses the model's line: not bad input
            raise EngineDisagreement(f"the engine refuses the model's line: {exc.message} "
                                     f"({exc.place})") from None
        engine_key = (outcome.points, outcome.others) + (
            (outcome.actions,) if turns > 1 or target is not None else ())
        if engine_key != key:
            raise EngineDisagreement(
                f"the model's line is worth {key}, the engine says {engine_key}")
        found.update(line=line, key=key)

    checked = unique_answer(tm.model, objectives, finals, params, found=replay)
    if checked is None:
        return None
    first, last = checked.stages[0], checked.check
    stats = {"branches": first.stats["branches"] + last.stats["branches"],
             "conflicts": first.stats["conflicts"] + last.stats["conflicts"],
             "wall_s": round(time.perf_counter() - start, 3)}
    return Checked(found["key"], found["line"], checked.unique, stats)


# ------------------------------------------------------------------ engine pre-filter


def engine_finals(position: Position, turns: int, nodes: int = 200_000) -> tuple[tuple, int]:
    """The optimal objective rank and how many distinct optimal final positions (1 or 2+).

    Exact search with the reference engine (memoised per board and turns left,
    as in :mod:`solver.terra_nova.engine.exhaustive`); returns ``(rank, n)`` with ``n``
    capped at 2. Raises TimeoutError past ``nodes`` search nodes.
    """
    budget = SearchClock(node_cap=nodes)
    first = turn_state(position)
    tables, me, cache = first.t, first.me, first.cache
    memo: dict = {}

    def value(snap, left: int) -> tuple[tuple, set]:
        if (snap, left) in memo:
            return memo[(snap, left)]
        pieces, stones, stones_left = snap
        state = TurnState(tables, pieces, stones, stones_left, me, cache)
        if left == 1:
            search = OneTurnSearch(state, budget, count_actions=turns > 1, keep_finals=2)
            best, _ = search.run()
            finals = search.finals
            result = (best, set(finals))
        else:
            best = None
            out: set = set()
            seen: dict = {}
            for acts in state.turns():
                budget.tick()
                gains = tuple(state.gains)
                rank = (gains[me], gains[me] - sum(gains), -len(acts))
                nxt = state.snapshot()
                if rank > seen.get((nxt, gains), rank):
                    seen[(nxt, gains)] = rank
                seen.setdefault((nxt, gains), rank)
            for (nxt, gains), rank in seen.items():
                sub_rank, sub_finals = value(nxt, left - 1)
                total = tuple(a + b for a, b in zip(rank, sub_rank, strict=True))
                combined = {(snap2, tuple(a + b for a, b in zip(gains, g2, strict=True)))
                            for snap2, g2 in sub_finals}
                if best is None or total > best:
                    best, out = total, set()
                if total == best:
                    out |= combined
                    if len(out) > 2:
                        out = set(list(out)[:2])
            assert best is not None, "every position has a turn, if only the pass"
            result = (best, out)
        memo[(snap, left)] = result
        return result

    rank, finals = value(first.snapshot(), turns)
    return rank, min(2, len(finals))
