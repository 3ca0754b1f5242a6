"""``review --plot``: each player's score over the game, as played and with the losses
added back (what the best turn every time would have given, turn by turn)."""

from __future__ import annotations

from pathlib import Path

from matplotlib.figure import Figure

from solver.drawing.output import save
from solver.drawing.palette import player as fill
from solver.errors import InputError
from solver.review.report import Row, number_of, rows_of
from solver.review.run import Reviewed

STEP_LABEL = {True: "turn", False: "round"}


def series(reviewed: Reviewed, colour: str) -> tuple[list[int], list[int], list[int]]:
    """``(x, played, best)`` of ``colour``: its turns' (rounds') numbers, its score after
    each as played, and that score plus every loss so far. Rows not reviewed add no
    loss; rounds count only the objective that counts points."""
    xs: list[int] = []
    played: list[int] = []
    best: list[int] = []
    lost = 0
    rows: list[Row] = [r for r in rows_of(reviewed) if r.player == colour
                       and getattr(r, "in_total", True)]
    for row in rows:
        lost += max(0, row.loss or 0)
        xs.append(number_of(row))
        played.append(row.score)
        best.append(row.score + lost)
    return xs, played, best


def write_plot(reviewed: Reviewed, path: Path) -> None:
    """Write the plot as PNG (the file name must end in .png)."""
    if path.suffix.lower() != ".png":
        raise InputError("the plot is written as PNG: the file name must end in .png",
                         path=path)
    by_turn = bool(reviewed.review.turns)
    fig = Figure(figsize=(8, 4.5))
    ax = fig.add_subplot()
    for colour in reviewed.review.players:
        xs, played, best = series(reviewed, colour)
        if not xs:
            continue
        ink = fill(colour)
        ax.plot(xs, played, color=ink, linewidth=2, marker="o", markersize=3,
                label=f"{colour} as played")
        ax.plot(xs, best, color=ink, linewidth=1.5, linestyle="--",
                label=f"{colour} + points lost")
        ax.fill_between(xs, played, best, color=ink, alpha=0.12, linewidth=0)
    step = STEP_LABEL[by_turn]
    ax.set_xlabel(step + (" of the game" if by_turn else " (score at its pass)"))
    ax.set_ylabel("score" if by_turn else "VP")
    ax.set_title(f"{Path(reviewed.review.record).name}: score as played against best "
                 f"(the gap: points lost, {step} by {step})", fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    save(fig, path)
