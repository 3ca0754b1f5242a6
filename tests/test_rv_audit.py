"""Independent audit of the Rift Valley reference engine against the rules doc.

Two parts:

- Adversarial hand-made cases, one per edge of the rules (each cites its rule).
- A deliberately naive second implementation of legality and scoring, written
  straight from ``docs/rules/rift-valley.md`` with (row, col) arithmetic only
  (no engine helpers, no grid neighbour tables, no ``Trail.cells``), compared with
  the engine on hundreds of seeded random legal positions and on seeded games.
"""

from __future__ import annotations

import random

import pytest
from test_rv_exhaustive import sequence_search

from solver.errors import InputError
from solver.geometry import SquareGrid
from solver.rift_valley.engine.draws import (
    IllegalDraw,
    apply_draw,
    legal_draws,
    play_draws,
    score,
    validate,
)
from solver.rift_valley.engine.exhaustive import _Search, best_score
from solver.rift_valley.engine.full_game import Turn, play_game, random_policy, rank_players
from solver.rift_valley.fileformat import parse_position, read_position
from solver.rift_valley.notation import DrawStop, DrawTent, DrawTrail, parse_draw
from solver.rift_valley.position import Board, Position, Trail
from solver.rift_valley.rules import Rules

BOARDS = "positions/rift-valley/boards"


# --- helpers ----------------------------------------------------------------------------------

