"""The Rift Valley max-score model on hand-made boards: candidates, each rule, each [D]."""

from __future__ import annotations

import pytest

from solver.cpsat import SolveParams
from solver.rift_valley.engine.exhaustive import best_score
from solver.rift_valley.fileformat import parse_position
from solver.rift_valley.model.candidates import candidates
from solver.rift_valley.model.max_score import animal_free_cells, build_model
from solver.rift_valley.notation import DrawStop, DrawTent, DrawTrail, format_draw
from solver.rift_valley.rules import DEFAULT_RULES, MAX_TENTS_PER_BOARD, TRAIL_AREA_CAP, Rules
from solver.rift_valley.solve import solve_max_score

PARAMS = SolveParams(workers=1, seed=0, time_limit=60)

OPEN_5X5 = """
. . . . .
. . . . .
. . . . .
. . . . .
. . . . .
"""
AREAS_5X5 = """
1 1 2 2 3
1 4 4 2 3
5 5 4 6 3
7 5 8 6 6
7 7 8 8 9
"""


def position(terrain: str = OPEN_5X5, areas: str = AREAS_5X5, extra: str = "",
             header: str = "") -> object:
    text = (f'game = "rift-valley"\nplayer = "red"\nrift_owner = "red"\n{header}'
            f'terrain = """{terrain}"""\nareas = """{areas}"""\n{extra}')
    return parse_position(text)


def solved(pos, draws=None, rules=DEFAULT_RULES):
    return solve_max_score(pos, draws, PARAMS, rules)


def strings(answer) -> list[str]:
    return answer.draw_strings()


# --- candidate geometry -------------------------------------------------------------


def test_candidates_on_an_open_board_are_every_straight_and_l_trail():
    cand = candidates(position(), stops_block_all_colours=False)
    straight = [t for t in cand.trails if t.trail.corner is None]
    bent = [t for t in cand.trails if t.trail.corner is not None]
    # 5 rows + 5 columns, each with C(5,2)=10 pairs minus 4 orthogonal neighbours.
    assert len(straight) == 10 * 6
    # Pairs in different rows and columns: C(25,2) - 100 = 200, each with two corners.
    assert len(bent) == 2 * 200
    assert len({t.trail for t in cand.trails}) == len(cand.trails)
    assert all(t.trail.start < t.trail.end for t in cand.trails)


def test_area_score_is_capped():
    row = ". . . . . . ."
    terrain = "\n" + "\n".join([row] * 3) + "\n"
    areas = "\n1 2 3 4 5 6 7\n8 8 8 8 8 8 8\n9 9 9 9 9 9 9\n"
    cand = candidates(position(terrain, areas), stops_block_all_colours=False)
    full_row = next(t for t in cand.trails if t.trail.start == 0 and t.trail.end == 6
                    and t.trail.corner is None)
    assert TRAIL_AREA_CAP == 5
    assert full_row.areas == TRAIL_AREA_CAP
    assert solved(position(terrain, areas), draws=3).breakdown.trails == TRAIL_AREA_CAP


RIFT_NS = """
. . . . .
. . . . .
. | | | .
. . . . .
. . . . .
"""


def test_only_the_rift_owner_crosses_and_only_crosswise():
    pos = position(RIFT_NS.replace("|", "-"))
    grid = pos.grid
    own = {t.trail for t in candidates(pos, False).trails}
    foreign = {t.trail for t in candidates(pos.replace(player="blue"), False).trails}
    names = {"-".join(grid.name(c) for c in t.waypoints()) for t in own}
    assert "c1-c5" in names                      # north–south across a west–east rift cell
    assert "a3-e3" not in names                  # along the rift
    assert not any(grid.coords[t.corner][0] == 2 for t in own if t.corner is not None
                   and pos.board.terrain[t.corner] != ".")  # never turns on the rift
    foreign_names = {"-".join(grid.name(c) for c in t.waypoints()) for t in foreign}
    assert "c1-c5" not in foreign_names
    assert foreign < own


def test_rift_crossed_along_its_direction_is_not_a_candidate():
    pos = position(RIFT_NS)  # '|' cells: only west–east legs may cross them
    names = {"-".join(pos.grid.name(c) for c in t.trail.waypoints())
             for t in candidates(pos, False).trails}
    assert "a3-e3" in names
    assert "c1-c5" not in names


def test_new_stops_avoid_own_stops_and_with_the_option_all_stops():
    pos = position(extra='[elements.red]\nstops = ["c3"]\n[elements.blue]\nstops = ["a1"]\n')
    grid = pos.grid
    plain = {grid.name(c) for c in candidates(pos, False).stop_cells}
    strict = {grid.name(c) for c in candidates(pos, True).stop_cells}
    assert not {"c2", "c4", "b3", "d3", "c3", "a1"} & plain
    assert {"a2", "b1", "b2"} <= plain  # next to blue's stop, diagonal to ours: fine
    assert not {"a2", "b1"} & strict
    assert "b2" in strict


# --- rules in the solved answer -------------------------------------------------------


def test_budget_zero_draws_nothing_and_scores_existing_elements():
    pos = position(extra='[elements.red]\nstops = ["a1", "e5"]\n')
    answer = solved(pos, draws=0)
    assert answer.draws == ()
    assert answer.value == -4  # two unconnected stops
    assert answer.optimal


