"""Ctrl-C and --time-limit end every solve path of the real command within seconds.

Each test starts ``boardsat`` as a subprocess (:mod:`tests.commands`), waits until the
path is reached (its progress shows on the terminal), sends SIGINT and checks the exit
status, the message and the time the command took to end after it.
"""

from __future__ import annotations

from solver.errors import EXIT_INTERRUPTED
from tests.commands import Ended, run

TN = "positions/terra-nova/"
WITHIN = 3.0
"""Seconds from SIGINT to the end of the command (the promise is 2 s; the rest is for a
loaded test machine)."""


def kept_best(ended: Ended) -> None:
    """The command ended within :data:`WITHIN` after SIGINT, printing its best line."""
    assert ended.after_signal is not None, ended.stderr[-2000:]
    assert ended.status == 0, ended.stderr[-2000:]
    assert "interrupted: not proven optimal (best found; bound" in ended.stdout
    assert "Traceback" not in ended.stderr
    assert ended.after_signal < WITHIN, ended.after_signal


def no_answer(ended: Ended) -> None:
    """The command ended within :data:`WITHIN` after SIGINT with exit 130, one line."""
    assert ended.after_signal is not None, ended.stderr[-2000:]
    assert ended.status == EXIT_INTERRUPTED, (ended.status, ended.stderr[-2000:])
    assert "interrupted" in ended.stderr and "Traceback" not in ended.stderr
    assert ended.after_signal < WITHIN, ended.after_signal


def test_ctrl_c_in_a_deep_round_keeps_the_best_line():
    # 3-turn closings on a full board: relaxation, caps, then restricted rounds; Ctrl-C
    # once the first round has a line (the rounds used to go on after it)
    kept_best(run(["solve", TN + "midgame-3p.toml", "--turns", "3", "--workers", "1"],
                  ready="best found"))


def test_ctrl_c_on_the_two_turn_threads_keeps_the_best_line():
    kept_best(run(["solve", TN + "midgame-2p.toml", "--turns", "2", "--workers", "2"],
                  ready="best found"))
