"""The most tent–stop pairs ``c`` own stops and ``k`` own tents can form, proven by enumeration.

A tent scores per connected own stop among its 8 neighbours, so a player's
tent points are twice the number of king-adjacent (tent, connected stop)
pairs. How many such pairs ``c`` stops and ``k`` tents can form at most is a
question of geometry alone, under two rules: no two own stops are orthogonal
neighbours, and a cell holds one element (a tent is never on a stop). Call it
``f(c, k)``, over all placements on an unbounded grid (a board only forbids
more). :func:`most_pairs_table` computes it exactly for ``k <= 5`` (the tent
limit of a board):

1. *Tent groups.* Join two tents when they are at most 2 cells apart in
   both directions (they have a common neighbour cell). A stop beside two
   tents puts them at most 2 apart, so every stop counts pairs with the tents
   of one group only, and the pairs of a placement are the sum over its
   groups of the pairs of that group with the stops beside it. Each group
   with its stops is itself a legal placement, and groups placed far apart
   do not interact; so ``f(c, k)`` is the best split of ``c`` stops and ``k``
   tents over groups, each worth ``g(c_i, k_i)``, the best of one group.
2. *One group.* ``g(c, k)`` is the best, over the connected tent sets of
   ``k`` cells (up to translation, rotation and reflection: the rules have
   all eight symmetries of the square), of the best ``<= c`` stops for that
   tent set. Those stops are an independent set of the orthogonal grid
   inside the tents' neighbour cells, each worth the number of tents beside
   it; :func:`best_stops` finds the best of every size exactly, by dynamic
   programming over the cells row by row.
3. *Enough stops.* A tent has at most 4 own stops around it (its 8 neighbours
   form a ring in which consecutive cells are orthogonal neighbours), so
   ``f(c, k) = f(4k, k)`` for ``c >= 4k``.

The model (:mod:`solver.rift_valley.model.max_score`) bounds its tent
pairs by this table; nothing else reads it. ``tests/test_rv_pairs.py`` checks
it against a brute force over stop sets on small windows, an independent
method (there the tents take the cells with most stops around them).
"""

from __future__ import annotations

from functools import cache

MAX_TENTS = 5
"""Tents on one board, all colours together (the rules' limit): the table's last column."""

PAIRS: tuple[tuple[int, ...], ...] = (
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
    (0, 1, 2, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4),
    (0, 2, 4, 5, 6, 7, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8),
    (0, 3, 6, 7, 8, 9, 10, 11, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12),
    (0, 4, 7, 9, 10, 12, 13, 14, 15, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16),
    (0, 5, 8, 11, 12, 14, 15, 16, 17, 18, 19, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20),
)
"""``PAIRS[k][c]`` = f(c, k): what :func:`most_pairs_table` computes (a few seconds),
stored so that building a model does not wait for it; a test recomputes it."""

_RING = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)
_GROUP_STEPS = tuple((dr, dc) for dr in range(-2, 3) for dc in range(-2, 3) if dr or dc)
_SYMMETRIES = (
    lambda r, c: (r, c), lambda r, c: (c, -r), lambda r, c: (-r, -c), lambda r, c: (-c, r),
    lambda r, c: (r, -c), lambda r, c: (-c, -r), lambda r, c: (-r, c), lambda r, c: (c, r),
)

Cells = tuple[tuple[int, int], ...]


def _normal(cells) -> Cells:
    """The cells shifted to row and column 0, sorted."""
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return tuple(sorted((r - r0, c - c0) for r, c in cells))


def _canonical(cells: Cells) -> Cells:
    """One representative of the cells under translation and the 8 symmetries."""
    return min(_normal([f(r, c) for r, c in cells]) for f in _SYMMETRIES)


def tent_groups(k: int) -> list[Cells]:
    """Every tent group of ``k`` cells once: linked by steps of at most 2 in each direction."""
    level: set[Cells] = {((0, 0),)}
    for _ in range(k - 1):
        grown: set[Cells] = set()
        for cells in level:
            taken = set(cells)
            for r, c in cells:
                for dr, dc in _GROUP_STEPS:
                    if (r + dr, c + dc) not in taken:
                        grown.add(_canonical(cells + ((r + dr, c + dc),)))
        level = grown
    return sorted(level)


