"""Terra Nova rules: the rulebook examples, every turn rule and every [D] decision.

Boards are tiny hand-made positions; comments give the geometry that matters
(odd-r layout: even rows touch the row above/below at columns c-1 and c, odd
rows at c and c+1).
"""

from __future__ import annotations

import json
import random

import pytest

from solver.errors import InputError
from solver.terra_nova.engine import playout, turngen
from solver.terra_nova.engine import turns as engine
from solver.terra_nova.engine.turns import (
    GAME_ENDS_WITH_SUPPLY,
    IllegalTurn,
    Rules,
    apply_turn,
    game_over,
    legal_turns,
    perft,
    play_line,
    validate,
)
from solver.terra_nova.fileformat import parse_position
from solver.terra_nova.notation import Move, Stone, format_turn, parse_turn


def pos(board: str, *, players=("red", "yellow"), to_move="red", stones_left=None,
        check=True):
    lines = ['game = "terra-nova"', f"players = {json.dumps(list(players))}",
             f'to_move = "{to_move}"']
    if stones_left is not None:
        lines.append(f"stones_left = {stones_left}")
    lines.append(f'board = """\n{board.strip()}\n"""')
    position = parse_position("\n".join(lines) + "\n")
    if check:
        validate(position)
    return position


def turn(position, text):
    return parse_turn(text, position.grid)


def names(position, cells):
    return sorted(position.grid.name(c) for c in cells)


# Column d is a wall of stones except the gap d4; the 12 cells of columns a-c hold
# landscapes a and b only. Red has b1 and a4 inside, yellow c1; red's h1 is outside.
EXAMPLE_12 = """
a. aR aY d# c. d. e. fR
a. b. b. d# c. d. e. f.
a. b. b. d# d. c. e. f.
aR b. b. d. c. d. e. f.
"""

# Stones c1, c3, b4 wall off the 7 'a' cells a1 b1 a2 b2 a3 b3 a4 except the gap c2.
# Red (a2) and blue (a1) stand inside, one piece each.
EXAMPLE_7 = """
aB a. c# b. c. d. e.
aR a. c. b. c. d. e.
a. a. c# b. c. d. e.
a. b# b. b. c. d. e.
"""


def test_rulebook_example_12_cells_2_landscapes_majority_scores_24():
    p = pos(EXAMPLE_12)
    out = apply_turn(p, turn(p, "a4-c4 #d4 h1-h2"))
    assert out.gained == {"red": 24, "yellow": 0}
    (region,) = out.regions
    assert (len(region.cells), region.landscapes, region.value) == (12, 2, 24)
    assert region.winners == ("red",)
    assert names(p, out.removed) == ["b1", "c1", "c4"]
    assert out.position.score_map == {"red": 24, "yellow": 0}
    assert out.position.to_move == "yellow"


def test_rulebook_example_7_cells_1_landscape_tie_splits_21():
    p = pos(EXAMPLE_7, players=("red", "blue"))
    out = apply_turn(p, turn(p, "a2-b2 #c2"))
    (region,) = out.regions
    assert (len(region.cells), region.landscapes, region.value) == (7, 1, 21)
    assert set(region.winners) == {"red", "blue"} and region.share == 10
    assert out.gained == {"red": 10, "blue": 10}


# ----------------------------------------------------------------- turn rules

# Three rows of mixed landscapes, no stones: red a1 and d3, yellow c2.
OPEN = """
aR b. c. d. e.
b. c. dY e. a.
c. d. e. aR b.
"""


def test_first_action_must_be_a_move():
    p = pos(OPEN)
    with pytest.raises(IllegalTurn, match="first action of a turn must be a move") as exc:
        apply_turn(p, turn(p, "#b1 a1-a2 #a1"))
    assert exc.value.place == "action 1 '#b1'"
    assert all(isinstance(t[0], Move) for t in legal_turns(p))


def test_stone_only_next_to_current_cell_of_a_piece_moved_this_turn():
    p = pos(OPEN)
    # a1 moved east to c1; b1 and d1 touch c1 - legal.
    apply_turn(p, turn(p, "a1-c1 #d1 #b1"))
    # a2 touches only the start cell a1 of the moved piece, not its current cell c1.
    with pytest.raises(IllegalTurn, match="not adjacent to a piece that moved") as exc:
        apply_turn(p, turn(p, "a1-c1 #a2 #d1"))
    assert str(exc.value) == ("action 2 '#a2': not adjacent to a piece that moved this turn")
    # e3 touches red's d3, which has not moved this turn.
    with pytest.raises(IllegalTurn, match="not adjacent"):
        apply_turn(p, turn(p, "a1-c1 #e3 #d1"))
    # c3 touches yellow's c2 but not b1: an opponent piece anchors nothing.
    with pytest.raises(IllegalTurn, match="not adjacent"):
        apply_turn(p, turn(p, "a1-b1 #c3 #c1"))
    # After a second move the stone may go next to either moved piece's current cell.
    apply_turn(p, turn(p, "a1-c1 d3-d2 #e1"))
    for t in legal_turns(p):
        moved_to = set()
        for action in t:
            if isinstance(action, Move):
                moved_to.discard(action.src)
                moved_to.add(action.dst)
            else:
                assert any(action.cell in p.grid.neighbours[c] for c in moved_to)


