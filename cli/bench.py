"""``boardsat bench``: time CP-SAT against the exhaustive search on a suite; table, JSON, plot."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from cli.cluster import note_ran_on
from cli.console import err, out, print_json
from solver.bench.instances import write_instances
from solver.bench.overview import fill_overview
from solver.bench.plot import plot_cactus, plot_horizons, plot_records
from solver.bench.runner import (
    Record,
    disagreement_text,
    disagreements,
    load_report,
    report,
    run_suite,
    summary,
)
from solver.bench.solvers import check_installed
from solver.bench.solvers import parse as parse_solvers
from solver.bench.suite import PLOTS, Suite, load_suite, suite_file
from solver.bench.table import (
    cases_table,
    fill_readme,
    fill_solvers,
    markdown_cases,
    markdown_solvers,
    markdown_summary,
    measured_text,
    solvers_table,
    summary_table,
)
from solver.cpsat import SolveParams
from solver.errors import EXIT_DISAGREE, InputError
from solver.executor import connect
from solver.protocol import Case
from solver.tomlfile import atomic_write_text, read_text


def run(suite_name: str, suite_path: Path | None, as_json: bool, plot: Path | None,
        save: Path | None, workers: int, time_limit: float | None, cap: float | None,
        seed: int, scheduler: str | None = None, readme: tuple[Path, ...] = (),
        solvers_text: str | None = None, cactus: Path | None = None,
        instances: Path | None = None) -> None:
    """Run the suite, then print the table (or the JSON) and write the plot/JSON files
    and (``readme``) the medians and the cases as Markdown between the suite's markers in
    those files (:func:`solver.bench.table.fill_readme`), refilling any cross-suite
    overview there (:func:`solver.bench.overview.fill_overview`).

    Cases run one after another here, or side by side on the Dask cluster of
    ``scheduler`` (the files are written here either way). When a proven CP-SAT
    optimum differs from the exhaustive search's, everything is still printed
    and written, then one line on standard error names the cases, exit status 1.
    """
    solvers = () if solvers_text is None else parse_solvers(solvers_text)
    check_installed(solvers)
    if cactus is not None and not solvers:
        raise InputError("--cactus plots the solvers of --solvers; give --solvers too")
    suite = load_suite(suite_path or suite_file(suite_name))
    _check_markers(readme, suite.name, bool(solvers))
    params = SolveParams(time_limit=suite.time_limit if time_limit is None else time_limit,
                         workers=workers, seed=seed)
    with connect(scheduler) as executor, \
            Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                     TextColumn("{task.fields[case]}"), TimeElapsedColumn(), console=err,
                     disable=not err.is_terminal) as bar:
        task = bar.add_task(f"bench {suite.name}", total=len(suite.cases), case="")
        if scheduler is None:
            bar.update(task, case=suite.cases[0].name)

        def done(case: Case, record: Record) -> None:
            bar.advance(task)
            if scheduler is None:  # one at a time: show the case that runs now
                index = suite.cases.index(case) + 1
                bar.update(task, case=suite.cases[index].name if index < len(suite.cases) else "")
            else:
                bar.update(task, case=f"{case.name} done")

        try:
            records = run_suite(suite, params, cap, on_record=done, executor=executor,
                                solvers=solvers, time_limit=time_limit)
        except InputError as exc:
            raise exc.located(path=suite.path) from None
    note_ran_on(executor, scheduler)
    result = report(suite, records, params, suite.cap if cap is None else cap,
                    ran_on=executor.description, solvers=solvers)
    publish(result, records, suite.plot, as_json, plot, save, readme, cactus, instances, suite)


def rerender(saved: Path, as_json: bool, plot: Path | None, save: Path | None,
             readme: tuple[Path, ...], cactus: Path | None = None,
             instances: Path | None = None) -> None:
    """Print, plot and write a saved run (``--save``/``--json`` output) as if it had just
    run: the same tables, plot, JSON and Markdown blocks, the medians recomputed."""
    result, records = load_report(saved)
    result["summary"] = summary(records)
    result["plot"] = _plot_kind(result)
    result.setdefault("solvers", [])
    _check_markers(readme, result["suite"], bool(result["solvers"]))
    if cactus is not None and not result["solvers"]:
        raise InputError("--cactus plots the solvers of a run with --solvers; this one had none",
                         path=saved)
    suite = None
    if instances is not None:
        shipped = suite_file(result["suite"])
        if not shipped.is_file():
            raise InputError(f"--instances rebuilds the models of suite {result['suite']!r}, "
                             "which is not in benchmarks/suites/", path=saved)
        suite = load_suite(shipped)
    publish(result, records, result["plot"], as_json, plot, save, readme, cactus, instances,
            suite)


def _check_markers(readme: tuple[Path, ...], name: str, solvers: bool) -> None:
    """InputError now, not after the run, for a ``--readme`` file without the markers the
    run fills (a ``--solvers`` run: only the solvers' table)."""
    for doc in readme:
        if solvers:
            fill_solvers(read_text(doc), name, "", str(doc))
        else:
            fill_readme(read_text(doc), name, "", "", str(doc))


def _plot_kind(result: dict[str, Any]) -> str:
    """The saved run's plot kind; files saved before it was recorded use their suite's."""
    kind = result.get("plot")
    if isinstance(kind, str) and kind in PLOTS:
        return kind
    shipped = suite_file(result["suite"])
    return load_suite(shipped).plot if shipped.is_file() else PLOTS[0]


def publish(result: dict[str, Any], records: list[Record], plot_kind: str, as_json: bool,
            plot: Path | None, save: Path | None, readme: tuple[Path, ...],
            cactus: Path | None = None, instances: Path | None = None,
            suite: Suite | None = None) -> None:
    """Write the JSON, plots, Markdown blocks and instance set of a run, print its tables
    (or the JSON); exit 1 after all that when a proven CP-SAT optimum differs from the
    exhaustive one, or solvers proved different optima of a case's model."""
    name = result["suite"]
    solvers = result.get("solvers") or []
    if save is not None:
        save.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(save, json.dumps(result, indent=2) + "\n")
    if plot is not None:
        draw = plot_horizons if plot_kind == "horizons" else plot_records
        draw(records, plot, title=f"boardsat bench --suite {name}")
    if cactus is not None:
        plot_cactus(records, solvers, cactus, title=f"boardsat bench --suite {name} --solvers",
                    limit=result["time_limit"])
    if instances is not None and suite is not None:
        unbuilt = write_instances(suite, records, instances, result["workers"],
                                  result["time_limit"], solvers)
        if unbuilt:
            err.print(f"not built within the time limit, left out: {escape(', '.join(unbuilt))}")
    for doc in readme:
        caption = measured_text(result, records)
        if solvers:
            text = fill_solvers(read_text(doc), name, caption + markdown_solvers(
                records, solvers, result["time_limit"]), str(doc))
        else:
            text = fill_readme(read_text(doc), name, caption + markdown_summary(
                result["summary"]), caption + markdown_cases(records), str(doc))
        atomic_write_text(doc, fill_overview(text, str(doc)))
    if as_json:
        print_json(result)
    else:
        out.print(cases_table(records))
        out.print(summary_table(result["summary"]))
        if solvers:
            out.print(solvers_table(records, solvers, result["time_limit"]))
        if plot is not None:
            out.print(f"plot written to {escape(str(plot))}")
        if cactus is not None:
            out.print(f"cactus plot written to {escape(str(cactus))}")
        if instances is not None:
            out.print(f"instance set written to {escape(str(instances))}")
        if save is not None:
            out.print(f"JSON written to {escape(str(save))}")
        for doc in readme:
            out.print(f"tables written to {escape(str(doc))}")
    wrong = disagreements(records)
    if wrong:
        what = "proven optima disagree" if solvers else "engine disagrees with the solver"
        err.print(f"[bold red]{what}:[/] {escape(disagreement_text(wrong))}", soft_wrap=True)
        sys.exit(EXIT_DISAGREE)
