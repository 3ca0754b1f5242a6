"""The Terra Nova solver API and CLI: puzzle files, verify, perft --via-model, errors, [D] rules."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from solver.cpsat import SolveParams
from solver.errors import PuzzleError
from solver.terra_nova import solve as solve_module
from solver.terra_nova.engine import turns as engine
from solver.terra_nova.fileformat import parse_position, read_position
from solver.terra_nova.model.turn_model import TurnModel
from solver.terra_nova.notation import Move, Stone, parse_line
from solver.terra_nova.position import Puzzle
from solver.terra_nova.settings import LARGE_BOARD_CELLS, follows_strategy, settings
from solver.terra_nova.solve import (
    MIN_TURNS_DEFAULT_CAP,
    perft_via_model,
    puzzle_of,
    solve_puzzle,
    verify_solution,
)

PUZZLES = sorted((Path(__file__).parent.parent / "positions/terra-nova/puzzles").glob("*.toml"))
PARAMS = SolveParams(workers=2, seed=0)


def board(text: str, *, stones_left: int = 10, players: str = '"red", "blue"',
          extra: str = "") -> str:
    return (f'game = "terra-nova"\nplayers = [{players}]\nto_move = "red"\n'
            f'stones_left = {stones_left}\nboard = """\n{text}\n"""\n{extra}')


@pytest.mark.parametrize("path", PUZZLES, ids=lambda p: p.stem)
def test_puzzle_files_solve_to_their_stated_value(path: Path):
    position = read_position(path)
    assert position.solution is not None and position.puzzle is not None
    assert verify_solution(position).ok
    answer = solve_puzzle(position, None, PARAMS)
    assert answer.optimal
    if position.puzzle.objective == "min-turns":
        # points beyond the target are not part of the objective: equal lines may differ
        line = parse_line(position.solution.line, position.grid)
        stated = engine.play_line(position, line)
        assert answer.key == (len(line), stated.actions)
        assert answer.value >= position.puzzle.target
    else:
        assert answer.value == position.solution.value


def test_rulebook_examples_in_puzzle_files():
    # best-turn-majority: a 12-cell region of 2 landscapes won by majority is worth 24;
    # best-turn-tie-split: a 7-cell one-landscape region tied 1:1 gives 21 // 2 = 10 each.
    path = Path(__file__).parent.parent / "positions/terra-nova/puzzles"
    majority = read_position(path / "best-turn-majority.toml")
    outcome = engine.play_line(majority, [solve_puzzle(majority, None, PARAMS).line[0]])
    assert any(len(r.cells) == 12 and r.landscapes == 2 and r.value == 24
               for o in outcome.outcomes for r in o.regions)
    tie = read_position(path / "best-turn-tie-split.toml")
    answer = solve_puzzle(tie, None, PARAMS)
    assert (answer.value, answer.others) == (28, 10)


def test_puzzle_selection():
    position = parse_position(board("a. aR b. bB c. d."))
    assert puzzle_of(position, None) == ("best-turn", 1, None)
    assert puzzle_of(position, 3) == ("max-points", 3, None)
    mt = parse_position(board("a. aR b. bB c. d.", extra='[puzzle]\nkind = "closing"\n'
                              'objective = "min-turns"\ntarget = 5\n'))
    assert puzzle_of(mt, None) == ("min-turns", MIN_TURNS_DEFAULT_CAP, 5)


def test_pass_when_no_own_piece_can_move():
    position = parse_position(board("a# aR bB c.\n  a# a# d. c.\nd. d. c. c."))
    answer = solve_puzzle(position, None, PARAMS)
    assert answer.line == [()] and answer.optimal
    assert perft_via_model(position, PARAMS).turns == 1


def test_two_moves_bring_a_majority_into_a_region_its_one_stone_closes():
    """The model's count of own pieces a closing region can hold (benchmarks/EXPERIMENTS.md,
    Terra Nova, "Regions") is tight here: two moves carry two pieces past the yellow one's
    majority before the third action's stone closes the region (9 points; one
    piece fewer ties it: 4)."""
    position = parse_position(board("aR bR c. d. a. a. aY", players='"red", "yellow"'))
    answer = solve_puzzle(position, None, PARAMS)
    assert answer.optimal and answer.value == 9
    assert answer.line == parse_line(["b1-f1 a1-e1 #d1"], position.grid)


def test_empty_supply_places_no_stone_and_takes_three_moves():
    # [D] EMPTY_SUPPLY_BLOCKS_STONES: with stones_left = 0 a turn is moves only.
    position = parse_position(board("a. aR a. b. b. c.\n  d. d. bB c. c. a.", stones_left=0))
    answer = solve_puzzle(position, 2, PARAMS)
    assert all(isinstance(a, Move) for turn in answer.line for a in turn)
    assert all(len(turn) == 3 for turn in answer.line)
    assert perft_via_model(position, PARAMS).turns == engine.perft(position).turns


def test_one_stone_left():
    position = parse_position(board("a. aR a. b. b. c.\n  d. d. bB c. c. a.", stones_left=1))
    answer = solve_puzzle(position, 2, PARAMS)
    assert sum(isinstance(a, Stone) for turn in answer.line for a in turn) <= 1
    assert perft_via_model(position, PARAMS).turns == engine.perft(position).turns


def test_no_return_and_forced_early_end_match_engine_counts():
    # A single piece in a corridor: it can only go back and forth, and stones end the
    # turn early when nothing is left; the model counts exactly the engine's turns.
    position = parse_position(board("a# a# a# a#\n  aR b. c. a#\nb# b# b# d.", stones_left=2))
    counted = perft_via_model(position, PARAMS)
    truth = engine.perft(position)
    assert (counted.turns, counted.positions) == (truth.turns, truth.positions)


def test_min_turns_unreachable_is_a_puzzle_error():
    position = parse_position(board(
        "a. aR a. b. b. c.\n  d. d. bB c. c. a.", stones_left=0,
        extra='[puzzle]\nkind = "closing"\nobjective = "min-turns"\ntarget = 3\nturns = 2\n'))
    with pytest.raises(PuzzleError, match="red can gain at most 0 points on this board"):
        solve_puzzle(position, None, PARAMS)  # no stone left: nothing ever scores
    short = position.replace(stones_left=10, puzzle=Puzzle("closing", 1, "min-turns", 13))
    with pytest.raises(PuzzleError, match=r"cannot be reached within 1 turn\(s\) \(at most"):
        solve_puzzle(short, None, PARAMS)


def test_time_limit_still_gives_an_answer():
    path = Path(__file__).parent.parent / "positions/terra-nova/puzzles/closing-demo.toml"
    answer = solve_puzzle(read_position(path), None, SolveParams(time_limit=3, workers=2))
    assert answer.line and answer.value <= 29
    assert answer.bound is None or answer.bound >= answer.value
    if answer.optimal:
        assert answer.bound == answer.value


def test_bound_of_an_unproven_closing_lies_above_the_value(monkeypatch):
    # one deterministic worker stopped after 1 s of deterministic time (level-2 LP on
    # this full board: far from the proof, which takes ~11 s): the bound it has
    # proven so far is reported, and never below the line found
    strategies = []
    real = solve_module.solve

    def spy(model, params, **kwargs):
        strategies.append(len(model.proto.search_strategy))
        return real(model, params, **kwargs)

    monkeypatch.setattr(solve_module, "solve", spy)
    path = Path(__file__).parent.parent / "positions/terra-nova/midgame-2p.toml"
    params = SolveParams(workers=1).with_settings(max_deterministic_time=1)
    answer = solve_puzzle(read_position(path), 2, params)
    assert not answer.optimal
    assert answer.bound is not None and answer.bound > answer.value
    # the full-board closing carries the decision strategy its `fixed` worker follows
    assert strategies == [1]


def test_bound_of_an_unproven_small_board_closing_is_capped_by_the_cells():
    # Before: boards under 100 cells search without the LP, so a closing stopped early
    # reported CP-SAT's bound from the variables' domains (165,518 points on 38 cells).
    # Closed regions never share a cell: own points <= 3 per cell of any candidate.
    from solver.terra_nova.puzzlegen import position_from_recipe
    recipe = {"rows": 6, "cols": 7, "pieces": 2, "turns_played": 12, "seed": 5}
    position = position_from_recipe(recipe, Path("."))
    params = SolveParams(workers=1).with_settings(max_deterministic_time=1)
    answer = solve_puzzle(position, 3, params)
    assert not answer.optimal
    assert answer.value <= answer.bound <= 3 * position.grid.size
    assert TurnModel(position, 3).own_upper_bound() >= answer.bound


# ------------------------------------------------------------------ CLI


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_cli_solve_json():
    path = Path(__file__).parent.parent / "positions/terra-nova/puzzles/best-turn-majority.toml"
    result = run("solve", str(path), "--json", "--workers", "2")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    for key in ("game", "kind", "value", "others", "optimal", "line", "wall_s", "stats"):
        assert key in data
    assert (data["game"], data["kind"], data["value"], data["optimal"], data["bound"]) == (
        "terra-nova", "best-turn", 29, True, 29)


def test_cli_solve_human_output_and_turns_override(tmp_path: Path):
    path = tmp_path / "p.toml"
    path.write_text(board("a# a. a# b. b. c.\n  a# aB a# b. c. c.\na. aR a. d. d. c.\n"
                          "  d. d. d. d. c. c."))
    result = run("solve", str(path), "--turns", "1", "--workers", "2")
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())
    assert "proven optimal" in text and "gains 12 points" in text


def test_cli_verify_ok_and_not_ok(tmp_path: Path):
    good = Path(__file__).parent.parent / "positions/terra-nova/puzzles/best-turn-two-regions.toml"
    result = run("verify", str(good), "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)["ok"] is True
    bad = tmp_path / "bad.toml"
    bad.write_text(good.read_text().replace("value = 12", "value = 13"))
    result = run("verify", str(bad), "--json")
    data = json.loads(result.stdout)
    assert result.exit_code == 1 and data["ok"] is False and "13" in data["message"]
    illegal = tmp_path / "illegal.toml"
    illegal.write_text(good.read_text().replace("b3-d3 #c4 #c3", "b3-d3 #a4"))
    result = run("verify", str(illegal), "--json")
    assert result.exit_code == 1 and json.loads(result.stdout)["ok"] is False


def test_cli_perft_via_model_equals_engine_perft():
    # the CLI's wiring (test_tn_model_random cross-checks 32 positions): the bundled
    # position with the fewest turns to enumerate (909)
    path = Path(__file__).parent.parent / "positions/terra-nova/puzzles/best-turn-two-regions.toml"
    via_model = json.loads(run("perft", str(path), "--via-model", "--json").stdout)
    via_engine = json.loads(run("perft", str(path), "--json").stdout)
    assert (via_model["turns"], via_model["positions"]) == (
        via_engine["turns"], via_engine["positions"])


def test_cli_unreachable_target_exits_2(tmp_path: Path):
    path = tmp_path / "mt.toml"
    path.write_text(board("a. aR a. b. b. c.\n  d. d. bB c. c. a.", stones_left=0,
                          extra='[puzzle]\nkind = "closing"\nobjective = "min-turns"\n'
                                'target = 3\nturns = 1\n'))
    result = run("solve", str(path))
    assert result.exit_code == 2
    assert "mt.toml" in result.stderr and "cannot be reached" in result.stderr


def test_closing_lp_follows_board_size():
    """Full-size boards: level-2 LP, kept by the full worker when there are several
    and the `fixed` search on the second thread; small boards: no LP, the parameters
    as given on the full thread; best-turn: its own interleaved search (each measured
    in benchmarks/EXPERIMENTS.md, Terra Nova)."""
    large = settings("max-points", cells=LARGE_BOARD_CELLS)
    assert large["linearization_level"] == 2
    assert large["subsolvers"] == ["default", "fixed"] and large["num_full_subsolvers"] == 2
    assert large["subsolver_params"] == [{"name": "fixed", "linearization_level": 0}]
    assert follows_strategy(large)
    small = settings("max-points", cells=42)
    assert small["linearization_level"] == 0 and not follows_strategy(small)
    assert small["subsolvers"] == ["default"] and small["num_full_subsolvers"] == 1
    assert small["max_presolve_iterations"] == 1
    assert settings("best-turn", cells=172)["subsolvers"] == ["fixed", "no_lp"]


def test_best_turn_searches_on_one_thread():
    """Best-turn ignores --workers (benchmarks/EXPERIMENTS.md,
    Terra Nova, "Best turn"): the same line and
    the same search whatever the number of workers."""
    path = Path(__file__).parent.parent / "positions/terra-nova/puzzles/best-turn-two-regions.toml"
    position = read_position(path)
    one, two = (solve_puzzle(position, None, SolveParams(workers=w, seed=0)) for w in (1, 2))
    assert one.optimal and two.optimal
    assert one.line == two.line and one.stats["branches"] == two.stats["branches"]


def test_the_build_checks_the_deadline_between_small_pieces(monkeypatch):
    """A deadline is seen within a few % of the model: before, a whole step's closings
    (a third of the 2-turn model, minutes at 4 turns) went by without a check."""
    from solver.terra_nova.model import turn_model
    built: list = []
    real = turn_model.TurnModel._build

    def build(self) -> None:
        built.append(self.model)
        real(self)

    monkeypatch.setattr(turn_model.TurnModel, "_build", build)
    seen: list[int] = []
    root = Path(__file__).parent.parent / "positions/terra-nova"
    for name in ("late-2p", "midgame-2p"):
        seen.clear()
        built.clear()
        turn_model.TurnModel(read_position(root / f"{name}.toml"), 2,
                             check=lambda: seen.append(len(built[0].proto.constraints)))
        counts = seen + [len(built[0].proto.constraints)]
        gaps = [b - a for a, b in zip(counts, counts[1:], strict=False)]
        assert max(gaps) < counts[-1] / 10, name


def test_no_time_to_load_the_model_answers_the_engine_line(monkeypatch):
    """Built, but what is left of the limit cannot pay for CP-SAT loading the model:
    the engine's first legal line, not proven optimal, at once (no overrun)."""
    from solver.cpsat import harness
    monkeypatch.setattr(harness, "STARTUP_SECONDS_PER_CONSTRAINT", 1.0)
    position = read_position(Path(__file__).parent.parent / "positions/terra-nova/late-2p.toml")
    answer = solve_puzzle(position, 1, SolveParams(time_limit=120, workers=2).started())
    assert not answer.optimal and answer.status == "unknown"
    assert answer.wall_s < 60
    # the bound the model knows without a solve (the cells' cap on own points)
    assert answer.bound is not None and answer.bound >= answer.value


