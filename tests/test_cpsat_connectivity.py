"""The connectivity floor: components, sets reached from seeds, closed sets, checked
against plain graph search on every subset of a small graph with a changing edge."""

from __future__ import annotations

import itertools

from ortools.sat.python import cp_model

from solver.cpsat.connectivity import Weight, closed, components, reached, same_across
from solver.cpsat.constraints import Lit
from solver.geometry.graph import component_of
from solver.geometry.graph import components as plain_components

N = 5
EDGES = ((0, 1), (1, 2), (2, 3), (3, 4), (0, 4), (1, 3))
SWITCHED = (2, 3)
"""The edge that exists only when the model's literal ``e`` holds."""


def _graph(model: cp_model.CpModel, on: bool) -> tuple[dict[int, list[tuple[int, Lit]]], Lit]:
    e = model.new_bool_var("e")
    model.add(e == int(on))
    adj: dict[int, list[tuple[int, Lit]]] = {i: [] for i in range(N)}
    for a, b in EDGES:
        lit: Lit = e if (a, b) == SWITCHED else True
        adj[a].append((b, lit))
        adj[b].append((a, lit))
    return adj, e


def _near(on: bool, nodes: set[int]):
    def near(i: int) -> list[int]:
        return [b if a == i else a for a, b in EDGES if i in (a, b)
                and (on or (a, b) != SWITCHED) and (b if a == i else a) in nodes]
    return near


def _cases():
    for bits in itertools.product((False, True), repeat=N):
        for on in (False, True):
            yield {i for i in range(N) if bits[i]}, on


def _feasible(model: cp_model.CpModel) -> bool:
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    return solver.solve(model) in (cp_model.OPTIMAL, cp_model.FEASIBLE)


def _present(model: cp_model.CpModel, nodes: set[int]) -> list[Lit]:
    lits: list[Lit] = []
    for i in range(N):
        v = model.new_bool_var(f"p{i}")
        model.add(v == int(i in nodes))
        lits.append(v)
    return lits


def test_components_have_one_root_each_and_sum_their_weights_there():
    for nodes, on in _cases():
        comps = plain_components(nodes, _near(on, nodes))
        for comp in comps:
            for i in [max(comp)]:
                # a node other than the smallest may be the root, its sum the size
                model = cp_model.CpModel()
                adj, _ = _graph(model, on)
                present = _present(model, nodes)
                got = components(model, present, adj, [Weight([1] * N, N)], "c")
                model.add(got.root[i] == 1)
                model.add(sum(got.root) == len(comps))
                model.add(got.sums[0][i] == len(comp))
                assert _feasible(model), (nodes, on, i)
        model = cp_model.CpModel()
        adj, _ = _graph(model, on)
        present = _present(model, nodes)
        got = components(model, present, adj, [Weight([1] * N, N)], "c")
        model.add(sum(got.root) != len(comps))
        assert not _feasible(model), (nodes, on)


def test_a_root_sums_exactly_its_component():
    for nodes, on in _cases():
        for comp in plain_components(nodes, _near(on, nodes)):
            i = min(comp)
            model = cp_model.CpModel()
            adj, _ = _graph(model, on)
            got = components(model, _present(model, nodes), adj,
                             [Weight([j + 1 for j in range(N)], N * (N + 1))], "c")
            model.add(got.root[i] == 1)
            model.add(got.sums[0][i] != sum(j + 1 for j in comp))
            assert not _feasible(model), (nodes, on, i)


def test_reached_means_joined_to_a_seed_through_members():
    seeds = {0: True, 3: True}
    for nodes, on in _cases():
        model = cp_model.CpModel()
        adj, _ = _graph(model, on)
        member = _present(model, nodes)
        reached(model, member, {i: s for i, s in seeds.items() if i in nodes}, adj, "r")
        joined = set()
        for s in seeds:
            if s in nodes:
                joined |= component_of(s, _near(on, nodes))
        assert _feasible(model) == (nodes <= joined), (nodes, on)


def test_closed_means_a_union_of_components():
    everything = set(range(N))
    for nodes, on in _cases():
        model = cp_model.CpModel()
        adj, _ = _graph(model, on)
        member = _present(model, nodes)
        closed(model, member, [True] * N, adj)
        union = all(component_of(i, _near(on, everything)) <= nodes for i in nodes)
        assert _feasible(model) == union, (nodes, on)


def test_same_across_makes_values_constant_on_components():
    for nodes, on in _cases():
        comps = plain_components(nodes, _near(on, nodes))
        model = cp_model.CpModel()
        adj, _ = _graph(model, on)
        present = _present(model, nodes)
        value = [model.new_int_var(0, N, f"v{i}") for i in range(N)]
        same_across(model, value, present, adj)
        # distinct values in every component's nodes are impossible unless it is one node
        for comp in comps:
            if len(comp) > 1:
                model.add_all_different([value[i] for i in comp])
        assert _feasible(model) == all(len(c) == 1 for c in comps), (nodes, on)
