"""Rule options reach the solver and the engine through the CLI (solve, verify)."""

import json

from click.testing import CliRunner

from cli.main import main
from solver.rift_valley.engine.exhaustive import best_score
from solver.rift_valley.fileformat import write_position
from solver.rift_valley.rules import Rules
from tests.support.rv_random import random_case

# A random small board (tests/support/rv_random.py, seed 75) where forbidding stops of
# different colours to touch lowers the optimum.
SEED = 75


def _solve_value(path, *flags):
    result = CliRunner().invoke(main, ["solve", str(path), "--json", "--workers", "1", *flags])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["optimal"] is True
    return data["value"]


def test_stops_block_all_colours_changes_the_solve(tmp_path):
    position = random_case(SEED).position
    path = tmp_path / "case.toml"
    path.write_text(write_position(position))
    loose = _solve_value(path)
    strict = _solve_value(path, "--stops-block-all-colours")
    assert loose == best_score(position, rules=Rules()).value
    assert strict == best_score(position, rules=Rules(stops_block_all_colours=True)).value
    assert strict < loose


def test_verify_applies_the_option_to_the_position():
    # Legal as drawn (a yellow stop touches a red one), illegal under the option.
    path = "positions/rift-valley/midgame-identical.toml"
    assert CliRunner().invoke(main, ["verify", path]).exit_code == 0
    result = CliRunner().invoke(main, ["verify", path, "--stops-block-all-colours"])
    assert result.exit_code == 2
    assert "stops may not touch" in result.output


def test_rift_valley_options_are_refused_for_terra_nova():
    path = "positions/terra-nova/puzzles/closing-demo.toml"
    for command in ("solve", "verify"):
        result = CliRunner().invoke(main, [command, path, "--stops-block-all-colours"])
        assert result.exit_code == 2
        assert "--stops-block-all-colours is for Rift Valley files" in result.output
