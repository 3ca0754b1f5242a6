"""``boardsat sheet``: a printable PDF booklet of puzzles with an answer key at the end.

One puzzle per A4 page (its number, difficulty and question in words, the
board, ruled lines for the reader's answer), then the answers, each drawn on its
board, two to a page where both boards stay large enough (:data:`MIN_ANSWER_UNIT`).
Games are found through the registry and draw through their ``picture`` bridge;
the difficulty is read from the generator's comment line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path

from solver.errors import InputError
from solver.games import game_of
from solver.tomlfile import read_text

MIN_ANSWER_UNIT = 0.26
"""Two answers share a page when both boards get cells at least this wide (inches)."""
DIFFICULTY = re.compile(r"^# difficulty (\w+)", re.MULTILINE)
"""The grade line ``boardsat generate`` writes at the top of a puzzle file."""

Progress = Callable[[int, int], None]


def puzzle_files(sources: Sequence[Path]) -> list[Path]:
    """The files named, a folder standing for its ``*.toml`` files (sorted, not recursive)."""
    files: list[Path] = []
    for source in sources:
        if source.is_dir():
            found = sorted(source.glob("*.toml"))
            if not found:
                raise InputError("no .toml files in this folder", path=source)
            files.extend(found)
        elif source.is_file():
            files.append(source)
        else:
            raise InputError("no such file or folder", path=source)
    return files


def difficulty_of(path: Path) -> str | None:
    """``easy``/``medium``/``hard`` from the file's grade comment, if it has one."""
    match = DIFFICULTY.search(read_text(path))
    return match.group(1) if match else None


def pack_answers(fits: Sequence[bool]) -> list[list[int]]:
    """Answer indices grouped by page: two consecutive answers share one when both fit
    a half page (``fits``), else an answer has a page of its own."""
    pages: list[list[int]] = []
    for index, fit in enumerate(fits):
        if fit and pages and len(pages[-1]) == 1 and fits[pages[-1][0]]:
            pages[-1].append(index)
        else:
            pages.append([index])
    return pages


def write_sheet(sources: Sequence[Path], out: Path, progress: Progress | None = None) -> int:
    """Write the booklet of the puzzles in ``sources`` to ``out``; returns the page count."""
    from dataclasses import replace

    from solver.drawing.layout import Words, fitting_unit, page_figure, page_slot
    from solver.drawing.output import format_of, pdf_book

    if format_of(out) != "pdf":
        raise InputError("a sheet is written as PDF: the file name must end in .pdf", path=out)
    files = puzzle_files(sources)
    games = [game_of(path) for path in files]
    steps = 2 * len(files)
    answers = []
    for number, (path, game) in enumerate(zip(files, games, strict=True), start=1):
        scene = replace(game.picture(path, solution=True), keys=[])
        answers.append((scene, [Words(f"Answer {number}", 13, bold=True),
                                Words(scene.question, 10, colour="#555555")]))
        _tell(progress, number, steps)
    half = page_slot(2)
    pages = pack_answers([fitting_unit(scene, words, *half) >= MIN_ANSWER_UNIT
                          for scene, words in answers])
    total = len(files) + len(pages)
    with pdf_book(out) as book:
        for number, (path, game) in enumerate(zip(files, games, strict=True), start=1):
            scene = game.picture(path, solution=False)
            grade = difficulty_of(path)
            headings = [Words(f"Puzzle {number}" + (f"  ·  {grade}" if grade else ""), 12,
                              colour="#555555"),
                        Words(scene.question, 17, bold=True)]
            book.savefig(page_figure([(scene, headings)], scene.title,
                                     f"{path.name}  ·  page {number} of {total}",
                                     notes="Your answer:"))
            _tell(progress, len(files) + number, steps)
        for page, group in enumerate(pages, start=len(files) + 1):
            book.savefig(page_figure([answers[i] for i in group], "Answers",
                                     f"page {page} of {total}"))
    return total


def _tell(progress: Progress | None, done: int, total: int) -> None:
    if progress:
        progress(done, total)
