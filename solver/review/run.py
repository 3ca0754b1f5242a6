"""Running a review: the record replayed, the game's solves spread over an executor.

The solves are independent tasks (:meth:`solver.protocol.Game.review_tasks`); they
run in local processes or on a Dask cluster like ``batch``'s, and come back in task
order, so a review is the same wherever it ran. Ctrl-C keeps what was reviewed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solver.cpsat import SolveParams, interrupt
from solver.executor import Executor
from solver.games import get
from solver.protocol import GameRecord, Review
from solver.records import replay

Progress = Callable[[int, int], None]
"""Called with ``(tasks done, tasks in all)``."""


@dataclass(frozen=True)
class Reviewed:
    """A review and how it ran."""

    review: Review
    record: GameRecord
    tasks: int
    done: int
    """Tasks that finished (fewer than :attr:`tasks` after Ctrl-C)."""
    wall_s: float

    @property
    def interrupted(self) -> bool:
        """True when Ctrl-C ended the review before every task was done."""
        return self.done < self.tasks


def run_task(fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
    """One task of a review (what an executor runs: ``fn(*args)``)."""
    return fn(*args)


def review_record(path: Path, params: SolveParams, executor: Executor,
                  progress: Progress | None = None,
                  replayed: Callable[[GameRecord, int], None] | None = None) -> Reviewed:
    """Review the record at ``path``: its game's solves on ``executor`` with ``params``
    (each solve its own time limit). ``replayed(record, tasks)`` is told before the
    solving starts. Ctrl-C ends the solving and keeps the tasks done."""
    start = time.perf_counter()
    record = replay(path, "review")
    game = get(record.game)
    tasks = game.review_tasks(record, params)
    if replayed:
        replayed(record, len(tasks))
    results: list[Any] = [None] * len(tasks)
    done = 0
    try:
        with interrupt.ctrl_c_in_imports(), \
                closing(executor.map_unordered(run_task, ((t.fn, t.args) for t in tasks))) as dones:
            for finished in dones:
                results[finished.index] = finished.value
                done += 1
                if progress:
                    progress(done, len(tasks))
    except KeyboardInterrupt:
        pass
    review = game.review_result(record, results)
    return Reviewed(review, record, len(tasks), done, time.perf_counter() - start)