def test_min_turns_stopped_by_the_limit_tries_no_longer_horizon(monkeypatch):
    """CP-SAT stops with its overrun reserve left; a longer horizon's larger model could
    not even be loaded in it, so the answer is 'none in time' at once (exit 3), not a
    next build cut short (exit 2)."""
    from solver.cpsat import harness
    from solver.cpsat.harness import SolveResult
    from solver.errors import NoAnswer
    from solver.terra_nova import solve as tn_solve
    calls: list[int] = []

    def stopped(model, params, progress=None, stop=None):
        calls.append(len(model.proto.constraints))
        return None, SolveResult("unknown", None, None, 1.0, {})

    monkeypatch.setattr(tn_solve, "solve", stopped)
    monkeypatch.setattr(harness, "STARTUP_SECONDS_PER_CONSTRAINT", 1.0)
    path = Path(__file__).parent.parent / "positions/terra-nova/puzzles/closing-min-turns.toml"
    with pytest.raises(NoAnswer, match="within the time limit"):
        # 1 s per constraint: the 1-turn model (~1,500 constraints) leaves too little
        solve_puzzle(read_position(path), None, SolveParams(time_limit=2000, workers=1))
    assert len(calls) == 2  # the 1-turn relaxation (unknown: no proof), the 1-turn model
