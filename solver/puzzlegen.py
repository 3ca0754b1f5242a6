"""The game-neutral puzzle generator driver: seeds, processes, ordering, files.

Candidate ``i`` of a run gets its own seed derived from the master seed
(:func:`candidate_seed`), so a candidate's outcome does not depend on which
process or machine ran it or when. Candidates run on an executor
(:mod:`solver.executor`: local processes, or a Dask cluster), but their
results are taken strictly in candidate order; the first ``count`` kept
puzzles (unique optimum, and the requested difficulty if any) are written by
this process, each file atomically, so the same seed always gives the same
files and an interrupted run leaves only complete files behind.

Each game (:mod:`solver.games`) provides ``make_puzzle(seed, kind, turns) ->
Made | None`` (None: the candidate was rejected), its puzzle kinds and the
checks of a request.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from contextlib import closing, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solver.errors import InputError
from solver.executor import Executor, LocalExecutor, in_order
from solver.games import GAMES
from solver.protocol import Made
from solver.tomlfile import atomic_write_text, make_folder

DIFFICULTIES = ("easy", "medium", "hard")

MAX_CANDIDATES_PER_PUZZLE = 400
"""Give up after this many candidates per requested puzzle (a request that cannot be met)."""


@dataclass(frozen=True)
class Request:
    """What to generate."""

    game: str
    kind: str
    turns: int
    count: int
    seed: int
    out: Path
    difficulty: str | None = None
    workers: int = 1


@dataclass(frozen=True)
class Written:
    """One file written by :func:`generate`."""

    path: Path
    candidate: int
    difficulty: str
    signals: dict[str, Any]


def candidate_seed(master: int, index: int) -> int:
    """The seed of candidate ``index`` of a run with seed ``master`` (stable across runs)."""
    digest = hashlib.sha256(f"boardsat-generate:{master}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def check_request(request: Request) -> None:
    """InputError for a game, kind or turn count the generator does not make."""
    if request.game not in GAMES:
        raise InputError(f"unknown game {request.game!r} (games: {', '.join(GAMES)})")
    game = GAMES[request.game]
    if request.kind not in game.kinds:
        raise InputError(f"{request.game} puzzles are of kind {' or '.join(game.kinds)}"
                         f", not {request.kind!r}")
    game.check_generate(request.kind, request.turns)
    if request.difficulty is not None and request.difficulty not in DIFFICULTIES:
        raise InputError(f"difficulty must be one of {', '.join(DIFFICULTIES)}")


def run_candidate(game: str, seed: int, kind: str, turns: int) -> Made | None:
    """Make (or reject) one candidate; the function the worker processes run."""
    return GAMES[game].make_puzzle(seed, kind, turns)


def file_name(request: Request, index: int) -> str:
    """``tn-closing2-s7-c00012.toml``: game, kind (and turns), master seed, candidate."""
    game = GAMES[request.game]
    kind = game.puzzle_label(request.kind, request.turns)
    return f"{game.prefix}-{kind}-s{request.seed}-c{index:05d}.toml"


def _tasks(request: Request) -> Iterator[tuple[str, int, str, int]]:
    """The arguments of :func:`run_candidate` for every candidate the run may try."""
    for index in range(request.count * MAX_CANDIDATES_PER_PUZZLE):
        yield (request.game, candidate_seed(request.seed, index), request.kind, request.turns)


def generate(request: Request, progress: Callable[[int, int], None] | None = None,
             executor: Executor | None = None) -> list[Written]:
    """Generate ``request.count`` unique puzzles into ``request.out``; returns what was written.

    Candidates run on ``executor`` (default: ``request.workers`` local
    processes); ``progress(kept, tried)`` is called as each one completes.
    Raises InputError when :data:`MAX_CANDIDATES_PER_PUZZLE` candidates per
    puzzle did not suffice.
    """
    check_request(request)
    make_folder(request.out)
    with (nullcontext(executor) if executor is not None
          else LocalExecutor(request.workers)) as runner, \
            closing(runner.map_unordered(run_candidate, _tasks(request))) as results:
        written: list[Written] = []
        tried = 0
        for ready in in_order(results):
            tried += 1
            for done in ready:
                _keep(request, done.index, done.value, written)
                if len(written) == request.count:
                    break
            if progress:
                progress(len(written), tried)
            if len(written) == request.count:
                return written
    raise InputError(f"only {len(written)} of {request.count} puzzles after {tried} candidates; "
                     f"try another seed or difficulty")


def _keep(request: Request, index: int, made: Made | None, written: list[Written]) -> None:
    """Write candidate ``index``'s puzzle (atomically) when it is kept; note it in ``written``."""
    if made is None or request.difficulty not in (None, made.difficulty):
        return
    path = request.out / file_name(request, index)
    atomic_write_text(path, made.text)
    written.append(Written(path, index, made.difficulty, made.signals))
