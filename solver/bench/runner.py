"""Run benchmark cases: time CP-SAT and the exhaustive search on the same position.

Each game (:mod:`solver.games`) provides, through :class:`solver.protocol.Game`:

* ``bench_load(case, root) -> position`` — the case's position (file or recipe);
* ``bench_size(position) -> (cells, players)`` and ``bench_horizon(position, case)``;
* ``bench_solve(position, case, params) -> Solved`` — the game's CP-SAT solve
  (answer replayed through the engine), timed here from model building to the
  checked answer;
* ``bench_exhaustive(position, case, cap) -> tuple[int, ...]`` — the engine's
  exhaustive search; raises ``TimeoutError`` after ``cap`` seconds.

Records hold the median CP-SAT time over ``case.repeat`` runs, the exhaustive time
(or ``None`` with ``exhaustive = "capped"``) and their ratio. A CP-SAT run that
has no answer within the time limit (its model not even built, or no line found)
is recorded with ``cpsat = "no answer"``, an empty value and the seconds it took.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import closing, nullcontext
from dataclasses import MISSING, asdict, dataclass, field, fields
from datetime import date
from importlib.metadata import version
from pathlib import Path
from types import NoneType, UnionType
from typing import Any, get_args, get_origin, get_type_hints

from solver.bench.solvers import disagreement, run_solvers
from solver.bench.suite import Suite
from solver.cpsat import SolveParams
from solver.errors import BuildTimeout, InputError, NoAnswer
from solver.executor import Args, Done, Executor, LocalExecutor, in_order
from solver.games import GAMES
from solver.paths import REPO_ROOT
from solver.protocol import Case, Solved
from solver.tomlfile import read_text, supplied_texts


@dataclass
class Record:
    """One case's measurements (one JSON record)."""

    case: str
    game: str
    kind: str
    cells: int
    players: int
    horizon: int | None
    """Turns (Terra Nova) or draw budget (Rift Valley; None = unlimited)."""
    value: list[int]
    optimal: bool
    length: int
    cpsat_s: float
    """Median wall seconds of the CP-SAT runs (model building and engine check included)."""
    cpsat_runs: list[float]
    exhaustive_s: float | None
    exhaustive: str
    """``"done"`` or ``"capped"`` (the search passed the cap; no time recorded)."""
    exhaustive_value: list[int] | None
    agree: bool | None
    """Whether both searches found the same objective tuple (None when capped)."""
    ratio: float | None
    """``exhaustive_s / cpsat_s``: how many times faster CP-SAT is (None when capped)."""
    cap: float
    stats: dict[str, Any] = field(default_factory=dict)
    cpsat: str = "answered"
    """``"answered"`` or ``"no answer"`` (the time limit ran out before any line)."""
    bound: int | None = None
    """CP-SAT's proven upper bound on the leading value (None: none proven)."""
    solvers: dict[str, Any] = field(default_factory=dict)
    """``bench --solvers``: solver name → its run on the case's one model
    (:class:`solver.bench.solvers.SolverRun` as a dict)."""
    time_limit: float | None = None
    """CP-SAT's seconds for this case (None: no limit, or a run saved before it was kept)."""


def run_case(case: Case, params: SolveParams, cap: float, root: Path = REPO_ROOT,
             solvers: tuple[str, ...] = ()) -> Record:
    """Time ``case``: CP-SAT ``case.repeat`` times, then the exhaustive search once (capped),
    then each of ``solvers`` on the case's one model (:mod:`solver.bench.solvers`)."""
    game = GAMES[case.game]
    try:
        position = game.bench_load(case, root)
    except InputError as exc:  # a recipe the game refuses: name the case
        raise exc.located(place=f"case {case.name!r}") from None
    cells, players = game.bench_size(position)
    runs = []
    solved: Solved | None = None
    for _ in range(case.repeat):
        start = time.perf_counter()
        try:
            solved = game.bench_solve(position, case, params)
        except (BuildTimeout, NoAnswer):
            solved = None
        runs.append(time.perf_counter() - start)
    start = time.perf_counter()
    try:
        exhaustive_value: tuple[int, ...] | None = tuple(game.bench_exhaustive(position, case,
                                                                                cap))
        exhaustive_s: float | None = time.perf_counter() - start
    except TimeoutError:
        exhaustive_value, exhaustive_s = None, None
    on_model = run_solvers(game, case, position, params, solvers) if solvers else {}
    cpsat_s = round(statistics.median(runs), 4)
    if exhaustive_s is not None:
        exhaustive_s = round(exhaustive_s, 4)
    value = [] if solved is None else list(solved.value)
    agree = None if exhaustive_value is None or solved is None else exhaustive_value == tuple(
        value)
    return Record(
        case=case.name, game=case.game, kind=case.kind, cells=cells, players=players,
        horizon=game.bench_horizon(position, case),
        value=value, optimal=solved is not None and solved.optimal,
        length=0 if solved is None else solved.length,
        cpsat_s=cpsat_s, cpsat_runs=[round(r, 4) for r in runs],
        cpsat="no answer" if solved is None else "answered",
        exhaustive_s=exhaustive_s,
        exhaustive="capped" if exhaustive_s is None else "done",
        exhaustive_value=None if exhaustive_value is None else list(exhaustive_value),
        agree=agree,
        ratio=None if exhaustive_s is None else _significant(exhaustive_s / max(cpsat_s, 1e-9)),
        cap=cap, stats={} if solved is None else solved.stats,
        bound=None if solved is None else solved.bound, solvers=on_model,
        time_limit=params.time_limit,
    )


