"""``review --sheet``: the costliest turns (rounds) of a review on A4 pages, each drawn as
``boardsat sheet`` draws its answers: the turn played and the best one on the board
before them (the game's :meth:`~solver.protocol.Game.review_pictures`)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from solver.drawing.layout import Words, page_figure
from solver.drawing.output import pdf_book
from solver.games import get
from solver.review.report import rows_of, worst
from solver.review.run import Reviewed


def write_sheet(reviewed: Reviewed, path: Path, count: int) -> int:
    """Write the ``count`` costliest turns to the PDF ``path``, a page each; returns the
    page count (a page saying so when no turn lost points)."""
    game = get(reviewed.review.game)
    rows = worst(rows_of(reviewed), count)
    name = Path(reviewed.review.record).name
    with pdf_book(path) as book:
        if not rows:
            from matplotlib.figure import Figure
            fig = Figure(figsize=(8.27, 11.69))
            fig.text(0.5, 0.6, f"{name}: no turn lost points", ha="center", fontsize=16)
            book.savefig(fig)
            return 1
        for page, row in enumerate(rows, start=1):
            blocks = [(replace(scene, keys=[] if index else scene.keys),
                       [Words(heading, 12, bold=index == 0)])
                      for index, (scene, heading) in
                      enumerate(game.review_pictures(reviewed.record, row))]
            book.savefig(page_figure(blocks, f"Review of {name}",
                                     f"{page} of {len(rows)} costliest"))
    return len(rows)