def best_stops(tents: Cells) -> list[int]:
    """``best[c]``: the most tent–stop pairs of at most ``c`` stops around these tents.

    Stops go on the tents' neighbour cells that hold no tent, no two
    orthogonal neighbours; a stop is worth the tents beside it. Dynamic
    programming over the cells in row order: the state is the set of chosen
    cells of the last row's width (the cell above and the cell to the left
    are the only conflicts), with the best pairs for each stop count.
    """
    weight = _weights(tents)
    rows = [r for r, _ in weight]
    cols = [c for _, c in weight]
    c0, width = min(cols), max(cols) - min(cols) + 1
    # state: bit i set = the cell i positions back (in row order) holds a stop
    states: dict[int, list[int]] = {0: [0]}
    mask = (1 << width) - 1
    for r in range(min(rows), max(rows) + 1):
        for c in range(c0, c0 + width):
            w = weight.get((r, c), 0)
            grown: dict[int, list[int]] = {}
            for state, best in states.items():
                _merge(grown, (state << 1) & mask, best)
                above = state >> (width - 1) & 1
                left = state & 1 if c > c0 else 0
                if w and not above and not left:
                    _merge(grown, ((state << 1) | 1) & mask, [0] + [b + w for b in best])
            states = grown
    most: list[int] = [0]
    for values in states.values():
        _raise(most, values)
    return most


def _weights(tents: Cells) -> dict[tuple[int, int], int]:
    """The tents' neighbour cells that hold no tent, each with the tents beside it."""
    taken = set(tents)
    weight: dict[tuple[int, int], int] = {}
    for r, c in tents:
        for dr, dc in _RING:
            cell = (r + dr, c + dc)
            if cell not in taken:
                weight[cell] = weight.get(cell, 0) + 1
    return weight


def _optimistic(tents: Cells, n: int) -> list[int]:
    """An upper bound on ``best_stops(tents)`` for ``0..n`` stops: the heaviest cells,
    ignoring that stops may not be orthogonal neighbours, and never above 4 per tent."""
    heaviest = sorted(_weights(tents).values(), reverse=True)
    out = [0]
    for i in range(n):
        out.append(out[-1] + (heaviest[i] if i < len(heaviest) else 0))
    return [min(b, 4 * len(tents)) for b in out]


def _merge(states: dict[int, list[int]], state: int, values: list[int]) -> None:
    """Keep, for ``state``, the better value of each stop count."""
    if state in states:
        _raise(states[state], values)
    else:
        states[state] = list(values)


def _raise(best: list[int], values: list[int]) -> None:
    """``best[i] = max(best[i], values[i])``, growing ``best`` as needed."""
    for i, v in enumerate(values):
        if i < len(best):
            best[i] = max(best[i], v)
        else:
            best.append(v)


def _at_most(values: list[int], n: int) -> list[int]:
    """Values for ``0..n`` stops, each the best with at most that many."""
    out, top = [], 0
    for i in range(n + 1):
        top = max(top, values[i] if i < len(values) else 0)
        out.append(top)
    return out


@cache
def most_pairs_table(max_tents: int = MAX_TENTS) -> tuple[tuple[int, ...], ...]:
    """``table[k][c]`` = f(c, k) for ``k <= max_tents`` and ``c <= 4 max_tents``.

    For more stops ``f(c, k) = table[k][4 max_tents]`` (step 3 of the module's
    argument). Takes a few seconds for 5 tents (6 634 groups).
    """
    cmax = 4 * max_tents
    # one group of exactly k tents
    group = [[0] * (cmax + 1) for _ in range(max_tents + 1)]
    for k in range(1, max_tents + 1):
        # the tightest groups first, so that the cheap bound skips most of the others
        bounded = sorted((_optimistic(tents, cmax), tents) for tents in tent_groups(k))
        for bound, tents in reversed(bounded):
            if all(b <= g for b, g in zip(bound, group[k], strict=True)):
                continue
            group[k] = [max(a, b) for a, b in zip(group[k], _at_most(best_stops(tents), cmax),
                                                  strict=True)]
    # best split over groups: a knapsack in tents and stops
    table = [[0] * (cmax + 1) for _ in range(max_tents + 1)]
    for k in range(1, max_tents + 1):
        for c in range(cmax + 1):
            table[k][c] = max(group[j][i] + table[k - j][c - i]
                              for j in range(1, k + 1) for i in range(c + 1))
    return tuple(tuple(row) for row in table)


def most_pairs(stops: int, tents: int) -> int:
    """f(stops, tents): the most king-adjacent tent–stop pairs they can form (tents <= 5)."""
    row = PAIRS[tents]
    return row[min(stops, len(row) - 1)]
