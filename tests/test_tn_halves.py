"""The split of a 2-turn closing by its final stones (``model/full_boundaries.py``) and
its two-thread solve path (``halves.py``), against the engine's exhaustive search on the
cross-checks' small random positions; and :class:`solver.cpsat.Stop`.

* each half's optimum is at most the closing's, and the better one is the closing's
  whenever that is worth a point (the split is exact);
* half (a)'s relaxation with a floor admits (a)'s optimum and every exhaustive optimum
  that (b) does not hold, and refutes some floors above (a)'s optimum;
* (a) over the candidates its relaxation keeps at a floor has (a)'s optimum when that
  reaches the floor;
* :func:`solver.terra_nova.halves.maximise` proves the exhaustive optimum (or hands
  the closing back when it is worth nothing), and its line replays to its points; its
  live report ends at its line's points and shows only bounds that hold;
* stopped early on a full board, it answers a line with a bound above it;
* a stopped :class:`~solver.cpsat.Stop` ends a running solve and skips a later one.
"""

from __future__ import annotations

import threading
import time
from functools import cache
from pathlib import Path

import pytest
from ortools.sat.python import cp_model

from solver.cpsat import SolveParams, Stop, solve
from solver.terra_nova import halves
from solver.terra_nova.engine import exhaustive
from solver.terra_nova.engine import turns as engine
from solver.terra_nova.fileformat import read_position
from solver.terra_nova.model.full_boundaries import (
    full_boundaries,
    no_full_boundary,
    no_full_boundary_candidates,
    no_full_boundary_relaxation,
    one_full_boundary,
)
from solver.terra_nova.model.geometry import Geometry
from solver.terra_nova.settings import RELAXATION_SETTINGS, line_objective
from tests.support.tn_random import positions

PARAMS = SolveParams(workers=1, seed=0)


@cache
def sample() -> tuple:
    """Small positions for 2-turn closings (the cross-checks' first ones) with at least
    one full boundary (else half (b) is empty and the split says nothing)."""
    return tuple(p for p in positions(40, first_seed=5000, cells=(12, 22), own_pieces=(1, 2))
                 if len(Geometry(p, 2).candidates) <= 200 and full_boundaries(Geometry(p, 2)))


@cache
def truth(number: int) -> tuple[int, ...]:
    """The exhaustive search's objective on ``sample()[number]``."""
    return tuple(exhaustive.best_closing(sample()[number], 2, "max-points").key)


def half_key(tm) -> tuple[int, ...] | None:
    """The half's optimum as the exhaustive search orders it (None: no line)."""
    tm.model.maximize(line_objective(tm, 2, actions=True).expr)
    solver, result = solve(tm.model, PARAMS)
    if result.status == "infeasible":
        return None
    assert result.optimal
    return (int(solver.value(tm.own_points())), int(solver.value(tm.other_points())),
            int(solver.value(tm.actions())))


def order(key: tuple[int, ...]) -> tuple[int, ...]:
    """An objective tuple (own, others, actions) as a max key."""
    return (key[0], -key[1], -key[2])


@pytest.mark.sweep  # 30-45 s; make test keeps the end-to-end cross-check below
def test_the_better_half_is_the_closing_optimum():
    held = {"a": 0, "b": 0}
    scoring = 0
    for number, position in enumerate(sample()):
        geo = Geometry(position, 2)
        best = truth(number)
        a, b = half_key(no_full_boundary(geo)), half_key(one_full_boundary(geo))
        for key in (a, b):
            assert key is None or order(key) <= order(best), (number, key, best)
        if best[0] >= 1:
            scoring += 1
            assert max(order(k) for k in (a, b) if k is not None) == order(best), number
            held["a"] += a is not None and a == best
            held["b"] += b is not None and b == best
    assert len(sample()) >= 20 and scoring >= 10
    assert held["a"] > 0 and held["b"] > 0, held  # both halves hold some optimum


def relaxation_admits(geo: Geometry, floor: int) -> bool:
    """Whether (a)'s relaxation has a solution worth ``floor`` (proven either way)."""
    _, result = solve(no_full_boundary_relaxation(geo, floor).model,
                      PARAMS.with_settings(**RELAXATION_SETTINGS))
    assert result.status in ("optimal", "infeasible")
    return result.status == "optimal"


