"""`solve_max_score` and `boardsat solve` on Rift Valley files: shipped boards, replay, CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from solver.cpsat import SolveParams
from solver.errors import EngineDisagreement, InputError
from solver.rift_valley import solve as solve_module
from solver.rift_valley.engine.draws import play_draws, score
from solver.rift_valley.fileformat import read_position
from solver.rift_valley.solve import solve_max_score
from tests.support.solve_spy import solve_params_seen

BOARDS = sorted(Path("positions/rift-valley/boards").glob("*.toml"))
SMALL = Path("positions/rift-valley/midgame-identical.toml")
"""For the tests of the wiring (replay, disagreements, CLI): solved in milliseconds, its
3-draw answer has a new stop and trails (crater's took seconds per solve)."""
PARAMS = SolveParams(workers=2, seed=0, time_limit=120)


def test_there_are_six_shipped_boards():
    assert len(BOARDS) == 6


@pytest.mark.slow
@pytest.mark.parametrize("board", BOARDS, ids=lambda p: p.stem)
def test_every_shipped_board_solves_to_a_proven_optimum_with_unlimited_draws(board):
    position = read_position(board)
    assert position.player == position.rift_owner
    position = position.replace(draws=None)
    answer = solve_max_score(position, None, PARAMS)
    assert answer.optimal
    assert answer.bound == answer.value
    after = play_draws(position, answer.draws)
    assert score(after, position.player).total == answer.value > 0


def test_draws_argument_overrides_the_budget():
    position = read_position(BOARDS[0]).replace(draws=None)
    answer = solve_max_score(position, 2, PARAMS)
    assert answer.before.draws == 2
    assert answer.value == 0 and answer.draws == ()  # a trail needs three draws


def test_an_illegal_position_is_input_error():
    position = read_position(BOARDS[0])
    bad = position.with_elements("red", position.of("red").__class__(stops=(0, 1)))
    with pytest.raises(InputError):
        solve_max_score(bad, 3, PARAMS)


def test_engine_rescoring_differently_is_a_disagreement(monkeypatch):
    position = read_position(SMALL)

    def wrong_score(pos, colour):
        real = score(pos, colour)
        return real.__class__(real.total + 1, real.trails, real.animals, real.tents,
                              real.unconnected)

    monkeypatch.setattr(solve_module, "score", wrong_score)
    with pytest.raises(EngineDisagreement, match="engine"):
        solve_max_score(position, 3, PARAMS)


def _rescored_unproven(monkeypatch, difference: int) -> None:
    """Make every solve look time-limited and the engine score ``difference`` more."""
    real_solve = solve_module.solve

    def unproven(*args, **kwargs):
        solver, result = real_solve(*args, **kwargs)
        result.status = "feasible"
        return solver, result

    def shifted(pos, colour):
        real = score(pos, colour)
        return real.__class__(real.total + difference, real.trails, real.animals,
                              real.tents, real.unconnected)

    monkeypatch.setattr(solve_module, "solve", unproven)
    monkeypatch.setattr(solve_module, "score", shifted)


def test_unproven_answer_worth_more_than_the_model_counted_gets_the_engine_score(
        monkeypatch):
    position = read_position(SMALL)
    model_value = solve_max_score(position, 3, PARAMS).value
    _rescored_unproven(monkeypatch, 2)
    answer = solve_max_score(position, 3, PARAMS)
    assert not answer.optimal
    assert answer.value == answer.breakdown.total == model_value + 2


def test_unproven_answer_worth_less_than_the_model_counted_is_a_disagreement(monkeypatch):
    position = read_position(SMALL)
    _rescored_unproven(monkeypatch, -1)
    with pytest.raises(EngineDisagreement, match="engine"):
        solve_max_score(position, 3, PARAMS)


def test_engine_rejecting_the_order_is_a_disagreement(monkeypatch):
    position = read_position(SMALL)
    real_build = solve_module.build_model

    def reversed_draws(*args, **kwargs):
        built = real_build(*args, **kwargs)
        original = built.draws
        built.draws = lambda solver: list(reversed(original(solver)))  # trails before stops
        return built

    monkeypatch.setattr(solve_module, "build_model", reversed_draws)
    with pytest.raises(EngineDisagreement, match="illegal"):
        solve_max_score(position, 3, PARAMS)


def test_time_limited_solve_still_returns_a_replayed_answer():
    position = read_position(BOARDS[0]).replace(draws=15)
    # CP-SAT stopped by a deterministic limit (a wall-clock --time-limit of 0.5 s also
    # covers building the model, which takes longer than that on a loaded machine)
    params = SolveParams(workers=1, seed=0, time_limit=120,
                         settings={"max_deterministic_time": 0.5})
    answer = solve_max_score(position, None, params)
    assert not answer.optimal
    assert answer.value == score(play_draws(position, answer.draws), position.player).total
    if not answer.optimal:
        assert answer.bound is None or answer.bound >= answer.value


# --- CLI -----------------------------------------------------------------------------


def run(*args: str):
    return CliRunner().invoke(main, ["solve", *args])


def test_cli_json_has_the_required_keys():
    result = run(str(SMALL), "--draws", "3", "--workers", "1", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    for key in ("game", "kind", "value", "optimal", "draws", "wall_s", "stats"):
        assert key in data
    assert data["game"] == "rift-valley" and data["kind"] == "max-score"
    assert data["optimal"] is True
    position = read_position(SMALL)
    after = play_draws(position.replace(draws=3), data["draws"])
    assert score(after, position.player).total == data["value"]


def test_cli_human_output_shows_boards_draws_and_the_verdict():
    result = run(str(SMALL), "--draws", "3", "--workers", "1")
    assert result.exit_code == 0, result.output
    out = result.stdout
    out = " ".join(out.split())
    assert "after the answer" in out and "after 3 draws" in out
    assert "proven optimal" in out and "replayed by the engine" in out


def test_cli_bad_input_is_one_line_and_exit_2(tmp_path):
    text = BOARDS[0].read_text().replace('rift_owner = "', 'rift_owner = "x')
    bad = tmp_path / "bad.toml"
    bad.write_text(text)
    result = run(str(bad), "--json")
    assert result.exit_code == 2
    assert "bad.toml" in result.stderr and "Traceback" not in result.output
    assert len(result.stderr.strip().splitlines()) == 1


def test_cli_rejects_turns_for_rift_valley():
    result = run(str(BOARDS[0]), "--turns", "2")
    assert result.exit_code == 2


def test_cli_answers_start_with_stops():
    result = run(str(SMALL), "--draws", "4", "--workers", "1", "--json")
    data = json.loads(result.stdout)
    assert data["draws"] and data["draws"][0].startswith("o ")


@pytest.mark.parametrize(("draws", "probing"), [(None, 0), (3, None)])
def test_presolve_probing_is_off_only_for_unlimited_budgets(monkeypatch, draws, probing):
    seen = solve_params_seen(monkeypatch, solve_module)
    position = read_position(SMALL).replace(draws=draws)
    assert solve_max_score(position, None, PARAMS).optimal
    assert [p.settings.get("cp_model_probing_level") for p in seen] == [probing]


@pytest.mark.parametrize(("draws", "workers", "cuts"), [(None, 1, False), (3, 2, None)])
def test_unlimited_budgets_solve_with_one_worker_and_fewer_cuts(monkeypatch, draws, workers,
                                                                cuts):
    seen = solve_params_seen(monkeypatch, solve_module)
    position = read_position(SMALL).replace(draws=draws)
    assert solve_max_score(position, None, SolveParams(workers=2, seed=0)).optimal
    assert [(p.workers, p.settings.get("add_cg_cuts")) for p in seen] == [(workers, cuts)]


@pytest.mark.parametrize(("draws", "subsolvers"), [(None, None), (3, ["max_lp", "max_lp"])])
def test_budgets_run_two_seeded_full_lp_searches(monkeypatch, draws, subsolvers):
    seen = solve_params_seen(monkeypatch, solve_module)
    position = read_position(SMALL).replace(draws=draws)
    assert solve_max_score(position, None, SolveParams(workers=2, seed=0)).optimal
    chosen = seen[0].settings
    if subsolvers is None:
        assert "num_full_subsolvers" not in chosen
    else:
        assert list(chosen["subsolvers"]) == subsolvers
        assert chosen["num_full_subsolvers"] == 2


@pytest.mark.parametrize(("draws", "inprocessing"), [(None, False), (3, False), (5, False),
                                                     (6, None), (8, None)])
def test_sat_inprocessing_is_off_for_small_and_unlimited_budgets(monkeypatch, draws,
                                                                 inprocessing):
    seen = solve_params_seen(monkeypatch, solve_module)
    position = read_position(SMALL).replace(draws=draws)
    assert solve_max_score(position, None, PARAMS).optimal
    assert [p.settings.get("use_sat_inprocessing") for p in seen] == [inprocessing]
