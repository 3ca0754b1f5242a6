"""Where CP-SAT wins and loses, across suites: one table and one plot from saved runs.

A Markdown file asks for the overview with a marker that names the saved runs to
read and the plot to draw::

    <!-- bench-overview plot=benchmarks/results/overview.png from=benchmarks/results/depth.json -->
    <!-- /bench-overview -->

``from`` lists saved runs (``bench --save`` files), separated by commas, read in that
order. Each run contributes the groups (game, kind, horizon) its suite file picks
with ``[suite] overview`` (all of them when the key is absent). ``boardsat bench``
refills the block, and redraws the plot, whenever it writes into such a file, so a
new run of any listed suite shows up there once it is saved.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from solver.bench.runner import Record, load_report, summary
from solver.bench.suite import load_suite, suite_file
from solver.errors import InputError
from solver.games import GAMES
from solver.paths import REPO_ROOT

MARKER = re.compile(r"(<!-- bench-overview (?P<args>[^>]*?) -->\n).*?(<!-- /bench-overview -->)",
                    re.DOTALL)


@dataclass(frozen=True)
class Verdict:
    """How CP-SAT compares with the exhaustive search on one group of cases.

    ``ratio`` is exhaustive time / CP-SAT time over the medians (a run stopped at
    the time limit or the cap counted at that time); ``bound`` says which way it
    is only a bound: ``"at least"``, ``"at most"``, or ``""`` when exact. ``ratio``
    is None when neither search finished every case.
    """

    ratio: float | None
    bound: str

    def text(self, proven: int = 0, exhaustive_done: int = 0) -> str:
        """``2.6× faster``, ``≥ 78× faster``, ``12× slower``, ``≥ 6.8× slower``; when
        neither search finished every case, who finished more (``proven`` CP-SAT
        proofs against ``exhaustive_done`` exhaustive searches)."""
        if self.ratio is None:
            return ("ahead: proves more" if proven > exhaustive_done else
                    "behind: proves fewer" if proven < exhaustive_done else
                    "neither in time")
        faster = self.ratio >= 1
        factor = self.ratio if faster else 1 / self.ratio
        sign = {"": "", "at least": "≥ " if faster else "≤ ",
                "at most": "≤ " if faster else "≥ "}[self.bound]
        return f"{sign}{factor:.2g}× {'faster' if faster else 'slower'}"


@dataclass(frozen=True)
class OverviewRow:
    """One group of one saved run: a kind of puzzle at one horizon."""

    game: str
    kind: str
    horizon: str
    cells: str
    cases: int
    proven: int
    cpsat_median_s: float
    exhaustive_done: int
    exhaustive_median_s: float
    verdict: Verdict
    suite: str
    date: str


def _seconds(value: float, at_least: bool) -> str:
    """Two significant figures below 10 s, whole seconds above."""
    number = f"{value:.2g}" if value < 10 else f"{value:.0f}"
    return f"{'≥ ' if at_least else ''}{number} s"


def _cells(records: list[Record]) -> str:
    low, high = min(r.cells for r in records), max(r.cells for r in records)
    return f"{low}" if low == high else f"{low}–{high}"


def _picked(picks: tuple[str, ...], game: str, kind: str, horizon: str) -> bool:
    """Whether the suite's ``overview`` entries pick this group: an entry is a prefix of
    ``game kind horizon`` (``"terra-nova"``, ``"rift-valley max-score 8 draws"``)."""
    label = f"{game} {kind} {horizon}"
    return not picks or any(label == p or label.startswith(p + " ") for p in picks)


def rows_of_run(path: Path) -> list[OverviewRow]:
    """The overview rows of one saved run (its suite's ``overview`` picks)."""
    result, records = load_report(path)
    shipped = suite_file(result["suite"])
    picks = load_suite(shipped).overview if shipped.is_file() else ()
    rows = []
    for group in summary(records):
        game = GAMES[group["game"]]
        horizon = game.horizon_text(group["horizon"])
        if not _picked(picks, group["game"], group["kind"], horizon):
            continue
        members = [r for r in records if (r.game, r.kind, r.horizon) ==
                   (group["game"], group["kind"], group["horizon"])]
        cases = group["cases"]
        cpsat_open = group["optimal"] < cases
        exh_open = group["exhaustive_done"] < cases
        cpsat, exh = group["cpsat_median_s"], group["exhaustive_at_cap_median_s"]
        ratio = None if cpsat_open and exh_open else exh / max(cpsat, 1e-9)
        bound = "at least" if exh_open else "at most" if cpsat_open else ""
        rows.append(OverviewRow(game.short, group["kind"], horizon, _cells(members), cases,
                                group["optimal"], cpsat, group["exhaustive_done"], exh,
                                Verdict(ratio, bound), result["suite"],
                                result.get("date", "")))
    return rows


def overview_markdown(rows: list[OverviewRow]) -> str:
    """The overview as a Markdown table, one row per group."""
    lines = ["| game | puzzle | horizon | cells | CP-SAT proves | CP-SAT median | "
             "exhaustive ends | exhaustive median | CP-SAT is | measured |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for row in rows:
        lines.append(
            f"| {row.game} | {row.kind} | {row.horizon} | {row.cells} "
            f"| {row.proven}/{row.cases} | {_seconds(row.cpsat_median_s, row.proven < row.cases)} "
            f"| {row.exhaustive_done}/{row.cases} "
            f"| {_seconds(row.exhaustive_median_s, row.exhaustive_done < row.cases)} "
            f"| {row.verdict.text(row.proven, row.exhaustive_done)} "
            f"| {row.date or '—'}, {row.suite} suite |")
    return "\n".join(lines) + "\n"


def _arguments(args: str, where: str) -> tuple[Path, list[Path]]:
    """``plot=PATH from=A,B`` of a marker, paths relative to the repository."""
    found = dict(re.findall(r"(\w+)=(\S+)", args))
    if "plot" not in found or "from" not in found:
        raise InputError("a '<!-- bench-overview ... -->' marker needs plot=PNG and "
                         "from=RUN.json[,RUN.json...]", path=where)
    return REPO_ROOT / found["plot"], [REPO_ROOT / p for p in found["from"].split(",")]


def has_overview(text: str) -> bool:
    """Whether ``text`` holds a bench-overview block."""
    return MARKER.search(text) is not None


def fill_overview(text: str, where: str) -> str:
    """``text`` with its bench-overview block refilled from the saved runs it names,
    and its plot redrawn (:func:`solver.bench.plot.plot_overview`)."""
    from solver.bench.plot import plot_overview
    match = MARKER.search(text)
    if match is None:
        return text
    plot, runs = _arguments(match.group("args"), where)
    order = [game.short for game in GAMES.values()]
    rows = sorted((row for run in runs for row in rows_of_run(run)),
                  key=lambda row: order.index(row.game))
    plot_overview(rows, plot)
    return text[:match.start()] + match.group(1) + overview_markdown(rows) + match.group(3) \
        + text[match.end():]
