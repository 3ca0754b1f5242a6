"""Shared geometry: cell names, odd-r hex neighbours and rays, square neighbourhoods."""

import pytest

from solver.geometry import (
    HexGrid,
    Lattice,
    SquareGrid,
    bits,
    cell_name,
    column_index,
    column_name,
    mask_of,
    parse_cell,
)


@pytest.mark.parametrize("col,letters", [(0, "a"), (25, "z"), (26, "aa"), (27, "ab"), (52, "ba")])
def test_column_names_continue_past_z(col, letters):
    assert column_name(col) == letters
    assert column_index(letters) == col


def test_cell_names_round_trip():
    assert cell_name(6, 3) == "d7"
    assert parse_cell("d7") == (6, 3)
    for bad in ("7d", "d0", "D7", "", "d-1", "#d7"):
        with pytest.raises(ValueError):
            parse_cell(bad)


def test_odd_r_neighbours_match_formats_md():
    grid = HexGrid.full(5, 5)
    # even row 2, col 2: (r,c±1) (r-1,c-1) (r-1,c) (r+1,c-1) (r+1,c)
    even = {grid.coords[n] for n in grid.neighbours[grid.index(2, 2)]}
    assert even == {(2, 1), (2, 3), (1, 1), (1, 2), (3, 1), (3, 2)}
    # odd row 1, col 2: (r,c±1) (r-1,c) (r-1,c+1) (r+1,c) (r+1,c+1)
    odd = {grid.coords[n] for n in grid.neighbours[grid.index(1, 2)]}
    assert odd == {(1, 1), (1, 3), (0, 2), (0, 3), (2, 2), (2, 3)}


def test_adjacency_is_symmetric_and_missing_cells_do_not_exist():
    grid = HexGrid.from_mask([[False, True, True], [True, True, False], [True, True, True]])
    assert grid.size == 7
    assert grid.index(0, 0) is None
    adj = grid.adjacency
    assert (adj == adj.T).all()
    assert not adj.diagonal().any()
    with pytest.raises(ValueError):
        grid.cell("a1")


def test_rays_repeat_one_step_until_the_edge():
    grid = HexGrid.full(4, 4)
    start = grid.index(0, 0)
    se = [grid.coords[c] for c in grid.rays[start][4]]
    assert se == [(1, 0), (2, 1), (3, 1)]  # SE alternates with row parity in odd-r
    assert grid.rays[start][1] == ()  # west of the left edge: nothing


def test_square_grid_neighbourhoods_and_segments():
    grid = SquareGrid(rows=3, cols=4)
    corner = grid.cell("a1")
    assert len(grid.neighbours[corner]) == 2
    assert len(grid.touching[corner]) == 3
    assert len(grid.touching[grid.cell("b2")]) == 8
    column = grid.segment(grid.cell("a1"), grid.cell("a3"))
    assert [grid.name(c) for c in column] == ["a1", "a2", "a3"]
    assert grid.segment(grid.cell("a1"), grid.cell("b2")) is None


@pytest.mark.parametrize("grid", [HexGrid.full(4, 5), SquareGrid(rows=4, cols=5)],
                         ids=["hex", "square"])
def test_both_grids_are_one_lattice(grid):
    """The same names mean the same on both grids: step, rays, neighbours, coords, names."""
    assert isinstance(grid, Lattice)
    assert len(grid.coords) == grid.size
    for cell in range(grid.size):
        assert grid.index(*grid.coords[cell]) == cell
        assert grid.cell(grid.name(cell)) == cell
        steps = [grid.step(cell, d) for d in range(len(grid.directions))]
        assert sorted(s for s in steps if s is not None) == sorted(grid.neighbours[cell])
        for d, ray in enumerate(grid.rays[cell]):
            assert ray[:1] == ((steps[d],) if steps[d] is not None else ())
            for a, b in zip(ray, ray[1:], strict=False):
                assert grid.step(a, d) == b
            assert not ray or grid.step(ray[-1], d) is None


def test_square_rays_run_to_the_edge():
    grid = SquareGrid(rows=3, cols=4)
    east = grid.rays[grid.cell("a2")][grid.directions.index("E")]
    assert [grid.name(c) for c in east] == ["b2", "c2", "d2"]


def test_bitboards_round_trip_in_ascending_order():
    assert list(bits(0)) == []
    assert list(bits(mask_of([9, 0, 3]))) == [0, 3, 9]
    assert mask_of([]) == 0 and mask_of([2, 2]) == 4
    assert list(bits(1 << 200 | 2)) == [1, 200]


def test_hex_text_rows_indent_odd_rows_and_mark_holes():
    grid = HexGrid.from_mask([[True, False, True], [True, True, True]])
    text = grid.text_rows(lambda i: grid.name(i), "--")
    assert text.splitlines() == ["a1 -- c1", "  a2 b2 c2"]
