"""``boardsat export``: the MIP translation is exact, the files reload, refusals name the kind.

* the floor (:mod:`solver.cpsat.mip`): small random CP-SAT models using every kind it
  translates (with enforcement literals and domains with holes) have the same optimum
  under HiGHS as under CP-SAT; every refused kind is named in one line;
* each game: on 50+ small random puzzles the MIP optimum (HiGHS, from the written
  ``.mps``/``.lp``) equals CP-SAT's proven optimum on the very model ``solve`` builds,
  and HiGHS's solution, read back as the game's answer, is worth the same to the engine;
* an exported ``.pb``/``.pbtxt`` reloads and solves to the same value; the command
  line writes headers, refuses what it must and reads a solution back.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from ortools.sat.python import cp_model

from cli.main import main
from solver.cpsat import SolveParams, solve
from solver.cpsat.assignment import solve_assignment
from solver.cpsat.mip import Untranslatable, translate
from solver.cpsat.mipsolvers import MipSolvers, missing
from solver.cpsat.modelfiles import (
    message_of,
    read_model,
    solution_of,
    write_mip,
    write_proto,
)
from solver.games import GAMES
from solver.paths import REPO_ROOT
from solver.protocol import Case
from solver.terra_nova_kosmos.puzzlegen import random_best_round, random_last_round
from tests.support.rv_random import random_case
from tests.support.tn_random import random_position

pytestmark = pytest.mark.skipif(missing(["highs"]) is not None,
                                reason="HiGHS (boardsat[solvers]) is not installed")

PARAMS = SolveParams(workers=1, seed=0)
PER_GAME = 50


@pytest.fixture(scope="module")
def highs():
    with MipSolvers() as solvers:
        yield solvers


def mip_optimum(highs: MipSolvers, model: cp_model.CpModel, path: Path):
    """HiGHS's proven optimum of the model's MIP written to ``path``, and its solution
    as the model's variables' values."""
    message = message_of(model)
    mip = translate(message)
    write_mip(mip, path, "a test model")
    run = highs.solve("highs", path, len(message.variables), time_limit=60)
    assert run.optimal, run
    return run, solution_of(mip, run.values)


# ---------------------------------------------------------------- the floor
def random_model(seed: int) -> cp_model.CpModel:
    """A small feasible CP-SAT model with every translated kind, enforcement and holes."""
    rng = random.Random(seed)
    m = cp_model.CpModel()
    x = [m.new_int_var_from_domain(cp_model.Domain.from_intervals([[-3, -1], [1, 4]]), f"h{i}")
         if rng.random() < 0.3 else m.new_int_var(-4, 5, f"x{i}") for i in range(5)]
    b = [m.new_bool_var(f"b{i}") for i in range(5)]

    def lits(k: int) -> list:
        return [rng.choice([v, ~v]) for v in rng.sample(b, k)]

    m.add_bool_or(lits(3))
    m.add_bool_and(lits(2)).only_enforce_if(lits(1))
    m.add_at_most_one(lits(3))
    m.add_bool_xor(lits(3))
    m.add(sum(rng.randint(-3, 3) * v for v in x) <= rng.randint(0, 6)).only_enforce_if(lits(2))
    m.add_linear_expression_in_domain(x[0] + x[1], cp_model.Domain.from_values([-2, 0, 3, 7]))
    m.add(x[2] != x[3])
    m.add_max_equality(x[4], [x[0], x[1] + 1, -x[2]])
    m.add_min_equality(m.new_int_var(-9, 9, "mn"), [x[0], x[3] - 2])
    m.add_division_equality(m.new_int_var(-5, 5, "q"), x[1] + x[2], rng.choice([2, 3, -2]))
    m.add_modulo_equality(m.new_int_var(-3, 3, "r"), x[0] + 3, 3)
    m.add_multiplication_equality(m.new_int_var(-30, 30, "p"), [x[1], x[3]])
    m.add_multiplication_equality(m.new_int_var(-30, 30, "pb"), [b[0], x[2] + 1])
    m.add_element(m.new_int_var(0, 4, "i"), [x[0], x[1], 2, x[3] + 1], m.new_int_var(-9, 9, "e"))
    m.add_allowed_assignments([x[0], b[1]], [(1, 0), (2, 1), (-1, 1), (4, 0)])
    m.add_forbidden_assignments([x[3], x[4]], [(1, 1), (2, 2), (0, 3)])
    m.add_all_different([x[1], x[2], m.new_int_var(0, 2, "d")])
    m.add(sum(b) >= 1).only_enforce_if(lits(2))
    m.maximize(sum(rng.randint(-4, 4) * v for v in [*x, *b]) + rng.randint(-5, 5))
    return m


@pytest.mark.parametrize("seed", range(12))
def test_every_translated_kind_keeps_the_optimum(seed: int, highs, tmp_path) -> None:
    model = random_model(seed)
    _, result = solve(model, PARAMS)
    suffix = ".lp" if seed % 2 else ".mps"
    if result.status == "infeasible":  # a random draw without solutions stays without
        message = message_of(model)
        write_mip(translate(message), tmp_path / f"m{suffix}", "")
        run = highs.solve("highs", tmp_path / f"m{suffix}", len(message.variables), 60)
        assert run.status == "infeasible"
        return
    assert result.optimal
    run, values = mip_optimum(highs, model, tmp_path / f"m{suffix}")
    assert round(run.objective) == round(result.objective)
    checked, fixed = solve_assignment(model, values, PARAMS)
    assert fixed.optimal and round(fixed.objective) == round(result.objective)


def test_the_random_floor_models_are_mostly_feasible() -> None:
    feasible = sum(solve(random_model(seed), PARAMS)[1].feasible for seed in range(12))
    assert feasible >= 8


@pytest.mark.parametrize("kind, add", [
    ("circuit", lambda m, b, x: m.add_circuit([(0, 1, b[0]), (1, 0, b[1])])),
    ("automaton", lambda m, b, x: m.add_automaton(x, 0, [1], [(0, 1, 1), (1, 0, 0)])),
    ("inverse", lambda m, b, x: m.add_inverse(x, x)),
    ("no_overlap", lambda m, b, x: m.add_no_overlap(
        [m.new_fixed_size_interval_var(x[0], 2, "i")])),
    ("cumulative", lambda m, b, x: m.add_cumulative(
        [m.new_fixed_size_interval_var(x[0], 2, "i")], [1], 1)),
])
def test_a_kind_without_exact_translation_is_refused_by_name(kind: str, add) -> None:
    m = cp_model.CpModel()
    b = [m.new_bool_var("a"), m.new_bool_var("b")]
    x = [m.new_int_var(0, 1, "x"), m.new_int_var(0, 1, "y")]
    add(m, b, x)
    with pytest.raises(Untranslatable, match=f"'{kind}' \\(.*no exact linear translation"):
        translate(message_of(m))


def test_a_floating_point_objective_is_refused() -> None:
    m = cp_model.CpModel()
    x = m.new_int_var(0, 3, "x")
    m.maximize(0.5 * x)
    with pytest.raises(Untranslatable, match="floating-point objective"):
        translate(message_of(m))


# ---------------------------------------------------------------- the games
def tn_case(seed: int):
    """A best-turn or 1-turn closing (fewest actions after the points) on 8-16 cells."""
    position = None
    while position is None:
        position = random_position(seed, cells=(8, 16), own_pieces=(1, 2))
        seed += 1000
    kind = "closing" if seed % 2 else "best-turn"
    return position, Case(f"tn{seed}", "terra-nova", kind, turns=1)


def rv_case(seed: int):
    """A small board with 1 to 3 draws left."""
    position = random_case(seed).position
    return position.replace(draws=1 + seed % 3), Case(f"rv{seed}", "rift-valley", "max-score")


def tnk_case(seed: int):
    """A last-round (even seeds) or best-round puzzle on a 2 x 2 map."""
    rng = random.Random(seed)
    if seed % 2:
        position = random_best_round(rng, ("max-points", "max-value")[seed // 2 % 2],
                                     rows=2, cols=2, money=6, buildings=2)
        return position, Case(f"tnk{seed}", "terra-nova-kosmos", "best-round")
    position = random_last_round(rng, rows=2, cols=2, money=6, buildings=2)
    return position, Case(f"tnk{seed}", "terra-nova-kosmos", "last-round")


CASES = {"terra-nova": tn_case, "rift-valley": rv_case, "terra-nova-kosmos": tnk_case}


@pytest.mark.parametrize("game", list(CASES))
def test_the_mip_optimum_is_cpsats_on_the_game_models(game: str, highs, tmp_path) -> None:
    """HiGHS on the written MIP of 50 small puzzles reaches CP-SAT's proven optimum of
    the model ``solve`` builds, and its solution replays to the same value."""
    moved = 0
    for seed in range(PER_GAME):
        position, case = CASES[game](seed)
        pm = GAMES[game].puzzle_model(position, case, PARAMS.started())
        solver, result = solve(pm.model, PARAMS.with_settings(**pm.settings))
        assert result.optimal, (game, seed)
        expected = pm.replay(solver, True)
        run, values = mip_optimum(highs, pm.model,
                                  tmp_path / f"{seed}{'.lp' if seed % 5 else '.mps'}")
        assert round(run.objective) == round(result.objective), (game, seed)
        checked, fixed = solve_assignment(pm.model, values, PARAMS)
        assert fixed.optimal, (game, seed)
        assert pm.replay(checked, True).value == expected.value, (game, seed)
        moved += expected.value[0] != 0
    assert moved >= PER_GAME // 3  # most optima score: the sample is not all trivial


@pytest.mark.parametrize("game", list(CASES))
def test_an_exported_proto_reloads_to_the_same_optimum(game: str, tmp_path) -> None:
    position, case = CASES[game](3)
    pm = GAMES[game].puzzle_model(position, case, PARAMS.started())
    _, result = solve(pm.model, PARAMS.with_settings(**pm.settings))
    for suffix in (".pb", ".pbtxt"):
        write_proto(message_of(pm.model), tmp_path / f"m{suffix}", "a header line")
        _, again = solve(read_model(tmp_path / f"m{suffix}"),
                         PARAMS.with_settings(**pm.settings))
        assert again.optimal and again.objective == result.objective
    assert (tmp_path / "m.pbtxt").read_text().startswith("# a header line\n")


# ---------------------------------------------------------------- the command line
def boardsat(*args: object) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args])


DEMO = REPO_ROOT / "positions/terra-nova/puzzles/closing-demo.toml"


def test_export_writes_a_header_and_reads_a_solution_back(highs, tmp_path) -> None:
    out = tmp_path / "demo.mps"
    done = boardsat("export", DEMO, "--turns", "1", "--out", out)
    assert done.exit_code == 0, done.output
    head = out.read_text()
    for words in ("Position:", str(DEMO), "Puzzle: closing over 1 turn.", "scaling_factor -1",
                  "offset 0", "--solution SOLUTION", "linearization_level"):
        assert words in head.replace("\n*   ", " "), words
    variables = int(head.split(" variables")[0].rsplit(" ", 1)[1])
    run = highs.solve("highs", out, variables, 60)
    (tmp_path / "demo.sol").write_text("".join(f"x{i} {v:g}\n" for i, v in enumerate(run.values)
                                               if v is not None))
    back = boardsat("export", DEMO, "--turns", "1", "--solution", tmp_path / "demo.sol")
    assert back.exit_code == 0, back.output
    assert f"objective {run.objective:g}: value" in back.output and "1. " in back.output
    (tmp_path / "bad.sol").write_text("x0 1\nx1 1\n" * 1 + "".join(
        f"x{i} 1\n" for i in range(variables)))
    wrong = boardsat("export", DEMO, "--turns", "1", "--solution", tmp_path / "bad.sol")
    assert wrong.exit_code == 2 and "not a solution of the model" in wrong.output


def test_export_writes_a_side_file_beside_a_binary_proto(tmp_path) -> None:
    rv = REPO_ROOT / "positions/rift-valley/midgame-identical.toml"
    done = boardsat("export", rv, "--draws", "2", "--out", tmp_path / "rv.pb")
    assert done.exit_code == 0, done.output
    assert "Puzzle: max score with 2 draws." in (tmp_path / "rv.pb.txt").read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rv.pb", "rv.pb.txt"]


@pytest.mark.parametrize("args, words", [
    (["positions/terra-nova/puzzles/closing-min-turns.toml", "--out", "x.mps"],
     "a min-turns puzzle is solved horizon after horizon"),
    ([DEMO, "--out", "x.txt"], "must end in .pb, .pbtxt, .mps, .lp"),
    ([DEMO, "--draws", "3", "--out", "x.mps"], "--draws is for Rift Valley"),
])
def test_export_refuses_in_one_line(args, words, tmp_path) -> None:
    done = boardsat("export", *[tmp_path / a if str(a).startswith("x.") else a for a in args])
    assert done.exit_code == 2
    assert words in done.output and len(done.output.strip().splitlines()) == 1
