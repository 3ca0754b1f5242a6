"""The soak run (``make soak``, not in ``make test``): many real commands, random limits
and random Ctrl-Cs; none may hang, none may end in a traceback, every ``--json`` output
must parse and have the shape docs/json.md gives it.

Solves bundled positions (every game, every solve path: best-turn, small closings,
2-turn closings on two threads, deep closings, min-turns, Rift Valley budgets and
unlimited draws, both KOSMOS puzzles) and positions the generator writes at the start,
plus some ``verify`` and ``batch`` runs and the other drivers: ``generate``, ``review``,
``perft --via-model``, ``bench`` and ``export``. Each run gets a time limit drawn from 0.1-5 s
(most of them) and/or a SIGINT at a random moment. At the end it prints, per path,
the runs, exit statuses and the seconds from SIGINT to exit.

``BOARDSAT_SOAK_RUNS`` (default 500) runs, ``BOARDSAT_SOAK_SEED`` (default 0) the draw,
``BOARDSAT_SOAK_PARALLEL`` (default 2) commands at a time.
"""

from __future__ import annotations

import json
import os
import random
import statistics
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from solver.errors import EXIT_BAD_INPUT, EXIT_INTERRUPTED, EXIT_NO_ANSWER, EXIT_OK
from tests.support.commands import REPO, Ended, run
from tests.support.json_docs import JSON_SECTIONS, flatten, listed_statuses

pytestmark = pytest.mark.soak

RUNS = int(os.environ.get("BOARDSAT_SOAK_RUNS", "500"))
SEED = int(os.environ.get("BOARDSAT_SOAK_SEED", "0"))
PARALLEL = int(os.environ.get("BOARDSAT_SOAK_PARALLEL", "2"))
HANG = 15.0
"""A command still running this long after its limit or its SIGINT hangs (it is killed)."""
STOP_PROMISE = 2.0
"""Seconds from SIGINT to exit the commands promise (counted, not failed on: the load of
the machine is not the command's)."""

STOPPED = {None, "interrupted", "time limit"}
WHOLE_COMMAND_LIMIT = ("solve", "generate", "perft")
"""The commands whose --time-limit is the whole command's (batch, review and bench: each
solve's)."""
POSITIONS = REPO / "positions"


@dataclass(frozen=True)
class Case:
    """One command to run: which path it takes, and its arguments."""

    path: str
    args: tuple[str, ...]
    json: bool


def _bundled() -> list[tuple[str, tuple[str, ...]]]:
    """(path, solve arguments) over the bundled positions."""
    tn, rv, tnk = POSITIONS / "terra-nova", POSITIONS / "rift-valley", \
        POSITIONS / "terra-nova-kosmos"
    out: list[tuple[str, tuple[str, ...]]] = []
    for file in sorted((tn / "puzzles").rglob("*.toml")):
        text = file.read_text(encoding="utf-8")
        kind = ("min-turns" if "min-turns" in text else
                "closing" if 'kind = "closing"' in text else "best-turn")
        out.append((f"terra-nova {kind}", (str(file),)))
    for name in ("midgame-2p", "midgame-3p", "midgame-4p", "late-2p"):
        file = str(tn / f"{name}.toml")
        out.append(("terra-nova best-turn (full board)", (file,)))
        out.append(("terra-nova 2 turns, one model", (file, "--turns", "2", "--workers", "1")))
        out.append(("terra-nova 2 turns, two threads", (file, "--turns", "2", "--workers", "2")))
        out.append(("terra-nova deep (3 turns)", (file, "--turns", "3")))
        out.append(("terra-nova deep (4 turns)", (file, "--turns", "4")))
    for file in sorted(rv.rglob("*.toml")):
        if "boards" in file.parts:
            continue
        out.append(("rift-valley budget", (str(file),)))
        out.append(("rift-valley budget", (str(file), "--draws", "12")))
        out.append(("rift-valley unlimited", (str(file), "--draws", "40")))
    for file in sorted((tnk / "puzzles").rglob("*.toml")):
        kind = next(k for k in ("best-round", "last-rounds", "last-round") if k in file.name)
        out.append((f"kosmos {kind}", (str(file),)))
    return out


GENERATE_SECONDS = 60
"""The most the generator may take on each kind at the start (it keeps what it wrote)."""


