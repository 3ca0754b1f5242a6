"""`boardsat bench`: suite files, one JSON record per case with both times, table, plot."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from solver.bench.plot import cpsat_style, plot_horizons
from solver.bench.runner import case_cap, case_limit, run_case, summary
from solver.bench.suite import load_suite, suite_file
from solver.bench.table import fill_readme, markdown_cases, markdown_summary
from solver.cpsat import SolveParams
from solver.errors import BuildTimeout, InputError
from solver.games import GAMES
from solver.paths import REPO_ROOT

TINY = Path(__file__).parent / "data" / "bench-tiny.toml"


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory) -> tuple[dict, Path]:
    plot = tmp_path_factory.mktemp("bench") / "plot.png"
    result = CliRunner().invoke(main, ["bench", "--suite-file", str(TINY), "--json",
                                       "--workers", "1", "--plot", str(plot)])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout), plot


def test_json_has_one_record_per_case_with_both_times(tiny_run):
    data, _ = tiny_run
    names = [case.name for case in load_suite(TINY).cases]
    assert [r["case"] for r in data["cases"]] == names
    for record in data["cases"]:
        assert record["cpsat_s"] > 0 and record["optimal"] is True
        assert record["exhaustive"] == "done" and record["exhaustive_s"] > 0
        assert record["agree"] is True
        assert record["value"] == record["exhaustive_value"]
        assert record["ratio"] == pytest.approx(record["exhaustive_s"] / record["cpsat_s"],
                                                rel=0.01)
    assert {row["game"] for row in data["summary"]} == {"terra-nova", "rift-valley"}


def test_plot_is_a_png(tiny_run):
    _, plot = tiny_run
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_unproven_cpsat_points_are_drawn_apart_from_proven_ones():
    proven, proven_key, proven_words = cpsat_style(True, "tab:green")
    unproven, unproven_key, unproven_words = cpsat_style(False, "tab:green")
    assert proven["marker"] != unproven["marker"] and proven_key != unproven_key
    assert "not proven" in unproven_words and "not proven" not in proven_words


def test_capped_exhaustive_is_recorded_as_null(monkeypatch):
    game = GAMES["rift-valley"]

    def too_slow(position, case, cap):
        raise TimeoutError(f"passed {cap} s")

    monkeypatch.setattr(game, "bench_exhaustive", too_slow)
    case = next(c for c in load_suite(TINY).cases if c.game == "rift-valley")
    record = run_case(case, SolveParams(workers=1), cap=0.5)
    assert record.exhaustive == "capped"
    assert record.exhaustive_s is None and record.ratio is None and record.agree is None
    assert record.cpsat_s > 0 and record.optimal
    assert summary([record])[0]["exhaustive_done"] == 0


@pytest.mark.parametrize(("key", "per_case", "default"), [
    ("cap", case_cap, lambda suite: suite.cap),
    ("time_limit", case_limit, lambda suite: suite.time_limit)])
def test_a_case_may_set_its_own_limit_and_the_command_line_one_holds_for_all(
        tmp_path, key, per_case, default):
    suite_text = TINY.read_text()
    first = suite_text.index("[[case]]")
    second = suite_text.index("[[case]]", first + 1)
    own = tmp_path / "own-limit.toml"
    own.write_text(suite_text[:second] + suite_text[second:].replace(
        "[[case]]\n", f"[[case]]\n{key} = 7.5\n", 1))
    suite = load_suite(own, REPO_ROOT)
    assert [per_case(suite, c) for c in suite.cases[:2]] == [default(suite), 7.5]
    assert {per_case(suite, c, 3.0) for c in suite.cases} == {3.0}
    bad = tmp_path / "bad-limit.toml"
    bad.write_text(suite_text.replace("[[case]]\n", f"[[case]]\n{key} = 0\n", 1))
    with pytest.raises(InputError, match=f"'case.1.{key}' must be more than 0 seconds"):
        load_suite(bad, REPO_ROOT)


def test_the_depth_suites_give_2_turns_a_generous_cap_and_4_turns_two_minutes():
    for name in ("depth", "depth-holdout"):
        suite = load_suite(suite_file(name))
        caps = {case.turns: case_cap(suite, case) for case in suite.cases}
        assert caps[2] >= 120 and caps[2] > suite.cap
        limits = {case.turns: case_limit(suite, case) for case in suite.cases}
        assert limits[3] == 60 and limits[4] == 120


def test_a_saved_run_is_shown_again_without_running(tiny_run, tmp_path, monkeypatch):
    data, _ = tiny_run
    saved = tmp_path / "saved.json"
    saved.write_text(json.dumps(data))
    for game in GAMES.values():  # --from must not solve anything
        monkeypatch.setattr(game, "bench_solve", None)
        monkeypatch.setattr(game, "bench_exhaustive", None)
    plot, again = tmp_path / "again.png", tmp_path / "again.json"
    result = CliRunner().invoke(main, ["bench", "--from", str(saved), "--json", "--plot",
                                       str(plot), "--save", str(again)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == data == json.loads(again.read_text())
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    table = CliRunner().invoke(main, ["bench", "--from", str(saved)])
    assert table.exit_code == 0 and "tn-6x7-best" in table.stdout


@pytest.mark.parametrize("text, message", [
    ('{"suite": ', "line 1, column 11: not JSON"),
    ('{"suite": "x", "cases": 3}', "not a saved bench run"),
    ('{"suite": "x", "cases": [{"case": "a"}]}', "case 1: not a bench record: missing agree")])
def test_a_bad_saved_run_is_one_line_and_exit_2(tmp_path, text, message):
    bad = tmp_path / "bad.json"
    bad.write_text(text)
    result = CliRunner().invoke(main, ["bench", "--from", str(bad)])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {bad}: ") and message in result.stderr
    assert result.stderr.count("\n") == 1


def test_from_refuses_the_options_of_a_run(tmp_path):
    result = CliRunner().invoke(main, ["bench", "--from", str(TINY), "--cap", "3"])
    assert result.exit_code == 2 and "--from shows a saved run; --cap" in result.output


def test_table_output_names_every_case():
    result = CliRunner().invoke(main, ["bench", "--suite-file", str(TINY), "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert "tn-6x7-best" in result.stdout and "Medians per group" in result.stdout


def test_shipped_suites_load():
    for name in ("quick", "full", "budgets", "depth", "depth-holdout", "kosmos", "rounds"):
        suite = load_suite(suite_file(name))
        assert suite.cases
        for case in suite.cases:
            assert case.position is None or case.position.is_file()


def test_bad_suite_is_one_line_error(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[[case]]\nname = "x"\ngame = "chess"\nkind = "best-turn"\n'
                   'position = "a.toml"\n')
    with pytest.raises(InputError, match="unknown game"):
        load_suite(bad, REPO_ROOT)
    result = CliRunner().invoke(main, ["bench", "--suite-file", str(bad)])
    assert result.exit_code == 2
    assert "unknown game" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("case, message", [
    ('position = "nosuch.toml"',
     "line 5 (key 'case.1.position'): case 1: no position file 'nosuch.toml'"),
    ("recipe = { rows = 3, cols = 4, frob = 1 }",
     "line 5 (key 'case.1.recipe'): case 1: unknown recipe key 'frob'"),
    ('recipe = { board = "moon", players = 2, seed = 1 }',
     "line 5 (key 'case.1.recipe'): case 1: recipe key 'board' is one of base, two-player"),
    ('recipe = { board = "base", players = 5, seed = 1 }',
     "line 5 (key 'case.1.recipe'): case 1: recipe key 'players'"),
    ('recipe = { board = "base", players = 2, seed = 1, bridge_adjacency = "x" }',
     "line 5 (key 'case.1.recipe'): case 1: recipe key 'bridge_adjacency' is one of all, "
     "owner")])
def test_a_bad_case_names_the_suite_file_and_the_case(tmp_path, case, message):
    bad = tmp_path / "bad.toml"
    bad.write_text(f'[[case]]\nname = "x"\ngame = "terra-nova-kosmos"\nkind = "last-round"\n'
                   f"{case}\n")
    result = CliRunner().invoke(main, ["bench", "--suite-file", str(bad)])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {bad}: {message}")
    assert result.stderr.count("\n") == 1


def test_disagreement_with_the_exhaustive_search_exits_1_after_the_report(monkeypatch, tmp_path):
    # Before: bench printed "NO" in the agree column and exited 0.
    game = GAMES["rift-valley"]
    real = game.bench_exhaustive

    def one_more(position, case, cap):
        return tuple(v + 1 for v in real(position, case, cap))

    monkeypatch.setattr(game, "bench_exhaustive", one_more)
    one = tmp_path / "one.toml"
    one.write_text('[suite]\ntime_limit = 30\ncap = 5\n\n[[case]]\nname = "rv-one"\n'
                   'game = "rift-valley"\nkind = "max-score"\n'
                   'position = "positions/rift-valley/midgame-identical.toml"\n')
    for extra in ([], ["--json"]):
        result = CliRunner().invoke(main, ["bench", "--suite-file", str(one), "--workers", "1",
                                           *extra])
        assert result.exit_code == 1, result.output
        assert "Traceback" not in result.output
        last = result.stderr.strip().splitlines()[-1]
        assert "engine disagrees" in last and "rv-one" in last and "[19]" in last, last
        assert "[20]" in last
        if extra:
            assert json.loads(result.stdout)["cases"][0]["agree"] is False
        else:
            assert "rv-one" in result.stdout and "NO" in result.stdout


def test_an_unproven_answer_short_of_the_exhaustive_value_is_no_disagreement():
    from solver.bench.runner import disagreements
    record = run_case(next(c for c in load_suite(TINY).cases if c.game == "rift-valley"),
                      SolveParams(workers=1), cap=5)
    assert disagreements([record]) == []
    short = replace(record, optimal=False, value=[record.value[0] - 1], agree=False)
    assert disagreements([short]) == []
    assert disagreements([replace(record, agree=False)]) == [replace(record, agree=False)]


def test_a_model_not_built_in_time_is_recorded_as_no_answer(monkeypatch, tmp_path):
    # Before: the runner stopped the whole suite with the case's error.
    game = GAMES["terra-nova"]

    def unbuilt(position, case, params):
        raise BuildTimeout("the 4-turn model could not be built within the time limit")

    monkeypatch.setattr(game, "bench_solve", unbuilt)
    case = next(c for c in load_suite(TINY).cases if c.game == "terra-nova")
    record = run_case(case, SolveParams(workers=1, time_limit=1), cap=5)
    assert record.cpsat == "no answer" and record.value == [] and not record.optimal
    assert record.exhaustive == "done" and record.agree is None
    assert summary([record])[0]["optimal"] == 0
    plot = tmp_path / "depth.png"
    plot_horizons([record, replace(record, horizon=2, exhaustive_s=None, exhaustive="capped")],
                  plot)
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_markdown_medians_count_capped_runs_as_the_cap_and_say_so(monkeypatch):
    record = run_case(next(c for c in load_suite(TINY).cases if c.game == "rift-valley"),
                      SolveParams(workers=1), cap=5)
    capped = replace(record, case="b", exhaustive_s=None, exhaustive="capped", cap=50.0)
    rows = summary([record, capped, replace(capped, case="c")])
    assert rows[0]["exhaustive_at_cap_median_s"] == 50.0
    assert rows[0]["exhaustive_median_s"] == record.exhaustive_s
    table = markdown_summary(rows)
    assert "| 3/3 |" in table and "| 1/3 | ≥ 50 |" in table
    assert table.split("|")[-2].strip().startswith("≥ ")  # the ratio is a lower bound
    proven = markdown_summary(summary([record]))
    assert "≥" not in proven and "≤" not in proven
    unproven = markdown_summary(summary([replace(capped, optimal=False)]))
    assert unproven.rstrip().endswith("| — |")
    assert record.optimal and record.bound == record.value[0]  # the solve's bound travels
    rows = markdown_cases([record, replace(capped, agree=None, cpsat_s=0.04),
                           replace(capped, optimal=False, bound=record.value[0] + 7, agree=None),
                           replace(capped, optimal=False, bound=None)]).splitlines()
    assert len(rows) == 6 and rows[2].startswith(f"| {record.case} | rift-valley | max-score |")
    assert rows[3].endswith("| yes | 0.04 | > 50 | ≥ 1250 | — |")
    assert f"| no (≤{record.value[0] + 7}) |" in rows[4] and "| no |" in rows[5]
    assert rows[4].endswith("| > 50 | — | — |")  # neither search finished: no ratio
    below = markdown_cases([replace(record, optimal=False, agree=False),
                            replace(record, agree=False)]).splitlines()
    assert below[2].endswith("| no |") and below[3].endswith("| NO |")


def test_readme_tables_go_between_the_suite_markers(tmp_path):
    text = "a\n<!-- bench:depth -->\nold\n<!-- /bench:depth -->\nb\n"
    assert fill_readme(text, "depth", "new\n", "rows\n", "R.md") == (
        "a\n<!-- bench:depth -->\nnew\n<!-- /bench:depth -->\nb\n")
    both = text + "<!-- bench-cases:depth -->\nold\n<!-- /bench-cases:depth -->\n"
    assert fill_readme(both, "depth", "new\n", "rows\n", "R.md").endswith(
        "b\n<!-- bench-cases:depth -->\nrows\n<!-- /bench-cases:depth -->\n")
    with pytest.raises(InputError, match="bench:quick"):
        fill_readme(text, "quick", "x\n", "y\n", "R.md")
    readme = tmp_path / "R.md"
    readme.write_text("no markers\n")
    result = CliRunner().invoke(main, ["bench", "--suite-file", str(TINY), "--readme",
                                       str(readme)])
    assert result.exit_code == 2 and "markers" in result.output  # before any case ran
    assert readme.read_text() == "no markers\n"


def test_suite_plot_kind_is_checked(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(TINY.read_text().replace("cap = 5", 'cap = 5\nplot = "pie"'))
    with pytest.raises(InputError, match="plot must be sizes or horizons"):
        load_suite(bad, REPO_ROOT)
    assert load_suite(suite_file("depth")).plot == "horizons"


def test_plot_legends_sit_outside_the_panels(monkeypatch, tmp_path):
    # Before: the legend of eleven entries sat inside the right panel, over its points.
    import json

    from solver.bench import plot as plot_module
    from solver.bench.runner import Record
    from solver.paths import REPO_ROOT

    figures = []
    monkeypatch.setattr(plot_module, "_save", lambda fig, path, title: figures.append(fig))
    saved = json.loads((REPO_ROOT / "benchmarks/results/latest.json").read_text())
    records = [Record(**r) for r in saved["cases"]]
    plot_module.plot_records(records, tmp_path / "x.png")
    plot_horizons(records[:3], tmp_path / "y.png")
    for fig in figures:
        assert all(ax.get_legend() is None for ax in fig.axes)
        assert len(fig.legends) == 1
        plot_module.plt.close(fig)
    games = {r.game for r in records[:3]}
    assert figures[1].axes[0].get_xlabel() == " / ".join(
        f"{GAMES[g].horizon_unit} ({GAMES[g].short})" for g in GAMES if g in games)


def test_verdict_says_who_wins_and_by_how_much():
    from solver.bench.overview import Verdict
    assert Verdict(2.6, "").text() == "2.6× faster"
    assert Verdict(78, "at least").text() == "≥ 78× faster"
    assert Verdict(0.05, "").text() == "20× slower"
    assert Verdict(0.1, "at most").text() == "≥ 10× slower"  # CP-SAT stopped at its limit
    assert Verdict(None, "").text(2, 0) == "ahead: proves more"
    assert Verdict(None, "").text(0, 0) == "neither in time"


def test_overview_rows_come_from_saved_runs_and_the_suites_picks(tmp_path):
    from solver.bench.overview import fill_overview, rows_of_run
    saved = REPO_ROOT / "benchmarks" / "results" / "latest.json"
    rows = rows_of_run(saved)  # quick.toml picks best-turn and KOSMOS groups only
    assert {(row.game, row.kind) for row in rows} == {
        ("Terra Nova", "best-turn"), ("Terra Nova (KOSMOS)", "last-round"),
        ("Terra Nova (KOSMOS)", "last-rounds"), ("Terra Nova (KOSMOS)", "best-round")}
    plot = tmp_path / "overview.png"
    text = (f"x\n<!-- bench-overview plot={plot} from={saved} -->\nold\n"
            "<!-- /bench-overview -->\ny\n")
    filled = fill_overview(text, "R.md")
    assert "old" not in filled and filled.count("| Terra Nova") >= 1 and plot.is_file()
    # a file with only an overview block takes --readme (several files at once)
    doc = tmp_path / "D.md"
    doc.write_text(text)
    other = tmp_path / "E.md"
    other.write_text("<!-- bench-cases:quick -->\n<!-- /bench-cases:quick -->\n")
    result = CliRunner().invoke(main, ["bench", "--from", str(saved), "--readme", str(doc),
                                       "--readme", str(other)])
    assert result.exit_code == 0, result.output
    best_turn = next(row for row in rows if row.kind == "best-turn")
    assert f"| {best_turn.verdict.text(best_turn.proven, best_turn.exhaustive_done)} |" \
        in doc.read_text()
    saved_date = json.loads(saved.read_text())["date"][:10]
    assert other.read_text().startswith(
        f"<!-- bench-cases:quick -->\n*Measured on {saved_date}")
