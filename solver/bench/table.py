"""Rich tables of benchmark records: one row per case, and medians per group.

Both fit 80 columns: text columns (case names, kinds, horizons) wrap, number
columns never do and are as wide as their widest number, so a number is always
printed whole.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from rich import box
from rich.table import Table

from solver.bench.overview import has_overview
from solver.bench.runner import Record
from solver.errors import InputError
from solver.games import GAMES

CASE_WIDTH = 14
"""Case names longer than this wrap onto further lines, after a hyphen."""


def wrap_name(name: str, width: int = CASE_WIDTH) -> str:
    """``name`` on lines of at most ``width`` characters, broken after hyphens
    (``tnk-3x4-best-round-points`` → ``tnk-3x4-best-`` / ``round-points``); a part
    longer than ``width`` is folded by the table."""
    lines = [""]
    for part in re.findall(r"[^-]*-|[^-]+$", name):
        if lines[-1] and len(lines[-1]) + len(part) > width:
            lines.append("")
        lines[-1] += part
    return "\n".join(lines)


def _seconds(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def horizon_text(record: Record) -> str:
    """``1 turn``, ``3 turns``, ``8 draws``, ``any draws``."""
    return GAMES[record.game].horizon_text(record.horizon)


def _table(title: str, caption: str, columns: Sequence[tuple[str, str]],
           rows: list[list[str]]) -> Table:
    """A compact table (one space between columns); ``columns`` are ``(header, kind)``
    with kind ``text`` (wraps), ``name`` (:func:`wrap_name` lines, folded past
    :data:`CASE_WIDTH`), ``label`` (short, never wrapped) or ``number`` (right-aligned,
    never wrapped)."""
    table = Table(title=title, caption=caption, box=box.SIMPLE_HEAD, show_edge=False,
                  padding=(0, 0, 0, 0), header_style="bold", caption_justify="left")
    for index, (header, kind) in enumerate(columns):
        if kind == "number":
            table.add_column(header, justify="right", no_wrap=True)
        elif kind == "label":
            table.add_column(header, no_wrap=True)
        elif kind == "name":  # as wide as its longest line, so lines break only at hyphens
            longest = max((len(line) for row in rows for line in row[index].split("\n")),
                          default=len(header))
            width = min(CASE_WIDTH, max(longest, len(header)))
            table.add_column(header, overflow="fold", min_width=width, max_width=CASE_WIDTH)
        else:
            table.add_column(header, overflow="fold")
    for row in rows:
        table.add_row(*row)
    return table


def proven_text(record: Record) -> str:
    """``yes`` when proven optimal, else ``no (≤B)`` with CP-SAT's proven bound B, or ``no``."""
    if record.optimal:
        return "yes"
    return "no" if record.bound is None else f"no (≤{record.bound})"


def cases_table(records: list[Record]) -> Table:
    """One row per case: puzzle, size, value, proven (or the proven bound), CP-SAT time,
    exhaustive time (``>cap`` when capped, the case's cap), ratio (none when neither
    search finished), agreement."""
    rows = []
    for r in records:
        if r.exhaustive_s is None:
            exhaustive = f">{r.cap:g}"
            ratio = f">{r.cap / max(r.cpsat_s, 1e-9):.1f}" if r.optimal else "—"
        else:
            exhaustive, ratio = _seconds(r.exhaustive_s), f"{r.ratio:.2f}"
        agree = {None: "—", True: "[green]yes[/]", False: "[red]NO[/]" if r.optimal
                 else "[yellow]no[/]"}[r.agree]
        rows.append([wrap_name(r.case), f"{r.kind} {horizon_text(r)}", str(r.cells),
                     "/".join(map(str, r.value)) or "—",
                     "[green]yes[/]" if r.optimal else
                     "[red]no[/]" if r.bound is None else f"[yellow]≤{r.bound}[/]",
                     _seconds(r.cpsat_s), exhaustive, ratio, agree])
    columns = (("case", "name"), ("puzzle", "text"), ("cells", "number"), ("value", "number"),
               ("opt", "number"), ("CP-SAT s", "number"), ("exh. s", "number"),
               ("ratio", "number"), ("agree", "number"))
    return _table("CP-SAT vs exhaustive search", "seconds; opt: proven optimal (≤B: not "
                  "proven, B the proven bound); exh.: the exhaustive search, >cap when capped; "
                  "ratio = exhaustive / CP-SAT; agree: same value (no: CP-SAT's unproven "
                  "line is below; NO: a proven optimum differs, a bug)",
                  columns, rows)


