"""Fuzzing the readers and the command line with mutated bundled positions (hypothesis).

Every bundled position file is a seed; a case applies one to three mutations —
structure (drop, repeat, swap, cut lines), tokens (board tokens, words), numbers
(huge, negative, zero), unicode, nesting, unknown keys, another game — and runs
the game's reader and one command in-process (click's CliRunner). Whatever the
input, no exception escapes; exit codes are the documented ones (0, 1 engine
disagrees or the claimed solution does not hold, 2 bad input, 3 no answer in
time); an error is one line on stderr naming the file; ``--json`` output is one
JSON object; the input file is never changed.

``make test`` runs a fixed, derandomized share (``BOARDSAT_FUZZ_EXAMPLES``
examples per test, default :data:`DEFAULT_EXAMPLES`); ``make fuzz`` runs
:data:`FUZZ_EXAMPLES` per test with fresh randomness.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli.main import main
from solver.errors import InputError
from solver.games import GAMES, game_of
from solver.recordfile import nested, read_record_file
from solver.rift_valley.fileformat import read_position as read_rv
from solver.terra_nova.fileformat import read_position as read_tn
from solver.terra_nova_kosmos.fileformat import read_position as read_tnk

ROOT = Path(__file__).resolve().parent.parent
RECORDS = sorted((ROOT / "positions").glob("*/records/*.toml"))
"""Bundled game records: the seeds of the record cases."""
SEEDS = sorted(set((ROOT / "positions").rglob("*.toml")) - set(RECORDS))
READERS = {"terra-nova": read_tn, "rift-valley": read_rv, "terra-nova-kosmos": read_tnk}
EXIT_CODES = {0, 1, 2, 3}
"""Documented exit codes a file can cause (130 needs a Ctrl-C)."""

DEFAULT_EXAMPLES = 1000
"""Examples per test in ``make test`` (2,000 cases in all)."""
FUZZ_EXAMPLES = 10000
"""Examples per test in ``make fuzz`` (20,000 cases in all)."""
EXAMPLES = int(os.environ.get("BOARDSAT_FUZZ_EXAMPLES", DEFAULT_EXAMPLES))
RANDOM = os.environ.get("BOARDSAT_FUZZ_RANDOM") == "1"

FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=not RANDOM,
                suppress_health_check=list(HealthCheck), print_blob=True)

WORDS = ["red", "yellow", "blue", "green", "purple", "terra-nova", "rift-valley",
         "terra-nova-kosmos", "best-turn", "closing", "max-points", "min-turns", "max-score",
         "true", "false", "--", "a.", "a#", "aR", "bY", "o a1", "^ b2", "a1-a3", "a1-c1-c3",
         "e1-f3 #g3", "", " ", "#", "[", "]", "{", "}", "=", '"', "'", '"""', "\\", "inf", "nan",
         "1e999", "-0", "0x10", "2147483648", "-1", "99999999999999999999", "ä", "🂡", "\u202e",
         "\x00", "\t"]
KEYS = ["game", "players", "to_move", "scores", "stones_left", "board", "landscapes",
        "puzzle", "solution", "player", "rift_owner", "draws", "first_stop_rule", "terrain",
        "areas", "elements", "turns", "objective", "target", "value", "line", "kind", "colour",
        "x", "ünïcode"]
TABLES = ["[puzzle]", "[solution]", "[landscapes]", "[elements.red]", "[elements.blue]",
          "[[case]]", "[scores]", "[x]"]
NUMBER = re.compile(r"(?<![\w.])-?\d+(?![\w.])")
TOKEN = re.compile(r"(?<=\s)\S{1,3}(?=\s)")


def _lines(text: str) -> list[str]:
    return text.split("\n")


