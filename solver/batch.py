"""Solve or verify many position files: one JSON object per file, in the files' order.

The client reads every file; a task gets the file's name and text (never a path
to open on another machine), runs the game's ``solve --json`` or ``verify --json``
on it (:func:`solver.tomlfile.supplied_texts` lets the usual readers see the
text under the file's own name, so messages name the file as given) and returns
the JSON object with the file name in front. Bad input, a disagreement or no answer in
time becomes that file's error object (:class:`~solver.errors.Failure`) instead of
stopping the batch.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator, Mapping, Sequence
from contextlib import closing, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solver.cpsat import SolveParams
from solver.errors import (
    EXIT_DISAGREE,
    EXIT_INTERRUPTED,
    EngineDisagreement,
    Failure,
    InputError,
    NoAnswer,
    failure,
)
from solver.executor import Executor, in_order
from solver.games import check_options, game_of, require_command
from solver.protocol import Shown
from solver.tomlfile import read_text, supplied_texts

OPTION_DEFAULTS: Mapping[str, Any] = {"turns": None, "draws": None,
                                      "stops_block_all_colours": False}
"""The game options ``batch`` passes on (as ``solve``/``verify`` take them), unset."""


class _Captured:
    """A :class:`solver.protocol.Screen` that keeps the one JSON object and drops the rest."""

    def __init__(self) -> None:
        self.obj: dict[str, Any] | None = None

    def print(self, *renderables: Any) -> None:
        """Dropped (a JSON command prints nothing else on standard output)."""

    def note(self, *renderables: Any) -> None:
        """Dropped."""

    def json(self, obj: Any) -> None:
        """Kept: the command's answer."""
        self.obj = obj

    def status(self, text: str) -> nullcontext[_Silent]:
        """No spinner in a task."""
        return nullcontext(_Silent())


class _Silent:
    def update(self, text: str) -> None:
        """Ignored."""


@dataclass(frozen=True)
class Job:
    """One file of a batch: what travels to a worker."""

    name: str
    text: str | None
    """The file's text, or None when the client could not read it (``error`` says why)."""
    error: Failure | None = None


def check_file(job: Job, verify: bool, options: Mapping[str, Any],
               params: SolveParams) -> dict[str, Any]:
    """Solve (or verify) one file; its ``--json`` object, or an error object. Runs in a task."""
    if job.text is None:
        assert job.error is not None
        return job.error.as_json() | {"file": job.name}
    command = "verify" if verify else "solve"
    path = Path(job.name)
    screen = _Captured()
    try:
        with supplied_texts({job.name: job.text}):
            game = game_of(path)
            require_command(game, command, path)
            given = {k: v for k, v in options.items() if v is not None and v is not False}
            check_options(game, command, given, path)
            accepted = game.options.get(command, frozenset())
            taken = {k: v for k, v in options.items() if k in accepted}
            if verify:
                status = game.verify(path, taken, True, screen)
            else:
                status = game.solve(path, taken, params, True, screen, Shown())
    except (InputError, EngineDisagreement, NoAnswer) as exc:
        return failure(exc, job.name).as_json() | {"file": job.name}  # the file as given
    return {"file": job.name, **(screen.obj or {}), "status": status}


def read_jobs(files: Sequence[Path]) -> Iterator[Job]:
    """The files' texts, read here (lazily, one per task submitted)."""
    for file in files:
        try:
            yield Job(str(file), read_text(file))
        except InputError as exc:
            yield Job(str(file), None, failure(exc, file))


def run_batch(files: Sequence[Path], verify: bool, options: Mapping[str, Any],
              params: SolveParams, executor: Executor
              ) -> Generator[list[dict[str, Any]], None, None]:
    """For each task as it completes, the objects now next in the order of ``files`` (often []).

    Closing the iterator early (Ctrl-C) cancels the outstanding tasks.
    """
    tasks = ((job, verify, dict(options), params) for job in read_jobs(files))
    with closing(executor.map_unordered(check_file, tasks)) as dones:
        for ready in in_order(dones):
            yield [done.value for done in ready]


def batch_status(statuses: Sequence[int], interrupted: bool = False) -> int:
    """The exit status of a batch whose files gave ``statuses``.

    1 when any file gave 1 (the engine disagreed with the solver, or with
    ``--verify`` a solution does not hold): a wrong answer is never hidden
    behind another file's bad input or time limit, nor behind Ctrl-C. Else
    130 after Ctrl-C, else the highest status (2 bad input, 3 no answer in
    time), 0 when every file is done.
    """
    if EXIT_DISAGREE in statuses:
        return EXIT_DISAGREE
    if interrupted:
        return EXIT_INTERRUPTED
    return max(statuses, default=0)
