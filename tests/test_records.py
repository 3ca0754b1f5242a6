"""Game records: ``play --record``, ``apply`` (turns on a position, a record cut at a turn)
and bad records (one line naming the file and the turn, exit 2).

A record written by ``play`` replays to the very position ``play --out`` writes, and
reading it and writing it again gives the same text, for both editions of Terra Nova.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cli.main import main
from solver.paths import POSITIONS_DIR
from solver.recordfile import nested, read_record_file
from solver.records import canonical, replay

TN_START = POSITIONS_DIR / "terra-nova" / "setup-2p.toml"
TNK_START = POSITIONS_DIR / "terra-nova-kosmos" / "setup-2p.toml"
TNK_PLANER = POSITIONS_DIR / "terra-nova-kosmos" / "setup-2p-planer.toml"


def run(*args: object) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args])


def one_error_line(result: Result, path: Path) -> str:
    """The single error line of a refused command (exit 2), which names ``path``."""
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and str(path) in lines[0], result.stderr
    return lines[0]


@pytest.mark.parametrize(("start", "seed", "turns"), [
    (TN_START, 1, 40), (TN_START, 2, 15), (TNK_START, 3, None), (TNK_PLANER, 4, 20)])
def test_a_played_game_replays_exactly(tmp_path, start, seed, turns):
    record, out = tmp_path / "games" / "game.toml", tmp_path / "end.toml"
    extra = [] if turns is None else ["--turns", turns]
    finished = TNK_START == start and turns is None  # KOSMOS writes no finished position
    played = run("play", start, "--seed", seed, "--record", record, *extra,
                 *([] if finished else ["--out", out]))
    assert played.exit_code == 0, played.output
    text = record.read_text(encoding="utf-8")
    assert read_record_file(record).position == Path(os.path.relpath(start, record.parent)
                                                     ).as_posix()
    assert canonical(record) == text  # read and written again: the same text
    replayed = replay(record)
    assert len(replayed.turns) == text.count("[[turn]]") > 0
    if not finished:
        again = run("apply", record, "--out", tmp_path / "again.toml")
        assert again.exit_code == 0, again.output
        assert (tmp_path / "again.toml").read_text() == out.read_text()


def test_upto_is_the_position_before_that_turn(tmp_path):
    record = tmp_path / "game.toml"
    assert run("play", TN_START, "--seed", 5, "--turns", 12, "--record", record).exit_code == 0
    for upto in (1, 7, 13):
        cut = tmp_path / f"upto{upto}.toml"
        assert run("apply", record, "--upto", upto, "--out", cut).exit_code == 0
        if upto == 1:
            assert cut.read_text() == TN_START.read_text()
            continue
        played = tmp_path / f"played{upto}.toml"
        assert run("play", TN_START, "--seed", 5, "--turns", upto - 1,
                   "--out", played).exit_code == 0
        assert cut.read_text() == played.read_text()
    line = one_error_line(run("apply", record, "--upto", 14, "--out", tmp_path / "x.toml"),
                          record)
    assert "--upto 14: the record has 12 turn(s), so 1 to 13" in line


def test_apply_plays_turns_typed_on_the_command_line(tmp_path):
    record = tmp_path / "game.toml"
    assert run("play", TN_START, "--seed", 5, "--turns", 3, "--record", record).exit_code == 0
    turns = [t.turn for t in read_record_file(record).turns]
    out = tmp_path / "after.toml"
    result = run("apply", TN_START, *turns, "--out", out)
    assert result.exit_code == 0, result.output
    assert run("apply", record, "--out", tmp_path / "same.toml").exit_code == 0
    assert out.read_text() == (tmp_path / "same.toml").read_text()
    # from a record: its first turn, then the rest typed
    result = run("apply", record, "--upto", 2, *turns[1:], "--out", tmp_path / "mixed.toml")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "mixed.toml").read_text() == out.read_text()
    line = one_error_line(run("apply", TN_START, turns[0], turns[0], "--out", out), TN_START)
    assert "turn 2 of the command line: yellow's turn" in line and "is illegal" in line


def test_an_inline_start_position_reads_and_writes_back(tmp_path):
    record = tmp_path / "game.toml"
    assert run("play", TNK_PLANER, "--seed", 2, "--turns", 9, "--record", record).exit_code == 0
    start = TNK_PLANER.read_text(encoding="utf-8")
    body = record.read_text(encoding="utf-8").split("\n", 2)[2]
    inline = tmp_path / "inline.toml"
    inline.write_text('game = "terra-nova-kosmos"\n\n' + nested(start, "position") + body,
                      encoding="utf-8")
    assert read_record_file(inline).inline
    assert canonical(inline) == inline.read_text(encoding="utf-8")
    assert replay(inline).positions[-1] == replay(record).positions[-1]


def _edited(tmp_path: Path, record: Path, old: str, new: str, count: int = 1) -> Path:
    text = record.read_text(encoding="utf-8")
    assert old in text
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace(old, new, count), encoding="utf-8")
    return bad


@pytest.fixture
def tn_record(tmp_path) -> Path:
    record = tmp_path / "game.toml"
    assert run("play", TN_START, "--seed", 1, "--turns", 6, "--record", record).exit_code == 0
    return record


def test_bad_turns_name_the_record_the_turn_and_why(tmp_path, tn_record):
    turns = read_record_file(tn_record).turns
    fourth = turns[3].turn
    illegal = fourth.replace(fourth.split()[0], "d1-d2")
    bad = _edited(tmp_path, tn_record, f'turn = "{fourth}"', f'turn = "{illegal}"')
    line = one_error_line(run("apply", bad, "--out", tmp_path / "x.toml"), bad)
    assert "turn 4 (line 16)" in line and "is illegal" in line
    assert "action 1 'd1-d2': no yellow piece on d1" in line
    bad = _edited(tmp_path, tn_record, 'player = "yellow"', 'player = "red"')
    line = one_error_line(run("apply", bad, "--out", tmp_path / "x.toml"), bad)
    assert "turn 2 (line 8): it is yellow's turn, the record says 'red'" in line
    bad = _edited(tmp_path, tn_record, f'turn = "{fourth}"', 'turn = "c4-zz9"')
    line = one_error_line(run("apply", bad, "--out", tmp_path / "x.toml"), bad)
    assert "turn 4 (line 16)" in line and "does not read" in line and "zz9" in line
    bad = _edited(tmp_path, tn_record, 'player = "yellow"', 'player = "yellow"\ncolour = 3')
    line = one_error_line(run("apply", bad, "--out", tmp_path / "x.toml"), bad)
    assert "turn 2 (line 8): unknown key 'colour'" in line
    bad = _edited(tmp_path, tn_record, 'position = "', 'position = "missing/')
    line = one_error_line(run("apply", bad, "--out", tmp_path / "x.toml"), bad)
    assert "line 2 (key 'position'): its start position" in line and "no such file" in line


def test_no_turn_follows_the_end_of_the_game(tmp_path):
    record = tmp_path / "game.toml"
    assert run("play", TNK_START, "--seed", 3, "--record", record).exit_code == 0
    text = record.read_text(encoding="utf-8")
    last = text[text.rindex("[[turn]]"):]
    bad = tmp_path / "bad.toml"
    bad.write_text(text + "\n" + last, encoding="utf-8")
    line = one_error_line(run("apply", bad, "--out", tmp_path / "x.toml"), bad)
    assert "the game is over (everyone has passed in the last round)" in line
    line = one_error_line(run("apply", record, "--out", tmp_path / "x.toml"), record)
    assert "the game is over" in line


def test_records_are_for_the_games_that_keep_them(tmp_path):
    rift = POSITIONS_DIR / "rift-valley" / "midgame-savanna.toml"
    line = one_error_line(run("apply", rift, "--out", tmp_path / "x.toml"), rift)
    assert "'apply' is for terra-nova, terra-nova-kosmos positions" in line
    position = tmp_path / "glueck.toml"
    position.write_text(TNK_PLANER.read_text().replace('variant = "planer"',
                                                       'variant = "glueckgraeber"')
                        .replace('neutral = "black"\n', ""))
    line = one_error_line(run("play", position, "--record", tmp_path / "r.toml"), position)
    assert "--record: the glueckgraeber variant draws neutral houses" in line
