"""Run the real ``boardsat`` command in a subprocess, stop it with Ctrl-C, time its end.

Its standard error is a pseudo-terminal, so the progress display (rich) shows as it
would to a user: a test waits for a text there (a stage reached, a line found) before
it sends SIGINT, instead of sleeping for a guessed time. Shared by the stopping tests
and the soak run.
"""

from __future__ import annotations

import os
import pty
import re
import select
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
BOARDSAT = Path(sys.executable).parent / "boardsat"
_ESCAPES = re.compile(rb"\x1b\[[0-9;?]*[a-zA-Z]|\r")


@dataclass
class Ended:
    """How a command ended."""

    status: int | None
    """Its exit status (None: still running at the timeout, then killed)."""
    after_signal: float | None
    """Seconds from SIGINT to its end (None: no SIGINT was sent)."""
    seconds: float
    """Seconds from its start to its end."""
    stdout: str
    stderr: str
    """What it showed on the terminal, escape sequences removed."""
    cpu_after_signal: float | None = None
    """CPU seconds (every thread) it used from SIGINT to its end: what the time from
    SIGINT to exit would be on an idle core, whatever the load of the machine."""
    cpu: float = 0.0
    """CPU seconds it used in all."""
    cpu_after_limit: float | None = None
    """CPU seconds (every thread) it used from its time limit to its end (None: no limit
    given, or it ended before the limit)."""


def _read(fd: int, into: bytearray, wait: float) -> None:
    """Move what is ready on ``fd`` (within ``wait`` seconds) into ``into``."""
    while True:
        ready, _, _ = select.select([fd], [], [], wait)
        if not ready:
            return
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # the other end closed
            return
        if not chunk:
            return
        into += chunk
        wait = 0


def run(args: Sequence[str | Path], *, ready: str | None = None, at: float | None = None,
        timeout: float = 120, cwd: Path = REPO, limit: float | None = None) -> Ended:
    """Run ``boardsat ARGS``; send SIGINT once ``ready`` shows on its standard error, or
    ``at`` seconds after its start (neither: never); kill it after ``timeout`` seconds.
    ``limit``: its time limit, to note the CPU it uses past it."""
    leader, follower = pty.openpty()
    env = dict(os.environ, COLUMNS="200", LINES="50", TERM="xterm-256color")
    start = time.monotonic()
    process = subprocess.Popen([str(BOARDSAT), *map(str, args)], cwd=cwd, env=env,
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=follower)
    os.close(follower)
    assert process.stdout is not None
    out, shown = bytearray(), bytearray()
    sent = cpu_at_signal = cpu_at_limit = None
    try:
        while True:
            _read(leader, shown, 0.02)
            _read(process.stdout.fileno(), out, 0)
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            now = time.monotonic()
            if pid:
                break
            if limit is not None and cpu_at_limit is None and now - start >= limit:
                cpu_at_limit = _cpu(process.pid)
            if sent is None and ((ready is not None and ready.encode() in
                                  _ESCAPES.sub(b"", bytes(shown)))
                                 or (at is not None and now - start >= at)):
                cpu_at_signal = _cpu(process.pid)
                # os.kill, not Popen.send_signal: that polls first and may reap a child
                # that just ended, which wait4 here must do (a pid is not reused before)
                os.kill(process.pid, signal.SIGINT)
                sent = now
            if now - start > timeout:
                os.kill(process.pid, signal.SIGKILL)
        process.returncode = os.waitstatus_to_exitcode(status)
        _read(process.stdout.fileno(), out, 0.05)
        _read(leader, shown, 0.05)
    finally:
        os.close(leader)
        process.stdout.close()
    cpu = usage.ru_utime + usage.ru_stime
    code = process.returncode
    return Ended(None if code == -signal.SIGKILL else code,
                 None if sent is None else now - sent, now - start, out.decode(),
                 _ESCAPES.sub(b"", bytes(shown)).decode(errors="replace"),
                 None if cpu_at_signal is None else cpu - cpu_at_signal, cpu,
                 None if cpu_at_limit is None else cpu - cpu_at_limit)


def _cpu(pid: int) -> float:
    """CPU seconds process ``pid`` has used so far, every thread, with its children's
    (those running, and those it waited for: what its exit status reports in the end)."""
    stats = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stats[int(entry.name)] = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:  # ended meanwhile
                continue
    ticks, family = 0, [pid]
    while family:
        member = family.pop()
        fields = stats.get(member)
        if fields is None:
            continue
        ticks += sum(int(f) for f in fields[11:15])  # utime, stime, cutime, cstime
        family += [child for child, f in stats.items() if int(f[1]) == member]
    return ticks / os.sysconf("SC_CLK_TCK")
