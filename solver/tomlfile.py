"""Reading TOML position files with located, one-line errors.

Shared by every game's file format: it knows TOML and key checking, nothing
about any game.
"""

from __future__ import annotations

import os
import re
import stat
import tempfile
import tomllib
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from solver.errors import InputError, WrongSolution

_LINE_COL = re.compile(r"\(at line (\d+), column (\d+)\)")

_SUPPLIED: ContextVar[Mapping[str, str]] = ContextVar("supplied_texts",
                                                default=MappingProxyType({}))

MAX_FILE_BYTES = 1_000_000
"""Largest position file read (the biggest real one is a few kilobytes)."""

MAX_NESTING = 50
"""Deepest nesting of TOML arrays and inline tables accepted (position files need 2)."""


@contextmanager
def supplied_texts(texts: Mapping[str, str]) -> Iterator[None]:
    """While the block runs, :func:`load_toml` of a path in ``texts`` reads its text from there.

    A batch task on another machine gets the files' texts from the client and
    runs the usual readers on them, so messages still name the files as the
    user gave them. Keys are paths as ``str(Path(p))``; per thread (a context
    variable), so tasks running side by side do not see each other's files.
    """
    token = _SUPPLIED.set({str(Path(name)): text for name, text in texts.items()})
    try:
        yield
    finally:
        _SUPPLIED.reset(token)


def read_text(path: str | Path) -> str:
    """The text of ``path`` (supplied, or from disk); InputError naming the file if unreadable.

    Only regular files are opened (a FIFO or device would block or never end). A
    byte-order mark at the start (Windows editors write one) is dropped: TOML takes none.
    """
    path = Path(path)
    supplied = _SUPPLIED.get().get(str(path))
    if supplied is not None:
        return supplied
    try:
        info = path.stat()
        if stat.S_ISDIR(info.st_mode):
            raise InputError("is a directory, not a position file", path=path)
        if not stat.S_ISREG(info.st_mode):
            raise InputError("not a regular file (a pipe or device?)", path=path)
        if info.st_size > MAX_FILE_BYTES:
            raise InputError(f"{info.st_size:,} bytes; position files are at most "
                             f"{MAX_FILE_BYTES:,}", path=path)
        return path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise InputError("no such file", path=path) from None
    except UnicodeDecodeError as exc:
        line = exc.object[:exc.start].count(b"\n") + 1
        raise InputError(f"not UTF-8 text (byte 0x{exc.object[exc.start]:02x}); save the file "
                         "as UTF-8", path=path, place=f"line {line}") from None
    except OSError as exc:
        raise InputError(f"cannot read: {_reason(exc)}", path=path) from None


def load_toml(path: str | Path) -> tuple[dict[str, Any], str]:
    """Read ``path`` and return ``(data, text)``; raise InputError for unreadable or bad TOML."""
    path = Path(path)
    text = read_text(path)
    return parse_toml(text, path), text


def _reason(exc: Exception) -> str:
    """An OS error without the file name (the message names the file already)."""
    return getattr(exc, "strerror", None) or str(exc)


def parse_toml(text: str, path: str | Path | None = None) -> dict[str, Any]:
    """Parse TOML text; a syntax error becomes an InputError naming line and column."""
    deep = _too_deep(text)
    if deep is not None:
        raise InputError(f"arrays or tables nested more than {MAX_NESTING} deep", path=path,
                         place=f"line {deep}")
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise InputError("nested too deeply", path=path) from None
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        match = _LINE_COL.search(message)
        place = f"line {match.group(1)}, column {match.group(2)}" if match else None
        message = _LINE_COL.sub("", message).strip()
        raise InputError(f"malformed TOML: {message}", path=path, place=place) from None


def _too_deep(text: str) -> int | None:
    """The line where brackets/braces (outside strings and comments) open past
    :data:`MAX_NESTING` levels, or None. A cheap over-count: ``[[table]]`` headers
    close on their line, so only real nesting adds up."""
    depth = 0
    quote = ""
    line = 1
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
        if quote:
            if ch == "\\" and quote[0] == '"':
                line += text[i + 1:i + 2] == "\n"
                i += 2
                continue
            if text.startswith(quote, i):
                i += len(quote)
                quote = ""
                continue
        elif ch in "\"'":
            quote = ch * 3 if text.startswith(ch * 3, i) else ch
            i += len(quote)
            continue
        elif ch == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        elif ch in "[{":
            depth += 1
            if depth > MAX_NESTING:
                return line
        elif ch in "]}":
            depth = max(0, depth - 1)
        i += 1
    return None


_NAME = r"""(?:[\w-]+|"[^"]*"|'[^']*')"""
_HEADER = re.compile(r"^\s*\[(\[?)\s*([^\[\]]+?)\s*\]\]?\s*(?:#.*)?$")
_ASSIGN = re.compile(rf"^\s*({_NAME}(?:\s*\.\s*{_NAME})*)\s*=")
_PART = re.compile(_NAME)