def test_turn_may_end_early_only_when_no_legal_action_is_left():
    p = pos(EXAMPLE_12)
    # Red's h1 can still move after the region closes: two actions are not enough.
    with pytest.raises(IllegalTurn, match="a legal action is left") as exc:
        apply_turn(p, turn(p, "a4-c4 #d4"))
    assert exc.value.place == "action 2 '#d4'"
    with pytest.raises(IllegalTurn, match="a legal action is left"):
        apply_turn(p, turn(p, "h1-h2"))
    # In the 7-cell example red has no piece left after scoring: 2 actions end the turn.
    q = pos(EXAMPLE_7, players=("red", "blue"))
    assert apply_turn(q, turn(q, "a2-b2 #c2")).actions == 2
    shapes = {len(t) for t in legal_turns(q)}
    assert 2 in shapes and 1 not in shapes
    # Every short legal turn leaves no legal action behind.
    for position in (p, q, pos(OPEN)):
        for t in legal_turns(position):
            if len(t) < 3:
                state = engine.turn_state(position)
                for action in engine.to_internal(t):
                    state.do(action)
                assert not state.has_action()


def test_pass_when_no_piece_can_move_and_only_then():
    # Red's only piece a1 is hemmed in by yellow b1 and the edge (one-row board).
    p = pos("aR bY c. d. e.")
    assert list(legal_turns(p)) == [()]
    assert perft(p) == engine.Perft(1, 1)
    out = apply_turn(p, ())
    assert out.position.to_move == "yellow" and out.actions == 0
    q = pos(OPEN)
    with pytest.raises(IllegalTurn, match="may not pass"):
        apply_turn(q, ())
    assert () not in set(legal_turns(q))


def test_no_return_for_two_and_three_moves():
    assert turngen.NO_RETURN is True
    p = pos(OPEN)
    with pytest.raises(IllegalTurn, match="no return"):
        apply_turn(p, turn(p, "a1-b1 b1-a1 d3-d2"))       # back after 2 moves
    with pytest.raises(IllegalTurn, match="no return"):
        apply_turn(p, turn(p, "a1-c1 c1-b1 b1-a1"))       # back after 3 moves
    with pytest.raises(IllegalTurn, match="no return"):
        apply_turn(p, turn(p, "a1-b1 b1-a1 #b1"))         # a stone does not help
    apply_turn(p, turn(p, "a1-b1 b1-a1 a1-c1"))           # leaving again is fine
    for t in legal_turns(p):
        state = engine.turn_state(p)
        for action in engine.to_internal(t):
            state.do(action)
        assert all(start != cur for start, cur in state.moved)


def test_removed_piece_no_longer_anchors_stones():
    assert turngen.REMOVED_PIECE_UNMOVED is True
    p = pos(EXAMPLE_12)
    # c4 was red's moved piece; it is removed with the region, so b4 (next to c4,
    # inside the scored region) cannot take a stone.
    with pytest.raises(IllegalTurn, match="not adjacent to a piece that moved"):
        apply_turn(p, turn(p, "a4-c4 #d4 #b4"))
    for t in legal_turns(p):
        if turn(p, "a4-c4 #d4") == t[:2]:
            assert isinstance(t[2], Move)


def test_removed_piece_is_free_of_the_no_return_rule():
    board = EXAMPLE_12.replace("aR b. b. d.", "a. b. bR d.")  # red starts on c4
    p = pos(board)
    out = apply_turn(p, turn(p, "c4-b4 b4-c4 #d4"))       # back on c4, then removed
    assert out.gained["red"] == 24
    with pytest.raises(IllegalTurn, match="no return"):
        apply_turn(p, turn(p, "c4-b4 b4-c4 h1-h2"))


def test_one_stone_closing_several_regions_scores_all():
    # One row: a1 b1 c1 (a a b) | d1 | e1 f1 g1 (c d d). Red a1 -> c1, stone d1.
    p = pos("aR a. b. e. c. d. dY")
    out = apply_turn(p, turn(p, "a1-c1 #d1"))
    assert sorted((len(r.cells), r.landscapes, r.value, r.winners) for r in out.regions) == [
        (3, 2, 6, ("red",)), (3, 2, 6, ("yellow",))]
    assert out.gained == {"red": 6, "yellow": 6}
    assert not out.position.pieces


def test_component_of_four_landscapes_is_not_scored():
    # a1..d1 hold 4 landscapes; the stone on e1 encloses them but scores nothing.
    p = pos("aR b. c. d. e. a. b. c. d.")
    out = apply_turn(p, turn(p, "a1-d1 #e1 d1-c1"))
    assert out.regions == () and out.gained == {"red": 0, "yellow": 0}
    assert out.position.pieces_of("red") == (p.grid.cell("c1"),)
    # ... while 3 landscapes would be (control: same cut with one landscape fewer).
    q = pos("aR b. c. c. e. a. b. c. d.")
    assert apply_turn(q, turn(q, "a1-d1 #e1")).gained["red"] == 4 * 1


