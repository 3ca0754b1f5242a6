"""The documentation in docs/ stays true to the code.

- every TOML example in docs/formats.md is read by the real reader (`boardsat
  show`): accepted, or refused with the message its ``<!-- rejected: … -->``
  note names;
- every notation example in docs/notation.md parses with the game's notation
  module and formats back to the same text (or, marked rejected, is refused);
- the JSON fields documented in docs/json.md are exactly those the commands print;
- every [D] decision in docs/rules/*.md names constants, rule options or
  functions that exist in the game's package;
- relative links in docs/ and README.md lead to existing files;
- no file of the repository (nor a help text) points to specification files
  outside it; the help texts point to docs/.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import re
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from solver.errors import InputError
from solver.paths import REPO_ROOT
from tests.support.json_docs import JSON_SECTIONS, flatten

DOCS = REPO_ROOT / "docs"

# A fenced block, with the HTML comment note that may precede it (blank lines between allowed).
_BLOCK = re.compile(r"(?:<!--\s*(?P<note>[^>]*?)\s*-->\s*\n)?```(?P<info>[^\n]*)\n(?P<body>.*?)```",
                    re.S)


def blocks(doc: Path, info: str) -> list[tuple[str, str, int]]:
    """``(note, body, line)`` of every fenced block of ``doc`` whose info string is ``info``."""
    text = doc.read_text(encoding="utf-8")
    found = []
    for match in _BLOCK.finditer(text):
        if match.group("info").strip() == info:
            line = text.count("\n", 0, match.start("body")) + 1
            found.append((match.group("note") or "", match.group("body"), line))
    return found


# ------------------------------------------------------------------ formats.md

FORMAT_EXAMPLES = blocks(DOCS / "formats.md", "toml")


def test_formats_has_examples_of_both_kinds() -> None:
    notes = [note for note, _, _ in FORMAT_EXAMPLES]
    assert sum(1 for n in notes if n.startswith("rejected:")) >= 4
    assert sum(1 for n in notes if not n) >= 4


@pytest.mark.parametrize(("note", "body", "line"), FORMAT_EXAMPLES,
                         ids=[f"formats.md:{line}" for _, _, line in FORMAT_EXAMPLES])
def test_format_example(note: str, body: str, line: int, tmp_path: Path) -> None:
    path = tmp_path / "example.toml"
    command = ["show", str(path)]
    if "[[turn]]" in body or "[position]" in body:  # a game record, in a folder by positions/
        (tmp_path / "positions").symlink_to(REPO_ROOT / "positions")
        path = tmp_path / "games" / "example.toml"
        path.parent.mkdir()
        command = ["apply", str(path), "--out", str(tmp_path / "after.toml")]
    path.write_text(body, encoding="utf-8")
    result = CliRunner().invoke(main, command)
    if note.startswith("rejected:"):
        expected = note.removeprefix("rejected:").strip()
        assert result.exit_code == 2, result.output
        assert expected in result.output, result.output
        assert str(path) in result.output
    else:
        assert result.exit_code == 0, result.output


def test_format_example_solutions_verify(tmp_path: Path) -> None:
    """The valid examples that carry a [solution] hold (verify exit 0)."""
    checked = 0
    for note, body, _line in FORMAT_EXAMPLES:
        if note or "[solution]" not in body:
            continue
        path = tmp_path / "example.toml"
        path.write_text(body, encoding="utf-8")
        result = CliRunner().invoke(main, ["verify", str(path)])
        assert result.exit_code == 0, result.output
        checked += 1
    assert checked >= 2


# ----------------------------------------------------------------- notation.md


def _terra_nova_turns():
    from solver.terra_nova.fileformat import read_position
    from solver.terra_nova.notation import format_turn, parse_turn
    return read_position, parse_turn, format_turn


def _rift_valley_draws():
    from solver.rift_valley.fileformat import read_position
    from solver.rift_valley.notation import format_draw, parse_draw
    return read_position, parse_draw, format_draw


NOTATIONS = {("terra-nova", "turns"): _terra_nova_turns,
             ("rift-valley", "draws"): _rift_valley_draws}
"""(game, what) named in a notation.md note → (reader, parse, format) of that game."""

_NOTE = re.compile(r"^(examples|rejected): (\S+) (\S+) on (\S+)$")


def notation_examples() -> list[tuple[str, str, str, str, Path, int]]:
    """``(kind, game, what, text, board, line)`` for every example line of notation.md."""
    out = []
    for note, body, line in blocks(DOCS / "notation.md", "text"):
        match = _NOTE.match(note)
        if not match:
            continue
        kind, game, what, board = match.groups()
        for offset, text in enumerate(body.splitlines()):
            if text.strip():
                out.append((kind, game, what, text, REPO_ROOT / board, line + offset))
    return out


NOTATION_EXAMPLES = notation_examples()


def test_notation_has_examples_for_every_game() -> None:
    seen = {(kind, game) for kind, game, *_ in NOTATION_EXAMPLES}
    for game, _what in NOTATIONS:
        assert {("examples", game), ("rejected", game)} <= seen


@pytest.mark.parametrize(("kind", "game", "what", "text", "board", "line"), NOTATION_EXAMPLES,
                         ids=[f"notation.md:{e[5]}:{e[3]}" for e in NOTATION_EXAMPLES])
def test_notation_example(kind: str, game: str, what: str, text: str, board: Path,
                          line: int) -> None:
    read_position, parse, write = NOTATIONS[(game, what)]()
    grid = read_position(board).grid
    if kind == "rejected":
        with pytest.raises(InputError):
            parse(text, grid)
    else:
        assert write(parse(text, grid), grid) == text


# ------------------------------------------------------------------- json.md

def printed(args: str) -> list[dict]:
    """The JSON object(s) ``boardsat ARGS`` prints on standard output (one, or one per line)."""
    result = CliRunner().invoke(main, args.split())
    text = result.stdout.strip()
    assert text, (f"{args}: nothing on standard output (exit {result.exit_code}, "
                  f"{result.exception!r}): {result.output}")
    try:
        return [json.loads(text)]
    except json.JSONDecodeError:
        return [json.loads(line) for line in text.splitlines()]


JSON_RUNS = [(run, fields) for runs, fields in JSON_SECTIONS for run in runs]


def test_json_documents_every_command() -> None:
    commands = {run.split()[0] for run, _ in JSON_RUNS}
    takes_json = {name for name, command in main.commands.items()
                  if any(param.name == "as_json" for param in command.params)}
    assert takes_json | {"batch"} <= commands
    games = " ".join(run for run, _ in JSON_RUNS)
    for key in ("terra-nova", "rift-valley"):
        assert sum(1 for run, _ in JSON_RUNS if f"positions/{key}/" in run) >= 2, games


@pytest.mark.parametrize(("run", "fields"), JSON_RUNS, ids=[run for run, _ in JSON_RUNS])
def test_json_fields_match_the_output(run: str, fields: dict[str, str]) -> None:
    objects = printed(run)
    seen = set().union(*(flatten(obj) for obj in objects))
    free = [name for name, kind in fields.items() if "free-form" in kind]
    seen = {name for name in seen if not any(name.startswith(f"{f}.") for f in free)}
    documented = {name for name in fields if name != "…"}
    optional = {name for name, kind in fields.items() if "absent" in kind}
    missing = documented - optional - seen
    assert not missing, f"{run}: documented but not printed: {sorted(missing)}"
    if "…" not in fields:
        extra = seen - documented
        assert not extra, f"{run}: printed but not documented: {sorted(extra)}"


def test_batch_lines_are_the_solve_objects_plus_file_and_status() -> None:
    """The `…` row of the batch table: a line is `solve --json` with `file` and `status`."""
    (run, fields), = [(r, f) for r, f in JSON_RUNS if r.startswith("batch")]
    good, bad = printed(run)
    file = run.split()[1]
    solved, = printed(f"solve {file} --json --workers 1")
    assert list(good)[0] == "file" and list(good)[-1] == "status"
    assert set(good) - {"file", "status"} == set(solved)
    assert set(bad) == {name for name in fields if name != "…"}


def test_exit_statuses_and_errors_as_documented(tmp_path: Path) -> None:
    """json.md's "Errors" and "Exit status": verify 0 / 1; bad input 2, the message as
    one line on standard error and, under --json, the error object on standard output."""
    text = (DOCS / "json.md").read_text(encoding="utf-8")
    assert "## Errors" in text and "| 2 | bad input" in text, "json.md changed: update this test"
    good = REPO_ROOT / "positions/rift-valley/midgame-identical.toml"
    assert CliRunner().invoke(main, ["verify", str(good), "--json"]).exit_code == 0
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(good.read_text(encoding="utf-8").replace("value = 19", "value = 18"),
                     encoding="utf-8")
    assert CliRunner().invoke(main, ["verify", str(wrong), "--json"]).exit_code == 1
    broken = tmp_path / "broken.toml"
    broken.write_text(good.read_text(encoding="utf-8").replace("draws = 5", "draws = -1"),
                      encoding="utf-8")
    result = CliRunner().invoke(main, ["verify", str(broken), "--json"])
    assert result.exit_code == 2
    assert str(broken) in result.stderr and len(result.stderr.strip().splitlines()) == 1
    error = json.loads(result.stdout)
    assert error["status"] == 2 and error["file"] == str(broken) and error["line"] == 5


# -------------------------------------------------------------- rules/*.md

# Names a [D] item cites: CONSTANTS, Class.attribute, or solver.module.paths.
_CODE_NAME = re.compile(r"`(solver(?:\.\w+)+|[A-Z][A-Z0-9_]+|[A-Z]\w*\.\w+)`")


def decisions(doc: Path) -> list[str]:
    """The text of every [D] item of a rules page: a bullet (with its continuation lines)
    or a table row that carries the mark."""
    items, current = [], None
    for line in doc.read_text(encoding="utf-8").splitlines():
        if line.lstrip().startswith(("- ", "|")) or not line.strip():
            if current is not None:
                items.append(current)
            current = line if line.strip() else None
        elif current is not None and line.startswith(" "):
            current += " " + line.strip()
        else:
            if current is not None:
                items.append(current)
            current = None
    if current is not None:
        items.append(current)
    return [item for item in items if re.search(r"\[D\d*\]|\|\s*D\d+\s*\|", item)]


def package_names(package: str) -> dict[str, object]:
    """Every public module attribute in ``package`` and its submodules, by name."""
    root = importlib.import_module(package)
    names: dict[str, object] = dict(vars(root))
    for info in pkgutil.walk_packages(root.__path__, f"{package}."):
        names.update(vars(importlib.import_module(info.name)))
    return names


def resolves(name: str, names: dict[str, object]) -> bool:
    """Whether ``name`` (CONSTANT, Class.attr or solver.path[.attr]) exists in the code."""
    if name.startswith("solver."):
        parts = name.split(".")
        for cut in range(len(parts), 1, -1):
            try:
                obj: object = importlib.import_module(".".join(parts[:cut]))
            except ImportError:
                continue
            for attr in parts[cut:]:
                if not hasattr(obj, attr):
                    return False
                obj = getattr(obj, attr)
            return True
        return False
    head, _, attr = name.partition(".")
    if head not in names:
        return False
    obj = names[head]
    return not attr or hasattr(obj, attr) or attr in getattr(obj, "__dataclass_fields__", {})


RULE_PAGES = sorted((DOCS / "rules").glob("*.md"))


@pytest.mark.parametrize("doc", RULE_PAGES, ids=lambda p: p.name)
def test_every_decision_names_code_that_exists(doc: Path) -> None:
    package = "solver." + doc.stem.replace("-", "_")
    names = package_names(package)
    items = decisions(doc)
    assert items, f"{doc.name} marks no [D] decision"
    for item in items:
        cited = _CODE_NAME.findall(item)
        assert cited, f"{doc.name}: a [D] item names no constant or option: {item[:80]}"
        for name in cited:
            assert resolves(name, names), f"{doc.name}: {name} does not exist in {package}"


def test_kosmos_decision_table_names_code_that_exists() -> None:
    doc = DOCS / "terra-nova-kosmos.md"
    names = package_names("solver.terra_nova_kosmos")
    rows = [item for item in decisions(doc) if item.startswith("|")]
    assert [int(re.search(r"D(\d+)", row).group(1)) for row in rows] == \
        [n for n in range(1, 39) if n not in (8, 15, 22)]
    for row in rows:
        cited = _CODE_NAME.findall(row)
        assert cited, f"{doc.name}: a [D] row names no code: {row[:80]}"
        for name in cited:
            assert resolves(name, names), f"{doc.name}: {name} does not exist"


def test_rule_pages_cover_every_game() -> None:
    from solver.games import GAMES
    documented = {p.stem for p in RULE_PAGES} | {"terra-nova-kosmos"}
    assert set(GAMES) <= documented


# ----------------------------------------------------------------- links, refs

LINK = re.compile(r"\]\(([^)\s]+)\)")


def _linked_docs() -> list[Path]:
    return [REPO_ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]


def anchors(doc: Path) -> set[str]:
    """The heading anchors GitHub makes for ``doc`` (lowercase, punctuation dropped)."""
    found = set()
    for line in doc.read_text(encoding="utf-8").splitlines():
        heading = re.match(r"#{1,6} (.+)", line)
        if heading:
            slug = re.sub(r"[^\w\- ]", "", heading.group(1).strip().lower())
            found.add(slug.replace(" ", "-"))
    return found


@pytest.mark.parametrize("doc", _linked_docs(), ids=lambda p: str(p.relative_to(REPO_ROOT)))
def test_relative_links_resolve(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue
        file, _, anchor = target.partition("#")
        path = doc.parent / file if file else doc
        assert path.exists(), f"{doc.name}: link to missing {target}"
        if anchor and path.suffix == ".md":
            assert anchor in anchors(path), f"{doc.name}: no heading for {target}"


def test_no_reference_outside_the_repository() -> None:
    """No tracked file sends users to specification files a clone does not have."""
    files = subprocess.run(["git", "ls-files"], cwd=REPO_ROOT, capture_output=True, text=True,
                           check=True).stdout.split()
    pattern = re.compile("FORM" + r"ATS\.md|" + "shared" + "/")
    bad = []
    for name in files:
        path = REPO_ROOT / name
        if path.suffix not in (".py", ".md", ".toml", ".txt", ".cfg", "") or not path.is_file():
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                bad.append(f"{name}:{number}: {line.strip()}")
    assert not bad, "\n".join(bad)


def test_help_points_to_the_docs() -> None:
    text = CliRunner().invoke(main, ["--help"]).output
    assert "docs/formats.md" in text
    for command in ("solve", "verify", "perft"):
        assert "docs/json.md" in CliRunner().invoke(main, [command, "--help"]).output, command