def _generated(folder: Path) -> list[tuple[str, tuple[str, ...]]]:
    """Puzzles the generator writes now (closings, min-turns, max-score, the KOSMOS
    kinds; up to two each, :data:`PARALLEL` kinds at a time), as (path, solve arguments)."""
    requests = [("terra-nova", "closing", "2"), ("terra-nova", "min-turns", "2"),
                ("terra-nova", "best-turn", None), ("rift-valley", "max-score", None),
                ("terra-nova-kosmos", "last-round", None),
                ("terra-nova-kosmos", "best-round", None),
                ("terra-nova-kosmos", "last-rounds", None)]

    def written(number: int) -> list[tuple[str, tuple[str, ...]]]:
        game, kind, turns = requests[number]
        target = folder / f"{game}-{kind}"
        args = ["generate", game, "--kind", kind, "--count", "2", "--seed", str(SEED + number),
                "--out", target, "--workers", "1", "--time-limit", str(GENERATE_SECONDS)]
        ended = run(args + (["--turns", turns] if turns else []), timeout=600)
        assert ended.status in (EXIT_OK, EXIT_NO_ANSWER), ended.stderr[-2000:]
        name = {"terra-nova": "terra-nova", "rift-valley": "rift-valley",
                "terra-nova-kosmos": "kosmos"}[game]
        return [(f"{name} {kind} (generated)", (str(file),))
                for file in sorted(target.glob("*.toml"))]

    with ThreadPoolExecutor(PARALLEL) as pool:
        return [item for found in pool.map(written, range(len(requests))) for item in found]


RECORDS = [str(POSITIONS / "terra-nova" / "records" / "missed-closing.toml"),
           str(POSITIONS / "terra-nova-kosmos" / "records" / "small-round-1.toml")]
"""Records short enough to review within a limit per solve (longer ones: Ctrl-C only)."""
GENERATED = [("terra-nova", "closing", "2"), ("terra-nova", "best-turn", None),
             ("rift-valley", "max-score", None), ("terra-nova-kosmos", "last-round", None),
             ("terra-nova-kosmos", "best-round", None), ("terra-nova-kosmos", "last-rounds", None)]


def _driver(roll: float, rng: random.Random, folder: Path,
            solvable: list[tuple[str, tuple[str, ...]]]) -> Case:
    """One run of a command that is not a solve (``roll`` in [0, 1) picks which):
    generate, review, perft through the model, bench, export."""
    limit = ("--time-limit", f"{rng.uniform(0.1, 5):.2f}")
    workers = ("--workers", rng.choice(["1", "2"]))
    if roll < 0.3:
        game, kind, turns = rng.choice(GENERATED)
        out = folder / f"soak-{rng.randrange(10**9)}"
        return Case(f"generate {game} {kind}", (
            "generate", game, "--kind", kind, "--count", "20", "--seed",
            str(rng.randrange(1000)), "--out", str(out), *workers, *limit,
            *(("--turns", turns) if turns else ())), False)
    if roll < 0.5:
        return Case("review", ("review", rng.choice(RECORDS), "--json", *workers, *limit), True)
    if roll < 0.65:
        file = rng.choice(["tests/data/tn-tiny.toml", "positions/terra-nova/midgame-2p.toml"])
        return Case("perft --via-model", ("perft", file, "--via-model", "--json", *limit), True)
    if roll < 0.85:
        return Case("bench", ("bench", "--suite-file", "tests/data/bench-tiny.toml", "--json",
                              *workers, *limit), True)
    file = rng.choice([args[0] for path, args in solvable if "kosmos" not in path])
    return Case("export", ("export", file, "--out", str(folder / "model.pb")), False)


def _cases(solvable: list[tuple[str, tuple[str, ...]]], rng: random.Random,
           folder: Path) -> list[Case]:
    """:data:`RUNS` commands: mostly solves, some verify and batch runs, and one in ten of
    the other drivers (:func:`_driver`)."""
    with_solution = [args[0] for _, args in solvable if "[solution]" in
                     Path(args[0]).read_text(encoding="utf-8")]
    cases = []
    for _ in range(RUNS):
        roll = rng.random()
        as_json = rng.random() < 0.8
        flag = ("--json",) if as_json else ()
        if roll >= 0.9:
            cases.append(_driver((roll - 0.9) * 10, rng, folder, solvable))
            continue
        if roll < 0.05 and with_solution:
            cases.append(Case("verify", ("verify", rng.choice(with_solution), *flag), as_json))
            continue
        if roll < 0.12:
            files = [rng.choice(solvable)[1][0] for _ in range(rng.randint(2, 4))]
            limit = f"{rng.uniform(0.1, 2):.2f}"
            cases.append(Case("batch", ("batch", *files, "--workers", str(rng.randint(1, 2)),
                                        "--time-limit", limit), True))
            continue
        path, args = rng.choice(solvable)
        extra: list[str] = []
        if rng.random() < 0.75:
            extra += ["--time-limit", f"{rng.uniform(0.1, 5):.2f}"]
        if "--workers" not in args:
            extra += ["--workers", rng.choice(["1", "2"])]
        cases.append(Case(path, ("solve", *args, *extra, *flag), as_json))
    return cases


