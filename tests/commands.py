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

REPO = Path(__file__).resolve().parent.parent
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
        timeout: float = 120, cwd: Path = REPO) -> Ended:
    """Run ``boardsat ARGS``; send SIGINT once ``ready`` shows on its standard error, or
    ``at`` seconds after its start (neither: never); kill it after ``timeout`` seconds."""
    leader, follower = pty.openpty()
    env = dict(os.environ, COLUMNS="200", LINES="50", TERM="xterm-256color")
    start = time.monotonic()
    process = subprocess.Popen([str(BOARDSAT), *map(str, args)], cwd=cwd, env=env,
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=follower)
    os.close(follower)
    shown = bytearray()
    sent = None
    try:
        while process.poll() is None:
            _read(leader, shown, 0.02)
            now = time.monotonic()
            if sent is None and ((ready is not None and ready.encode() in
                                  _ESCAPES.sub(b"", bytes(shown)))
                                 or (at is not None and now - start >= at)):
                process.send_signal(signal.SIGINT)
                sent = now
            if now - start > timeout:
                process.kill()
                break
        status = process.wait()
        end = time.monotonic()
        stdout = process.stdout.read().decode() if process.stdout else ""
        _read(leader, shown, 0.05)
    finally:
        os.close(leader)
        if process.stdout:
            process.stdout.close()
    return Ended(None if status == -signal.SIGKILL else status,
                 None if sent is None else end - sent, end - start, stdout,
                 _ESCAPES.sub(b"", bytes(shown)).decode(errors="replace"))
