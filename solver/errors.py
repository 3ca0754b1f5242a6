"""Errors that carry the file and the place of bad input.

Every reader, validator and notation parser raises :class:`InputError` for input a
user can fix. The CLI prints ``str(error)`` as one line and exits with status 2;
nothing else about bad input ever reaches the user as a traceback.
"""

from __future__ import annotations

import re
from pathlib import Path

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

    def __str__(self) -> str:
        place = self.place
        if self.key is not None:  # not yet turned into a line
            place = f"key '{self.key}'" + (f", {place}" if place else "")
        where = ": ".join(part for part in (self.path, place) if part)
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
