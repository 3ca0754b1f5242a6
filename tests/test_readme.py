"""README commands: the cheap, deterministic ``$ boardsat …`` samples are what the commands
print, and every command shown parses (subcommand, options, files to read, make targets).

A sample is compared line by line (trailing spaces aside) at the README's 80
columns: a ``...`` line stands for lines left out; in lines that report times
(``time``, ``wall_s``, ``deterministic_time``) every number may differ.
"""

from __future__ import annotations

import re
import shlex

import click
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


def readme_commands() -> list[str]:
    """Every command the README's code blocks show (``$`` or not, continued lines
    joined, trailing ``#`` comments dropped)."""
    text = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    commands = []
    for block in re.findall(r"```[a-z]*\n(.*?)```", text, re.S):
        lines = iter(block.splitlines())
        for line in lines:
            line = line.removeprefix("$ ")
            if not re.match(r"(boardsat|make|\.venv/bin/python) ", line):
                continue
            while line.rstrip().endswith("\\"):
                line = line.rstrip()[:-1] + " " + next(lines).strip()
            commands.append(line.split("  #")[0].strip())
    return commands


OUTPUTS = ("--out", "--save", "--plot", "--readme")
"""Options whose value is a file the command writes."""
HYPOTHETICAL = ("boardsat show broken.toml",)
"""Shown with a file the reader is asked to imagine (the bad-input section)."""


def _arguments(command: str) -> list[str]:
    """The command's arguments after ``boardsat``, globs expanded in the checkout as a
    shell would (a pattern that matches nothing stays as it is)."""
    out = []
    for word in shlex.split(command)[1:]:
        found = sorted(REPO_ROOT.glob(word)) if "*" in word else []
        out.extend([str(p.relative_to(REPO_ROOT)) for p in found] or [word])
    return out


def test_every_readme_command_parses(monkeypatch):
    # every `boardsat` command shown names a real subcommand and options, and the
    # files it reads exist (parsed by click as the console script would, not run);
    # every `make` target and benchmark script shown exists
    monkeypatch.chdir(REPO_ROOT)
    commands = readme_commands()
    assert len(commands) > 30
    targets = set(re.findall(r"^([a-z-]+):", (REPO_ROOT / "Makefile").read_text(), re.M))
    for command in commands:
        if command in HYPOTHETICAL:
            continue
        if command.startswith("make "):
            assert command.split()[1] in targets, command
        elif command.startswith(".venv/bin/python "):
            assert (REPO_ROOT / command.split()[1]).is_file(), command
        else:
            args = _arguments(command)
            read = [word for before, word in zip(["", *args], args, strict=False)
                    if word.startswith("positions/") and before not in OUTPUTS]
            assert all((REPO_ROOT / word).exists() for word in read), command
            with main.make_context("boardsat", list(args)) as ctx:
                name, sub, rest = main.resolve_command(ctx, args)
                try:
                    sub.make_context(name, rest, parent=ctx).close()
                except click.UsageError as error:
                    pytest.fail(f"README: `{command}`: {error.format_message()}")