def _documented() -> dict[tuple[str, str], dict[str, str]]:
    """The fields json.md documents, by (command, game key or "error")."""
    tables: dict[tuple[str, str], dict[str, str]] = {}
    for runs, fields in JSON_SECTIONS:
        for command in runs:
            words = command.split()
            game = next((part.split("/")[1] for part in words if part.startswith("positions/")),
                        "error" if "no-such-file" in command else "")
            kind = ("best-round" if "best-round" in command else
                    "last-rounds" if "last-rounds" in command else
                    "last-round" if "last-round" in command else "")
            tables.setdefault((words[0], f"{game} {kind}".strip()), fields)
    return tables


DOCUMENTED = _documented()


def _table(obj: dict, command: str) -> dict[str, str]:
    """The fields docs/json.md gives the --json output ``obj`` of ``command``."""
    if "error" in obj:
        return DOCUMENTED[("verify", "error")]
    if command == "bench":
        return DOCUMENTED[("bench", "")]
    game = obj.get("game", "?")
    if command == "perft":
        return DOCUMENTED[("perft", "terra-nova-kosmos" if game == "terra-nova-kosmos" else "")]
    kind = obj.get("kind", "") if game == "terra-nova-kosmos" and command != "review" else ""
    return DOCUMENTED.get((command, f"{game} {kind}".strip())) or {}


def _shape(obj: dict, command: str) -> list[str]:
    """What is wrong with ``obj``, the --json output of ``command``, or with an error
    object, against docs/json.md."""
    fields = _table(obj, command)
    if not fields:
        return [f"no documented table for {command} {obj.get('game')} {obj.get('kind')}"]
    seen = flatten(obj)
    free = [name for name, kind in fields.items() if "free-form" in kind]
    seen = {name for name in seen if not any(name.startswith(f"{f}.") for f in free)}
    optional = {name for name, kind in fields.items() if "absent" in kind}
    # the fields of a list's elements are there only when the list has some
    absent = {name for name in set(fields) - optional - seen
              if "[]." in name and name.split("[].")[0] in seen}
    problems = [f"missing {name}" for name in sorted(set(fields) - optional - seen - absent)]
    problems += [f"undocumented {name}" for name in sorted(seen - set(fields))]
    if "stats.status" in fields:
        listed = listed_statuses(obj["game"])
        if obj["stats"]["status"] not in listed:
            problems.append(f"stats.status {obj['stats']['status']!r} not in {sorted(listed)}")
    if "stopped" in fields and obj.get("stopped") not in STOPPED:
        problems.append(f"stopped {obj.get('stopped')!r}")
    if (command == "solve" and obj.get("game") == "terra-nova"
            and obj.get("objective") != "min-turns" and obj.get("bound") is None):
        problems.append("no bound")  # every Terra Nova answer but min-turns has one
    return problems


@dataclass
class Tally:
    """What the runs of one path did."""

    runs: int = 0
    statuses: dict[int | None, int] = field(default_factory=lambda: defaultdict(int))
    after_signal: list[float] = field(default_factory=list)
    cpu_after_signal: list[float] = field(default_factory=list)
    over_limit: list[float] = field(default_factory=list)
    """Seconds past the time limit at exit (only runs with a limit and no SIGINT)."""
    cpu_over_limit: list[float] = field(default_factory=list)
    """CPU seconds used past the time limit (the same runs, those that reached it)."""


def _judge(case: Case, limit: float | None, ended: Ended) -> list[str]:
    """What is wrong with one run."""
    problems = []
    if ended.status is None:
        return ["hang (killed)"]
    if "Traceback" in ended.stderr or "Traceback" in ended.stdout:
        problems.append("traceback")
    if ended.status not in (EXIT_OK, EXIT_BAD_INPUT, EXIT_NO_ANSWER, EXIT_INTERRUPTED):
        problems.append(f"exit status {ended.status}")
    if ended.status == EXIT_BAD_INPUT and "time limit" not in ended.stderr and (
            case.args[0] != "batch" or any(  # batch: each file's line says why
                '"status": 2' in line and "time limit" not in line
                for line in ended.stdout.splitlines())):
        problems.append("bad input")
    if case.json:
        command = case.args[0]
        try:
            objects = [json.loads(line) for line in ended.stdout.splitlines()] \
                if command == "batch" else [json.loads(ended.stdout)]
        except json.JSONDecodeError as exc:
            return problems + [f"--json output does not parse: {exc}: {ended.stdout[:300]!r}"]
        for obj in objects:
            if command == "batch":
                obj = {k: v for k, v in obj.items() if k not in ("file", "status")} \
                    if "error" not in obj else obj
            problems += _shape(obj, "solve" if command == "batch" else command)
    return problems


