"""What docs/json.md promises, read from its tables: the fields each documented command
prints (its ``<!-- run: … -->`` notes and the tables after them) and the values of
``stats.status`` it lists."""

from __future__ import annotations

import re

from solver.paths import REPO_ROOT

JSON_MD = REPO_ROOT / "docs" / "json.md"

_RUN = re.compile(r"<!--\s*run:\s*(.+?)\s*-->")
_ROW = re.compile(r"^\|\s*`([^`]+)`\s*\|([^|]*)\|")


def json_sections() -> list[tuple[list[str], dict[str, str]]]:
    """``(command lines, {field: type})`` per table of json.md that follows run notes."""
    sections: list[tuple[list[str], dict[str, str]]] = []
    runs: list[str] = []
    fields: dict[str, str] = {}
    for line in JSON_MD.read_text(encoding="utf-8").splitlines():
        run = _RUN.search(line)
        if run:
            if fields:
                sections.append((runs, fields))
                runs, fields = [], {}
            runs.append(run.group(1))
            continue
        row = _ROW.match(line)
        if row and runs:
            fields[row.group(1)] = row.group(2).strip()
        elif fields and not line.startswith("|"):
            sections.append((runs, fields))
            runs, fields = [], {}
    if fields:
        sections.append((runs, fields))
    return sections


def flatten(obj: object, prefix: str = "") -> set[str]:
    """Dotted field names of a JSON value; ``name[].field`` inside lists of objects."""
    out: set[str] = set()
    if isinstance(obj, dict):
        for key, value in obj.items():
            name = f"{prefix}{key}"
            out.add(name)
            out |= flatten(value, f"{name}.")
    elif isinstance(obj, list):
        for item in obj:
            if isinstance(item, dict):
                out |= flatten(item, prefix[:-1] + "[].")
    return out


def listed_statuses(game: str) -> set[str]:
    """The values of ``stats.status`` the game's solve tables of json.md list (the quoted
    words of its meaning)."""
    values: set[str] = set()
    run = ""
    for line in JSON_MD.read_text(encoding="utf-8").splitlines():
        note = _RUN.search(line)
        if note:
            run = note.group(1)
        elif line.startswith("| `stats.status` |") and run.startswith(
                f"solve positions/{game}/"):
            values |= set(re.findall(r'`"([^"`]+)"`', line))
    return values


JSON_SECTIONS = json_sections()
"""Every table of json.md with the command lines that print it."""
