"""The floor's Ctrl-C and deadline: one flag every path checks, one check that raises
(in-process and fast)."""

from __future__ import annotations

import json
import signal
import threading
import time

import pytest

from cli.console import user_errors
from solver.cpsat import (
    Deadline,
    Interrupted,
    OutOfTime,
    SolveParams,
    StopReason,
    harness,
    interrupt,
    solve,
)
from solver.errors import EXIT_INTERRUPTED, NoAnswer
from tests.support.models import hard_model


@pytest.fixture(autouse=True)
def one_command():
    """Each test is one command: earlier Ctrl-Cs are spent, later tests see none."""
    with interrupt.command():
        yield


def test_check_raises_interrupted_after_a_stop_request_and_out_of_time_after_the_limit():
    params = SolveParams(time_limit=60).started()
    params.check()
    interrupt.request()
    with pytest.raises(Interrupted):
        params.check()
    with pytest.raises(KeyboardInterrupt):  # what the CLI turns into exit 130
        interrupt.check()
    assert params.stopped_by() is StopReason.INTERRUPTED
    later = SolveParams(time_limit=0.0).started()  # a deadline begun after the Ctrl-C
    assert not later.interrupted()
    with pytest.raises(OutOfTime) as caught:
        later.check()
    assert isinstance(caught.value, NoAnswer)
    assert later.stopped_by() is StopReason.TIME_LIMIT
    assert Deadline(None).stopped_by() is None


def test_the_harness_starts_no_solve_once_interrupted():
    params = SolveParams(workers=1).started()
    interrupt.request()
    start = time.monotonic()
    _, result = solve(hard_model(), params)
    assert result.interrupted and result.status == "unknown"
    assert time.monotonic() - start < 0.5


def test_a_stop_request_from_another_thread_stops_a_running_solve():
    params = SolveParams(workers=1).started()
    timer = threading.Timer(0.5, interrupt.request)
    timer.start()
    start = time.monotonic()
    _, result = solve(hard_model(), params)
    timer.join()
    assert result.interrupted and not result.optimal
    assert time.monotonic() - start < 3


def test_sigint_inside_polled_only_requests_and_a_second_one_raises():
    with interrupt.polled():
        signal.raise_signal(signal.SIGINT)  # the first Ctrl-C: no exception
        assert interrupt.requested()
        with pytest.raises(Interrupted):
            signal.raise_signal(signal.SIGINT)  # the second: at once


def test_sigint_outside_polled_raises_at_once_under_a_command():
    with pytest.raises(Interrupted):
        signal.raise_signal(signal.SIGINT)
    assert interrupt.requested()


def test_stopping_callbacks_run_on_request_while_registered():
    calls = []
    with interrupt.stopping(lambda: calls.append(1)):
        interrupt.request()
    interrupt.request()
    assert calls == [1]


def test_ctrl_c_that_broke_an_import_ends_the_command_as_interrupted(capsys):
    # Ctrl-C inside OR-tools' initialisation (its first import, in a command where Ctrl-C
    # raises at once) comes out as ImportError("initialization failed") from it
    @user_errors
    def command(as_json: bool) -> None:
        try:
            raise Interrupted()
        except Interrupted as exc:
            raise ImportError("initialization failed") from exc

    with pytest.raises(SystemExit) as ended:
        command(as_json=True)
    assert ended.value.code == EXIT_INTERRUPTED
    assert json.loads(capsys.readouterr().out)["status"] == EXIT_INTERRUPTED

    @user_errors
    def missing(as_json: bool) -> None:
        import no_such_module_anywhere  # noqa: F401

    with pytest.raises(ImportError):  # a module really missing is no Ctrl-C
        missing(as_json=False)


def test_a_stop_request_while_the_solve_is_set_up_still_stops_it(monkeypatch):
    """A Ctrl-C that comes after the harness checked for one but before CP-SAT made its
    search (``stop_search`` then does nothing) still stops the search."""
    params = SolveParams(workers=1).started()
    configure = harness._configure

    def configure_then_ctrl_c(*args, **kwargs):
        configure(*args, **kwargs)
        interrupt.request()  # no search is registered yet: nothing to stop

    monkeypatch.setattr(harness, "_configure", configure_then_ctrl_c)
    start = time.monotonic()
    _, result = solve(hard_model(), params)
    assert result.interrupted and not result.optimal
    assert time.monotonic() - start < 3


def test_a_stop_while_the_solve_is_set_up_still_stops_it(monkeypatch):
    """A :class:`~solver.cpsat.harness.Stop` stopped after it admitted the solve but
    before CP-SAT made its search still stops the search."""
    stop = harness.Stop()
    configure = harness._configure

    def configure_then_stop(*args, **kwargs):
        configure(*args, **kwargs)
        stop.stop()  # the solve is admitted, its search not made yet: nothing to stop

    monkeypatch.setattr(harness, "_configure", configure_then_stop)
    start = time.monotonic()
    _, result = solve(hard_model(), SolveParams(workers=1).started(), stop=stop)
    assert not result.optimal and not result.interrupted
    assert time.monotonic() - start < 3
