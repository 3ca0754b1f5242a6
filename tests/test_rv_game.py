"""Rift Valley game flow: seating, passing left, first round, end trigger, final stage, ranking."""

from __future__ import annotations

import random

import pytest

from solver.errors import InputError
from solver.geometry import SquareGrid
from solver.rift_valley.engine.draws import apply_draw, legal_draws, score
from solver.rift_valley.engine.full_game import (
    GameResult,
    play_game,
    random_policy,
    rank_players,
    start_positions,
)
from solver.rift_valley.fileformat import read_position
from solver.rift_valley.notation import DrawStop, DrawTent
from solver.rift_valley.position import ANIMALS, COLOURS, Board
from solver.rift_valley.rules import END_TRIGGER_BOARDS, MAX_TENTS_PER_BOARD, Rules

BOARDS = "positions/rift-valley/boards"
ASYMMETRIC = ("savanna", "riverbend", "crater", "escarpment", "delta")


def identical(n: int) -> list[Board]:
    return [read_position(f"{BOARDS}/identical.toml").board] * n


def asymmetric(n: int) -> list[Board]:
    return [read_position(f"{BOARDS}/{name}.toml").board for name in ASYMMETRIC[:n]]


def full_boards(positions) -> int:
    return sum(1 for p in positions
               if sum(len(e.tents) for _, e in p.elements) >= MAX_TENTS_PER_BOARD)


def replay(result: GameResult, boards, rules: Rules = Rules()) -> None:  # noqa: B008
    """Re-play the recorded rounds and check every rule of the game flow on the way."""
    players = result.players
    n = len(players)
    positions = start_positions(boards, players)
    trigger_round = None
    for number, turns in enumerate(result.rounds):
        final_stage = trigger_round is not None
        assert [t.player for t in turns] == list(players)
        for i, turn in enumerate(turns):
            assert turn.board == (i - number) % n  # boards go to the left neighbour
            position = positions[turn.board]
            first = number == 0
            if first:
                assert turn.board == i  # round 0 is on one's starting board
                assert position.rift_owner == turn.player
            options = list(legal_draws(position, turn.player, rules, first))
            if turn.draw is None:
                assert final_stage or not options  # passing only in the final stage
                continue
            if first:
                assert isinstance(turn.draw, DrawStop)
                terrain = position.board.terrain
                assert not any(terrain[nb] in ANIMALS
                               for nb in position.grid.touching[turn.draw.cell])
            positions[turn.board] = apply_draw(position, turn.player, turn.draw, rules, first)
        if trigger_round is None and full_boards(positions) >= END_TRIGGER_BOARDS[n]:
            trigger_round = number
    assert tuple(positions) == result.boards
    if result.ended_by == "tents":
        assert trigger_round is not None
        last = len(result.rounds) - 1
        # the game ends after the first round on the starting boards after the trigger
        assert last > trigger_round and last % n == 0 and last - trigger_round <= n
    else:
        assert result.ended_by == "blocked"
        assert trigger_round is None
        assert all(t.draw is None for turns in result.rounds[-n:] for t in turns)


def test_start_positions_give_each_player_the_rift_of_their_board():
    positions = start_positions(asymmetric(3), ["green", "red", "blue"])
    assert [p.rift_owner for p in positions] == ["green", "red", "blue"]
    with pytest.raises(InputError):
        start_positions(asymmetric(2), ["red"])
    with pytest.raises(InputError):
        start_positions(asymmetric(2), ["red", "red"])
    with pytest.raises(InputError):
        start_positions(asymmetric(3), ["red", "blue"])
    with pytest.raises(InputError):
        start_positions(asymmetric(2), ["red", "pink"])


@pytest.mark.parametrize("seed", range(60))
def test_seeded_random_games_end_and_scores_are_board_sums(seed):
    rng = random.Random(seed)
    n = 2 + seed % 4
    boards = asymmetric(n) if seed % 3 else identical(n)
    players = list(COLOURS[:n])
    rng.shuffle(players)
    rules = Rules(stops_block_all_colours=seed % 5 == 0)
    result = play_game(boards, players, random.Random(seed), rules=rules)
    replay(result, boards, rules)
    for colour in players:
        per_board = [score(p, colour).total for p in result.boards]
        assert result.scores[colour] == sum(per_board)
        assert [s[colour].total for s in result.board_scores] == per_board
    assert set(result.ranking) == set(players)
    totals = [result.scores[c] for c in result.ranking]
    assert totals == sorted(totals, reverse=True)


def test_same_seed_same_game():
    a = play_game(asymmetric(4), list(COLOURS[:4]), random.Random(7))
    b = play_game(asymmetric(4), list(COLOURS[:4]), random.Random(7))
    assert a == b


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_end_trigger_counts_boards_with_five_tents(n):
    """A policy that draws tents whenever it can: the trigger fires exactly when
    END_TRIGGER_BOARDS[n] boards are full, then the final stage runs to the next
    round on the starting boards."""
    def tents_first(position, colour, draws, may_pass, rng):
        tents = [d for d in draws if isinstance(d, DrawTent)]
        return tents[0] if tents else draws[0]

    boards = identical(n)
    result = play_game(boards, list(COLOURS[:n]), random.Random(0), policy=tents_first)
    replay(result, boards)
    assert result.ended_by == "tents"


def test_final_stage_players_may_pass():
    def pass_when_allowed(position, colour, draws, may_pass, rng):
        return None if may_pass else random_policy(position, colour, draws, False, rng)

    boards = asymmetric(3)
    result = play_game(boards, ["red", "yellow", "blue"], random.Random(3),
                       policy=pass_when_allowed)
    replay(result, boards)
    assert result.ended_by == "tents"
    passes = [t for turns in result.rounds for t in turns if t.draw is None]
    assert passes  # the final stage is all passes with this policy
    assert all(t.draw is None for t in result.rounds[-1])


def test_blocked_game_ends_when_nobody_can_draw_for_a_whole_cycle():
    # 3×3 board, one cell per area, only four open cells: 5 tents never fit.
    tiny = Board(SquareGrid(3, 3), tuple("k.e.l.k.e"), tuple(range(1, 10)))
    result = play_game([tiny, tiny], ["red", "blue"], random.Random(1))
    replay(result, [tiny, tiny])
    assert result.ended_by == "blocked"


def test_policy_may_not_pass_outside_the_final_stage():
    with pytest.raises(ValueError):
        play_game(identical(2), ["red", "blue"], random.Random(0),
                  policy=lambda *args: None)


def test_ranking_tie_break_by_best_single_board_then_next_best():
    assert rank_players({"red": [5, 5], "blue": [8, 2]}) == ("blue", "red")
    assert rank_players({"red": [6, 2, 2], "blue": [6, 3, 1]}) == ("blue", "red")
    assert rank_players({"red": [1, 9], "blue": [10, 0], "green": [3, 3]}) == \
        ("blue", "red", "green")
    assert rank_players({"red": [4, 4], "blue": [4, 4]}) == ("red", "blue")
