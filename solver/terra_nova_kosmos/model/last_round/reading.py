"""A solution of the last-round model as turns, its predicted value, the
passing hint and the plan used by uniqueness checks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ortools.sat.python import cp_model

from solver.terra_nova_kosmos.model.last_round.parts import (
    BRIDGING,
    KINDS,
    LastRound,
    Step,
)
from solver.terra_nova_kosmos.notation import Action, Exchange, Town, Turn


def is_on(solver: cp_model.CpSolver, lit: Any) -> bool:
    """Whether a literal (or a constant) is true in the solution."""
    if isinstance(lit, bool):
        return lit
    return bool(solver.boolean_value(lit))


def _action(lr: LastRound, solver: cp_model.CpSolver, step: Step, kind: str) -> Action:
    g = lr.geometry
    cells = lambda d: [g.nodes[i] for i, x in sorted(d.items()) if is_on(solver, x)]  # noqa: E731
    house = cells(step.house)
    build = house[0] if house else None
    if kind == "pass":
        return Action("pass", tile=lr.pass_tile)
    if kind in ("ship", "pa-ship", "pa-money7"):
        return Action(kind)
    if kind in BRIDGING:
        spot = next(g.spots[s] for s, x in sorted(step.bridge.items()) if is_on(solver, x))
        return Action(kind, bridge=spot)
    if kind == "free-kontor":
        return Action(kind, cells=tuple(cells(step.up_k)))
    if kind.startswith("upgrade"):
        cell = (cells(step.up_k) + cells(step.up_p))[0]
        edge = cells(step.edge)
        return Action("upgrade", cells=(cell,), piece=kind.split("-")[1],
                      edge=edge[0] if edge else None, ship=is_on(solver, step.pl_ship))
    if kind == "inv-kontor":
        return Action(kind, cells=tuple(cells(step.inv)))
    if kind in ("build", "lake-house"):
        return Action(kind, cells=(house[0],))
    if kind == "desert-dig":
        return Action(kind, cells=tuple(cells(step.dig)), build=build)
    name = "pa-spade2" if kind == "pa-spade2x2" else kind
    return Action(name, cells=tuple(cells(step.tr)), build=build)


def read_line(lr: LastRound, solver: cp_model.CpSolver) -> list[Turn]:
    """The solution as turns in notation: ``$k`` before the action, the action, towns."""
    turns = []
    g = lr.geometry
    for step in lr.steps:
        kind = next(k for k, v in step.kind.items() if v is not False and is_on(solver, v))
        if kind == "idle":
            break
        triples = 0 if isinstance(step.triples, int) else solver.value(step.triples)
        exchange = solver.value(step.exchange)
        before = (((Exchange("*", triples),) if triples else ())
                  + ((Exchange("$", exchange),) if exchange else ()))
        tiles = [x for x, v in step.tiles.items() if is_on(solver, v)]
        roots = [i for i, v in sorted(step.found.items()) if is_on(solver, v)]
        rivers = [r for r, v in sorted(step.river.items()) if is_on(solver, v)]
        land, over = tiles[:len(roots)], tiles[len(roots):]
        if len(roots) == 1:
            towns: tuple[Town, ...] = (Town(land[0]),)
        else:
            towns = tuple(Town(x, g.nodes[i]) for x, i in zip(land, roots, strict=True))
        towns += tuple(Town(x, r) for x, r in zip(over, rivers, strict=True))
        turns.append(Turn(_action(lr, solver, step, kind), before, towns))
    return turns


@dataclass(frozen=True)
class Predicted:
    """What the model says the line is worth."""

    value: int
    others: int
    turns: int


def predicted(lr: LastRound, solver: cp_model.CpSolver) -> Predicted:
    """The model's value, others' total and turn count of its solution."""
    return Predicted(solver.value(lr.value), solver.value(lr.others), solver.value(lr.turns))


def hint_passing_at_once(lr: LastRound, passing: tuple[int, ...] = (0,)) -> None:
    """Hint the action kinds of the line that passes at once (pass, then idle): CP-SAT
    completes the rest of it in its first search, so a time-limited solve nearly
    always has a line to improve on (the solve falls back to that line when not).
    ``passing``: the steps (from 0) that pass (a model over several rounds passes once
    in each), every other one idle."""
    for t, step in enumerate(lr.steps):
        for k, v in step.kind.items():
            if not isinstance(v, bool):
                lr.model.add_hint(v, k == ("pass" if t in passing else "idle"))


def plan(lr: LastRound) -> list[Any]:
    """The answer of a line up to the order of its turns: how often each action kind is
    taken, the final buildings, habitable hexes, bridges and palace sides, and the town
    tiles taken (for uniqueness checks)."""
    m = lr.model
    end = lr.states[-1]
    out: list[Any] = []
    for kind in KINDS:
        uses = [s.kind[kind] for s in lr.steps if s.kind[kind] is not False]
        if uses:
            count = m.new_int_var(0, len(uses), f"uses_{kind}")
            m.add(count == sum(uses))
            out.append(count)
    for lits in (end.house, end.kontor, end.palace, end.home, end.bridge, [end.left, end.right]):
        out += [x for x in lits if not isinstance(x, bool)]
    tiles: dict[str, list[Any]] = {}
    for s in lr.steps:
        for name, v in s.tiles.items():
            tiles.setdefault(name, []).append(v)
    for name, lits in sorted(tiles.items()):
        taken = m.new_bool_var(f"taken_{name}")
        m.add(taken == sum(lits))
        out.append(taken)
    return out
