"""``bench --instances DIR``: a suite's models as an instance set for any solver.

Each case's one model (what ``boardsat export`` writes) goes to ``DIR/CASE.pb`` (the
CP-SAT model) and ``DIR/CASE.mps`` (its exact MIP translation), each with its header
(the ``.pb``'s beside it in ``CASE.pb.txt``); ``DIR/README.md`` says what each instance
is, its proven optimum and how it was proven, from the run's records (a run just made,
or a saved one with ``--from``). Names no game.
"""

from __future__ import annotations

from pathlib import Path

from solver.bench.runner import Record
from solver.bench.solvers import TITLES
from solver.bench.suite import Suite
from solver.cpsat import SolveParams
from solver.errors import BuildTimeout, NoAnswer
from solver.export import command_line, write
from solver.games import GAMES
from solver.paths import REPO_ROOT
from solver.protocol import Case
from solver.tomlfile import atomic_write_text

INTRO = """# {suite}: an instance set from boardsat

Each instance is the one CP-SAT model of a board-game puzzle, exactly as `boardsat solve`
builds it: `NAME.pb` is its `CpModelProto` (binary; its header in `NAME.pb.txt`), `NAME.mps`
its exact MIP translation (every column integer; the header's comment lines say how).
Both are maximised; the MIP's objective value *is* CP-SAT's `objective_value`.
Column `xI` of the MPS file is variable `I` of the CP-SAT model.

The optimum below is the model's objective, then the puzzle's value (the objective's
goals in priority order, as the header lists them). *Proven by* names the solvers that
proved it on this model within {limit} (the seconds each took, on {workers} thread(s)), and
how boardsat's own `solve` path and the engine's exhaustive search confirm it.
Written by `boardsat bench --suite {suite} --solvers {solvers} --instances DIR`.

| instance | puzzle | position | size (CP-SAT; MIP) | optimum | proven by |
|---|---|---|---|---|---|
"""


def _position(case: Case) -> str:
    if case.position is not None:
        try:
            return f"`{case.position.relative_to(REPO_ROOT)}`"
        except ValueError:
            return f"`{case.position}`"
    recipe = ", ".join(f"{k} = {v}" for k, v in (case.recipe or {}).items())
    return f"recipe {{{recipe}}}"


def _proof(record: Record) -> tuple[str, str]:
    """``(optimum, proven by)`` of a record's README row."""
    proven = {name: run for name, run in record.solvers.items() if run["status"] == "optimal"}
    value = "/".join(map(str, record.value))
    how = [f"{TITLES[name]} {run['seconds']:.3g} s" for name, run in proven.items()]
    if record.optimal:
        how.append(f"boardsat solve {record.cpsat_s:.3g} s")
    if record.agree:
        how.append(f"exhaustive search {record.exhaustive_s:.3g} s")
    if proven:
        run = next(iter(proven.values()))
        return f"{run['objective']:g} ({'/'.join(map(str, run['value']))})", ", ".join(how)
    if record.optimal:
        return f"({value})", ", ".join(how) + " (its own path; not proven on this model)"
    bounds = [run["bound"] for run in record.solvers.values() if run.get("bound") is not None]
    best = f"best known {value}" if value else "none known"
    return best + (f", bound {min(bounds)}" if bounds else ""), "not proven"


def write_instances(suite: Suite, records: list[Record], folder: Path, workers: int,
                    limit: float | None, solvers: list[str]) -> list[str]:
    """Write the instance set of ``suite`` to ``folder`` (module doc); the names of the
    cases whose model was not built within ``limit`` seconds (left out)."""
    by_name = {r.case: r for r in records}
    rows, unbuilt = [], []
    for case in suite.cases:
        record = by_name.get(case.name)
        if record is None:
            continue
        game = GAMES[case.game]
        position = game.bench_load(case, REPO_ROOT)
        try:
            pm = game.puzzle_model(position, case, SolveParams(time_limit=limit).started())
        except (BuildTimeout, NoAnswer):
            unbuilt.append(case.name)
            continue
        source = _position(case).strip("`")
        where = (command_line(case.position, game.export_options(case))
                 if case.position is not None else
                 "boardsat export (on the recipe's position written to a file)")
        done = write(pm, game, case, folder / f"{case.name}.mps", source, where)
        write(pm, game, case, folder / f"{case.name}.pb", source, where)
        optimum, how = _proof(record)
        rows.append(f"| {case.name} | {game.short}: {pm.puzzle} | {_position(case)} | "
                    f"{done.variables} vars, {done.constraints} constraints; {done.columns} "
                    f"columns, {done.rows} rows | {optimum} | {how} |")
    text = INTRO.format(suite=suite.name, limit="no time limit" if limit is None
                        else f"{limit:g} s", workers=workers, solvers=",".join(solvers))
    text += "\n".join(rows) + "\n"
    if unbuilt:
        text += (f"\nNot written (the model was not built within {limit:g} s): "
                 f"{', '.join(unbuilt)}.\n")
    atomic_write_text(folder / "README.md", text)
    return unbuilt