@pytest.mark.sweep  # 30-45 s; make test keeps the end-to-end cross-check below
def test_relaxation_of_half_a_admits_its_lines():
    refuted = 0
    for number, position in enumerate(sample()):
        geo = Geometry(position, 2)
        best, a = truth(number), half_key(no_full_boundary(geo))
        b = half_key(one_full_boundary(geo))
        if best[0] >= 1 and (b is None or b[0] < best[0]):
            # the optimum is a line of (a): the relaxation must admit its points
            assert relaxation_admits(geo, best[0]), number
        if a is not None:
            assert relaxation_admits(geo, a[0]), (number, a)
            refuted += not relaxation_admits(geo, a[0] + 1)
    assert refuted >= 3  # it proves something: some floors above (a)'s optimum


@pytest.mark.sweep  # 30-45 s; make test keeps the end-to-end cross-check below
def test_half_a_within_its_floor_keeps_the_optimum(monkeypatch):
    monkeypatch.setattr(halves, "WITHIN_FLOOR_ROUNDS", 1000)  # the rounds always end
    narrowed = 0
    for number, position in enumerate(sample()):
        geo = Geometry(position, 2)
        a = half_key(no_full_boundary(geo))
        if a is None or a[0] < 1:
            continue
        only = halves.candidates_within_floor(geo, a[0], PARAMS, Stop()).candidates
        assert only, number  # (a)'s optimum reaches its own floor
        tm = no_full_boundary(geo, only=only)
        tm.model.add(tm.own_points() >= a[0])
        assert half_key(tm) == a, number
        narrowed += len(only) < len(no_full_boundary_candidates(geo))
    assert narrowed >= 5


def test_maximise_proves_the_exhaustive_optimum():
    answered = 0
    for number, position in enumerate(sample()):
        params = SolveParams(workers=2, seed=0).started()
        answer = halves.maximise(position, 2, params, None, time.perf_counter())
        if answer is None:
            assert truth(number)[0] == 0, number  # handed back: worth nothing
            continue
        answered += 1
        assert answer.optimal and answer.bound == answer.value
        assert answer.key == truth(number), (number, answer.line)
        assert engine.play_line(position, answer.line).points == answer.value
    assert answered >= 10


def test_maximise_reports_its_best_line_and_bound_as_they_close():
    # the live report of `solve --turns 2` on a full board with two or more workers
    # (it showed only "solving two halves" until the answer)
    bounded = 0
    for number, position in enumerate(sample()):
        notes: list[str] = []
        params = SolveParams(workers=2, seed=0).started()
        answer = halves.maximise(position, 2, params, notes.append, time.perf_counter())
        if answer is None:
            continue
        found = [n for n in notes if n.startswith("best found: ")]
        assert found and found[-1].startswith(f"best found: {answer.value} points"), number
        for shown in found:
            assert int(shown.split()[2]) <= answer.value, (number, shown)
            bound = shown.split("(bound ")[1].split(")")[0]
            if bound != "unknown":
                assert int(bound) >= truth(number)[0], (number, shown)
                bounded += 1
        if bounded >= 3:
            break  # enough to see it (the whole sample took 16-23 s)
    assert bounded > 0


def test_maximise_stopped_early_bounds_its_line():
    path = Path(__file__).parent.parent / "positions/terra-nova/midgame-2p.toml"
    position = read_position(path)
    params = SolveParams(workers=2).with_settings(max_deterministic_time=0.3).started()
    assert halves.applies(position, "max-points", 2, params)
    answer = halves.maximise(position, 2, params, None, time.perf_counter())
    assert answer is not None and not answer.optimal
    assert answer.bound >= answer.value
    assert engine.play_line(position, answer.line).points == answer.value


def pigeons(holes: int) -> cp_model.CpModel:
    """``holes + 1`` pigeons in ``holes`` holes: infeasible, and slow to prove without
    the LP and presolve."""
    model = cp_model.CpModel()
    x = [[model.new_bool_var(f"x{p}_{h}") for h in range(holes)] for p in range(holes + 1)]
    for row in x:
        model.add_bool_or(row)
    for h in range(holes):
        model.add_at_most_one(row[h] for row in x)
    return model


def test_stop_ends_a_running_solve_and_skips_a_later_one():
    params = SolveParams(workers=1, time_limit=60).with_settings(
        linearization_level=0, cp_model_presolve=False, symmetry_level=0)
    stop = Stop()
    out = {}
    thread = threading.Thread(target=lambda: out.update(r=solve(pigeons(14), params,
                                                                stop=stop)[1]))
    start = time.perf_counter()
    thread.start()
    time.sleep(1.0)
    assert thread.is_alive()  # still searching
    stop.stop()
    thread.join(30)
    assert not thread.is_alive() and time.perf_counter() - start < 30
    assert out["r"].status == "unknown"
    _, later = solve(pigeons(3), params, stop=stop)
    assert later.status == "unknown" and later.stats["conflicts"] == 0