def summary_table(summary: list[dict[str, Any]]) -> Table:
    """Medians per (game, kind, horizon)."""
    rows = []
    for row in summary:
        horizon = row["horizon"]
        rows.append([GAMES[row["game"]].short, row["kind"],
                     "any" if horizon is None else str(horizon),
                     str(row["cases"]), str(row["optimal"]), _seconds(row["cpsat_median_s"]),
                     f"{row['exhaustive_done']}/{row['cases']}",
                     _seconds(row["exhaustive_median_s"]),
                     "—" if row["ratio_median"] is None else f"{row['ratio_median']:.2f}"])
    columns = (("game", "text"), ("kind", "label"), ("horizon", "number"), ("cases", "number"),
               ("opt", "number"), ("CP-SAT s", "number"), ("done", "number"),
               ("exh. s", "number"), ("ratio", "number"))
    return _table("Medians per group", "opt: proven optimal; done: exhaustive searches not "
                  "capped; exh. s: median over those; ratio: median of exhaustive / CP-SAT "
                  "over those cases (the Markdown tables give the ratio of the medians, "
                  "capped searches counted at the cap)",
                  columns, rows)


def markdown_summary(summary: list[dict[str, Any]]) -> str:
    """The medians per group as a Markdown table (docs/performance.md's tables).

    A group where some CP-SAT run was not proven, or some exhaustive search was
    capped, counts those runs at the time they were stopped (the time limit, the
    cap) and marks the median ``≥``: the true median is at least that. The ratio
    of the two medians is then a bound (``≥``/``≤``) or unknown (``—``).
    """
    lines = ["| game | kind | horizon | cases | CP-SAT proven | CP-SAT median s | "
             "exhaustive done | exhaustive median s | ratio of the medians |",
             "|---|---|---|---|---|---|---|---|---|"]
    for row in summary:
        game = GAMES[row["game"]]
        cases = row["cases"]
        cpsat_open = row["optimal"] < cases
        exh_open = row["exhaustive_done"] < cases
        cpsat, exh = row["cpsat_median_s"], row["exhaustive_at_cap_median_s"]
        ratio = exh / max(cpsat, 1e-9)
        ratio_text = ("—" if cpsat_open and exh_open else
                      f"{'≥ ' if exh_open else '≤ ' if cpsat_open else ''}{ratio:.3g}")
        lines.append(f"| {game.short} | {row['kind']} | {game.horizon_text(row['horizon'])} "
                     f"| {cases} | {row['optimal']}/{cases} | {_bound(cpsat, cpsat_open)} "
                     f"| {row['exhaustive_done']}/{cases} | {_bound(exh, exh_open)} "
                     f"| {ratio_text} |")
    return "\n".join(lines) + "\n"


def _bound(seconds: float, at_least: bool) -> str:
    return f"{'≥ ' if at_least else ''}{seconds:.3g}"


