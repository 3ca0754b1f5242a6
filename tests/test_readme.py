"""README and docs/commands.md: the cheap, deterministic ``$ boardsat …`` samples are what
the commands print, every command shown parses (subcommand, options, files to read, make
targets), the README stays a short guide whose overview of where CP-SAT wins and loses is
filled, and no file of the repository speaks of how the work on it was organised.

A sample is compared line by line (trailing spaces aside) at the README's 80
columns: a ``...`` line stands for lines left out; in lines that report times
(``time``, ``wall_s``, ``deterministic_time``) every number may differ.
"""

from __future__ import annotations

import re
import shlex
import subprocess

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
    "boardsat solve positions/terra-nova/puzzles/best-turn-majority.toml --top 3",
    'boardsat rate positions/terra-nova/puzzles/best-turn-majority.toml "b1-a1 #b1"',
    "boardsat solve positions/terra-nova/puzzles/best-turn-majority.toml --hint",
)
"""Samples whose output is the same on every run (one CP-SAT worker) and quick to make."""
TIMES = re.compile(r"\btime\b|wall_s|deterministic_time")
NUMBER = re.compile(r"\d+(\.\d+)?")


SHOWN = ("README.md", "docs/commands.md", "docs/performance.md")
"""The pages whose commands and samples are checked."""


def _shown_text() -> str:
    return "\n".join((REPO_ROOT / page).read_text(encoding="utf-8") for page in SHOWN)


def readme_samples() -> dict[str, list[str]]:
    """``$ boardsat …`` command → the lines the README (or docs/commands.md) shows under it."""
    text = _shown_text()
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
    assert shown is not None, f"no page shows `{command}` any more: update CHECKED"
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
    """Every command the code blocks of :data:`SHOWN` show (``$`` or not, continued lines
    joined, trailing ``#`` comments dropped)."""
    text = _shown_text()
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


# ------------------------------------------------------------------ a short guide

README_MOST_LINES = 350


def test_readme_is_a_short_guide():
    lines = (REPO_ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MOST_LINES, (
        f"README.md has {len(lines)} lines, at most {README_MOST_LINES}: move the detail "
        "to docs/")


def test_readme_overview_is_filled_from_saved_runs():
    # the table of where CP-SAT wins and loses is there, one row per group of the saved
    # runs it names, and its plot exists
    from solver.bench.overview import MARKER, overview_markdown, rows_of_run
    text = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    match = MARKER.search(text)
    assert match is not None, "README.md lost its <!-- bench-overview --> block"
    args = dict(re.findall(r"(\w+)=(\S+)", match.group("args")))
    assert (REPO_ROOT / args["plot"]).is_file()
    assert f"]({args['plot']})" in text, "the overview's plot is not shown"
    rows = [row for run in args["from"].split(",") for row in rows_of_run(REPO_ROOT / run)]
    shown = match.group(0)
    assert rows and all(line in shown for line in overview_markdown(rows).splitlines())


def test_performance_tables_say_when_they_were_measured():
    text = (REPO_ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
    blocks = re.findall(r"<!-- (bench(?:-cases)?:\w+) -->\n(.*?)<!-- /\1 -->", text, re.S)
    assert len(blocks) >= 4
    for marker, body in blocks:
        if body == "*Not measured yet on a quiet machine: `make bench-depth` fills this table.*\n":
            continue  # a suite added since the last quiet run
        assert body.startswith("*Measured on 20"), f"{marker}: no date and settings"
        assert body.count("*Measured on") == 1, marker


# ------------------------------------------------------------------ the product only

ORGANISATION = re.compile(
    r"\bsessions? \d|\b(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth"
    r"|eleventh|twelfth) session\b|\b(?:second|third) pass\b|\bissues? #?\d|\b(?:TN|RV) #\d"
    r"|(?:Terra Nova|Rift Valley|KOSMOS),? #\d|(?<![\w&/#'\"-])#\d{1,3}(?:[–-]#?\d+)?\b(?![\w'\"])"
    r"|\bhelper \"|\bthe lead\b|\bthe brief\b|\bbrief's\b")
"""How the work was organised: sittings, issue and experiment numbers, who did what."""
LOAD = re.compile(r"\bload(?: average)? (?:about |of )?[~≈]?\d|\bat load\b|\(load [\d≈]")
"""Machine load figures (the experiment log keeps them; the guide and docs do not)."""


def _repository_text_files() -> list[str]:
    listed = subprocess.run(["git", "ls-files"], cwd=REPO_ROOT, capture_output=True,
                            text=True, check=False)
    if listed.returncode != 0:
        pytest.skip("not a git checkout")
    return [name for name in listed.stdout.splitlines()
            if name.endswith((".py", ".md", ".toml", ".txt", ".cfg")) or name == "Makefile"]


def test_no_file_speaks_of_how_the_work_was_organised():
    found = []
    for name in _repository_text_files():
        if name == "tests/test_readme.py":
            continue
        text = (REPO_ROOT / name).read_text(encoding="utf-8", errors="replace")
        found += [f"{name}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)}"
                  for m in ORGANISATION.finditer(text)]
    assert not found, "\n".join(found)


def test_guide_and_docs_hold_no_load_figures_or_commit_hashes():
    commits = subprocess.run(["git", "log", "--format=%H"], cwd=REPO_ROOT,
                             capture_output=True, text=True, check=False).stdout.split()
    pages = ["README.md", *(str(p.relative_to(REPO_ROOT))
                            for p in (REPO_ROOT / "docs").rglob("*.md"))]
    found = []
    for name in pages:
        text = (REPO_ROOT / name).read_text(encoding="utf-8")
        found += [f"{name}: load figure {m.group(0)!r}" for m in LOAD.finditer(text)]
        found += [f"{name}: commit {word}"
                  for word in set(re.findall(r"\b[0-9a-f]{7,40}\b", text))
                  if re.search(r"\d", word) and re.search(r"[a-f]", word)
                  and any(commit.startswith(word) for commit in commits)]
    assert not found, "\n".join(found)


def test_the_wording_checks_can_fail():
    assert ORGANISATION.search("measured in session 7")
    assert ORGANISATION.search("(benchmarks/EXPERIMENTS.md, Terra Nova #214)")
    assert ORGANISATION.search("see #85–#92")
    assert ORGANISATION.search('helper "rv" found')
    assert not ORGANISATION.search("a turn `c4-f4 #d5` and colour #1b7837")
    assert LOAD.search("measured at load 12") and LOAD.search("load average about 1")
    assert not LOAD.search("the load of the model")