def _parts(dotted: str) -> tuple[str, ...]:
    """The names of a TOML dotted key (``a."b c".d`` → ``a``, ``b c``, ``d``)."""
    return tuple(part.strip("\"'") for part in _PART.findall(dotted))


def _key_lines(text: str) -> dict[tuple[str, ...], int]:
    """The first line naming each key path of ``text``: table headers (an array of
    tables' entries as 1, 2, … after its name) and assignments inside their table;
    lines inside multi-line strings are skipped."""
    found: dict[tuple[str, ...], int] = {}
    table: tuple[str, ...] = ()
    entries: dict[tuple[str, ...], int] = {}
    quote = ""
    for number, line in enumerate(text.splitlines(), start=1):
        if quote:
            if line.count(quote) % 2:
                quote = ""
            continue
        header = _HEADER.match(line)
        if header:
            table = _parts(header.group(2))
            if header.group(1):
                entries[table] = entries.get(table, 0) + 1
                table = (*table, str(entries[table]))
            for end in range(1, len(table) + 1):
                found.setdefault(table[:end], number)
            continue
        assign = _ASSIGN.match(line)
        if assign:
            full = table + _parts(assign.group(1))
            for end in range(len(table) + 1, len(full) + 1):
                found.setdefault(full[:end], number)
        for opener in ('"""', "'''"):
            if line.count(opener) % 2:
                quote = opener
                break
    return found


def key_line(text: str, key: str) -> int | None:
    """1-based line where the dotted ``key`` is assigned or its table opens.

    The full path is looked up in its table (``elements.blue.stops`` under
    ``[elements.blue]``, ``case.2.kind`` in the second ``[[case]]``); a key inside an
    inline table or a missing one falls back to its nearest named parent
    (``scores.red`` → the ``scores = {…}`` line). A key no path names (a bare
    ``kind``) is, best effort, the first line naming its last part as a key.
    """
    found = _key_lines(text)
    parts = _parts(key)
    for end in range(len(parts), 0, -1):
        if parts[:end] in found:
            return found[parts[:end]]
    return min((line for path, line in found.items() if parts and path[-1] == parts[-1]),
               default=None)


def entry_line(text: str, array: str, number: int) -> int | None:
    """1-based line of the header of entry ``number`` (1-based) of the array of tables
    ``array`` (``[[turn]]``); None when the text has fewer such entries."""
    return _key_lines(text).get((*_parts(array), str(number)))


def place_of(text: str, key: str) -> str:
    """A place string for key ``key``: ``"line N (key)"`` when the line is found."""
    line = key_line(text, key)
    return f"line {line} (key '{key}')" if line else f"key '{key}'"


def keyed(error: InputError, path: str | Path) -> InputError:
    """``error`` naming ``path`` (unless it names a file already), its
    :attr:`~solver.errors.InputError.key` turned into the key's line in ``path``'s text,
    put before its place: ``line 36 (key 'elements.blue.stops'), stop 'f3'``."""
    if error.path is not None:
        return error
    located = error.located(path=path)
    if error.key is not None:
        try:
            where = place_of(read_text(path), error.key)
        except InputError:
            where = f"key '{error.key}'"
        located.place = f"{where}, {error.place}" if error.place else where
        located.key = None
    return located


def check_keys(
    table: Mapping[str, Any],
    allowed: Iterable[str],
    *,
    text: str,
    path: str | Path | None,
    prefix: str = "",
) -> None:
    """Reject keys of ``table`` that are not in ``allowed`` (the first one, sorted)."""
    unknown = sorted(set(table) - set(allowed))
    if unknown:
        key = f"{prefix}{unknown[0]}"
        raise InputError(
            f"unknown key '{key}' (allowed here: {', '.join(sorted(allowed))})",
            path=path,
            place=place_of(text, key),
        )


def require_type(
    value: Any, kind: type | tuple[type, ...], key: str, *, text: str, path: str | Path | None
) -> Any:
    """Return ``value`` when it is of ``kind`` (bools are never ints); else raise InputError."""
    kinds = kind if isinstance(kind, tuple) else (kind,)
    ok = isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds)
    if not ok:
        expected = " or ".join(k.__name__ for k in kinds)
        raise InputError(
            f"'{key}' must be {expected}, not {type(value).__name__}",
            path=path,
            place=place_of(text, key),
        )
    return value