def _significant(value: float, digits: int = 3) -> float:
    """``value`` rounded to ``digits`` significant figures (ratios span 0.01 to 100+)."""
    return float(f"{value:.{digits}g}")


def run_case_task(case: Case, params: SolveParams, cap: float,
                  texts: dict[str, str], solvers: tuple[str, ...] = ()) -> Record:
    """:func:`run_case` where the case's position file is ``texts`` (sent by the client)."""
    with supplied_texts(texts):
        return run_case(case, params, cap, solvers=solvers)


def case_cap(suite: Suite, case: Case, cap: float | None = None) -> float:
    """The exhaustive-search cap of ``case``: ``cap`` when given (``--cap`` holds for
    every case), else the case's own, else the suite's."""
    if cap is not None:
        return cap
    return suite.cap if case.cap is None else case.cap


def case_limit(suite: Suite, case: Case, time_limit: float | None = None) -> float:
    """The CP-SAT seconds of ``case``: ``time_limit`` when given (``--time-limit`` holds
    for every case), else the case's own, else the suite's."""
    if time_limit is not None:
        return time_limit
    return suite.time_limit if case.time_limit is None else case.time_limit


def _tasks(suite: Suite, params: SolveParams, cap: float | None, solvers: tuple[str, ...],
           time_limit: float | None) -> Iterator[Args]:
    """The arguments of :func:`run_case_task` per case; the position files are read here."""
    for case in suite.cases:
        texts = {} if case.position is None else {str(case.position): read_text(case.position)}
        yield (case, params.with_time_limit(case_limit(suite, case, time_limit)),
               case_cap(suite, case, cap), texts, solvers)


def run_suite(suite: Suite, params: SolveParams, cap: float | None = None,
              on_record: Callable[[Case, Record], None] | None = None,
              executor: Executor | None = None,
              solvers: tuple[str, ...] = (),
              time_limit: float | None = None) -> list[Record]:
    """Run every case of ``suite``; records in suite order. ``cap`` and ``time_limit``,
    when given, override the suite's and the cases' own (:func:`case_cap`,
    :func:`case_limit`); ``solvers`` also solve each case's one model
    (:mod:`solver.bench.solvers`).

    By default cases run one after another in this process (timings need a
    quiet machine); with an ``executor`` (a Dask cluster) they run side by side
    on its workers, and the times are the workers'. ``params.workers`` is the
    CP-SAT thread count of each solve; ``on_record`` is called as each case
    completes.
    """
    records: list[Record] = []
    with (nullcontext(executor) if executor is not None else LocalExecutor(1)) as runner, \
            closing(runner.map_unordered(run_case_task,
                                         _tasks(suite, params, cap, solvers,
                                                time_limit))) as dones:
        for ready in in_order(_announced(dones, suite, on_record)):
            records.extend(done.value for done in ready)
    return records


def _announced(dones: Iterator[Done], suite: Suite,
               on_record: Callable[[Case, Record], None] | None) -> Iterator[Done]:
    """``dones``, calling ``on_record`` on each as it arrives."""
    for done in dones:
        if on_record:
            on_record(suite.cases[done.index], done.value)
        yield done


def disagreements(records: list[Record]) -> list[Record]:
    """The cases where CP-SAT proved an optimum the exhaustive search does not reach, or
    solvers proved different optima of the case's model (``--solvers``).

    Both searches answer the same objective tuple, so a proven optimum must
    equal the exhaustive one; an unproven answer may fall short of it.
    """
    return [r for r in records if r.optimal and r.agree is False or
            disagreement(r.case, r.value, r.optimal, r.solvers) is not None]


def disagreement_text(records: list[Record]) -> str:
    """One line naming every disagreeing case (of :func:`disagreements`) and the values."""
    parts = []
    for r in records:
        if r.optimal and r.agree is False:
            parts.append(f"case {r.case}: CP-SAT proved {r.value}, the exhaustive search "
                         f"found {r.exhaustive_value}")
        elif (solvers := disagreement(r.case, r.value, r.optimal, r.solvers)) is not None:
            parts.append(solvers)
    return "; ".join(parts)


