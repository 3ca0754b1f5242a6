"""What a player sees: answers at 80 columns in 16 colours, 256 colours and none
(snapshots), ``--no-color`` and ``NO_COLOR``, and Ctrl-C and ``--time-limit`` on the real
commands ``solve --top`` and ``rate`` (subprocesses, as tests/test_stopping.py runs
them: Ctrl-C once the loop of solves, or the count, is under way).

Snapshots live in tests/data/snapshots; ``BOARDSAT_UPDATE_SNAPSHOTS=1`` rewrites them
from the current output (look at them before committing: ``cat -v`` shows the codes).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from solver.cpsat import SolveParams
from solver.games import game_of
from solver.paths import POSITIONS_DIR
from solver.protocol import Shown
from tests.support.commands import run
from tests.support.stopping import quick, time_limit_held

SNAPSHOTS = Path(__file__).parent / "data" / "snapshots"
COLOURS = re.compile(r"\x1b\[(?:[0-9]+;)*(?:3[0-9]|4[0-9]|9[0-7]|10[0-7])(?:;[0-9]+)*m")
"""An escape sequence that sets a colour (bold alone is not one: NO_COLOR keeps it)."""
DEPTHS = {"16": "standard", "256": "256", "plain": None}
"""Snapshot suffix → rich colour system (None: no colour, as in a pipe)."""
ANSWERS = {
    "tn-tie-split": "terra-nova/puzzles/best-turn-tie-split.toml",
    "rv-identical": "rift-valley/midgame-identical.toml",
    "tnk-last-round": "terra-nova-kosmos/puzzles/generated/tnk-last-round-s0-c00000.toml",
}
BOARDSAT = [str(Path(sys.executable).parent / "boardsat")]
"""The installed command, run as a user runs it."""


class Recorded:
    """A screen keeping what a command prints on standard output."""

    def __init__(self) -> None:
        self.items: list = []

    def print(self, *renderables) -> None:
        self.items.extend(renderables)

    def note(self, *renderables) -> None:
        pass

    def json(self, obj) -> None:
        raise AssertionError("no JSON here")

    def status(self, text: str):
        from contextlib import nullcontext
        return nullcontext(type("Status", (), {"update": lambda self, text: None})())


def rendered(items: list, system: str | None) -> str:
    """``items`` printed at 80 columns with ``system``'s colours (None: without)."""
    console = Console(width=80, record=True, force_terminal=system is not None,
                      color_system=system, no_color=system is None, legacy_windows=False,
                      _environ={})
    with console.capture() as capture:
        for item in items:
            console.print(item)
    return capture.get()


@pytest.mark.parametrize("name", ANSWERS)
def test_answers_at_80_columns_match_their_snapshots(name, monkeypatch):
    monkeypatch.chdir(POSITIONS_DIR.parent)
    path = Path(POSITIONS_DIR.name) / ANSWERS[name]
    screen = Recorded()
    game = game_of(path)
    options = {key: None if key in ("turns", "draws") else False
               for key in game.options["solve"]}
    game.solve(path, options, SolveParams(workers=1, seed=0), False, screen, Shown())
    for suffix, system in DEPTHS.items():
        text = rendered(screen.items, system)
        assert max(len(line) for line in rendered(screen.items, None).splitlines()) <= 80
        snapshot = SNAPSHOTS / f"{name}-{suffix}.txt"
        if os.environ.get("BOARDSAT_UPDATE_SNAPSHOTS"):
            snapshot.parent.mkdir(parents=True, exist_ok=True)
            snapshot.write_text(text, encoding="utf-8")
        assert text == snapshot.read_text(encoding="utf-8"), f"{snapshot.name} changed"
        if system is None:
            assert "\x1b[" not in text
        else:
            assert "\x1b[" in text and ("38;5;" in text) == (system == "256")


def _started(args: list[str], **env: str) -> subprocess.Popen:
    return subprocess.Popen([*BOARDSAT, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**os.environ, "COLUMNS": "80", **env})


TIE_SPLIT = ["solve", str(POSITIONS_DIR / ANSWERS["tn-tie-split"]), "--workers", "1"]


def test_no_color_and_NO_COLOR_print_no_colour_but_the_markers():
    forced = {"TERM": "xterm-256color", "FORCE_COLOR": "1"}
    started = [_started(TIE_SPLIT, NO_COLOR="1", **forced),
               _started([*TIE_SPLIT, "--no-color"], **forced)]
    for process in started:
        out, err = process.communicate(timeout=120)
        assert process.returncode == 0, err
        assert not COLOURS.search(out)
        assert "[##]" in out and "[●R]" in out
        assert "a tie, 21 // 2 = 10 each to red and yellow" in out


TOP = ["solve", "positions/terra-nova/midgame-2p.toml", "--top", "100", "--workers", "1"]
RATE = ["rate", "positions/terra-nova/puzzles/closing-demo.toml",
        "b3-c3 c3-b3 b3-c3 / c3-b3 b3-c3 c3-b3", "--workers", "1"]


def test_ctrl_c_ends_solve_top_keeping_the_answers_found():
    # the progress line is redrawn a few times a second, so it may skip any one count:
    # "answer 2" matches "answer 2 of" and "answer 20 of"…, either after the first is found
    ended = run(TOP, ready="answer 2")
    quick(ended)
    assert ended.status == 0, ended.stderr[-2000:]
    text = " ".join(ended.stdout.split())
    assert "1st " in text and "stopped (interrupted)" in text


def test_ctrl_c_ends_rate_keeping_its_count():
    ended = run(RATE, ready="so far")
    quick(ended)
    assert ended.status == 0, ended.stderr[-2000:]
    text = " ".join(ended.stdout.split())
    assert "your line scores 0; at least" in text and "counting stopped: interrupted" in text


@pytest.mark.parametrize("args", [TOP, RATE], ids=["solve --top", "rate"])
def test_the_time_limit_holds_on_top_and_rate(args):
    limit = 3.0
    ended = run([*args, "--time-limit", str(limit)])
    assert ended.status in (0, 2), ended.stderr[-2000:]
    time_limit_held(ended, limit)
    if ended.status == 0:
        assert "time limit" in " ".join(ended.stdout.split())
