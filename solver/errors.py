"""Errors that carry the file and the place of bad input.

Every reader, validator and notation parser raises :class:`InputError` for input a
user can fix. The CLI prints ``str(error)`` as one line and exits with status 2;
nothing else about bad input ever reaches the user as a traceback.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

EXIT_OK = 0
"""Exit status: done (for ``verify``: the solution holds)."""
EXIT_DISAGREE = 1
"""Exit status: the engine disagrees with the solver, or a command that replays a file's
claimed solution (``verify``, ``show``, ``render --solution``, ``sheet``) found it wrong."""
EXIT_BAD_INPUT = 2
"""Exit status: bad input (a file, an option, a path to write), one line naming it."""
EXIT_NO_ANSWER = 3
"""Exit status: the time limit ran out before any answer was found."""
EXIT_INTERRUPTED = 130
"""Exit status: interrupted (Ctrl-C) before any answer was found (128 + SIGINT)."""

_LINE = re.compile(r"\bline (\d+)")


class InputError(Exception):
    """Bad user input: names the file, the place in it, and what is wrong.

    ``place`` is free text such as ``"line 4"``, ``"cell d7"``, ``"key scores.blue"``
    or ``"turn 2, action 'c4-f4'"``; either part may be missing. ``key`` (a dotted file
    key such as ``"puzzle.target"``) is for a raiser without the file's text (a
    validator, a solve finding a puzzle impossible): the command that read the file
    puts the key's line before the place (:func:`solver.tomlfile.keyed`:
    ``line 18 (key 'puzzle.target')``, ``line 36 (key 'elements.blue.stops'), stop 'f3'``).
    """

    def __init__(self, message: str, *, path: str | Path | None = None,
                 place: str | None = None, key: str | None = None):
        super().__init__(message)
        self.message = message
        self.path = str(path) if path is not None else None
        self.place = place
        self.key = key

    status = EXIT_BAD_INPUT
    """The exit status of a command this error ends."""

    def located(self, *, path: str | Path | None = None, place: str | None = None) -> InputError:
        """Return a copy (of the same class) with the file and/or place filled in where
        still missing."""
        copy = type(self).__new__(type(self))
        copy.__dict__.update(self.__dict__)
        copy.args = self.args
        copy.path = self.path if self.path is not None else (
            str(path) if path is not None else None)
        copy.place = self.place if self.place is not None else place
        return copy

    @property
    def line(self) -> int | None:
        """The file line named by :attr:`place` (``"line 4 (key 'x')"`` → 4), if any."""
        match = _LINE.search(self.place or "")
        return int(match.group(1)) if match else None

    @property
    def where(self) -> str | None:
        """The place in the file as said (``line 4``, ``key 'puzzle.target'``), if any."""
        if self.key is None:
            return self.place
        return f"key '{self.key}'" + (f", {self.place}" if self.place else "")  # no line yet

    def __str__(self) -> str:
        where = ": ".join(part for part in (self.path, self.where) if part)
        return f"{where}: {self.message}" if where else self.message


class PuzzleError(InputError):
    """A well-formed file whose puzzle cannot be posed (e.g. no legal turn, bad target)."""


class WrongSolution(InputError):
    """A file's ``[solution]`` that reads well but does not hold: illegal, or not worth
    its claimed value. Exit status 1, as ``verify`` gives it, for every command that
    replays the claim (``show``, ``render --solution``, ``sheet``)."""

    status = EXIT_DISAGREE


class BuildTimeout(PuzzleError):
    """The model of the request could not even be built within the time limit: the
    request cannot be answered in that time (exit status 2, like bad input)."""

    @classmethod
    def of(cls, model: str, seconds: float | None, advice: str) -> BuildTimeout:
        """"the ``model`` could not be built within the time limit (``seconds`` s);
        ``advice``" (every game words it this way)."""
        limit = "" if seconds is None else f" ({seconds:g} s)"
        return cls(f"the {model} could not be built within the time limit{limit}; {advice}")


class EngineDisagreement(RuntimeError):
    """The reference engine rejected or re-scored an answer the CP-SAT model produced.

    This is a bug in the model or the engine, never bad input: the CLI exits with 1
    and shows both sides.
    """


class NoAnswer(Exception):
    """The time limit ran out before any answer was found (exit status 3).

    With an answer in hand a time limit is not an error: the answer is printed,
    marked not proven optimal.
    """


@dataclass(frozen=True)
class Failure:
    """How a command (or one file of ``batch``, one record of ``review``) failed: what the
    one line on standard error says and the one JSON error object (docs/json.md, Errors)."""

    status: int
    """The exit status."""
    label: str
    """What kind of failure: ``error`` (bad input), ``engine disagrees with the solver``,
    ``no answer``, ``interrupted``."""
    error: str
    """What is wrong, with its place in the file when there is one (not the file)."""
    file: str | None = None
    line: int | None = None

    @property
    def text(self) -> str:
        """The one line: ``FILE: error``."""
        return self.error if self.file is None else f"{self.file}: {self.error}"

    def as_json(self) -> dict[str, Any]:
        """The JSON error object: ``file``, ``error``, ``line``, ``status``."""
        return {"file": self.file, "error": self.error, "line": self.line,
                "status": self.status}


INTERRUPTED_MESSAGE = "stopped by Ctrl-C before an answer was found"


Expected = InputError | EngineDisagreement | NoAnswer | KeyboardInterrupt
"""The failures a command reports as a :class:`Failure` (any other exception is a bug)."""


def failure(exc: Expected, file: str | Path | None = None) -> Failure:
    """The :class:`Failure` of an expected exception raised while working on ``file``:
    InputError its own status, file and place; EngineDisagreement 1; NoAnswer 3; Ctrl-C
    130, with what the path had settled (:attr:`solver.cpsat.interrupt.Interrupted.detail`)."""
    named = None if file is None else str(file)
    if isinstance(exc, InputError):
        error = exc.message if exc.where is None else f"{exc.where}: {exc.message}"
        return Failure(exc.status, "error", error, exc.path, exc.line)  # its own file
    if isinstance(exc, EngineDisagreement):
        return Failure(EXIT_DISAGREE, "engine disagrees with the solver", str(exc), named)
    if isinstance(exc, NoAnswer):
        return Failure(EXIT_NO_ANSWER, "no answer", str(exc), named)
    detail = getattr(exc, "detail", None)
    return Failure(EXIT_INTERRUPTED, "interrupted", INTERRUPTED_MESSAGE
                   + (f" ({detail})" if detail else ""), named)
