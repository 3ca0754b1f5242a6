"""The CP-SAT floor: lexicographic objective, unique_answer, literal helpers, settings."""

from __future__ import annotations

import itertools

import pytest
from ortools.sat.python import cp_model

from solver.cpsat import SolveParams, solve
from solver.cpsat.constraints import (
    all_of,
    as_expr,
    at_least,
    below,
    clause,
    negate,
    not_adjacent,
)
from solver.cpsat.objectives import Goal, lexicographic
from solver.cpsat.uniqueness import unique_answer

ONE = SolveParams(workers=1)


def test_lexicographic_orders_like_comparing_goals_in_turn():
    """Every (a, b, c) in the box: the weighted optimum is the lexicographic optimum."""
    points = [(a, b, c) for a in range(4) for b in range(3) for c in range(5)]
    allowed = [p for p in points if (p[0] * 7 + p[1] * 3 + p[2]) % 5 != 0]
    model = cp_model.CpModel()
    a, b, c = (model.new_int_var(0, hi, n) for hi, n in ((3, "a"), (2, "b"), (4, "c")))
    model.add_allowed_assignments([a, b, c], allowed)
    objective = lexicographic([Goal(a, "max"), Goal(b, "min", 2), Goal(c, "max", 4)])
    assert objective.weights == (15, 5, 1)
    model.maximize(objective.expr)
    solver, result = solve(model, ONE)
    assert result.optimal
    best = max(allowed, key=lambda p: (p[0], -p[1], p[2]))
    assert (solver.value(a), solver.value(b), solver.value(c)) == best


def test_leading_reads_the_first_goal_back_when_the_rest_are_minimised():
    model = cp_model.CpModel()
    a, b = model.new_int_var(0, 5, "a"), model.new_int_var(0, 3, "b")
    model.add(a <= b + 2)
    objective = lexicographic([Goal(a, "max"), Goal(b, "min", 3)])
    model.maximize(objective.expr)
    solver, result = solve(model, ONE)
    assert (solver.value(a), solver.value(b)) == (5, 3)
    assert objective.leading(result.objective) == 5


def test_lexicographic_rejects_a_bad_sense():
    with pytest.raises(ValueError):
        lexicographic([Goal(1, "up")])


def _pick_two_of(n: int):
    model = cp_model.CpModel()
    xs = [model.new_bool_var(f"x{i}") for i in range(n)]
    model.add(sum(xs) <= 2)
    return model, xs


def test_unique_answer_finds_a_second_optimum():
    model, xs = _pick_two_of(3)
    weights = [3, 2, 2]  # two optimal pairs: {0, 1} and {0, 2}
    checked = unique_answer(model, [(sum(w * x for w, x in zip(weights, xs, strict=True)),
                                     "max")], xs, ONE)
    assert checked is not None and checked.unique is False
    assert round(checked.stages[0].objective) == 5


def test_unique_answer_proves_uniqueness_and_sees_the_answer_first():
    model, xs = _pick_two_of(3)
    weights = [3, 2, 1]
    seen = []
    checked = unique_answer(model, [(sum(w * x for w, x in zip(weights, xs, strict=True)),
                                     "max"), (sum(xs), "min")], xs, ONE,
                            found=lambda s: seen.append([s.value(x) for x in xs]))
    assert checked is not None and checked.unique is True
    assert seen == [[1, 1, 0]]
    assert [round(s.objective) for s in checked.stages] == [5, 2]


def test_unique_answer_none_when_not_proven():
    model, xs = _pick_two_of(3)
    model.add(sum(xs) >= 3)  # infeasible: no optimum at all
    assert unique_answer(model, [(sum(xs), "max")], xs, ONE) is None


def _all_solutions(model: cp_model.CpModel, variables) -> set[tuple[int, ...]]:
    class Collect(cp_model.CpSolverSolutionCallback):
        def __init__(self) -> None:
            super().__init__()
            self.found: set[tuple[int, ...]] = set()

        def on_solution_callback(self) -> None:
            self.found.add(tuple(self.value(v) for v in variables))

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    collect = Collect()
    solver.solve(model, collect)
    return collect.found


def test_reified_helpers_mean_what_they_say():
    model = cp_model.CpModel()
    xs = [model.new_bool_var(f"x{i}") for i in range(3)]
    two = at_least(model, sum(xs), 2, 3, "two")
    few = below(model, xs, 2, "few")
    both = all_of(model, [xs[0], negate(xs[1])], "both")
    for values in _all_solutions(model, xs + [two, few, both]):
        x, (t, f, b) = values[:3], values[3:]
        assert t == (sum(x) >= 2) and f == (sum(x) < 2)
        assert b == (x[0] == 1 and x[1] == 0)