def markdown_cases(records: list[Record]) -> str:
    """One Markdown row per case (docs/performance.md's case tables): an unproven value shows
    CP-SAT's proven bound (:func:`proven_text`), a capped exhaustive search ``> cap`` and
    the ratio as a lower bound (none when neither search finished); ``agree`` is ``no``
    for an unproven line below the exhaustive optimum, ``NO`` for a proven one that
    differs."""
    lines = ["| case | game | kind | cells | horizon | value | proven | CP-SAT s | "
             "exhaustive s | ratio | agree |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in records:
        if r.exhaustive_s is None:
            exhaustive = f"> {r.cap:g}"
            ratio = f"≥ {_ratio(r.cap / max(r.cpsat_s, 1e-9))}" if r.optimal else "—"
        else:
            exhaustive = f"{r.exhaustive_s:.3g}"
            ratio = "—" if r.ratio is None else _ratio(r.ratio)
        agree = {None: "—", True: "yes", False: "NO" if r.optimal else "no"}[r.agree]
        lines.append(f"| {r.case} | {r.game} | {r.kind} | {r.cells} | {horizon_text(r)} | "
                     f"{'/'.join(map(str, r.value)) or '—'} | "
                     f"{proven_text(r)} | {r.cpsat_s:.3g} | {exhaustive} | "
                     f"{ratio} | {agree} |")
    return "\n".join(lines) + "\n"


def _ratio(value: float) -> str:
    """Two significant figures, whole numbers from 100 on (no exponent)."""
    return f"{value:.2g}" if value < 100 else f"{value:.0f}"


def measured_text(result: dict[str, Any], records: list[Record]) -> str:
    """When and on what a run was measured, one Markdown paragraph: the date, the
    machine's cores, OR-tools, the workers and the limits."""
    caps = sorted({r.cap for r in records}) or [result["cap"]]
    cap = f"{caps[0]:g} s" if len(caps) == 1 else f"{caps[0]:g}–{caps[-1]:g} s"
    limits = sorted({r.time_limit for r in records if r.time_limit is not None})
    limit = result["time_limit"] if len(limits) < 2 else None
    spent = (f"{limits[0]:g}–{limits[-1]:g} s a case" if len(limits) > 1
             else "no time limit" if limit is None else f"{limit:g} s a case")
    machine = result.get("machine", {})
    return (f"*Measured on {result.get('date') or 'an unrecorded date'} with "
            f"`boardsat bench --suite {result['suite']}`: {machine.get('cores', '?')} cores, "
            f"OR-tools {machine.get('ortools', '?')}, {result['workers']} CP-SAT "
            f"worker{'s' if result['workers'] != 1 else ''}, "
            f"{spent}, the exhaustive "
            f"search capped at {cap}.*\n\n")


def fill_readme(text: str, name: str, medians: str, cases: str, where: str) -> str:
    """``text`` with the suite's blocks filled: ``medians`` between ``<!-- bench:NAME -->``
    and ``<!-- /bench:NAME -->``, ``cases`` between ``<!-- bench-cases:NAME -->`` and
    ``<!-- /bench-cases:NAME -->``; InputError naming ``where`` when neither pair nor a
    cross-suite overview block (:mod:`solver.bench.overview`) is there."""
    filled, found = text, has_overview(text)
    for marker, block in ((f"bench:{name}", medians), (f"bench-cases:{name}", cases)):
        pattern = re.compile(rf"(<!-- {re.escape(marker)} -->\n).*?(<!-- /{re.escape(marker)} -->)",
                             re.DOTALL)
        def between(m: re.Match[str], block: str = block) -> str:
            return m.group(1) + block + m.group(2)

        filled, count = pattern.subn(between, filled, count=1)
        found = found or count > 0
    if not found:
        raise InputError(f"no '<!-- bench:{name} -->' ... '<!-- /bench:{name} -->' "
                         f"markers to put the table between, and no bench-overview block",
                         path=where)
    return filled


def _seconds_of(run: dict[str, Any], clock: str) -> float:
    """A run's wall seconds (``clock`` ``wall``) or CPU seconds (``cpu``; wall when the
    run has none)."""
    seconds: float = (run["cpu_s"] if clock == "cpu" and run.get("cpu_s") is not None
                      else run["seconds"])
    return seconds


def _solver_seconds(run: dict[str, Any] | None, limit: float | None, clock: str) -> str:
    """A solver's column: seconds to its proof, ``>T`` when it stopped at the time limit
    (``≤B`` appended: its proven bound), ``—`` when it did not run."""
    if run is None:
        return "—"
    if run["status"] == "optimal":
        return f"{_seconds_of(run, clock):.2f}"
    if run["status"] == "infeasible":
        return "infeasible"
    if clock == "cpu":  # stopped by the wall-clock limit: the CPU seconds it had used
        stop = f">{_seconds_of(run, clock):.3g}"
    else:
        stop = f">{limit:g}" if limit is not None else ">?"
    return stop if run.get("bound") is None else f"{stop} ≤{run['bound']}"


def solver_ratio(run: dict[str, Any] | None, base: dict[str, Any] | None,
                 limit: float | None, clock: str = "wall") -> str:
    """``seconds / CP-SAT seconds`` on the same model: how many times longer than CP-SAT;
    a bound (``>``, ``<``) when one of the two stopped at the time limit, ``—`` when both
    did (or one did not run)."""
    if run is None or base is None:
        return "—"
    mine = _seconds_of(run, clock) if run["status"] == "optimal" else None
    theirs = _seconds_of(base, clock) if base["status"] == "optimal" else None
    if mine is not None and theirs is not None:
        return _ratio(mine / max(theirs, 1e-3))
    if mine is None and theirs is None:
        return "—"
    if clock == "cpu":  # a run stopped by the limit had used this much CPU time
        stopped = _seconds_of(run if mine is None else base, clock)
    elif limit is None:
        return "—"
    else:
        stopped = limit
    if mine is None:
        return f">{_ratio(stopped / max(theirs or 0.0, 1e-3))}"
    return f"<{_ratio(mine / max(stopped, 1e-3))}"


def proven_value(record: Record) -> str:
    """The case's value as the solvers proved it (else the CP-SAT solve path's), ``/``-joined."""
    for run in record.solvers.values():
        if run["status"] == "optimal" and run["value"]:
            return "/".join(map(str, run["value"]))
    return "/".join(map(str, record.value)) or "—"


def solver_rows(records: list[Record], solvers: Sequence[str], limit: float | None,
                clock: str = "wall") -> tuple[list[str], list[list[str]]]:
    """The headers and rows of the solvers' table (:func:`solvers_table`,
    :func:`markdown_solvers`): wall seconds (``clock`` ``wall``, with boardsat's own
    solve path) or CPU seconds (``cpu``)."""
    from solver.bench.solvers import TITLES
    headers = ["case", "value"] + (["solve s"] if clock == "wall" else [])
    unit = "s" if clock == "wall" else "CPU s"
    for name in solvers:
        headers.append(f"{TITLES[name]} {unit}")
        if name != "cp-sat" and "cp-sat" in solvers:
            headers.append("×")
    rows = []
    for r in records:
        base = r.solvers.get("cp-sat")
        row = [r.case, proven_value(r)]
        if clock == "wall":
            row.append(f"{r.cpsat_s:.2f}" if r.optimal else
                       f">{limit:g}" if limit is not None else "—")
        for name in solvers:
            run = r.solvers.get(name)
            row.append(_solver_seconds(run, limit, clock))
            if name != "cp-sat" and "cp-sat" in solvers:
                row.append(solver_ratio(run, base, limit, clock))
        rows.append(row)
    return headers, rows


def solver_counts(records: list[Record], solvers: Sequence[str]) -> str:
    """``proven: CP-SAT 15/16, HiGHS 9/16``."""
    from solver.bench.solvers import TITLES
    return "proven: " + ", ".join(
        f"{TITLES[name]} {sum(r.solvers.get(name, {}).get('status') == 'optimal' for r in records)}"
        f"/{len(records)}" for name in solvers)


def solvers_table(records: list[Record], solvers: Sequence[str], limit: float | None) -> Table:
    """One row per case: the proven value, the CP-SAT solve path's seconds, each solver's
    seconds on the case's one model and the ratio to CP-SAT's there."""
    headers, rows = solver_rows(records, solvers, limit)
    kinds = ["name", *["number"] * (len(headers) - 1)]
    for row in rows:
        row[0] = wrap_name(row[0])
    return _table("Solvers on the same model", "seconds to a proven optimum; solve: boardsat's "
                  f"own solve path; >T: not proven within the time limit T (≤B: the proven "
                  f"bound); ×: that solver's seconds / CP-SAT's on the same model; "
                  f"{solver_counts(records, solvers)}",
                  list(zip(headers, kinds, strict=True)), rows)


def markdown_solvers(records: list[Record], solvers: Sequence[str], limit: float | None) -> str:
    """The solvers' table as Markdown (docs/performance.md), in CPU seconds: the figures
    hold on a machine busy with other work, where wall seconds do not (a run the
    wall-clock limit stopped shows the CPU seconds it had used: ``> C``)."""
    headers, rows = solver_rows(records, solvers, limit, clock="cpu")
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(cell.replace(">", "> ").replace("<", "< ") for cell in row)
              + " |" for row in rows]
    return "\n".join(lines) + "\n\n" + solver_counts(records, solvers) + "\n"


def fill_solvers(text: str, name: str, table: str, where: str) -> str:
    """``text`` with ``table`` between ``<!-- bench-solvers:NAME -->`` and
    ``<!-- /bench-solvers:NAME -->``; InputError naming ``where`` when that pair is not
    there (a ``--solvers`` run fills only these: the other tables come from plain runs)."""
    marker = f"bench-solvers:{name}"
    pattern = re.compile(rf"(<!-- {re.escape(marker)} -->\n).*?(<!-- /{re.escape(marker)} -->)",
                         re.DOTALL)
    filled, count = pattern.subn(lambda m: m.group(1) + table + m.group(2), text, count=1)
    if not count:
        raise InputError(f"no '<!-- {marker} -->' ... '<!-- /{marker} -->' markers to put the "
                         "solvers' table between", path=where)
    return filled
