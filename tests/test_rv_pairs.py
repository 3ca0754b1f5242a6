"""The tent–stop pair table the Rift Valley model bounds its tent points with.

:func:`most_pairs_table` enumerates tent groups; the brute force here
enumerates stop sets in a small window instead and puts the tents on the
cells with most stops around them, so the two methods share nothing but the
rules (stops not orthogonal neighbours, one element per cell, 8 neighbours).
"""

from __future__ import annotations

import itertools

import pytest

from solver.rift_valley.model.pairs import (
    PAIRS,
    best_stops,
    most_pairs,
    most_pairs_table,
    tent_groups,
)


def window_pairs(size: int, max_stops: int, max_tents: int) -> list[list[int]]:
    """``best[c][k]`` over every set of ``<= max_stops`` stops in a ``size``×``size`` window."""
    best = [[0] * (max_tents + 1) for _ in range(max_stops + 1)]
    cells = [(r, c) for r in range(size) for c in range(size)]
    for n in range(1, max_stops + 1):
        for stops in itertools.combinations(cells, n):
            if stops[0][0] != 0:
                break  # up to translation: the first stop in the top row
            if any(abs(a - c) + abs(b - d) == 1 for (a, b), (c, d)
                   in itertools.combinations(stops, 2)):
                continue
            taken = set(stops)
            around = sorted((sum(max(abs(r - a), abs(c - b)) == 1 for a, b in stops)
                             for r in range(-1, size + 1) for c in range(-1, size + 1)
                             if (r, c) not in taken), reverse=True)
            for k in range(1, max_tents + 1):
                best[n][k] = max(best[n][k], sum(around[:k]))
    return best


def test_the_stored_table_is_the_enumeration():
    assert most_pairs_table() == PAIRS


def test_the_table_matches_a_brute_force_over_stop_sets():
    brute = window_pairs(5, 4, 5)
    for c in range(5):
        for k in range(6):
            assert most_pairs(c, k) == brute[c][k], (c, k)


@pytest.mark.parametrize(("stops", "tents", "pairs"), [
    (1, 5, 5),    # one stop, tents all around it
    (2, 3, 6),    # two stops two apart: three common neighbours
    (4, 1, 4),    # a tent has at most 4 own stops around it
    (8, 2, 8),
    (20, 5, 20),
    (99, 5, 20),  # more stops than 4 per tent add nothing
])
def test_known_values(stops, tents, pairs):
    assert most_pairs(stops, tents) == pairs


def test_tent_groups_are_counted_once():
    # up to translation and the 8 symmetries: 1, 5 (two tents), 31 (three)
    assert [len(tent_groups(k)) for k in (1, 2, 3)] == [1, 5, 31]


def test_best_stops_of_one_tent():
    # 4 stops on the ring at most (no two orthogonal neighbours), one pair each
    assert best_stops(((0, 0),)) == [0, 1, 2, 3, 4]


def test_best_stops_share_tents():
    # tents side by side: the two cells above and below both are beside both tents
    best = best_stops(((0, 0), (0, 1)))
    assert best[:3] == [0, 2, 4]
