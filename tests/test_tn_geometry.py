"""The candidate regions of the Terra Nova model against a plain enumeration.

:func:`~solver.terra_nova.model.geometry.candidate_regions` prunes its search
(vertex max-flows, cuts reused down a branch, stone-pair schedules; for one turn a
direct search over the one or two cells a turn stones); none of that may lose or
add a region. The reference here knows none of it: for every set
``B`` of at most ``max_stones`` cells a stone can reach, the components of the
free cells left once ``B`` is stoned whose free neighbours all lie in ``B`` are
the sets that can close. Both sides then keep the same ones (relevant, stoned in
time by :meth:`Geometry.first_close`).
"""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pytest
from test_tn_model_random import positions

from solver.terra_nova.fileformat import read_position
from solver.terra_nova.model.geometry import MAX_REGION_LANDSCAPES, Geometry
from solver.terra_nova.position import Position

POSITIONS = Path(__file__).parent.parent / "positions/terra-nova"


def components(cells: set[int], nbrs) -> list[frozenset[int]]:
    """The connected parts of ``cells``."""
    out, seen = [], set()
    for start in sorted(cells):
        if start in seen:
            continue
        part, todo = {start}, [start]
        while todo:
            for b in nbrs[todo.pop()]:
                if b in cells and b not in part:
                    part.add(b)
                    todo.append(b)
        seen |= part
        out.append(frozenset(part))
    return out


def reference(position: Position, turns: int) -> set[tuple]:
    """Every (cells, boundary, first step) that can close, by brute force over ``B``."""
    geo = Geometry(position, turns)
    nbrs = position.grid.neighbours
    land = position.board.landscape_id
    free = {c for c in range(geo.n) if not geo.stone0[c]}
    # sets inside a component that is a region already never count
    open_ = set().union(*(p for p in components(free, nbrs)
                          if len({land[c] for c in p}) > MAX_REGION_LANDSCAPES))
    found = set()
    for size in range(1, geo.max_stones + 1):
        for cut in combinations(geo.stone_cells, size):
            for part in components(open_ - set(cut), nbrs):
                boundary = {b for c in part for b in nbrs[c] if b in free} - part
                if boundary and boundary <= set(cut) \
                        and len({land[c] for c in part}) <= MAX_REGION_LANDSCAPES:
                    found.add((part, frozenset(boundary)))
    out = set()
    for part, boundary in found:
        if not any(geo.other0[c] for c in part) and not part & set(geo.reach):
            continue
        first = geo.first_close(tuple(sorted(boundary)))
        if first is not None:
            out.add((tuple(sorted(part)), tuple(sorted(boundary)), first))
    return out


def found(position: Position, turns: int) -> set[tuple]:
    """What the model's geometry lists, in the reference's terms."""
    cands = Geometry(position, turns).candidates
    assert len({c.cells for c in cands}) == len(cands)  # each set once
    return {(c.cells, c.boundary, c.first_step) for c in cands}


@pytest.mark.parametrize("turns", [1, 2, 3])
def test_candidates_match_plain_enumeration_on_small_boards(turns: int) -> None:
    sample = [p for p in positions(30, first_seed=11000, cells=(12, 26))
              if len(Geometry(p, turns).stone_cells) <= 16]
    assert len(sample) >= 15
    total = 0
    for number, position in enumerate(sample):
        want = reference(position, turns)
        assert found(position, turns) == want, number
        total += len(want)
    assert total > 100  # the sample has regions to find


@pytest.mark.parametrize("name", ["midgame-2p", "late-2p"])
def test_candidates_match_plain_enumeration_on_full_boards(name: str) -> None:
    position = read_position(POSITIONS / f"{name}.toml")
    want = reference(position, 1)
    assert want
    assert found(position, 1) == want