def summary(records: list[Record]) -> list[dict[str, Any]]:
    """Medians per (game, kind, horizon) group, in order of first appearance.

    ``exhaustive_median_s`` is over the searches that finished;
    ``exhaustive_at_cap_median_s`` counts each capped search as the cap (a lower
    bound on the true median whenever a search was capped).
    """
    groups: dict[tuple[str, str, int | None], list[Record]] = {}
    for record in records:
        groups.setdefault((record.game, record.kind, record.horizon), []).append(record)
    out = []
    for (game, kind, horizon), group in groups.items():
        searched = [r.exhaustive_s for r in group if r.exhaustive_s is not None]
        ratios = [r.ratio for r in group if r.ratio is not None]  # the searched ones
        out.append({
            "game": game, "kind": kind, "horizon": horizon, "cases": len(group),
            "optimal": sum(r.optimal for r in group),
            "cpsat_median_s": round(statistics.median(r.cpsat_s for r in group), 4),
            "exhaustive_done": len(searched),
            "exhaustive_median_s": round(statistics.median(searched), 4) if searched else None,
            "exhaustive_at_cap_median_s": round(statistics.median(
                r.cap if r.exhaustive_s is None else r.exhaustive_s for r in group), 4),
            "ratio_median": round(statistics.median(ratios), 3) if ratios else None,
        })
    return out


def load_report(path: Path) -> tuple[dict[str, Any], list[Record]]:
    """A saved run (what ``bench --save`` or ``--json`` wrote): the JSON object and its
    records. Anything else raises :class:`InputError` naming the file and the place."""
    try:
        data = json.loads(read_text(path))
    except json.JSONDecodeError as exc:
        raise InputError(f"not JSON: {exc.msg}", path=path,
                         place=f"line {exc.lineno}, column {exc.colno}") from None
    if not isinstance(data, dict) or not isinstance(data.get("cases"), list) \
            or not isinstance(data.get("suite"), str):
        raise InputError("not a saved bench run (no 'suite' name and 'cases' list)", path=path)
    names = {f.name for f in fields(Record)}
    hints = get_type_hints(Record)
    required = {f.name for f in fields(Record) if f.default is f.default_factory is MISSING}
    records = []
    for number, case in enumerate(data["cases"], start=1):
        keys = set(case) if isinstance(case, dict) else set()
        missing, unknown = sorted(required - keys), sorted(keys - names)
        if not isinstance(case, dict) or missing or unknown:
            what = (f"missing {', '.join(missing)}" if missing else
                    f"unknown key {', '.join(unknown)}" if unknown else "not an object")
            raise InputError(f"not a bench record: {what}", path=path, place=f"case {number}")
        for key, value in case.items():
            if not _fits(value, hints[key]):
                raise InputError(f"not a bench record: {key!r} = {value!r} is not "
                                 f"{_name(hints[key])}", path=path, place=f"case {number}")
        if case["game"] not in GAMES:
            raise InputError(f"not a bench record: unknown game {case['game']!r}", path=path,
                             place=f"case {number}")
        records.append(Record(**case))
    return data, records


def _fits(value: Any, hint: Any) -> bool:
    """Whether the JSON ``value`` is of the type ``hint`` of a :class:`Record` field
    (a bool is no number; an int is a float)."""
    args = get_args(hint)
    if isinstance(hint, UnionType):
        return any(_fits(value, arg) for arg in args)
    if get_origin(hint) is list:
        return isinstance(value, list) and all(_fits(item, args[0]) for item in value)
    if get_origin(hint) is dict:
        return isinstance(value, dict)
    if hint in (int, float):
        kinds = (int, float) if hint is float else int
        return isinstance(value, kinds) and not isinstance(value, bool)
    return hint is NoneType and value is None or hint is not NoneType and isinstance(value, hint)


def _name(hint: Any) -> str:
    """A type hint in words for a message: ``list[int] | None`` → ``a list of int or null``."""
    if isinstance(hint, UnionType):
        return " or ".join(_name(arg) for arg in get_args(hint))
    if get_origin(hint) is list:
        return f"a list of {_name(get_args(hint)[0])}"
    return {NoneType: "null", dict: "an object"}.get(get_origin(hint) or hint,
                                                      getattr(hint, "__name__", str(hint)))


def report(suite: Suite, records: list[Record], params: SolveParams, cap: float,
           ran_on: str = "this process", solvers: tuple[str, ...] = ()) -> dict[str, Any]:
    """The JSON object ``boardsat bench --json`` prints; ``ran_on``: where the cases ran;
    ``solvers``: those of ``--solvers`` (with the MIP solvers' versions)."""
    return {
        "suite": suite.name,
        "date": date.today().isoformat(),
        "machine": {"cores": os.cpu_count(), "python": platform.python_version(),
                    "ortools": version("ortools"), "platform": platform.platform()},
        "ran_on": ran_on,
        "workers": params.workers,
        "seed": params.seed,
        "time_limit": params.time_limit,
        "cap": cap,
        "plot": suite.plot,
        "solvers": list(solvers),
        "cases": [asdict(r) for r in records],
        "summary": summary(records),
    }
