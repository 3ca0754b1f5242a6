"""What a player sees: answers at 80 columns in 16 colours, 256 colours and none
(snapshots), ``--no-color`` and ``NO_COLOR``, and Ctrl-C and ``--time-limit`` on the real
commands ``solve --top`` and ``rate`` (subprocesses).

Snapshots live in tests/data/snapshots; ``BOARDSAT_UPDATE_SNAPSHOTS=1`` rewrites them
from the current output (look at them before committing: ``cat -v`` shows the codes).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from rich.console import Console

from solver.cpsat import SolveParams
from solver.games import game_of
from solver.paths import POSITIONS_DIR
from solver.protocol import Shown

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
TOP = ["solve", str(POSITIONS_DIR / "terra-nova/midgame-2p.toml"), "--top", "100",
       "--workers", "1"]
RATE = ["rate", str(POSITIONS_DIR / "terra-nova/puzzles/closing-demo.toml"),
        "b3-c3 c3-b3 b3-c3 / c3-b3 b3-c3 c3-b3", "--workers", "1"]
MARGIN = 10.0
"""Seconds a command may take to end after Ctrl-C or its time limit (start-up and
printing included, on a loaded machine)."""
CTRL_C_AFTER = 3.0
"""Seconds before Ctrl-C: the command has started and is solving or counting."""
TIME_LIMIT = 3


def test_the_real_commands_print_without_colour_and_stop_on_ctrl_c_and_time_limits():
    """Six commands at once (the wall time of the slowest): ``NO_COLOR`` and ``--no-color``
    print no colour but keep the markers; Ctrl-C ends ``solve --top`` and ``rate`` within
    seconds keeping what they found (exit 130 only when it came before any answer); so
    does ``--time-limit``."""
    forced = {"TERM": "xterm-256color", "FORCE_COLOR": "1"}
    plain = [_started(TIE_SPLIT, NO_COLOR="1", **forced),
             _started([*TIE_SPLIT, "--no-color"], **forced)]
    stopped = {name: _started(args) for name, args in (("top", TOP), ("rate", RATE))}
    limited = {name: _started([*args, "--time-limit", str(TIME_LIMIT)])
               for name, args in (("top", TOP), ("rate", RATE))}
    start = time.monotonic()
    time.sleep(CTRL_C_AFTER)
    for process in stopped.values():
        process.send_signal(signal.SIGINT)
    outputs = _finished([*plain, *stopped.values(), *limited.values()])
    for process in plain:
        out, err, _ = outputs[process.pid]
        assert process.returncode == 0, err
        assert not COLOURS.search(out)
        assert "[##]" in out and "[●R]" in out
        assert "a tie, 21 // 2 = 10 each to red and yellow" in out
    for name, process in stopped.items():
        out, err, ended = outputs[process.pid]
        assert ended - start < CTRL_C_AFTER + MARGIN, name
        text = " ".join(out.split())
        if process.returncode == 130:  # Ctrl-C came before the first answer
            assert "before an answer was found" in err, (name, err)
            continue
        assert process.returncode == 0, (name, err)
        assert ("1st " in text and "stopped (interrupted)" in text if name == "top"
                else "your line scores 0;" in text and "the best" in text), text
    for name, process in limited.items():
        out, err, ended = outputs[process.pid]
        assert ended - start < TIME_LIMIT + MARGIN, name
        assert process.returncode in (0, 2) and "time limit" in " ".join(
            (out + err).split()), (name, out, err)


def _finished(processes: list[subprocess.Popen]) -> dict[int, tuple[str, str, float]]:
    """Each process's output and when it ended (``time.monotonic``), by pid: one thread
    waits on each, so a slow one does not delay the others' clocks."""
    outputs: dict[int, tuple[str, str, float]] = {}

    def wait(process: subprocess.Popen) -> None:
        out, err = process.communicate(timeout=120)
        outputs[process.pid] = (out, err, time.monotonic())

    threads = [threading.Thread(target=wait, args=(p,)) for p in processes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outputs