def blocks(rows: int, cols: int) -> str:
    """Nine rectangular areas in a 3×3 layout."""
    return "\n".join(" ".join(str(3 * (r * 3 // rows) + c * 3 // cols + 1) for c in range(cols))
                     for r in range(rows))


def make(terrain: str, elements: str = "", areas: str | None = None, rift_owner: str = "red",
         extra: str = "") -> Position:
    rows = [line.split() for line in terrain.strip().splitlines()]
    areas = areas or blocks(len(rows), len(rows[0]))
    text = (f'game = "rift-valley"\nplayer = "red"\nrift_owner = "{rift_owner}"\n{extra}'
            f'terrain = """\n{terrain.strip()}\n"""\nareas = """\n{areas}\n"""\n{elements}')
    return parse_position(text)


OPEN7 = "\n".join([". . . . . . ."] * 7)


def ok(position: Position, colour: str, text: str, rules: Rules = Rules(),  # noqa: B008
       first: bool = False) -> Position:
    return apply_draw(position, colour, parse_draw(text, position.grid), rules, first)


def bad(position: Position, colour: str, draw, rules: Rules = Rules(),  # noqa: B008
        first: bool = False) -> None:
    if isinstance(draw, str):
        draw = parse_draw(draw, position.grid)
    with pytest.raises(IllegalDraw):
        apply_draw(position, colour, draw, rules, first)


def cell(position: Position, name: str) -> int:
    return position.grid.cell(name)


# --- trail geometry ---------------------------------------------------------------------------

def test_l_trail_with_corner_off_the_rectangle_is_illegal():
    # rules: a trail is straight or an L with exactly one 90° bend (corner shares a row/column)
    p = make(OPEN7, '[elements.red]\nstops = ["a1", "c3"]\n')
    for corner in ("b2", "e1", "a5", "c5"):
        bad(p, "red", DrawTrail(Trail(cell(p, "a1"), cell(p, "c3"), cell(p, corner))))
    ok(p, "red", "a1-c1-c3")
    ok(p, "red", "a1-a3-c3")


def test_diagonal_straight_trail_is_illegal():
    # rules: a straight trail runs in one row or one column (no diagonals)
    p = make(OPEN7, '[elements.red]\nstops = ["a1", "c3"]\n')
    bad(p, "red", DrawTrail(Trail(cell(p, "a1"), cell(p, "c3"))))


def test_corner_on_the_line_of_both_stops_is_not_a_bend():
    # rules: an L has exactly one 90° bend; a "corner" on a straight line is no bend
    p = make(OPEN7, '[elements.red]\nstops = ["a1", "a5"]\n')
    for corner in ("a3", "a7", "a1", "a5"):
        bad(p, "red", DrawTrail(Trail(cell(p, "a1"), cell(p, "a5"), cell(p, corner))))
    ok(p, "red", "a1-a5")


def test_trail_from_a_stop_to_itself_is_illegal():
    # rules: a trail joins two stops
    p = make(OPEN7, '[elements.red]\nstops = ["c3"]\n')
    bad(p, "red", DrawTrail(Trail(cell(p, "c3"), cell(p, "c3"))))


def test_trail_cells_are_end_stops_passed_cells_and_corner():
    # [D] a trail's cells: both end stops, every cell passed, and the corner
    p = make(OPEN7)
    trail = Trail(cell(p, "b2"), cell(p, "e5"), cell(p, "b5"))
    names = {p.grid.name(c) for c in trail.cells(p.grid)}
    assert names == {"b2", "b3", "b4", "b5", "c5", "d5", "e5"}


def test_corner_alone_adds_its_area():
    # [D] the corner is a trail cell, so its area counts (g1 is all of area 2)
    areas = ("1 1 1 1 1 1 2\n1 1 1 1 1 1 3\n4 4 4 4 4 4 3\n4 4 4 4 4 4 3\n"
             "5 5 6 6 7 7 3\n5 5 6 6 7 7 3\n8 8 8 8 9 9 3")
    p = make(OPEN7, '[elements.red]\nstops = ["a1", "g3"]\ntrails = ["a1-g1-g3"]\n', areas=areas)
    assert score(p, "red").trails == 3  # areas 1 (a1..f1), 2 (corner g1), 3 (g2, g3)


def test_end_stop_alone_adds_its_area():
    # [D] both end stops are trail cells: an area met only at an end counts
    areas = ("1 1 1 1 1 1 2\n3 3 3 3 3 3 3\n4 4 4 4 4 4 4\n5 5 5 5 5 5 5\n"
             "6 6 6 6 6 6 6\n7 7 7 7 7 7 7\n8 8 8 8 8 9 9")
    p = make(OPEN7, '[elements.red]\nstops = ["a1", "g1"]\ntrails = ["a1-g1"]\n', areas=areas)
    assert score(p, "red").trails == 2  # area 2 is only the end stop g1


def test_area_cap_applies_per_trail():
    # [D] +1 per distinct area among a trail's cells, capped at 5 (per trail, not per player)
    areas = "1 2 3 4 5 6 7\n" + "\n".join(["8 8 8 8 8 8 8"] * 3) + "\n" + \
        "\n".join(["9 9 9 9 9 9 9"] * 3)
    p = make(OPEN7, '[elements.red]\nstops = ["a1", "g1", "a3", "a7"]\n'
             'trails = ["a1-g1", "a3-a7"]\n', areas=areas)
    assert score(p, "red").trails == 5 + 2


# --- interior cells ---------------------------------------------------------------------------

def test_trail_may_not_cross_another_trail():
    # rules: two trails never share a cell other than a common end stop (no plus crossings)
    p = make(OPEN7, '[elements.red]\nstops = ["d1", "d5", "b3", "f3"]\ntrails = ["d1-d5"]\n')
    bad(p, "red", "b3-f3")
    q = make(OPEN7, '[elements.red]\nstops = ["b3", "f3"]\n'
             '[elements.blue]\nstops = ["d1", "d5"]\ntrails = ["d1-d5"]\n')
    bad(q, "red", "b3-f3")


def test_corner_may_not_be_another_trails_cell():
    # rules: the corner is a trail cell: it must be free of any element
    p = make(OPEN7, '[elements.red]\nstops = ["a1", "c3", "c1", "e1"]\ntrails = ["c1-e1"]\n')
    bad(p, "red", "a1-c1-c3")  # corner c1 is a stop of another trail
    q = make(OPEN7, '[elements.red]\nstops = ["a2", "c4"]\n'
             '[elements.blue]\nstops = ["a3", "e3"]\ntrails = ["a3-e3"]\n')
    bad(q, "red", "a2-c2-c4")  # leg c2-c4 passes c3, a blue trail cell
    r = make(OPEN7, '[elements.red]\nstops = ["a1", "c3"]\n[elements.blue]\ntents = ["c1"]\n')
    bad(r, "red", "a1-c1-c3")
    ok(r, "red", "a1-a3-c3")


def test_l_trails_on_both_corners_of_a_rectangle_may_coexist():
    # rules: two trails share no cell except a common end stop; the two Ls of one pair share
    # only the two end stops
    p = make(OPEN7, '[elements.red]\nstops = ["b2", "e5"]\n')
    p = ok(p, "red", "b2-b5-e5")
    p = ok(p, "red", "b2-e2-e5")
    validate(p)
    assert score(p, "red").unconnected == 0


def test_trail_may_not_pass_through_own_stop_that_is_not_an_end():
    # rules: every cell of a trail apart from its two end stops is free of any element
    p = make(OPEN7, '[elements.red]\nstops = ["a1", "a4", "a7"]\n')
    bad(p, "red", "a1-a7")
    q = make(OPEN7, '[elements.red]\nstops = ["a1", "d1", "d4"]\n')
    bad(q, "red", "a1-d1-d4")  # corner is an own stop


def test_trail_may_not_pass_through_own_tent():
    # rules: trail cells free of any element, tents included (also own)
    p = make(OPEN7, '[elements.red]\nstops = ["a1", "e1"]\ntents = ["c1"]\n')
    bad(p, "red", "a1-e1")


def test_trail_end_must_be_own_stop_not_other_colour_stop_or_tent():
    # rules: a trail joins two stops of the drawing player's own colour
    p = make(OPEN7, '[elements.red]\nstops = ["a1"]\ntents = ["e1"]\n'
             '[elements.blue]\nstops = ["a5"]\n')
    bad(p, "red", "a1-e1")
    bad(p, "red", "a1-a5")
    bad(p, "blue", "a5-a1")


def test_only_the_drawer_may_draw_a_trail_between_their_stops():
    # rules: the trail must be drawn by the owner of the stops
    p = make(OPEN7, '[elements.red]\nstops = ["a1", "a5"]\n')
    bad(p, "blue", "a1-a5")
    ok(p, "red", "a1-a5")


# --- the rift ---------------------------------------------------------------------------------

RIFT_BEND = ". . . . . . .\n. . . . . . .\n. - - - . . .\n. . . | . . .\n. . . | . . .\n" \
            ". . . . . . .\n. . . . . . ."


def test_owner_crosses_a_bent_rift_crosswise_on_each_leg():
    # rules: own rift crossed crosswise: `-` north–south, `|` west–east, on either L leg
    p = make(RIFT_BEND, '[elements.red]\nstops = ["b1", "f4"]\n')
    # b1 down column b crosses b3 (`-`) north–south, corner b4, east along row 4 crosses d4 (`|`)
    p = ok(p, "red", "b1-b4-f4")
    validate(p)


def test_owner_may_not_go_along_either_arm_of_a_bent_rift():
    # rules: never along the rift
    p = make(RIFT_BEND, '[elements.red]\nstops = ["a3", "f3", "d2", "d6"]\n')
    bad(p, "red", "a3-f3")  # along the `-` arm
    bad(p, "red", "d2-d6")  # along the `|` arm (and d3 is `-` crossed north–south)


def test_owner_may_not_turn_on_a_rift_cell_even_with_legs_crosswise():
    # rules: never turning on the rift
    p = make(RIFT_BEND, '[elements.red]\nstops = ["b1", "a3"]\n')
    bad(p, "red", DrawTrail(Trail(cell(p, "b1"), cell(p, "a3"), cell(p, "b3"))))


def test_non_owner_never_crosses_even_crosswise():
    # rules: only the rift's owner may cross it
    p = make(RIFT_BEND, '[elements.blue]\nstops = ["b1", "b5", "c4", "e4"]\n', rift_owner="red")
    bad(p, "blue", "b1-b5")
    bad(p, "blue", "c4-e4")
    q = make(RIFT_BEND, '[elements.blue]\nstops = ["b1", "b5"]\n', rift_owner="blue")
    ok(q, "blue", "b1-b5")


def test_crossed_rift_cell_is_a_trail_cell_for_areas_and_animals():
    # [D] a trail's cells are every cell it passes, so a crossed rift cell counts its area and
    # its animal neighbours
    t = ". . . . . . .\n. . . . . . .\n. . . . . . .\n- - - - - - -\nk . . . . . .\n" \
        ". . . . . . .\n. . . . . . ."
    areas = ("1 1 1 1 1 1 1\n1 1 1 1 1 1 1\n1 1 1 1 1 1 1\n2 2 2 2 2 3 4\n"
             "5 5 5 5 5 6 7\n5 5 5 5 5 6 8\n5 5 5 5 5 6 9")
    p = make(t, '[elements.red]\nstops = ["b3", "b5"]\ntrails = ["b3-b5"]\n', areas=areas)
    validate(p)
    s = score(p, "red")
    assert s.trails == 3  # b3 area 1, the rift cell b4 area 2, b5 area 5
    assert s.animals == 1  # the kob a5 touches b4 and b5 (once)
    q = make(t, '[elements.red]\nstops = ["b1", "b3"]\ntrails = ["b1-b3"]\n', areas=areas)
    assert score(q, "red").animals == 0  # stopping short of the rift: the kob is 2 rows away


def test_stops_and_tents_never_on_rift():
    # rules: stops/tents need an open cell; rift cells are not open
    p = make(RIFT_BEND)
    for c in ("b3", "d3", "d4"):
        bad(p, "red", f"o {c}")
        bad(p, "red", f"^ {c}")


# --- stops, tents, first-stop rule ------------------------------------------------------------

def test_stop_and_tent_not_on_a_trail_interior_of_any_colour():
    # rules: stop/tent on an open cell with no element (trail cells are elements)
    p = make(OPEN7, '[elements.blue]\nstops = ["a1", "a5"]\ntrails = ["a1-a5"]\n')
    for c in ("a2", "a3", "a4"):
        bad(p, "red", f"o {c}")
        bad(p, "red", f"^ {c}")
        bad(p, "blue", f"^ {c}")


def test_stop_rule_with_the_option_still_allows_diagonal():
    # [D] stops_block_all_colours: any two stops conflict orthogonally, diagonal still fine
    strict = Rules(stops_block_all_colours=True)
    p = make(OPEN7, '[elements.blue]\nstops = ["d4"]\n')
    for c in ("d3", "d5", "c4", "e4"):
        bad(p, "red", f"o {c}", strict)
        ok(p, "red", f"o {c}")
    for c in ("c3", "e3", "c5", "e5"):
        ok(p, "red", f"o {c}", strict)


def test_stop_rule_is_only_about_stops_not_tents_or_trail_cells():
    # rules: stops may not be orthogonally adjacent to stops; tents/trails beside are fine
    p = make(OPEN7, '[elements.red]\nstops = ["a1", "a5"]\ntrails = ["a1-a5"]\ntents = ["c3"]\n')
    ok(p, "red", "o b3")  # next to trail cell a3 and tent c3
    bad(p, "red", "o b1")  # next to own stop a1


def test_first_stop_rule_checks_all_eight_neighbours_and_only_the_first_draw():
    # rules: the first element is a stop not adjacent, orthogonally or diagonally, to an animal
    t = ". . . . . . .\n. . . . . . .\n. . . e . . .\n. . . . . . .\n" + \
        "\n".join([". . . . . . ."] * 3)
    p = make(t, extra="first_stop_rule = true\n")
    for c in ("c2", "d2", "e2", "c3", "e3", "c4", "d4", "e4"):
        with pytest.raises(IllegalDraw):
            play_draws(p, [f"o {c}"])
    play_draws(p, ["o b1", "o c2"])  # the second stop may touch the animal
    play_draws(p.replace(first_stop_rule=False), ["o c2"])  # without the rule it may too


def test_first_stop_rule_counts_distance_two_as_away():
    # rules: "adjacent" means the 8 neighbours; two cells away is fine
    t = ". . . . . . .\n. . . . . . .\n. . . l . . .\n" + "\n".join([". . . . . . ."] * 4)
    p = make(t, extra="first_stop_rule = true\n")
    for c in ("b1", "d1", "f1", "b3", "f3", "b5", "d5", "f5"):
        play_draws(p, [f"o {c}"])


def test_first_draw_may_not_be_a_tent_or_a_trail():
    # with first_stop_rule the player's first draw must be a stop
    p = make(OPEN7, '[elements.red]\nstops = ["a1", "a5"]\n', extra="first_stop_rule = true\n")
    for text in ("^ c3", "a1-a5"):
        with pytest.raises(IllegalDraw):
            play_draws(p, [text])


def test_tent_limit_counts_all_colours_and_allows_the_fifth():
    # [D] at most 5 tents on one board, all colours together
    p = make(OPEN7, '[elements.red]\ntents = ["a1", "c1"]\n[elements.blue]\ntents = ["e1", "g1"]\n')
    full = ok(p, "green", "^ a7")
    validate(full)
    for colour in ("red", "blue", "green", "yellow"):
        bad(full, colour, "^ c7")


def test_tent_needs_a_free_open_cell():
    # rules: a tent goes on an open cell with no element on it
    p = make(". t w k . . .\n" + "\n".join([". . . . . . ."] * 6),
             '[elements.blue]\nstops = ["e1"]\ntents = ["f1"]\n')
    for c in ("b1", "c1", "d1", "e1", "f1"):
        bad(p, "red", f"^ {c}")
    ok(p, "red", "^ g1")


def test_validate_rejects_overlaps_between_colours():
    # rules: stops/tents on cells without an element; trails cross nothing
    with pytest.raises(InputError):
        validate(make(OPEN7, '[elements.red]\nstops = ["a1"]\n[elements.blue]\nstops = ["a1"]\n'))
    with pytest.raises(InputError):
        validate(make(OPEN7, '[elements.red]\ntents = ["a1"]\n[elements.blue]\nstops = ["a1"]\n'))
    with pytest.raises(InputError):
        validate(make(OPEN7, '[elements.red]\nstops = ["a1", "a5"]\ntrails = ["a1-a5"]\n'
                             '[elements.blue]\ntents = ["a3"]\n'))
    with pytest.raises(InputError):
        validate(make(OPEN7, '[elements.red]\nstops = ["a3", "e3"]\ntrails = ["a3-e3"]\n'
                             '[elements.blue]\nstops = ["c1", "c5"]\ntrails = ["c1-c5"]\n'))


# --- scoring ----------------------------------------------------------------------------------

def test_animal_next_to_the_corner_diagonally_scores():
    # rules: an animal 8-adjacent to any trail cell (the corner included) scores
    t = ". . . . . . .\n. . . . . . .\n. . . . . . .\n. . . . l . .\n" + \
        "\n".join([". . . . . . ."] * 3)
    p = make(t, '[elements.red]\nstops = ["a3", "d1"]\ntrails = ["a3-d3-d1"]\n')
    assert score(p, "red").animals == 3  # lion e4 is diagonal to the corner d3


def test_animal_two_cells_away_does_not_score():
    # rules: adjacency is the 8-neighbourhood only
    t = ". . . . . . .\n. . . . . . .\n. . . . . . .\n. . . . . . k\n" + \
        "\n".join([". . . . . . ."] * 3)
    p = make(t, '[elements.red]\nstops = ["a3", "e3"]\ntrails = ["a3-e3"]\n')
    assert score(p, "red").animals == 0


def test_animal_next_to_an_own_unconnected_stop_does_not_score():
    # rules: animals score next to a trail's cells; a lone stop is no trail
    t = ". . . . . . .\n. e . . . . .\n" + "\n".join([". . . . . . ."] * 5)
    p = make(t, '[elements.red]\nstops = ["a1", "e5", "g5"]\ntrails = ["e5-g5"]\n')
    assert score(p, "red").animals == 0


def test_animal_scores_for_each_player_whose_trail_touches_it_and_once_each():
    # rules: an animal cell scores once per player, however many trails touch it
    t = ". . . . . . .\n. . . . . . .\n. . . e . . .\n" + "\n".join([". . . . . . ."] * 4)
    p = make(t, '[elements.red]\nstops = ["a2", "g2", "a4", "c4"]\ntrails = ["a2-g2", "a4-c4"]\n'
             '[elements.blue]\nstops = ["e4", "g4"]\ntrails = ["e4-g4"]\n')
    assert score(p, "red").animals == 2
    assert score(p, "blue").animals == 2


def test_tent_scores_per_connected_stop_including_diagonal_and_two_tents_share_a_stop():
    # rules: each own tent +2 per connected own stop 8-adjacent to it
    p = make(OPEN7, '[elements.red]\nstops = ["b2", "b6"]\ntrails = ["b2-b6"]\n'
             'tents = ["c3", "a1", "c1", "e5"]\n')
    s = score(p, "red")
    # c3: b2 (diag) -> 2; a1: b2 -> 2; c1: b2 -> 2; e5: none (b6 is 3 columns away) -> 0
    assert s.tents == 6


def test_tent_of_another_colour_scores_nothing_for_me():
    # rules: each tent *of the player's colour* scores
    p = make(OPEN7, '[elements.red]\nstops = ["b2", "b6"]\ntrails = ["b2-b6"]\n'
             '[elements.blue]\ntents = ["c3"]\n')
    assert score(p, "red").tents == 0
    assert score(p, "blue").tents == 0  # blue's tent is next to red stops only


def test_stop_connected_through_any_trail_end_and_penalty_otherwise():
    # rules: a stop is connected when at least one trail ends at it; else −2
    p = make(OPEN7, '[elements.red]\nstops = ["a1", "a5", "e5", "g7"]\n'
             'trails = ["a1-a5", "a5-e5"]\n')
    s = score(p, "red")
    assert s.unconnected == -2
    assert s.total == s.trails + s.animals + s.tents - 2


def test_trail_passing_beside_a_stop_does_not_connect_it():
    # rules: connected = a trail ENDS there; passing next to it does not count
    p = make(OPEN7, '[elements.red]\nstops = ["a2", "e2", "c1"]\ntrails = ["a2-e2"]\n'
             'tents = ["d1"]\n')
    s = score(p, "red")
    assert s.unconnected == -2  # c1 touches the trail cell c2 but no trail ends at c1
    assert s.tents == 2  # d1 counts e2 (diagonal, connected), not c1


# --- game flow --------------------------------------------------------------------------------

def scripted(moves: dict[tuple[str, int], str | None]):
    """A policy that plays moves[(colour, round)] when given, else the first legal draw."""
    state = {"round": {}}

    def policy(position, colour, draws, may_pass, rng):
        number = state["round"].get(colour, 0)
        state["round"][colour] = number + 1
        if (colour, number) in moves:
            text = moves[(colour, number)]
            if text is None:
                return None
            return parse_draw(text, position.grid)
        return draws[0]
    return policy


def tiny_game_board() -> Board:
    return make("\n".join([". . . . ."] * 5)).board


def tents_first_policy(position, colour, draws, may_pass, rng):
    """Draw tents whenever possible, else the first legal draw; pass when allowed."""
    if may_pass:
        return None
    tents = [d for d in draws if isinstance(d, DrawTent)]
    return tents[0] if tents else draws[0]


@pytest.mark.parametrize("n,trigger", [(2, 2), (3, 2), (4, 3), (5, 4)])
def test_end_trigger_and_final_stage_by_player_count(n, trigger):
    # rules: end triggered by boards with 5 tents (2/2/3/4 boards for 2/3/4/5 players); then
    # play continues until every player had one more turn on the starting board
    boards = [tiny_game_board()] * n
    result = play_game(boards, ["red", "yellow", "blue", "green", "purple"][:n],
                       random.Random(1), policy=tents_first_policy)
    assert result.ended_by == "tents"
    full_after = []
    counts = [0] * n  # tents per board, recounted from the recorded draws
    trigger_round = None
    for number, turns in enumerate(result.rounds):
        for turn in turns:
            if isinstance(turn.draw, DrawTent):
                counts[turn.board] += 1
        full_after.append(sum(1 for c in counts if c >= 5))
        if trigger_round is None and full_after[-1] >= trigger:
            trigger_round = number
    assert trigger_round is not None
    last = len(result.rounds) - 1
    # the final round is the first round after the trigger where all sit at their own board
    assert last == (trigger_round // n + 1) * n
    for turns in result.rounds[:trigger_round + 1]:
        assert all(t.draw is not None for t in turns)  # no passing before the final stage
    for turns in result.rounds[trigger_round + 1:]:
        assert all(t.draw is None for t in turns)  # the policy passes when allowed
    assert all(t.board == i for i, t in enumerate(result.rounds[-1]))  # on starting boards


def test_passing_before_the_final_stage_is_refused():
    # rules: passing is allowed only in the final stage
    with pytest.raises(ValueError):
        play_game([tiny_game_board()] * 2, ["red", "blue"], random.Random(0),
                  policy=scripted({("red", 1): None}))


def test_first_round_is_on_own_board_with_a_stop_away_from_animals():
    # rules: everyone starts on the board whose rift has their colour; first element a stop
    # away from animals
    board = make(". . . . .\n. k . . .\n. . . . .\n. . . . e\n. . . . .").board
    for seed in range(5):
        result = play_game([board] * 3, ["red", "blue", "green"], random.Random(seed))
        for i, turn in enumerate(result.rounds[0]):
            assert turn.board == i
            assert isinstance(turn.draw, DrawStop)
            r, c = divmod(turn.draw.cell, 5)
            assert all(board.terrain[rr * 5 + cc] not in "kel"
                       for rr in range(max(0, r - 1), min(5, r + 2))
                       for cc in range(max(0, c - 1), min(5, c + 2)))
        assert all(b.rift_owner == p for b, p in zip(result.boards, result.players, strict=True))


def test_boards_pass_to_the_left_neighbour_each_round():
    # rules: after drawing, each board is passed to the left (next player)
    result = play_game([tiny_game_board()] * 4, ["red", "yellow", "blue", "green"],
                       random.Random(3))
    for number, turns in enumerate(result.rounds[1:], start=1):
        before = {t.board: t.player for t in result.rounds[number - 1]}
        order = list(result.players)
        for turn in turns:
            prev = before[turn.board]
            assert order[(order.index(prev) + 1) % 4] == turn.player


def test_tie_break_compares_best_board_then_next_best():
    # rules: ties → higher best single board, then the next best, and so on
    assert rank_players({"red": [5, 5, 0], "blue": [6, 2, 2]}) == ("blue", "red")
    assert rank_players({"red": [6, 3, 1], "blue": [6, 4, 0]}) == ("blue", "red")
    assert rank_players({"red": [9, 0], "blue": [1, 1]}) == ("red", "blue")  # totals first


# --- the naive second implementation ----------------------------------------------------------

class Naive:
    """Legality and scoring written straight from the rules text, with (row, col) only."""

    def __init__(self, position: Position, rules: Rules = Rules()):  # noqa: B008
        self.p = position
        self.rules = rules
        self.rows, self.cols = position.grid.rows, position.grid.cols

    def rc(self, c: int) -> tuple[int, int]:
        return c // self.cols, c % self.cols

    def at(self, r: int, c: int) -> str:
        return self.p.board.terrain[r * self.cols + c]

    def trail_cells(self, trail: Trail) -> list[tuple[int, int]] | None:
        """All cells in order start..end, or None when the shape is not straight/one-bend L."""
        (r0, c0), (r1, c1) = self.rc(trail.start), self.rc(trail.end)
        if trail.corner is None:
            if r0 == r1 and c0 != c1:
                step = 1 if c1 > c0 else -1
                return [(r0, c) for c in range(c0, c1 + step, step)]
            if c0 == c1 and r0 != r1:
                step = 1 if r1 > r0 else -1
                return [(r, c0) for r in range(r0, r1 + step, step)]
            return None
        rk, ck = self.rc(trail.corner)
        if r0 == r1 or c0 == c1:
            return None
        if (rk, ck) not in ((r0, c1), (r1, c0)):
            return None
        first = self.trail_cells(Trail(trail.start, trail.corner))
        second = self.trail_cells(Trail(trail.corner, trail.end))
        return first + second[1:]

    def occupied(self) -> set[tuple[int, int]]:
        cells = set()
        for _, e in self.p.elements:
            cells |= {self.rc(s) for s in e.stops} | {self.rc(t) for t in e.tents}
            for trail in e.trails:
                cells |= set(self.trail_cells(trail))
        return cells

    def stop_ok(self, colour: str, c: int, first: bool) -> bool:
        r, k = self.rc(c)
        if self.at(r, k) != "." or (r, k) in self.occupied():
            return False
        for colour2, e in self.p.elements:
            if colour2 != colour and not self.rules.stops_block_all_colours:
                continue
            for s in e.stops:
                rs, ks = self.rc(s)
                if abs(rs - r) + abs(ks - k) == 1:
                    return False
        if first:
            for dr in (-1, 0, 1):
                for dk in (-1, 0, 1):
                    rr, kk = r + dr, k + dk
                    if 0 <= rr < self.rows and 0 <= kk < self.cols and self.at(rr, kk) in "kel":
                        return False
        return True

    def tent_ok(self, c: int, first: bool) -> bool:
        r, k = self.rc(c)
        tents = sum(len(e.tents) for _, e in self.p.elements)
        return (not first and tents < 5 and self.at(r, k) == "."
                and (r, k) not in self.occupied())

    def trail_ok(self, colour: str, trail: Trail, first: bool) -> bool:
        if first:
            return False
        own = self.p.of(colour).stops
        if trail.start not in own or trail.end not in own or trail.start == trail.end:
            return False
        cells = self.trail_cells(trail)
        if cells is None:
            return False
        occupied = self.occupied()
        corner = self.rc(trail.corner) if trail.corner is not None else None
        for i in range(1, len(cells) - 1):
            rk = cells[i]
            if rk in occupied:
                return False
            kind = self.at(*rk)
            if kind == ".":
                continue
            if kind not in "-|" or colour != self.p.rift_owner or rk == corner:
                return False
            going_north_south = cells[i - 1][1] == rk[1] == cells[i + 1][1]
            going_west_east = cells[i - 1][0] == rk[0] == cells[i + 1][0]
            if kind == "-" and not going_north_south:
                return False
            if kind == "|" and not going_west_east:
                return False
        return True

    def legal(self, colour: str, draw, first: bool) -> bool:
        if isinstance(draw, DrawStop):
            return self.stop_ok(colour, draw.cell, first)
        if isinstance(draw, DrawTent):
            return self.tent_ok(draw.cell, first)
        return self.trail_ok(colour, draw.trail, first)

    def score(self, colour: str) -> int:
        own = self.p.of(colour)
        areas = self.p.board.areas
        total = 0
        touching: set[tuple[int, int]] = set()
        connected: set[int] = set()
        for trail in own.trails:
            cells = self.trail_cells(trail)
            total += min(5, len({areas[r * self.cols + k] for r, k in cells}))
            touching |= set(cells)
            connected |= {trail.start, trail.end}
        points = {"k": 1, "e": 2, "l": 3}
        for r in range(self.rows):
            for k in range(self.cols):
                if self.at(r, k) in points and any(
                        max(abs(r - rr), abs(k - kk)) == 1 for rr, kk in touching):
                    total += points[self.at(r, k)]
        for tent in own.tents:
            rt, kt = self.rc(tent)
            for s in own.stops:
                rs, ks = self.rc(s)
                if s in connected and max(abs(rs - rt), abs(ks - kt)) == 1:
                    total += 2
        total -= 2 * sum(1 for s in own.stops if s not in connected)
        return total


def every_draw(position: Position, colour: str, rng: random.Random) -> list:
    """Every stop and tent, every trail shape between own stops, plus malformed trails."""
    grid = position.grid
    out: list = [DrawStop(c) for c in range(grid.size)] + [DrawTent(c) for c in range(grid.size)]
    own = list(position.of(colour).stops)
    ends = own + [s for _, e in position.elements for s in e.stops if s not in own]
    ends += rng.sample(range(grid.size), 3)
    for a in ends:
        for b in ends:
            out.append(DrawTrail(Trail(a, b)))
            (ra, ca), (rb, cb) = grid.coords[a], grid.coords[b]
            out.append(DrawTrail(Trail(a, b, ra * grid.cols + cb)))
            out.append(DrawTrail(Trail(a, b, rb * grid.cols + ca)))
            out.append(DrawTrail(Trail(a, b, rng.randrange(grid.size))))
    return out


def key(draw):
    if isinstance(draw, DrawTrail):
        return ("trail", frozenset(draw.trail.ends), draw.trail.corner)
    return draw


def random_board(rng: random.Random) -> Board:
    """A 5×5 to 6×7 board: 9 grown areas, animals, trees, water, and a rift that may bend."""
    rows, cols = rng.randint(5, 6), rng.randint(5, 7)
    grid = SquareGrid(rows, cols)
    areas = [0] * grid.size
    for number, seed in enumerate(rng.sample(range(grid.size), 9), start=1):
        areas[seed] = number
    while 0 in areas:
        c = rng.choice([c for c in range(grid.size) if not areas[c]
                        and any(areas[nb] for nb in grid.neighbours[c])])
        areas[c] = rng.choice([areas[nb] for nb in grid.neighbours[c] if areas[nb]])
    terrain = ["."] * grid.size
    r, c = rng.randrange(1, rows - 1), rng.randrange(0, 2)
    for _ in range(rng.randint(2, 4)):  # west–east arm
        terrain[r * cols + c] = "-"
        c += 1
    if rng.random() < 0.6:  # bend down into a north–south arm
        c -= 1
        for _ in range(rng.randint(1, 2)):
            r += 1
            if r < rows:
                terrain[r * cols + c] = "|"
    free = [i for i in range(grid.size) if terrain[i] == "."]
    for i in rng.sample(free, rng.randint(3, 6)):
        terrain[i] = rng.choice("keltw")
    return Board(grid, tuple(terrain), tuple(areas))


def random_position(seed: int) -> tuple[Position, Rules]:
    rng = random.Random(seed)
    board = random_board(rng)
    colours = ["red", "blue", "green"][:rng.randint(1, 3)]
    rules = Rules(stops_block_all_colours=rng.random() < 0.25)
    position = Position(board, rift_owner=rng.choice(colours), player=colours[0])
    for _ in range(rng.randint(0, 14)):
        colour = rng.choice(colours)
        options = list(legal_draws(position, colour, rules))
        trails = [d for d in options if isinstance(d, DrawTrail)]
        if trails and rng.random() < 0.5:
            options = trails
        if options:
            position = apply_draw(position, colour, rng.choice(options), rules)
    return position, rules


@pytest.mark.parametrize("seed", range(120))
def test_engine_legality_equals_naive_legality(seed):
    # every legality rule at once: the engine accepts exactly what the naive reading accepts,
    # and legal_draws lists exactly those draws
    position, rules = random_position(seed)
    rng = random.Random(seed)
    naive = Naive(position, rules)
    for colour in ("red", "blue", "green"):
        for first in (False, True):
            accepted, expected = set(), set()
            for d in every_draw(position, colour, rng):
                if naive.legal(colour, d, first):
                    expected.add(key(d))
                try:
                    apply_draw(position, colour, d, rules, first)
                except IllegalDraw:
                    continue
                accepted.add(key(d))
            assert accepted == expected
            listed = {key(d) for d in legal_draws(position, colour, rules, first)}
            assert listed == expected


@pytest.mark.parametrize("seed", range(300))
def test_engine_score_equals_naive_score(seed):
    # every scoring rule at once, on random legal positions
    position, _ = random_position(1000 + seed)
    naive = Naive(position)
    for colour in ("red", "blue", "green"):
        assert score(position, colour).total == naive.score(colour)


@pytest.mark.parametrize("seed", range(6))
def test_seeded_games_agree_with_the_naive_rules(seed):
    # game flow + every draw legal per the naive reading + final scores per the naive scorer
    names = ["crater", "delta", "savanna", "riverbend", "escarpment"]
    n = 2 + seed % 4
    boards = [read_position(f"{BOARDS}/{name}.toml").board for name in names[:n]]
    players = ["red", "yellow", "blue", "green", "purple"][:n]
    result = play_game(boards, players, random.Random(seed), policy=random_policy)
    positions = [Position(b, rift_owner=c, player=c) for b, c in zip(boards, players,
                                                                      strict=True)]
    trigger = {2: 2, 3: 2, 4: 3, 5: 4}[n]
    triggered_at = None
    for number, turns in enumerate(result.rounds):
        for i, turn in enumerate(turns):
            assert isinstance(turn, Turn) and turn.board == (i - number) % n
            position = positions[turn.board]
            naive = Naive(position)
            first = number == 0
            if turn.draw is None:
                options = [d for d in every_draw(position, turn.player, random.Random(0))
                           if naive.legal(turn.player, d, first)]
                assert triggered_at is not None or not options
                continue
            assert naive.legal(turn.player, turn.draw, first)
            positions[turn.board] = apply_draw(position, turn.player, turn.draw, first=first)
        full = sum(1 for p in positions if sum(len(e.tents) for _, e in p.elements) == 5)
        if triggered_at is None and full >= trigger:
            triggered_at = number
    if result.ended_by == "tents":
        assert len(result.rounds) - 1 == (triggered_at // n + 1) * n
    for b, position in enumerate(positions):
        naive = Naive(position)
        for colour in players:
            assert result.board_scores[b][colour].total == naive.score(colour)
    totals = {c: [naive_s for naive_s in (Naive(p).score(c) for p in positions)]
              for c in players}
    assert result.scores == {c: sum(t) for c, t in totals.items()}
    assert result.ranking == tuple(sorted(players, key=lambda c: (sum(totals[c]),
                                                                  sorted(totals[c])[::-1]),
                                          reverse=True))


@pytest.mark.parametrize("seed", range(40))
def test_exhaustive_equals_sequence_search_on_random_legal_positions(seed):
    # the benchmark baseline is exact: the set search with its bounds finds the same optimum
    # as the plain search over every legal draw sequence (bent rifts, 1–3 colours, options)
    position, rules = random_position(5000 + seed)
    position = position.replace(first_stop_rule=random.Random(seed).random() < 0.4)
    found = best_score(position, draws=3, rules=rules)
    assert found.value == sequence_search(position, 3, rules)
    final = play_draws(position.replace(draws=3), found.draws, rules)
    assert score(final, position.player).total == found.value


class _Unbounded(_Search):
    """The same set search with every bound switched off (it prunes nothing)."""

    def _bound(self, fixed, *rest):
        return 10 ** 9


@pytest.mark.parametrize("seed", range(40))
def test_exhaustive_bounds_are_sound_at_larger_budgets(seed):
    # the pruning bounds never cut off the optimum: same value as the unpruned set search at
    # budget 6, past what the plain sequence search can reach
    position, rules = random_position(7000 + seed)
    position = position.replace(first_stop_rule=random.Random(seed).random() < 0.4)
    unbounded = _Unbounded(position, 6, rules, None)
    unbounded.run()
    assert best_score(position, draws=6, rules=rules).value == unbounded.best_value
