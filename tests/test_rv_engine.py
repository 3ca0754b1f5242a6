"""Rift Valley reference engine: every legality and scoring rule on hand-made boards."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from solver.errors import InputError
from solver.rift_valley import rules as rv_rules
from solver.rift_valley.engine.draws import (
    IllegalDraw,
    Rules,
    apply_draw,
    legal_draws,
    play_draws,
    score,
    validate,
)
from solver.rift_valley.fileformat import parse_position
from solver.rift_valley.notation import DrawStop, DrawTent, DrawTrail, format_draw, parse_draw
from solver.rift_valley.position import Position, Trail


def blocks(rows: int, cols: int) -> str:
    """Nine rectangular areas in a 3×3 layout (connected for rows, cols >= 3)."""
    return "\n".join(" ".join(str(3 * (r * 3 // rows) + c * 3 // cols + 1) for c in range(cols))
                     for r in range(rows))


def make(terrain: str, elements: str = "", areas: str | None = None, rift_owner: str = "red",
         player: str = "red", extra: str = "") -> Position:
    """A position from terrain rows (areas default: 3×3 blocks) and an [elements] TOML tail."""
    rows = [line.split() for line in terrain.strip().splitlines()]
    areas = areas or blocks(len(rows), len(rows[0]))
    text = (f'game = "rift-valley"\nplayer = "{player}"\nrift_owner = "{rift_owner}"\n{extra}'
            f'terrain = """\n{terrain.strip()}\n"""\nareas = """\n{areas}\n"""\n{elements}')
    return parse_position(text)


OPEN6 = "\n".join([". . . . . ."] * 6)


def draw(position: Position, colour: str, text: str, rules: Rules = Rules(),  # noqa: B008
         first: bool = False) -> Position:
    return apply_draw(position, colour, parse_draw(text, position.grid), rules, first)


def illegal(position: Position, colour: str, text: str, rules: Rules = Rules(),  # noqa: B008
            first: bool = False) -> str:
    with pytest.raises(IllegalDraw) as info:
        draw(position, colour, text, rules, first)
    assert text in str(info.value)  # the message names the draw
    return str(info.value)


def names(position: Position, draws) -> set[str]:
    return {format_draw(d, position.grid) for d in draws}


# --- decisions are named constants -------------------------------------------------------

def test_decisions_are_named_constants():
    assert rv_rules.MAX_TENTS_PER_BOARD == 5
    assert rv_rules.TRAIL_AREA_CAP == 5
    assert rv_rules.UNCONNECTED_STOP_PENALTY == -2
    assert rv_rules.TENT_POINTS_PER_STOP == 2
    assert rv_rules.ANIMAL_POINTS == {"k": 1, "e": 2, "l": 3}
    assert rv_rules.END_TRIGGER_BOARDS == {2: 2, 3: 2, 4: 3, 5: 4}
    assert Rules().stops_block_all_colours is False


RULES_DOC = Path(__file__).resolve().parent.parent / "docs/rules/rift-valley.md"


def _doc_numbers(pattern: str) -> tuple[int, ...]:
    """The numbers ``pattern`` captures in the rules doc (whitespace folded to spaces)."""
    text = " ".join(RULES_DOC.read_text(encoding="utf-8").split())
    match = re.search(pattern, text)
    assert match, f"docs/rules/rift-valley.md no longer says {pattern!r}"
    return tuple(int(n) for n in match.groups())


def test_the_shared_rule_numbers_are_the_rules_docs():
    # engine and model both read solver/rift_valley/rules.py (a shared table is allowed
    # only when a test checks it against the rules doc): each number as the doc words it
    assert _doc_numbers(r"At most (\d+) tents on one board") == (rv_rules.MAX_TENTS_PER_BOARD,)
    assert _doc_numbers(r"at most (\d+) per trail \(`TRAIL_AREA_CAP`") == (rv_rules.TRAIL_AREA_CAP,)
    assert _doc_numbers(r"kob \+(\d+), elephant \+(\d+), lion \+(\d+) \(`ANIMAL_POINTS`\)") == (
        rv_rules.ANIMAL_POINTS["k"], rv_rules.ANIMAL_POINTS["e"], rv_rules.ANIMAL_POINTS["l"])
    assert _doc_numbers(r"tent scores \+(\d+) for every \*\*connected\*\* own stop") == (
        rv_rules.TENT_POINTS_PER_STOP,)
    assert _doc_numbers(r"−(\d+) for each own stop no trail ends on") == (
        -rv_rules.UNCONNECTED_STOP_PENALTY,)
    carry, two_or_three, four, five = _doc_numbers(
        r"enough boards carry (\d+) tents: (\d+) boards with 2 or 3 players, "
        r"(\d+) with 4, (\d+) with 5 \(`END_TRIGGER_BOARDS`\)")
    assert carry == rv_rules.MAX_TENTS_PER_BOARD
    assert rv_rules.END_TRIGGER_BOARDS == {2: two_or_three, 3: two_or_three, 4: four, 5: five}


# --- stops ----------------------------------------------------------------------------------

@pytest.mark.parametrize("cell", ["b1", "c1", "d1", "e1", "f1", "b2"])
def test_stop_needs_an_open_cell(cell):
    p = make(". k e l t w\n. - . . . .\n" + "\n".join([". . . . . ."] * 4))
    message = illegal(p, "red", f"o {cell}")
    assert "open" in message


def test_stop_needs_a_cell_without_element():
    p = make(OPEN6, '[elements.blue]\nstops = ["a1", "c1"]\ntrails = ["a1-c1"]\ntents = ["e1"]\n')
    for cell in ("a1", "b1", "e1"):
        assert "already holds" in illegal(p, "red", f"o {cell}")


def test_same_colour_stops_may_not_touch_orthogonally_but_diagonally():
    p = draw(make(OPEN6), "red", "o c3")
    for cell in ("c2", "c4", "b3", "d3"):
        assert "touch" in illegal(p, "red", f"o {cell}")
    for cell in ("b2", "d2", "b4", "d4"):
        draw(p, "red", f"o {cell}")


def test_stops_of_different_colours_may_touch_unless_the_option_is_set():
    p = draw(make(OPEN6), "blue", "o c3")
    draw(p, "red", "o c4")
    strict = Rules(stops_block_all_colours=True)
    illegal(p, "red", "o c4", strict)
    draw(p, "red", "o d4", strict)  # diagonal still fine
    assert "o c4" not in names(p, legal_draws(p, "red", strict))
    assert "o c4" in names(p, legal_draws(p, "red"))


def test_validate_applies_the_stop_rules():
    with pytest.raises(InputError, match="touch") as info:
        validate(make(OPEN6, '[elements.red]\nstops = ["a1", "a2"]\n'))
    assert "key 'elements.red.stops', stop 'a2'" in str(info.value)
    mixed = make(OPEN6, '[elements.red]\nstops = ["a1"]\n[elements.blue]\nstops = ["a2"]\n')
    validate(mixed)
    with pytest.raises(InputError):
        validate(mixed, Rules(stops_block_all_colours=True))
    with pytest.raises(InputError, match="open"):
        validate(make(". w . . . .\n" + "\n".join([". . . . . ."] * 5),
                      '[elements.red]\nstops = ["b1"]\n'))


# --- first-stop rule ------------------------------------------------------------------------

def test_first_stop_must_be_away_from_animals_also_diagonally():
    p = make(". . . . . .\n. . . . . .\n. . k . . .\n" + "\n".join([". . . . . ."] * 3))
    for cell in ("b2", "c2", "d2", "b3", "d4", "c4"):
        assert "animal" in illegal(p, "red", f"o {cell}", first=True)
        draw(p, "red", f"o {cell}")  # fine when it is not the first element
    draw(p, "red", "o e2", first=True)
    first = names(p, legal_draws(p, "red", first=True))
    assert first and all(d.startswith("o ") for d in first)
    assert not first & {"o b2", "o c2", "o d2", "o b3", "o d3", "o b4", "o c4", "o d4"}


def test_first_element_must_be_a_stop():
    p = make(OPEN6, '[elements.red]\nstops = ["a1", "c1"]\n')
    assert "first element" in illegal(p, "red", "^ f6", first=True)
    assert "first element" in illegal(p, "red", "a1-c1", first=True)


def test_play_draws_applies_the_first_stop_rule_to_the_first_draw_only():
    p = make(". . . . . .\n. k . . . .\n" + "\n".join([". . . . . ."] * 4),
             extra="first_stop_rule = true\n")
    with pytest.raises(IllegalDraw, match="draw 1 'o a1'"):
        play_draws(p, ["o a1"])
    final = play_draws(p, ["o f6", "o a1", "a1-f1-f6"])
    assert score(final, "red").total > 0


def test_play_draws_respects_the_budget():
    p = make(OPEN6, extra="draws = 2\n")
    play_draws(p, ["o a1", "o c1"])
    with pytest.raises(IllegalDraw, match="budget is 2"):
        play_draws(p, ["o a1", "o c1", "a1-c1"])


# --- trails ---------------------------------------------------------------------------------

def test_trail_straight_or_l_between_two_own_stops():
    p = make(OPEN6, '[elements.red]\nstops = ["a1", "a4", "d4"]\n[elements.blue]\nstops = ["f1"]\n')
    draw(p, "red", "a1-a4")
    draw(p, "red", "a1-d1-d4")
    draw(p, "red", "d4-d1-a1")  # either direction
    assert "not one" in illegal(p, "red", "a1-f1")  # blue stop at f1
    assert "not one" in illegal(p, "red", "a1-c1")  # no stop at c1
    listed = names(p, legal_draws(p, "red"))
    assert {"a1-a4", "a1-d1-d4", "a4-d4"} <= listed


def test_trail_corner_and_cells_must_be_free():
    p = make(OPEN6, '[elements.red]\nstops = ["a1", "a4", "d4"]\n')
    # a1-a4-d4 turns on the stop a4: that cell holds an element
    assert "element" in illegal(p, "red", "a1-a4-d4")
    assert "a1-a4-d4" not in names(p, legal_draws(p, "red"))


@pytest.mark.parametrize("letter,word", [("k", "kob"), ("e", "elephant"), ("l", "lion"),
                                         ("t", "tree"), ("w", "water")])
def test_trail_crosses_no_terrain(letter, word):
    p = make(f". . {letter} . . .\n" + "\n".join([". . . . . ."] * 5),
             '[elements.red]\nstops = ["a1", "e1", "a3", "e3"]\n')
    assert word in illegal(p, "red", "a1-e1")
    draw(p, "red", "a3-e3")


def test_trail_crosses_no_element_of_any_colour():
    base = '[elements.red]\nstops = ["a2", "e2"]\n'
    for other in ('[elements.blue]\nstops = ["c2"]\n', '[elements.blue]\ntents = ["c2"]\n',
                  '[elements.blue]\nstops = ["c1", "c3"]\ntrails = ["c1-c3"]\n'):
        p = make(OPEN6, base + other)
        assert "element on c2" in illegal(p, "red", "a2-e2")
    # a trail of its own colour is crossed neither
    p = make(OPEN6, '[elements.red]\nstops = ["a2", "e2", "c1", "c4"]\ntrails = ["c1-c4"]\n')
    assert "element" in illegal(p, "red", "a2-e2")


def test_trails_share_only_common_end_stops():
    p = make(OPEN6, '[elements.red]\nstops = ["a1", "e1", "a5", "e5"]\ntrails = ["a1-e1"]\n')
    p = draw(p, "red", "a1-a5")  # shares the end stop a1
    p = draw(p, "red", "e1-e5")
    p = draw(p, "red", "a5-e5")
    validate(p)
    assert score(p, "red").unconnected == 0
    # the same trail again overlaps in its cells
    illegal(p, "red", "e1-a1")
    # through another trail's end stop is not allowed: a1-e1 passes no stop, but a5-a1
    q = make(OPEN6, '[elements.red]\nstops = ["a1", "a3", "a5"]\ntrails = ["a1-a3"]\n')
    assert "element" in illegal(q, "red", "a1-a5")
    draw(q, "red", "a3-a5")


def test_own_rift_is_crossed_only_crosswise():
    terrain = ". . . . . .\n. . . . . .\n. - - - . .\n. . . . . .\n. . . . . .\n. . . . . ."
    elements = '[elements.red]\nstops = ["c1", "c5", "a3", "f3"]\n'
    p = make(terrain, elements, rift_owner="red")
    draw(p, "red", "c1-c5")  # north–south through a west–east rift cell
    assert "crosswise" in illegal(p, "red", "a3-f3")  # along the rift
    # an L turning on the rift: the corner c3 is a rift cell
    q = make(terrain, '[elements.red]\nstops = ["c1", "e3"]\n', rift_owner="red")
    assert "turn" in illegal(q, "red", "c1-c3-e3")
    # a stop can never stand on the rift, so no trail ends on it
    assert "open" in illegal(q, "red", "o b3")
    ns_terrain = ". . . . . .\n" + "\n".join([". . | . . ."] * 3) + "\n. . . . . .\n. . . . . ."
    ns = make(ns_terrain, '[elements.red]\nstops = ["a3", "e3", "c1", "c6"]\n', rift_owner="red")
    draw(ns, "red", "a3-e3")  # west–east through a north–south rift cell
    assert "crosswise" in illegal(ns, "red", "c1-c6")  # along it


def test_other_colours_never_cross_the_rift():
    terrain = ". . . . . .\n. . . . . .\n. - - - . .\n" + "\n".join([". . . . . ."] * 3)
    p = make(terrain, '[elements.blue]\nstops = ["c1", "c5"]\n', rift_owner="red")
    assert "only red" in illegal(p, "blue", "c1-c5")
    assert "c1-c5" not in names(p, legal_draws(p, "blue"))


# --- tents ----------------------------------------------------------------------------------

def test_tent_on_free_open_cell():
    p = make(". k . . . .\n" + "\n".join([". . . . . ."] * 5),
             '[elements.blue]\nstops = ["c1"]\n')
    assert "open" in illegal(p, "red", "^ b1")
    assert "already" in illegal(p, "red", "^ c1")
    draw(p, "red", "^ d1")


def test_at_most_five_tents_per_board_all_colours():
    elements = ('[elements.red]\ntents = ["a1", "c1", "e1"]\n'
                '[elements.blue]\ntents = ["a3", "c3"]\n')
    p = make(OPEN6, elements)
    validate(p)
    for colour in ("red", "blue", "green"):
        assert "5 tents" in illegal(p, colour, "^ e5")
        assert not any(isinstance(d, DrawTent) for d in legal_draws(p, colour))
    q = make(OPEN6, '[elements.red]\ntents = ["a1", "c1", "e1"]\n'
                    '[elements.blue]\ntents = ["a3", "c3", "e3"]\n')
    with pytest.raises(InputError, match="6 tents"):
        validate(q)


# --- legal_draws ----------------------------------------------------------------------------

def test_legal_draws_are_exactly_the_draws_apply_accepts():
    p = make(". . k . . .\n. t . . - .\n. . . w . .\n. . . . . l\n. e . . . .\n. . . . . .",
             '[elements.red]\nstops = ["a1", "d2", "a4", "e5"]\ntrails = ["a1-a4"]\n'
             '[elements.blue]\nstops = ["c4"]\ntents = ["f6"]\n')
    validate(p)
    listed = list(legal_draws(p, "red"))
    assert listed == list(legal_draws(p, "red"))  # deterministic
    grid = p.grid
    every = [DrawStop(c) for c in range(grid.size)] + [DrawTent(c) for c in range(grid.size)]
    stops = p.of("red").stops
    for a in stops:
        for b in stops:
            (ra, ca), (rb, cb) = grid.coords[a], grid.coords[b]
            if a == b:
                continue
            if ra == rb or ca == cb:
                every.append(DrawTrail(Trail(a, b)))
            else:
                every += [DrawTrail(Trail(a, b, grid.index(ra, cb))),
                          DrawTrail(Trail(a, b, grid.index(rb, ca)))]
    accepted = set()
    for d in every:
        try:
            apply_draw(p, "red", d)
        except IllegalDraw:
            continue
        t = d.trail if isinstance(d, DrawTrail) else None
        accepted.add(("trail", frozenset(t.ends), t.corner) if t else d)
    listed_keys = {("trail", frozenset(d.trail.ends), d.trail.corner)
                   if isinstance(d, DrawTrail) else d for d in listed}
    assert accepted == listed_keys


# --- scoring --------------------------------------------------------------------------------

def test_trail_scores_areas_capped_at_five():
    areas = "1 2 3 4 5 6 7\n8 8 8 8 8 8 8\n9 9 9 9 9 9 9"
    terrain = ". . . . . . .\n. . . . . . .\n. . . . . . ."
    p = make(terrain, '[elements.red]\nstops = ["a1", "g1", "a3", "c3"]\n'
                      'trails = ["a1-g1", "a3-c3"]\n', areas=areas)
    s = score(p, "red")
    assert s.trails == 5 + 1  # seven areas capped at 5, one area
    q = make(terrain, '[elements.red]\nstops = ["a1", "c1"]\ntrails = ["a1-c1"]\n', areas=areas)
    assert score(q, "red").trails == 3


def test_each_animal_scores_once_per_player_when_next_to_a_trail():
    terrain = ". . . . . .\n. . l . . .\n. . . . . .\n. e . . . k\n. . . . . .\n. . . . . ."
    p = make(terrain, '[elements.red]\nstops = ["a1", "e1", "a3", "e3"]\n'
                      'trails = ["a1-e1", "a3-e3"]\n'
                      '[elements.blue]\nstops = ["a6", "f6"]\ntrails = ["a6-f6"]\n')
    red = score(p, "red")
    # the lion c2 touches both red trails: once; the elephant b4 diagonal to a3..c3: +2;
    # the kob f4 is diagonal to e3 (an end stop): +1
    assert red.animals == 3 + 2 + 1
    # blue's trail on row 6 is not next to row 4 animals
    assert score(p, "blue").animals == 0
    q = make(terrain, '[elements.red]\nstops = ["a1", "e1"]\ntrails = ["a1-e1"]\n'
                      '[elements.blue]\nstops = ["a3", "f3"]\ntrails = ["a3-f3"]\n')
    assert score(q, "red").animals == 3
    assert score(q, "blue").animals == 3 + 2 + 1  # each player scores the lion


def test_tents_score_per_adjacent_connected_stop():
    p = make(OPEN6, '[elements.red]\nstops = ["b2", "d2", "b4", "f4"]\ntrails = ["b2-d2"]\n'
                    'tents = ["c3"]\n'
                    '[elements.blue]\nstops = ["c4", "a6", "c6"]\ntrails = ["a6-c6"]\n')
    s = score(p, "red")
    # c3 touches red b2, d2 (connected), b4 (unconnected) and blue c4: only the two count
    assert s.tents == 4
    assert s.unconnected == -2 * 2  # b4 and f4
    assert s.total == s.trails + s.animals + s.tents + s.unconnected
    assert score(p, "blue").tents == 0  # blue has no tent; red's tent is not blue's


def test_unconnected_stops_cost_two_each():
    p = make(OPEN6, '[elements.red]\nstops = ["a1", "c1", "e1"]\ntrails = ["a1-c1"]\n')
    s = score(p, "red")
    assert s.unconnected == -2
    assert s.trails == 2  # a1, b1 in area 1, c1 in area 2
    assert s.total == 2 - 2