def test_constants_fold_away():
    model = cp_model.CpModel()
    x = model.new_bool_var("x")
    assert at_least(model, x, 0, 1, "a") is True and at_least(model, x, 2, 1, "b") is False
    assert below(model, [x], 2, "c") is True and below(model, [], 0, "d") is False
    assert all_of(model, [True, x], "e") is x and all_of(model, [x, False], "f") is False
    assert all_of(model, [True, True], "g") is True
    assert negate(True) is False and negate(False) is True
    assert as_expr(True) == 1 and as_expr(False) == 0 and as_expr(x) is x
    assert len(model.proto.variables) == 1 and not model.proto.constraints
    clause(model, [x, True], x)  # satisfied: nothing added
    assert not model.proto.constraints


def test_an_all_false_clause_makes_the_model_infeasible():
    model = cp_model.CpModel()
    false = model.new_bool_var("false")
    model.add(false == 0)
    clause(model, [False, False], false)
    _, result = solve(model, ONE)
    assert result.status == "infeasible"


def test_not_adjacent_forbids_exactly_neighbouring_pairs():
    model = cp_model.CpModel()
    neighbours = ((1,), (0, 2), (1,))  # a path 0 - 1 - 2
    lits = {c: model.new_bool_var(f"s{c}") for c in range(3)}
    not_adjacent(model, lits, neighbours)
    found = _all_solutions(model, list(lits.values()))
    expected = {v for v in itertools.product((0, 1), repeat=3)
                if not (v[0] and v[1]) and not (v[1] and v[2])}
    assert found == expected


def test_settings_reach_cp_sat():
    params = SolveParams(workers=1).with_settings(linearization_level=0,
                                                   subsolvers=("core", "no_lp"),
                                                   max_deterministic_time=None)
    assert dict(params.settings) == {"linearization_level": 0, "subsolvers": ("core", "no_lp")}
    model = cp_model.CpModel()
    model.new_bool_var("x")
    solver, result = solve(model, params)
    assert result.optimal
    assert solver.parameters.linearization_level == 0
    assert list(solver.parameters.subsolvers) == ["core", "no_lp"]


def test_a_named_parameter_set_reaches_cp_sat():
    params = SolveParams(workers=1).with_settings(
        subsolver_params=[{"name": "fixed", "linearization_level": 0}])
    model = cp_model.CpModel()
    model.new_bool_var("x")
    solver, result = solve(model, params)
    assert result.optimal
    # the repeated message field reads back only as text in this OR-tools binding
    text = " ".join(str(solver.parameters).split())
    assert 'subsolver_params { linearization_level: 0 name: "fixed" }' in text


def test_a_solve_without_time_to_load_the_model_does_not_start(monkeypatch):
    from solver.cpsat import harness
    model = cp_model.CpModel()
    x = [model.new_bool_var(f"x{i}") for i in range(10)]
    model.add(sum(x) >= 3)
    model.maximize(sum(x))
    # 100 s per constraint: the 60 s left cannot pay for loading the model
    monkeypatch.setattr(harness, "STARTUP_SECONDS_PER_CONSTRAINT", 100.0)
    params = SolveParams(time_limit=60, workers=1).started()
    _, result = solve(model, params)
    assert (result.status, result.objective, result.wall_s) == ("unknown", None, 0.0)
    # without a limit, or with enough of it left, it solves
    for limit in (None, 600):
        _, result = solve(model, SolveParams(time_limit=limit, workers=1).started())
        assert (result.status, result.objective) == ("optimal", 10)


def test_a_solve_keeps_what_cp_sat_may_overrun_by_for_itself(monkeypatch):
    """CP-SAT loads and presolves past its limit: under a deadline it gets what is left
    minus that (1 s per constraint here, 10 constraints: 50 s of 60 s)."""
    from solver.cpsat import harness
    model = cp_model.CpModel()
    x = [model.new_bool_var(f"x{i}") for i in range(10)]
    for a, b in itertools.pairwise(x + x[:1]):
        model.add_implication(a, b)
    monkeypatch.setattr(harness, "STARTUP_SECONDS_PER_CONSTRAINT", 1.0)
    solver = cp_model.CpSolver()
    harness._configure(solver, SolveParams(time_limit=60, workers=1).started(), model)
    assert 49 < solver.parameters.max_time_in_seconds <= 50


def test_search_seconds_left_is_the_deadline_minus_what_loading_may_take(monkeypatch):
    from solver.cpsat import harness, search_seconds_left
    model = cp_model.CpModel()
    for i in range(10):
        model.add(model.new_bool_var(f"x{i}") >= 0)
    monkeypatch.setattr(harness, "STARTUP_SECONDS_PER_CONSTRAINT", 1.0)
    assert search_seconds_left(SolveParams(time_limit=None).started(), model) is None
    left = search_seconds_left(SolveParams(time_limit=60).started(), model)
    assert 49 < left <= 50  # 60 s minus 10 constraints at 1 s
