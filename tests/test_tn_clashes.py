"""The clash sets of the relaxation (solver/terra_nova/model/clashes.py): each cell's
walled candidates split into pairwise clashing sets, whose rows change the relaxation's
LP but never its optimum."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

from solver.terra_nova.fileformat import read_position
from solver.terra_nova.model import clashes, relaxation
from solver.terra_nova.model.geometry import Geometry
from solver.terra_nova.model.relaxation import Relaxation
from tests.support.tn_random import sample, truth
from tests.test_tn_relaxation import relaxed

ROOT = Path(__file__).resolve().parent.parent


def clash(geo: Geometry, i: int, j: int) -> bool:
    """The module doc's relation, written out: cells overlap, or the two boundaries
    together need more stones than the horizon has."""
    a, b = geo.candidates[i], geo.candidates[j]
    return (bool(set(a.cells) & set(b.cells))
            or len(set(a.boundary) | set(b.boundary)) > geo.max_stones)


def geometries() -> list[Geometry]:
    """The cross-checks' small positions at 2 and 3 turns and one full board."""
    small = [Geometry(p, turns) for turns in (2, 3) for p in sample(turns)]
    full = read_position(ROOT / "positions/terra-nova/midgame-2p.toml")
    return [*small, Geometry(full, 3)]


def test_each_cells_candidates_split_into_pairwise_clashing_sets():
    joined = 0
    for geo in geometries():
        found = clashes.wall_cliques(geo, lambda i: i)
        # weight i: every candidate but the first scores
        walled = {b: sorted(i for i, c in enumerate(geo.candidates) if b in c.boundary and i)
                  for b in {b for c in geo.candidates[1:] for b in c.boundary}}
        assert sorted(found) == sorted(walled)
        for b, sets in found.items():
            assert sorted(i for s in sets for i in s) == walled[b]
            for members in sets:
                assert all(clash(geo, i, j) for i, j in combinations(members, 2)), b
                joined += len(members) > 1
    assert joined > 100  # not every set a single candidate


def without_clash_rows(monkeypatch) -> None:
    monkeypatch.setattr(relaxation, "wall_cliques", lambda geo, weight, check=None: {})


def test_clash_rows_keep_the_relaxations_optimum(monkeypatch):
    added = 0
    for turns in (2, 3):
        for number, position in enumerate(sample(turns)):
            geo = Geometry(position, turns)
            odd = list(range(1, len(geo.candidates), 2))
            rows = len(Relaxation(geo).model.proto.constraints)
            with_rows = relaxed(geo), relaxed(geo, require_one_of=odd)
            without_clash_rows(monkeypatch)
            added += len(Relaxation(geo).model.proto.constraints) < rows
            assert (relaxed(geo), relaxed(geo, require_one_of=odd)) == with_rows, \
                (turns, number)
            monkeypatch.undo()
    assert added >= 10  # the other way round: rows were there to keep the optimum


def test_no_clash_sets_past_the_pair_budget(monkeypatch):
    monkeypatch.setattr(clashes, "MOST_PAIRS", 0)
    for number, position in enumerate(sample(3)[:10]):
        geo = Geometry(position, 3)
        assert clashes.wall_cliques(geo, lambda i: i) == {}
        assert relaxed(geo) >= truth(3, number)[0], number
