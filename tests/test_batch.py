"""`boardsat batch`: the exit status of many files (a wrong answer is never hidden)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cli.main import main
from solver.batch import batch_status
from solver.errors import EXIT_BAD_INPUT, EXIT_DISAGREE, EXIT_INTERRUPTED, EXIT_NO_ANSWER
from solver.paths import POSITIONS_DIR

GOOD = POSITIONS_DIR / "rift-valley" / "midgame-identical.toml"


def test_status_rule():
    assert batch_status([]) == 0
    assert batch_status([0, 0]) == 0
    assert batch_status([0, EXIT_BAD_INPUT]) == EXIT_BAD_INPUT
    assert batch_status([EXIT_BAD_INPUT, EXIT_NO_ANSWER, 0]) == EXIT_NO_ANSWER
    # Before: the highest status, so a 1 hid behind a 2 or a 3.
    assert batch_status([EXIT_NO_ANSWER, EXIT_DISAGREE, EXIT_BAD_INPUT]) == EXIT_DISAGREE
    assert batch_status([0, EXIT_BAD_INPUT], interrupted=True) == EXIT_INTERRUPTED
    assert batch_status([EXIT_DISAGREE], interrupted=True) == EXIT_DISAGREE


def test_a_solution_that_does_not_hold_wins_over_bad_input(tmp_path):
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(GOOD.read_text(encoding="utf-8").replace("value = 19", "value = 18"),
                     encoding="utf-8")
    missing = tmp_path / "nosuch.toml"
    result = CliRunner().invoke(main, ["batch", "--verify", str(GOOD), str(wrong), str(missing),
                                       "--workers", "1"])
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["status"] for line in lines] == [0, EXIT_DISAGREE, EXIT_BAD_INPUT]
    assert result.exit_code == EXIT_DISAGREE, result.output
    assert "3 files: 1 ok, 2 failed" in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize("seed", ["2147483648", "-2147483649"])
def test_seed_out_of_range_is_a_usage_error_as_in_solve(seed):
    """Before: accepted, then every file's solve ended in a traceback from OR-tools."""
    result = CliRunner().invoke(main, ["batch", str(GOOD), "--seed", seed, "--workers", "1"])
    assert result.exit_code == EXIT_BAD_INPUT, result.output
    assert "is not in the range -2147483648<=x<=2147483647" in result.output
    assert result.stdout == ""


def test_the_summary_of_one_file_says_file():
    result = CliRunner().invoke(main, ["batch", "--verify", str(GOOD), "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert result.stderr.strip() == "1 file: 1 ok, 0 failed"