@dataclass(frozen=True)
class Solution:
    """A ``[solution]`` table: a claimed value and the answer's steps (turns or draws),
    kept as text until the game's notation parses them against a board."""

    value: int
    line: tuple[str, ...]

    def replayed(self, parse: Callable[[tuple[str, ...]], Any], play: Callable[[Any], Any],
                 illegal: type[InputError], path: str | Path, key: str = "line"
                 ) -> tuple[Any, Any]:
        """``(steps, outcome)``: the line read by ``parse`` (an InputError naming ``path``
        and ``[solution] key`` when it does not parse: bad input) and played by ``play``
        (WrongSolution when it raises ``illegal``: the claim does not hold)."""
        try:
            steps = parse(self.line)
        except InputError as exc:
            raise InputError(exc.message, path=path, place=f"[solution] {key}"
                             + (f", {exc.place}" if exc.place else "")) from None
        try:
            return steps, play(steps)
        except illegal as exc:
            raise WrongSolution(f"the [solution] is illegal: {exc}", path=path) from None

    def check_value(self, counted: int, path: str | Path | None) -> None:
        """WrongSolution unless ``counted`` (the engine's value of the line) is the
        claimed one."""
        if counted != self.value:
            raise WrongSolution(f"the [solution] claims value {self.value}, the engine "
                                f"counts {counted}", path=path)


def read_solution_table(
    table: Any, list_key: str, *, text: str, path: str | Path | None
) -> Solution | None:
    """The ``[solution]`` table: ``value`` (int) and ``list_key`` (list of strings), or None."""
    if table is None:
        return None
    require_type(table, dict, "solution", text=text, path=path)
    check_keys(table, ("value", list_key), text=text, path=path, prefix="solution.")
    for key in ("value", list_key):
        if key not in table:
            raise InputError(f"[solution] needs '{key}'", path=path,
                             place=place_of(text, "solution"))
    value = require_type(table["value"], int, "solution.value", text=text, path=path)
    items = require_type(table[list_key], list, f"solution.{list_key}", text=text, path=path)
    for item in items:
        require_type(item, str, f"solution.{list_key}", text=text, path=path)
    return Solution(value, tuple(items))


MAX_NUMBER = 999
"""Largest count a position file takes (scores, budgets, VP, money…): no game comes near
it, and the models' sums stay far from CP-SAT's integer range."""


def require_count(value: Any, key: str, *, text: str, path: str | Path | None,
                  negative: str | None = None) -> int:
    """``value`` when it is a whole number from 0 to :data:`MAX_NUMBER`; else an
    InputError naming ``key`` (``negative``: the message for a number below 0)."""
    number: int = require_type(value, int, key, text=text, path=path)
    if number < 0:
        raise InputError(negative or f"'{key}' cannot be negative", path=path,
                         place=place_of(text, key))
    if number > MAX_NUMBER:
        raise InputError(f"'{key}' = {number} is more than {MAX_NUMBER}, the largest number "
                         "a file takes", path=path, place=place_of(text, key))
    return number


SEEDS = (-(2**63), 2**64 - 1)
"""The range of a seed in a file or recipe: 64 bits (the generator's candidate seeds,
:func:`solver.puzzlegen.candidate_seed`, take all of them)."""


def check_numbers(table: Mapping[str, Any], ranges: Mapping[str, tuple[int, int]],
                  what: str) -> None:
    """Refuse a value of ``table`` under a key of ``ranges`` that is not a whole number
    (a bool is none) from its range's low to its high end, with an InputError
    ``"{what} 'key' must be …"``; for tables read without their text (a bench
    recipe), so the caller adds the file and the place."""
    for key, (low, high) in ranges.items():
        value = table.get(key, low)
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise InputError(f"{what} '{key}' must be a whole number from {low} to {high}, "
                             f"not {value!r}")


def board_text_line(text: str, key: str, row: int) -> int | None:
    """1-based file line of the ``row``-th (0-based) non-blank line of multi-line string ``key``."""
    start = key_line(text, key)
    if start is None:
        return None
    lines = text.splitlines()
    first = lines[start - 1]
    after_quotes = first.split('"""', 1)[1] if '"""' in first else ""
    seen = -1
    if after_quotes.strip():
        seen += 1
        if seen == row:
            return start
    for number in range(start + 1, len(lines) + 1):
        content = lines[number - 1]
        if content.strip().startswith('"""'):
            return None
        if content.strip():
            seen += 1
            if seen == row:
                return number
    return None


def make_folder(path: str | Path) -> None:
    """Create folder ``path`` and its parents; InputError naming it when that fails."""
    path = Path(path)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise InputError("exists and is not a folder", path=path) from None
    except OSError as exc:
        raise InputError(f"cannot create this folder: {_reason(exc)}", path=path) from None


def atomic_write_text(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (temp file in the same folder, then rename)."""
    atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (temp file in the same folder, then rename).

    Missing parent folders are created; a path that cannot be written (a parent
    is a file, no permission, a folder in the way) is an InputError naming it.
    """
    path = Path(path)
    if path.is_dir():
        raise InputError("is a folder; give a file name to write", path=path)
    make_folder(path.parent)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise InputError(f"cannot write here: {_reason(exc)}", path=path) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; give the usual file mode
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise InputError(f"cannot write here: {_reason(exc)}", path=path) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
