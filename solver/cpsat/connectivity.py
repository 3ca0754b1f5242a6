"""Connectivity as CP-SAT constraints: connected components and sets reached from seeds.

The graph is given as literals, so it may change with the solution: node ``i``
is *present* when ``present[i]`` holds, and the edge to neighbour ``j`` in
``edges[i]`` exists when its literal holds (a :data:`~solver.cpsat.constraints.Lit`:
``True``/``False`` fold away). Both encodings give every present node an integer
*rank* and ask each node that is not a root for a neighbour of smaller rank over an
existing edge; the ranks make the parent pointers a forest, so every node is joined
to a root by a path of present nodes (no cycle can support itself).

* :func:`components` labels every component: exactly one root each (a node with no
  parent), equal labels across every existing edge, and sums of node weights over
  each component read at its root (a spanning tree's subtree sums).
* :func:`same_across` makes values constant on each component.
* :func:`reached` asks a set of members to be reached from seeds (each member a seed
  or next to a member of smaller rank); :func:`closed` makes such a set a union of
  components of the present nodes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ortools.sat.python import cp_model

from solver.cpsat.constraints import Expr, Lit, as_expr, clause

Adjacency = Mapping[int, Sequence[tuple[int, Lit]]]
"""Per node: (neighbour, literal of the edge between them), each edge listed at both ends."""


@dataclass(frozen=True)
class Weight:
    """A number per node to sum over each component; ``top`` bounds every such sum."""

    values: Sequence[Expr]
    top: int


@dataclass(frozen=True)
class Components:
    """The labelled components of a graph: ``root[i]`` holds when node ``i`` is its
    component's root; ``sums[w][i]`` is, at a root, the sum of weight ``w`` over its
    component (``0`` for nodes that are never present)."""

    root: list[Lit]
    sums: list[list[Expr]]


def _implied_by(model: cp_model.CpModel, lit: cp_model.IntVar, facts: Sequence[Lit]) -> None:
    """``lit → fact`` for every fact that is not ``True``."""
    for fact in facts:
        if fact is not True:
            model.add_implication(lit, fact)


def components(model: cp_model.CpModel, present: Sequence[Lit], edges: Adjacency,
               weights: Sequence[Weight], name: str) -> Components:
    """Label the components of the present nodes over the existing edges.

    Each present node has exactly one parent (a present neighbour over an existing
    edge, of smaller rank) or is a root; the nodes of one component share a label,
    a root's label is its own number, so each component has exactly one root. Each
    weight is summed up the parent pointers: at a root it is the component's sum.
    """
    n = len(present)
    label = [model.new_int_var(0, n - 1, f"{name}_lab_{i}") for i in range(n)]
    rank = [model.new_int_var(0, n - 1, f"{name}_rank_{i}") for i in range(n)]
    root: list[Lit] = [model.new_bool_var(f"{name}_root_{i}") if present[i] is not False
                       else False for i in range(n)]
    children: dict[int, list[tuple[int, cp_model.IntVar]]] = {i: [] for i in range(n)}
    for i in range(n):
        if present[i] is False:
            continue
        parents = []
        for j, edge in edges[i]:
            if present[j] is False:
                continue
            parent = model.new_bool_var(f"{name}_par_{i}_{j}")
            _implied_by(model, parent, (present[j], edge))
            model.add(rank[j] + 1 <= rank[i]).only_enforce_if(parent)
            parents.append(parent)
            children[j].append((i, parent))
        model.add(sum(parents) + root[i] == as_expr(present[i]))
        model.add(label[i] == i).only_enforce_if(root[i])
    same_across(model, label, present, edges)
    sums: list[list[Expr]] = []
    for w, weight in enumerate(weights):
        sums.append([model.new_int_var(0, weight.top, f"{name}_sum{w}_{i}")
                     if present[i] is not False else 0 for i in range(n)])
    for i in range(n):
        if present[i] is False:
            continue
        for w, weight in enumerate(weights):
            parts = []
            for child, parent in children[i]:
                part = model.new_int_var(0, weight.top, f"{name}_sub{w}_{child}_{i}")
                model.add(part == sums[w][child]).only_enforce_if(parent)
                model.add(part == 0).only_enforce_if(~parent)
                parts.append(part)
            model.add(sums[w][i] == weight.values[i] + sum(parts))
    return Components(root, sums)


def same_across(model: cp_model.CpModel, values: Sequence[Expr | Lit],
                present: Sequence[Lit], edges: Adjacency) -> None:
    """``values`` are equal at the two ends of every existing edge between present nodes:
    constant on each component (nodes whose value is ``False`` are left out)."""
    for i in range(len(values)):
        if present[i] is False or values[i] is False:
            continue
        for j, edge in edges[i]:
            if i < j and present[j] is not False and values[j] is not False:
                together = [x for x in (present[i], present[j], edge) if x is not True]
                model.add(values[i] == values[j]).only_enforce_if(together)


def reached(model: cp_model.CpModel, member: Sequence[Lit], seeds: Mapping[int, Lit],
            edges: Adjacency, name: str) -> list[cp_model.IntVar]:
    """Every member is a seed or has a member neighbour of smaller rank over an
    existing edge: the members are reached from the seeds. Returns the ranks."""
    n = len(member)
    rank = [model.new_int_var(0, n - 1, f"{name}_rank_{i}") for i in range(n)]
    for i in range(n):
        if member[i] is False:
            continue
        support: list[Lit] = []
        for j, edge in edges[i]:
            if member[j] is False or edge is False:
                continue
            sup = model.new_bool_var(f"{name}_sup_{i}_{j}")
            _implied_by(model, sup, (member[j], edge))
            model.add(rank[j] + 1 <= rank[i]).only_enforce_if(sup)
            support.append(sup)
        seed = seeds.get(i, False)
        clause(model, [*support, seed],
               when=[member[i]])
    return rank


def closed(model: cp_model.CpModel, member: Sequence[Lit], present: Sequence[Lit],
           edges: Adjacency) -> None:
    """A member's present neighbours over existing edges are members: the members are
    a union of components of the present nodes."""
    for i, lit in enumerate(member):
        if lit is False:
            continue
        for j, edge in edges[i]:
            if member[j] is not False:
                clause(model, [member[j]],
                       when=[lit, present[j], edge])
