"""Game records as files: which game, the start position, the turns played (docs/formats.md).

A record is TOML: ``game``; ``position``, the start position, either a position file
named relative to the record or inline as a ``[position]`` table (the position file's
keys without ``game``); and one ``[[turn]]`` per turn in the order played, each with
``player``, ``turn`` (the game's notation) and an optional ``note``. This module
knows the file's structure only, no game: the turns are read against the rules by
:mod:`solver.records` with the game's notation and engine. Errors name the file and
the place (``turn 3 (line 17)``), as every reader's do.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solver.errors import InputError
from solver.tomlfile import check_keys, entry_line, load_toml, place_of, require_type

RECORD_KEYS = ("game", "position", "turn")
TURN_KEYS = ("player", "turn", "note")
POSITION_KEY = "position"
MAX_TURNS = 5000
"""Most turns a record holds (a full Terra Nova game has well under 200)."""
MAX_NOTE = 2000
"""Longest note, in characters."""


@dataclass(frozen=True)
class RecordedTurn:
    """One ``[[turn]]``: who played it, what they played (the game's notation), a note."""

    player: str
    turn: str
    note: str | None = None


@dataclass(frozen=True)
class RecordFile:
    """A record as read: the game key, the start position and the turns, still as text."""

    game: str
    position: str | Mapping[str, Any]
    """A position file's name relative to the record, or the inline ``[position]`` table."""
    turns: tuple[RecordedTurn, ...]
    text: str = ""
    """The file's text (it places errors on their lines)."""

    @property
    def inline(self) -> bool:
        """True when the start position is written in the record itself."""
        return not isinstance(self.position, str)


def is_record(data: Mapping[str, Any]) -> bool:
    """Whether parsed TOML ``data`` is a record (it has ``[[turn]]`` or a start ``position``),
    not a position file."""
    return "turn" in data or POSITION_KEY in data


def turn_place(text: str, number: int) -> str:
    """Where turn ``number`` (1-based) is: ``turn 3 (line 17)``; ``turn 3`` when the record
    has no such ``[[turn]]`` (a turn typed on the command line)."""
    line = entry_line(text, "turn", number) if text else None
    return f"turn {number} (line {line})" if line is not None else f"turn {number}"


def read_record_file(path: str | Path) -> RecordFile:
    """Read the record at ``path``: its structure checked (keys, types), turns as text."""
    data, text = load_toml(path)
    return record_from_toml(data, text, path)


def record_from_toml(data: Mapping[str, Any], text: str, path: str | Path) -> RecordFile:
    """A :class:`RecordFile` from parsed TOML ``data`` (``text`` locates errors)."""
    check_keys(data, RECORD_KEYS, text=text, path=path)
    for key in ("game", POSITION_KEY):
        if key not in data:
            raise InputError(f"a record needs '{key}'" + (
                " (a position file named relative to the record, or a [position] table)"
                if key == POSITION_KEY else ""), path=path)
    game = require_type(data["game"], str, "game", text=text, path=path)
    position = require_type(data[POSITION_KEY], (str, dict), POSITION_KEY, text=text, path=path)
    if isinstance(position, dict) and "game" in position:
        raise InputError("an inline [position] takes the record's 'game'; leave 'game' out",
                         path=path, place=place_of(text, f"{POSITION_KEY}.game"))
    if isinstance(position, str) and not position.strip():
        raise InputError("'position' names no file", path=path, place=place_of(text, POSITION_KEY))
    entries = require_type(data.get("turn", []), list, "turn", text=text, path=path)
    if len(entries) > MAX_TURNS:
        raise InputError(f"{len(entries):,} turns; a record holds at most {MAX_TURNS:,}",
                         path=path)
    turns = tuple(_turn(entry, number, text, path)
                  for number, entry in enumerate(entries, start=1))
    return RecordFile(game, position, turns, text)


def _turn(entry: Any, number: int, text: str, path: str | Path) -> RecordedTurn:
    def fail(message: str) -> InputError:
        return InputError(message, path=path, place=turn_place(text, number))

    if not isinstance(entry, dict):
        raise fail(f"a turn is a [[turn]] table, not {type(entry).__name__}")
    unknown = sorted(set(entry) - set(TURN_KEYS))
    if unknown:
        raise fail(f"unknown key '{unknown[0]}' (allowed here: {', '.join(TURN_KEYS)})")
    for key in ("player", "turn"):
        if key not in entry:
            raise fail(f"missing key '{key}'")
        if not isinstance(entry[key], str):
            raise fail(f"'{key}' must be str, not {type(entry[key]).__name__}")
    note = entry.get("note")
    if note is not None and not isinstance(note, str):
        raise fail(f"'note' must be str, not {type(note).__name__}")
    if note is not None and len(note) > MAX_NOTE:
        raise fail(f"a note has at most {MAX_NOTE} characters")
    return RecordedTurn(entry["player"], entry["turn"], note)


def start_name(position: str | Path, record: str | Path) -> str:
    """How a record at ``record`` names the position file ``position``: relative to the
    record's folder, with ``/`` between folders."""
    relative = os.path.relpath(Path(position).absolute(), Path(record).absolute().parent)
    return Path(relative).as_posix()


def start_path(name: str, record: str | Path) -> Path:
    """The position file a record at ``record`` names ``name`` (relative to its folder)."""
    return Path(record).parent / name


def _string(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


def record_text(game: str, position: str, turns: Sequence[RecordedTurn], *,
                inline: bool = False) -> str:
    """The canonical text of a record; ``position`` is the start file's name relative to
    the record, or (``inline``) the start position file's own text, which goes under
    ``[position]`` (:func:`nested`). ``read_record_file`` of it gives the same record."""
    if inline:
        out = [f"game = {_string(game)}", "", nested(position, POSITION_KEY).rstrip("\n")]
    else:
        out = [f"game = {_string(game)}", f"{POSITION_KEY} = {_string(position)}"]
    for turn in turns:
        out += ["", "[[turn]]", f"player = {_string(turn.player)}",
                f"turn = {_string(turn.turn)}"]
        if turn.note is not None:
            out.append(f"note = {_string(turn.note)}")
    return "\n".join(out) + "\n"


_HEADER = re.compile(r"^(\s*)(\[\[?)\s*(.+?)\s*(\]\]?)(\s*(?:#.*)?)$")


def nested(text: str, table: str) -> str:
    """A position file's TOML ``text`` moved under ``[table]``: its top-level keys after
    the header ``[table]`` (``game`` left out), its tables ``[x]`` as ``[table.x]``.
    Multi-line strings are copied as they are."""
    head: list[str] = [f"[{table}]"]
    tables: list[str] = []
    current = head
    quote = ""
    for line in text.splitlines():
        if quote:
            current.append(line)
            if line.count(quote) % 2:
                quote = ""
            continue
        header = _HEADER.match(line)
        if header:
            indent, opener, name, closer, tail = header.groups()
            current = tables
            current.append(f"{indent}{opener}{table}.{name}{closer}{tail}")
            continue
        if current is head and re.match(r"\s*game\s*=", line):
            continue
        current.append(line)
        for opener in ('"""', "'''"):
            if line.count(opener) % 2:
                quote = opener
                break
    while len(head) > 1 and not head[-1].strip():
        head.pop()
    return "\n".join(head + ([""] if tables and tables[0].strip() else []) + tables) + "\n"