def test_empty_region_scores_nothing():
    p = pos("a. b. c. c. d. e. fR")
    out = apply_turn(p, turn(p, "g1-d1 #c1 d1-e1"))
    (region,) = out.regions
    assert names(p, region.cells) == ["a1", "b1"] and region.value == 4
    assert region.winners == () and region.share == 0
    assert out.gained == {"red": 0, "yellow": 0}


def test_empty_supply_allows_no_stone():
    assert engine.EMPTY_SUPPLY_BLOCKS_STONES is True
    p = pos(OPEN, stones_left=0)
    assert all(isinstance(a, Move) for t in legal_turns(p) for a in t)
    with pytest.raises(IllegalTurn, match="no stones left"):
        apply_turn(p, turn(p, "a1-c1 #d1 #b1"))
    with_stones = pos(OPEN, stones_left=1)
    assert any(isinstance(a, Stone) for t in legal_turns(with_stones) for a in t)
    assert all(sum(isinstance(a, Stone) for a in t) <= 1 for t in legal_turns(with_stones))


def test_player_out_ends_game_option():
    # Yellow has no piece; red and blue can both move.
    p = pos(OPEN.replace("dY", "dB"), players=("red", "yellow", "blue"))
    assert Rules().player_out_ends_game is False
    assert not game_over(p)
    assert game_over(p, Rules(player_out_ends_game=True))
    final, history = playout.random_playout(p, random.Random(1), turns=5,
                                            rules=Rules(player_out_ends_game=True))
    assert history == [] and final == p
    _, history = playout.random_playout(p, random.Random(1), turns=5)
    assert len(history) == 5


def test_game_ends_when_the_supply_is_empty():
    """[D] (c) GAME_ENDS_WITH_SUPPLY: the turn that places the last stone ends the game,
    so a random game stops there although rules (a) and (b) would let it go on."""
    assert GAME_ENDS_WITH_SUPPLY is True
    p = pos(OPEN, stones_left=0)
    assert game_over(p) and not engine.board_divided(p) and len(engine.movable_players(p)) > 1
    final, history = playout.random_playout(p, random.Random(1), turns=5)
    assert history == [] and final == p
    one_left = pos(OPEN, stones_left=1)
    assert not game_over(one_left)
    final, history = playout.random_playout(one_left, random.Random(1), turns=5)
    assert final.stones_left == 0 and game_over(final)


def test_game_ends_when_at_most_one_player_can_move():
    assert game_over(pos("aR bY c. d. e."))        # only yellow can move
    assert not game_over(pos(OPEN))


def test_game_ends_when_board_fully_divided():
    p = pos("a. b. c# c. d. e# e. a.", check=False)   # three regions of <= 3 landscapes
    assert engine.board_divided(p) and game_over(p)
    assert not engine.board_divided(pos(OPEN))


def test_corridor_turn_uses_parity_to_avoid_returning():
    # Red a1 can only step to b1 and back (c1 yellow, one row, no stones): the one
    # legal turn is the 3-move shuffle ending on b1.
    p = pos("aR b. cY d. e.", stones_left=0)
    assert [format_turn(t, p.grid) for t in legal_turns(p)] == ["a1-b1 b1-a1 a1-b1"]
    with pytest.raises(IllegalTurn, match="a legal action is left"):
        apply_turn(p, turn(p, "a1-b1 b1-a1"))


def test_pass_without_legal_sequence_is_a_pass(monkeypatch):
    assert engine.PASS_WITHOUT_LEGAL_SEQUENCE is True
    # No real position is known where a movable player has no legal sequence, so
    # simulate one: make every sequence break the no-return rule.
    p = pos(OPEN)
    monkeypatch.setattr(turngen.TurnState, "returned", lambda self: True)
    assert list(legal_turns(p)) == [()]
    assert apply_turn(p, ()).position.to_move == "yellow"


def test_validate_rejects_piece_inside_region_and_too_many_pieces():
    with pytest.raises(InputError, match="inside a region") as exc:
        pos("aR a. b# c. d. e. aY")
    assert exc.value.place == "cell a1"
    crowded = " ".join(["aR"] * 14 + ["b.", "c.", "d.", "aY"])
    with pytest.raises(InputError, match="red has 14 pieces; at most 13"):
        pos(crowded)


def test_play_line_keeps_the_player_and_ignores_game_end():
    assert engine.PUZZLES_IGNORE_GAME_END is True
    p = pos(EXAMPLE_12)
    line = [turn(p, "a4-c4 #d4 h1-h2"), turn(p, "h2-h3 #h4 h3-g3")]
    result = play_line(p, line)
    assert game_over(result.outcomes[0].position)     # yellow is gone, red plays on
    assert result.position.to_move == "red"
    assert (result.points, result.others, result.actions) == (24, 0, 6)
    assert result.turn_points == (24, 0)
    with pytest.raises(IllegalTurn) as exc:
        play_line(p, [line[0], turn(p, "#g2")])
    assert exc.value.place.startswith("turn 2, action 1")
