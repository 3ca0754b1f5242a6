"""A closing model over part of the candidate regions, exact on the lines it allows.

At 3 and 4 turns the full model (:class:`~solver.terra_nova.model.turn_model.TurnModel`
over every candidate) is too large to give CP-SAT time to search. The restricted model
builds the same model over a chosen part of the candidates (:func:`choose`) and forbids
the others to close: every line of the restricted model is a legal line in which no
excluded candidate closes, with exactly the points the full model would give it. So
its lines are real lines (replayed by the engine like any other), its optimum is at
most the closing's, and its proven bound covers only the lines that close no excluded
candidate; :mod:`~solver.terra_nova.model.relaxation` bounds the others.

When the geometry lists only the candidates of at most ``largest`` boundary cells
(:attr:`~solver.terra_nova.model.geometry.Geometry.largest`), the restricted model also
places at most ``largest`` stones: every region that closes then has its boundary among
the line's stones, so it is listed, and the forbidden ones are all known. Its bound then
covers the lines that close no excluded candidate and place at most ``largest`` stones.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from solver.cpsat.constraints import clause, live, negate
from solver.terra_nova.model.geometry import Candidate, Geometry
from solver.terra_nova.model.relaxation import weights
from solver.terra_nova.model.turn_model import TurnModel


def closing_moments(geo: Geometry, cand: Candidate) -> int:
    """Stone steps of the horizon at which ``cand`` can close (from its first one on):
    the full model spends closing and scoring literals on each."""
    return sum(1 for s in range(cand.first_step, geo.steps) if geo.is_stone_step(s))


def choose(geo: Geometry, moments: int, first: Sequence[int] = ()) -> list[int]:
    """The candidates a restricted model keeps: ``first`` (e.g. the closings of the
    relaxation's optimum, whose line, if legal, reaches its bound) whatever their
    closing moments, then smallest boundaries first (they close
    with the fewest stones, so the search reaches their lines soonest), then the most
    points the player can score (:func:`~solver.terra_nova.model.relaxation.weight`),
    while the closing moments of the kept ones (:func:`closing_moments`, what the
    model's size grows with) stay within ``moments``. Indices into
    ``geo.candidates``, ascending. (Most points per boundary cell first found better
    lines sooner on one thread, but fewer within the time limits on two: benchmarks/
    EXPERIMENTS.md, Terra Nova, "Relaxation and restricted rounds".)"""
    scored = weights(geo)

    def order(i: int) -> tuple[int, int, int]:
        return (len(geo.candidates[i].boundary), -scored[i], i)

    kept = list(dict.fromkeys(first))
    used = sum(closing_moments(geo, geo.candidates[i]) for i in kept)
    for i in sorted(set(range(len(geo.candidates))) - set(kept), key=order):
        cost = closing_moments(geo, geo.candidates[i])
        if used + cost > moments:
            break
        kept.append(i)
        used += cost
    return sorted(kept)


def model_over(geo: Geometry, keep: Iterable[int],
               check: Callable[[], None] | None = None) -> TurnModel:
    """The turn model with the candidates ``keep`` only (indices into ``geo.candidates``):
    exact only on lines that close no other candidate, which the caller must rule out."""
    return TurnModel(geo.position, geo.turns, geometry=geo.restricted_to(keep), check=check)


def restricted_model(geo: Geometry, keep: Sequence[int],
                     check: Callable[[], None] | None = None) -> TurnModel:
    """The closing model over the candidates ``keep`` (indices into ``geo.candidates``),
    the others forbidden to close (see the module doc)."""
    kept = set(keep)
    tm = model_over(geo, kept, check)
    if geo.largest < geo.max_stones:
        # large candidates are not listed: lines of at most ``largest`` stones close none
        tm.model.add(sum(live(tm.is_stone)) <= geo.largest)
    stone_cells = set(geo.stone_cells)
    false = tm.model.new_bool_var("never")
    tm.model.add(false == 0)
    for i, cand in enumerate(geo.candidates):
        if i in kept:
            continue
        if check:
            check()
        inside = [c for c in cand.cells if c in stone_cells]
        for s in range(cand.first_step, geo.steps):
            if not geo.is_stone_step(s):
                continue
            # walled after step s: every boundary cell a stone and none inside. Checked
            # at every moment, not at the end only: a piece the model does not remove
            # could put a stone inside afterwards
            stones = tm.stone[s + 1]
            walls = [negate(stones.get(b, False)) for b in cand.boundary]
            clause(tm.model, walls + live(stones.get(c, False) for c in inside), false)
    return tm
