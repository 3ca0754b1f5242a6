"""README samples: the cheap, deterministic ``$ boardsat …`` outputs are what the commands print.

A sample is compared line by line (trailing spaces aside) at the README's 80
columns: a ``...`` line stands for lines left out; in lines that report times
(``time``, ``wall_s``, ``deterministic_time``) every number may differ.
"""

from __future__ import annotations

import re
import shlex

import pytest
from click.testing import CliRunner

from cli import console
from cli.main import main
from solver.paths import REPO_ROOT

CHECKED = (
    "boardsat show positions/terra-nova/midgame-2p.toml",
    "boardsat solve positions/terra-nova/puzzles/best-turn-majority.toml --workers 1",
    "boardsat verify positions/terra-nova/puzzles/closing-demo.toml --json",
    "boardsat perft positions/terra-nova/midgame-2p.toml --json",
    "boardsat show positions/terra-nova-kosmos/setup-3p.toml",
    "boardsat verify positions/terra-nova-kosmos/puzzles/last-round-demo.toml",
)
"""Samples whose output is the same on every run (one CP-SAT worker) and quick to make."""
TIMES = re.compile(r"\btime\b|wall_s|deterministic_time")
NUMBER = re.compile(r"\d+(\.\d+)?")


def readme_samples() -> dict[str, list[str]]:
    """``$ boardsat …`` command → the lines the README shows under it."""
    text = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    samples: dict[str, list[str]] = {}
    for block in re.findall(r"```\n(.*?)```", text, re.S):
        command = None
        for line in block.splitlines():
            if line.startswith("$ "):
                command = line[2:]
                samples[command] = []
            elif command is not None:
                samples[command].append(line)
    return samples


def _comparable(line: str) -> str:
    line = line.rstrip()
    return NUMBER.sub("#", line) if TIMES.search(line) else line


def _chunks(lines: list[str]) -> list[list[str]]:
    """The runs of shown lines between ``...`` lines (an empty first or last run: a gap)."""
    chunks: list[list[str]] = [[]]
    for line in lines:
        if line.strip() == "...":
            chunks.append([])
        else:
            chunks[-1].append(_comparable(line))
    return chunks


def _matches(shown: list[str], printed: list[str]) -> bool:
    """Every run of ``shown`` appears whole and in order; no gap at the ends unless shown."""
    chunks = _chunks(shown)
    printed = [_comparable(line) for line in printed]
    position = 0
    for number, chunk in enumerate(chunks):
        first, last = number == 0, number == len(chunks) - 1
        starts = [position] if first else range(position, len(printed) - len(chunk) + 1)
        for start in starts:
            if printed[start:start + len(chunk)] == chunk and (
                    not last or start + len(chunk) == len(printed)):
                position = start + len(chunk)
                break
        else:
            return False
    return True


@pytest.fixture
def eighty_columns(monkeypatch):
    """The README's samples are captured 80 columns wide."""
    monkeypatch.setattr(console.out, "_width", 80)


@pytest.mark.parametrize("command", CHECKED)
def test_readme_sample_is_what_the_command_prints(command, eighty_columns):
    shown = readme_samples().get(command)
    assert shown is not None, f"README no longer shows `{command}`: update CHECKED"
    result = CliRunner().invoke(main, shlex.split(command)[1:])
    printed = result.stdout.splitlines()
    assert _matches(shown, printed), "\n".join(["README:", *shown, "printed:", *printed])


def test_the_comparison_catches_a_stale_sample():
    printed = ["head", "a", "b", "c", "time 0.5s", "tail"]
    assert _matches(["head", "...", "c", "time 9.1s", "tail"], printed)
    assert not _matches(["a", "...", "tail"], printed)  # the head line left out
    assert not _matches(["head", "...", "b", "a", "...", "tail"], printed)  # order
    assert not _matches(["head", "...", "c"], printed)  # the end left out
    assert not _matches(["head", "...", "a", "c", "...", "tail"], printed)  # a gap not shown