@st.composite
def mutation(draw, text: str) -> str:
    """One random change of ``text``."""
    kind = draw(st.sampled_from(["drop", "repeat", "swap", "cut", "token", "word", "number",
                                 "unicode", "nesting", "unknown key", "table", "game",
                                 "value type", "bytes"]))
    lines = _lines(text)
    at = draw(st.integers(0, max(0, len(lines) - 1)))
    if kind == "drop" and lines:
        del lines[at]
    elif kind == "repeat" and lines:
        lines.insert(at, lines[at])
    elif kind == "swap" and len(lines) > 1:
        other = draw(st.integers(0, len(lines) - 1))
        lines[at], lines[other] = lines[other], lines[at]
    elif kind == "cut":
        return text[:draw(st.integers(0, len(text)))]
    elif kind == "token":
        spots = [m.span() for m in TOKEN.finditer(text)]
        if spots:
            start, end = draw(st.sampled_from(spots))
            new = draw(st.sampled_from(WORDS) | st.text(min_size=1, max_size=3))
            return text[:start] + new + text[end:]
    elif kind == "word":
        spot = draw(st.integers(0, len(text)))
        return text[:spot] + draw(st.sampled_from(WORDS)) + text[spot:]
    elif kind == "number":
        spots = [m.span() for m in NUMBER.finditer(text)]
        if spots:
            start, end = draw(st.sampled_from(spots))
            value = draw(st.sampled_from([0, -1, 1, 2, 3, 7, 11, 50, 81, 2**31, -(2**31) - 1,
                                          10**30]) | st.integers(-1000, 1000))
            return text[:start] + str(value) + text[end:]
    elif kind == "unicode":
        spot = draw(st.integers(0, len(text)))
        return text[:spot] + draw(st.text(min_size=1, max_size=8)) + text[spot:]
    elif kind == "nesting":
        depth = draw(st.sampled_from([2, 10, 49, 51, 200, 600]))
        opener, closer = draw(st.sampled_from([("[", "]"), ("{a=", "}")]))
        inner = "1" if opener == "{a=" else ""
        lines.insert(at, f"junk = {opener * depth}{inner}{closer * depth}")
    elif kind == "unknown key":
        key = draw(st.sampled_from(KEYS))
        value = draw(st.sampled_from(['1', '"x"', "[]", "{}", "true", '"""\nx\n"""', "1.5",
                                      '["a1"]', "[1, 2]"]))
        lines.insert(at, f"{key} = {value}")
    elif kind == "table":
        lines.insert(at, draw(st.sampled_from(TABLES)))
    elif kind == "game":
        other = draw(st.sampled_from([*GAMES, "chess", "", "Terra-Nova"]))
        return re.sub(r'game\s*=\s*"[^"]*"', f'game = "{other}"', text, count=1)
    elif kind == "value type" and lines:
        lines[at] = re.sub(r"=\s*(.*)$", lambda m: "= " + draw(st.sampled_from(
            ['"x"', "1", "[]", "{}", "true", "[[1]]", '["red"]', "-5", '""'])), lines[at],
            count=1)
    elif kind == "bytes":
        return draw(st.sampled_from(["\ufeff", ""])) + text + draw(st.sampled_from(
            ["\r\n", "\x7f", "\x00", "\r"]))
    return "\n".join(lines)


@st.composite
def mutated(draw) -> tuple[Path, str]:
    """A bundled position and a mutated copy of its text."""
    seed = draw(st.sampled_from(SEEDS))
    text = seed.read_text(encoding="utf-8")
    for _ in range(draw(st.integers(1, 3))):
        text = draw(mutation(text))
    return seed, text


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


def _write(folder: Path, text: str) -> tuple[Path, bytes]:
    path = folder / "case.toml"
    data = text.encode("utf-8")
    path.write_bytes(data)
    return path, data


@FUZZ
@given(case=mutated())
def test_readers_raise_only_input_errors(workdir, case):
    _, text = case
    path, data = _write(workdir, text)
    try:
        game = game_of(path)
        READERS[game.key](path)
    except InputError as exc:
        message = str(exc)
        assert "\n" not in message and message.startswith(str(path)), message
    assert path.read_bytes() == data


COMMANDS = (["show"] * 5 + ["verify"] * 4 + ["perft"] * 2
            + [["solve", "--time-limit", "0.3", "--workers", "1"]])


@FUZZ
@given(case=mutated(), command=st.sampled_from(COMMANDS), as_json=st.booleans())
def test_commands_fail_cleanly(workdir, case, command, as_json):
    _, text = case
    path, data = _write(workdir, text)
    args = [command] if isinstance(command, str) else list(command)
    takes_json = args[0] != "show"
    args.insert(1, str(path))
    if as_json and takes_json:
        args.append("--json")
    result = CliRunner().invoke(main, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        args, text, result.exception)
    assert result.exit_code in EXIT_CODES, (args, result.exit_code, result.output)
    assert "engine disagrees" not in result.stderr, (args, text, result.stderr)  # a bug
    if result.exit_code in (2, 3):
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and str(path) in lines[0], (args, result.stderr)
    if as_json and takes_json:
        json.loads(result.stdout)
    assert path.read_bytes() == data


def _inline(record: Path) -> str:
    """A bundled record with its start position written inline (the case stands alone)."""
    data = read_record_file(record)
    if data.inline:
        return record.read_text(encoding="utf-8")
    start = (record.parent / str(data.position)).read_text(encoding="utf-8")
    head, _, turns = record.read_text(encoding="utf-8").partition("\n\n")
    return (f'game = "{data.game}"\n\n' + nested(start, "position") + "\n" + turns)


RECORD_TEXTS = [_inline(record) for record in RECORDS]


@st.composite
def mutated_record(draw) -> str:
    """A bundled record (inline) with one to three mutations."""
    text = draw(st.sampled_from(RECORD_TEXTS))
    for _ in range(draw(st.integers(1, 3))):
        text = draw(mutation(text))
    return text


RECORD_EXAMPLES = max(1, EXAMPLES // 20)
"""Record cases per run: each replays a whole game, so a twentieth of the position cases."""


@settings(FUZZ, max_examples=RECORD_EXAMPLES)
@given(text=mutated_record(), upto=st.sampled_from([None, 1, 5, 1000]))
def test_records_fail_cleanly(workdir, text, upto):
    """A mutated record is replayed (``apply``) or refused in one line naming the record."""
    path, data = _write(workdir, text)
    args = ["apply", str(path), "--out", str(workdir / "after.toml")]
    if upto is not None:
        args += ["--upto", str(upto)]
    result = CliRunner().invoke(main, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        args, text, result.exception)
    assert result.exit_code in (0, 2), (args, result.exit_code, result.output)
    if result.exit_code == 2:
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and str(path) in lines[0], (args, result.stderr)
    assert path.read_bytes() == data

