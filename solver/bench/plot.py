"""The benchmark plot: solve time against board size and against turns/draws, log scale."""

from __future__ import annotations

import os
import statistics
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402  (after choosing the file backend)
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

from solver.bench.overview import OverviewRow  # noqa: E402
from solver.bench.runner import Record  # noqa: E402
from solver.games import GAMES  # noqa: E402


def _horizon(record: Record) -> float:
    """x of the right panel: the case's horizon (turns, draw budget), else the answer's length."""
    if record.horizon is not None:
        return record.horizon
    return record.length


def cpsat_style(optimal: bool, colour: str) -> tuple[dict[str, Any], str, str]:
    """How a CP-SAT point is drawn: ``(scatter keywords, legend key, legend words)``.

    A run stopped at the time limit is a cross, never the filled circle of a
    proven optimum, so an unproven time never reads as a solve time.
    """
    if optimal:
        return {"color": colour, "marker": "o"}, "c", "CP-SAT"
    return ({"color": colour, "marker": "x", "s": 60, "linewidths": 1.8}, "u",
            "CP-SAT not proven (time limit)")


def plot_records(records: list[Record], path: Path, title: str = "") -> None:
    """Write a PNG with two log-scale panels: time vs cells, time vs turns/draws.

    Filled circles: CP-SAT (proven optimum); crosses: CP-SAT stopped at the time
    limit without a proof; hollow squares: exhaustive search; a triangle at the
    cap marks an exhaustive search that was capped.
    """
    fig, axes = plt.subplots(1, 2, figsize=(12, 5.6), layout="constrained")
    panels = ((axes[0], lambda r: r.cells, "board size (cells)"),
              (axes[1], _horizon, _horizon_label(records)))
    for ax, x_of, label in panels:
        seen: set[str] = set()
        for r in records:
            colour = GAMES[r.game].plot_colours.get(r.kind, "tab:gray")
            group = f"{GAMES[r.game].short} {r.kind}"
            x = x_of(r)
            style, tag, what = cpsat_style(r.optimal, colour)
            ax.scatter([x], [r.cpsat_s], **style,
                       label=f"{group} {what}" if group + tag not in seen else None)
            seen.add(group + tag)
            if r.exhaustive_s is not None:
                ax.scatter([x], [r.exhaustive_s], facecolors="none", edgecolors=colour,
                           marker="s", label=f"{group} exhaustive" if group + "e" not in seen
                           else None)
                seen.add(group + "e")
            else:
                ax.scatter([x], [r.cap], color=colour, marker="^", alpha=0.6,
                           label=f"{group} exhaustive capped" if group + "x" not in seen
                           else None)
                seen.add(group + "x")
        ax.set_yscale("log")
        ax.set_xlabel(label)
        ax.set_ylabel("seconds (log)")
        ax.grid(True, which="both", alpha=0.3)
    handles, labels = axes[1].get_legend_handles_labels()
    fig.legend(handles, labels, fontsize=7, loc="outside lower center", ncols=3,
               frameon=False)  # below the panels: never over a point
    _save(fig, path, title)


def _horizon_label(records: list[Record]) -> str:
    """The x label of a horizon axis: the units of the games in ``records``."""
    return " / ".join(f"{game.horizon_unit} ({game.short})" for game in GAMES.values()
                      if any(r.game == game.key for r in records))


def plot_horizons(records: list[Record], path: Path, title: str = "") -> None:
    """Write a PNG of time against horizon (turns, draws), log scale, one line per method.

    Points as in :func:`plot_records` (circle proven, cross not proven, square
    exhaustive, triangle at the cap: capped); the lines join each game's medians per
    horizon, an unproven run counted at its time. The exhaustive search's line runs only
    through the horizons where most of its searches finished: where most were capped
    their median is only a floor, and a line there would sit under CP-SAT's as if the
    search had been faster (the triangles show those caps).
    """
    fig, ax = plt.subplots(figsize=(10, 4.8), layout="constrained")
    groups: dict[tuple[str, str], list[Record]] = {}
    for r in records:
        groups.setdefault((r.game, r.kind), []).append(r)
    for (game, kind), group in groups.items():
        colour = GAMES[game].plot_colours.get(kind, "tab:gray")
        name = f"{GAMES[game].short} {kind}"
        seen: set[str] = set()
        for r in group:
            x = _horizon(r)
            style, tag, what = cpsat_style(r.optimal, colour)
            ax.scatter([x], [r.cpsat_s], **style, zorder=3,
                       label=f"{name} {what}" if tag not in seen else None)
            seen.add(tag)
            if r.exhaustive_s is not None:
                ax.scatter([x], [r.exhaustive_s], facecolors="none", edgecolors="black",
                           marker="s", zorder=3,
                           label=f"{name} exhaustive" if "e" not in seen else None)
                seen.add("e")
            else:
                ax.scatter([x], [r.cap], color="black", marker="^", alpha=0.6, zorder=3,
                           label=f"{name} exhaustive capped" if "x" not in seen else None)
                seen.add("x")
    # the medians per game, across its kinds: a game whose kinds differ in horizon
    # (KOSMOS: one round or two) gets one line through them
    for game in dict.fromkeys(r.game for r in records):
        mine = [r for r in records if r.game == game]
        kinds = list(dict.fromkeys(r.kind for r in mine))
        colour = GAMES[game].plot_colours.get(kinds[0], "tab:gray")
        xs = sorted({_horizon(r) for r in mine})
        finished = [x for x in xs if _mostly_finished([r for r in mine if _horizon(r) == x])]
        for method, colour_of_line, seconds, at in (
                ("CP-SAT", colour, _cpsat_seconds, xs),
                ("exhaustive", "black", _exhaustive_seconds, finished)):
            if not at:
                continue
            medians = [statistics.median(seconds(r) for r in mine if _horizon(r) == x)
                       for x in at]
            # a bar at each median: a line through one horizon alone would not show
            ax.plot(at, medians, color=colour_of_line, linestyle="--", linewidth=1,
                    marker="_", markersize=14,
                    label=f"{GAMES[game].short} {' / '.join(kinds)} {method} median")
    ax.set_xticks(sorted({_horizon(r) for r in records}))
    ax.set_yscale("log")
    ax.set_xlabel(_horizon_label(records))
    ax.set_ylabel("seconds (log)")
    ax.grid(True, which="both", alpha=0.3)
    fig.legend(fontsize=7, loc="outside right upper", frameon=False)  # never over a point
    ax.set_title(title)  # over the axes: a figure title would run under the legend
    _save(fig, path, "")