def test_an_existing_unconnected_stop_is_connected_when_it_pays():
    pos = position(extra='[elements.red]\nstops = ["a1", "e5"]\n')
    answer = solved(pos, draws=1)
    assert strings(answer) == ["a1-a5-e5"] or strings(answer) == ["a1-e1-e5"]
    assert answer.breakdown.unconnected == 0


def test_stop_rule_holds_in_unlimited_answers():
    for rules in (Rules(), Rules(stops_block_all_colours=True)):
        answer = solved(position(extra='[elements.blue]\nstops = ["c3"]\n'), rules=rules)
        red = answer.after.of("red").stops
        blue = answer.after.of("blue").stops
        grid = answer.after.grid
        for s in red:
            assert not set(grid.neighbours[s]) & set(red)
            if rules.stops_block_all_colours:
                assert not set(grid.neighbours[s]) & set(blue)


def test_tent_limit_counts_every_colours_tents():
    others = '[elements.blue]\ntents = ["a1", "b1", "c1", "d1"]\n'
    answer = solved(position(extra=others))
    new_tents = [d for d in answer.draws if isinstance(d, DrawTent)]
    assert MAX_TENTS_PER_BOARD == 5
    assert len(new_tents) == 1


def test_tents_score_per_connected_adjacent_stop():
    answer = solved(position(), draws=None)
    after, grid = answer.after, answer.after.grid
    connected = {s for t in after.of("red").trails for s in t.ends}
    expected = sum(2 for t in after.of("red").tents for nb in grid.touching[t] if nb in connected)
    assert answer.breakdown.tents == expected > 0


ANIMALS_EVERYWHERE = """
. . . . .
. k . k .
. . . . .
. k . k .
. . . . .
"""


def test_first_stop_rule_blocks_everything_when_no_cell_is_away_from_animals():
    pos = position(ANIMALS_EVERYWHERE, header="first_stop_rule = true\n")
    assert not (animal_free_cells(pos) & set(candidates(pos, False).stop_cells))
    assert solved(pos).draws == ()
    assert solved(pos.replace(first_stop_rule=False)).value > 0


def test_first_stop_rule_even_forbids_trails_between_existing_stops():
    extra = '[elements.red]\nstops = ["a1", "a5"]\n'
    pos = position(ANIMALS_EVERYWHERE, extra=extra, header="first_stop_rule = true\n")
    assert solved(pos).draws == ()
    assert strings(solved(pos.replace(first_stop_rule=False), draws=1)) == ["a1-a5"]


def test_first_stop_rule_answer_starts_with_a_stop_away_from_animals():
    terrain = """
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . e .
. . . . . . .
"""
    areas = """
1 1 2 2 3 3 3
1 4 4 2 2 3 3
5 5 4 6 6 6 3
7 5 8 8 6 9 9
7 7 8 8 8 9 9
"""
    pos = position(terrain, areas, header="first_stop_rule = true\n")
    answer = solved(pos, draws=4)
    first = answer.draws[0]
    assert isinstance(first, DrawStop)
    assert first.cell in animal_free_cells(pos)
    assert answer.breakdown.animals > 0  # it still reaches the elephant afterwards


def test_first_stop_rule_may_need_an_unconnected_stop():
    """a1 is the only cell away from the kob, and water cuts it off: it opens, unconnected."""
    terrain = """
. w . . .
w w . k .
"""
    areas = """
1 2 3 4 5
6 7 8 9 5
"""
    pos = position(terrain, areas, header="first_stop_rule = true\n")
    assert solved(pos, draws=3).draws == ()
    answer = solved(pos, draws=4)
    assert strings(answer)[0] == "o a1"
    assert answer.breakdown.unconnected == -2
    # o a1, then e.g. o e1, o c2, e1-c1-c2: areas 5 4 3 8, the kob, a1 unconnected.
    assert answer.value == 4 + 1 - 2 == best_score(pos.replace(draws=4)).value


def test_draw_order_is_stops_then_trails_then_tents():
    answer = solved(position(), draws=None)
    kinds = [type(d) for d in answer.draws]
    order = {DrawStop: 0, DrawTrail: 1, DrawTent: 2}
    assert [order[k] for k in kinds] == sorted(order[k] for k in kinds)
    assert DrawTent in kinds and DrawTrail in kinds


@pytest.mark.parametrize("draws", [1, 2, 3])
def test_tiny_budgets_on_the_open_board(draws):
    answer = solved(position(), draws=draws)
    assert len(answer.draws) <= draws
    if draws < 3:
        assert answer.value == 0  # a trail needs two stops: three draws
    else:
        assert [type(d) for d in answer.draws] == [DrawStop, DrawStop, DrawTrail]
        assert answer.value == 5


def test_model_is_built_in_a_fixed_order():
    a = build_model(position(), 4).model.proto
    b = build_model(position(), 4).model.proto
    assert str(a) == str(b)


def test_format_of_answer_draws_round_trips():
    answer = solved(position(), draws=5)
    grid = answer.before.grid
    assert strings(answer) == [format_draw(d, grid) for d in answer.draws]