def test_soak(tmp_path):
    load = os.getloadavg()[0]
    rng = random.Random(SEED)
    solvable = _bundled() + _generated(tmp_path)
    cases = _cases(solvable, rng, tmp_path)
    plans = []
    for case in cases:
        limit = float(case.args[case.args.index("--time-limit") + 1]) \
            if "--time-limit" in case.args else None
        signal_at = rng.uniform(0.3, 6) if (limit is None or rng.random() < 0.4) else None
        plans.append((case, limit, signal_at))

    def one(plan: tuple[Case, float | None, float | None]) -> tuple[Case, float | None, Ended]:
        case, limit, signal_at = plan
        whole = case.args[0] in WHOLE_COMMAND_LIMIT
        budget = min(x for x in (limit if whole else 120, signal_at, 600)
                     if x is not None) + HANG
        return case, limit, run(case.args, at=signal_at, timeout=budget,
                                limit=limit if whole else None)

    tallies: dict[str, Tally] = defaultdict(Tally)
    failures = []
    with ThreadPoolExecutor(PARALLEL) as pool:
        for case, limit, ended in pool.map(one, plans):
            tally = tallies[case.path]
            tally.runs += 1
            tally.statuses[ended.status] += 1
            if ended.after_signal is not None and ended.status is not None:
                tally.after_signal.append(ended.after_signal)
                tally.cpu_after_signal.append(ended.cpu_after_signal or 0.0)
            elif (limit is not None and ended.status is not None
                  and case.args[0] in WHOLE_COMMAND_LIMIT):
                tally.over_limit.append(ended.seconds - limit)
                if ended.cpu_after_limit is not None:
                    tally.cpu_over_limit.append(ended.cpu_after_limit)
            try:
                problems = _judge(case, limit, ended)
            except Exception as exc:  # an output the judge cannot read: one more failure
                problems = [f"cannot judge the output: {exc!r}"]
            if problems:
                failures.append((" ".join(case.args), problems, ended.stderr[-500:]))
    _report(tallies, failures, load)
    assert not failures, failures[:10]


def _report(tallies: dict[str, Tally], failures: list, load: float) -> None:
    """The figures of the run, per path (``load``: the machine's load when it began)."""
    print(f"\nsoak: {sum(t.runs for t in tallies.values())} runs, seed {SEED}, "
          f"{PARALLEL} at a time, load {load:.1f} at the start, {os.getloadavg()[0]:.1f} at "
          f"the end; {len(failures)} failed")
    print("SIGINT: runs stopped so; s: wall seconds from SIGINT to exit (median, max, runs "
          "over 2 s); cpu: CPU seconds after it (max); limit: wall seconds past the "
          "time limit at exit (median, max); cpu lim: CPU seconds past it (max)")
    print(f"{'path':38} {'runs':>4} {'SIGINT':>6} {'s med':>6} {'s max':>6} {'>2s':>4} "
          f"{'cpu max':>7} {'lim med':>7} {'lim max':>7} {'cpu lim':>7}  statuses")

    def figure(values: list[float], how) -> str:
        return f"{how(values):.2f}" if values else "-"

    for path in sorted(tallies):
        t = tallies[path]
        stops = t.after_signal
        late = sum(1 for s in stops if s > STOP_PROMISE)
        statuses = ", ".join(f"{k}: {v}" for k, v in sorted(t.statuses.items(),
                                                             key=lambda kv: str(kv[0])))
        print(f"{path:38} {t.runs:4} {len(stops):6} {figure(stops, statistics.median):>6} "
              f"{figure(stops, max):>6} {late:4} {figure(t.cpu_after_signal, max):>7} "
              f"{figure(t.over_limit, statistics.median):>7} {figure(t.over_limit, max):>7}"
              f" {figure(t.cpu_over_limit, max):>7}  {statuses}")
    for args, problems, tail in failures[:20]:
        print(f"FAILED {args}: {problems}\n  {tail!r}")