WIN, LOSS, OPEN = "#1b7837", "#c2410c", "#9e9e9e"
"""Overview bar colours: CP-SAT faster, slower, neither search finished (each bar is
also labelled in words, so the plot reads in greyscale)."""


def plot_overview(rows: list[OverviewRow], path: Path) -> None:
    """Write a PNG of where CP-SAT wins and loses: per group one bar from 1 to the ratio
    exhaustive / CP-SAT on a log scale (right: CP-SAT faster, left: slower), labelled
    with the verdict; a bound is drawn hatched; a group where neither search finished
    every case gets no bar, only its words."""
    fig, ax = plt.subplots(figsize=(10, 0.42 * len(rows) + 1.6), layout="constrained")
    ratios = [row.verdict.ratio for row in rows if row.verdict.ratio is not None]
    low, high = min([*ratios, 0.5]) / 15, max([*ratios, 2]) * 15
    for y, row in enumerate(rows):
        ratio = row.verdict.ratio
        if ratio is None:
            ax.text(1, y, f"  {row.verdict.text(row.proven, row.exhaustive_done)} (CP-SAT "
                    f"proves {row.proven}/{row.cases}, exhaustive {row.exhaustive_done}/"
                    f"{row.cases})", va="center", ha="left", fontsize=8, color="black")
            continue
        left, width = (1, ratio - 1) if ratio >= 1 else (ratio, 1 - ratio)
        ax.barh(y, width, left=left, color=WIN if ratio >= 1 else LOSS, height=0.6,
                hatch="//" if row.verdict.bound else None, edgecolor="white")
        x, align = (ratio, "left") if ratio >= 1 else (ratio, "right")
        ax.text(x, y, f" {row.verdict.text()} ", va="center", ha=align, fontsize=8)
    ax.set_yticks(range(len(rows)),
                  [f"{row.game} {row.kind}, {row.horizon} ({row.cells} cells)" for row in rows],
                  fontsize=8)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlim(low, high)
    ax.axvline(1, color="black", linewidth=0.8)
    ax.set_xlabel("exhaustive search time / CP-SAT time (median; log scale; "
                  "hatched: a bound, some run stopped at its limit)", fontsize=8)
    ax.grid(True, axis="x", which="major", alpha=0.3)
    _save(fig, path, "Where CP-SAT wins (right of 1) and loses (left)")


def _cpsat_seconds(record: Record) -> float:
    """CP-SAT's time."""
    return record.cpsat_s


def _mostly_finished(records: list[Record]) -> bool:
    """True when more than half of the records' exhaustive searches finished (their
    median is then a time, not a cap)."""
    return 2 * sum(r.exhaustive_s is not None for r in records) > len(records)


def _exhaustive_seconds(record: Record) -> float:
    """The search's time, or its cap when it was capped."""
    return record.cap if record.exhaustive_s is None else record.exhaustive_s


def _save(fig: Figure, path: Path, title: str) -> None:
    """Write ``fig`` as a PNG at ``path`` (atomically) and close it."""
    if title:
        fig.suptitle(title)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp.png")
    try:
        fig.savefig(tmp, dpi=110)
        os.replace(tmp, path)  # atomic: readers never see half a PNG
    finally:
        tmp.unlink(missing_ok=True)
        plt.close(fig)


SOLVER_STYLES = {"cp-sat": ("tab:blue", "-"), "highs": ("tab:red", "--"),
                 "scip": ("tab:green", "-.")}
"""Colour and line style of each solver in the cactus plot."""


def plot_cactus(records: list[Record], solvers: list[str], path: Path, title: str = "",
                limit: float | None = None) -> None:
    """Write a PNG cactus plot: for each solver, the cases it proved (x, counted in order
    of its solve times) against the CPU seconds they took (y, log scale; wall seconds
    for a run that has none); the solver whose line reaches further right within the
    same time proved more. A dotted line marks the (wall-clock) time limit."""
    from solver.bench.solvers import TITLES
    fig, ax = plt.subplots(figsize=(8, 4.8), layout="constrained")
    lines = [(name, f"{TITLES[name]} on the one model",
              [run["seconds"] if run.get("cpu_s") is None else run["cpu_s"]
               for r in records if (run := r.solvers.get(name, {})).get("status") == "optimal"])
             for name in solvers]
    for key, label, times in lines:
        colour, style = SOLVER_STYLES[key]
        ordered = sorted(max(t, 1e-3) for t in times)
        ax.plot(range(1, len(ordered) + 1), ordered, color=colour, linestyle=style, marker="o",
                markersize=3, label=f"{label}: {len(ordered)}/{len(records)}")
    if limit is not None:
        ax.axhline(limit, color="gray", linestyle=":", linewidth=1,
                   label=f"time limit {limit:g} s (wall clock)")
    ax.set_yscale("log")
    ax.set_xlim(0, len(records) + 0.5)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("cases proven optimal")
    ax.set_ylabel("CPU seconds (log)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="upper left")
    _save(fig, path, title)
