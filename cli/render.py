"""``boardsat render`` (one board as SVG/PNG/PDF) and ``boardsat sheet`` (a PDF booklet).

Both ask the file's game (through the registry) for a drawing scene; the
drawing floor lays it out and writes it.
"""

from __future__ import annotations

from pathlib import Path

import click
from rich.markup import escape

from cli.console import SCREEN, err, user_errors
from solver.games import game_of

FILE = click.Path(exists=False, dir_okay=False, path_type=Path)
CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


@click.command(context_settings=CONTEXT)
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--out", type=FILE, required=True,
              help="Picture to write: .svg, .png or .pdf (the name picks the format).")
@click.option("--solution", is_flag=True,
              help="Draw the answer: the file's [solution] (refused unless legal and worth "
                   "its value), else the solver's, replayed by the engine; moves as numbered "
                   "arrows, new pieces highlighted.")
@user_errors
def render(file: Path, out: Path, solution: bool) -> None:
    """Draw the position in FILE as a picture: board, cell names, pieces, scores, legend.

    Exit status 1 when --solution finds the file's [solution] illegal or not worth
    its value (nothing is drawn), 2 for bad input.

    \b
    Examples:
      boardsat render positions/terra-nova/midgame-2p.toml --out board.svg
      boardsat render PUZZLE.toml --solution --out answer.png
    """
    from solver.drawing.layout import Words, picture_figure
    from solver.drawing.output import format_of, save

    format_of(out)
    scene = game_of(file).picture(file, solution)
    headings = [Words(f"{scene.title}  ·  {file.name}", 9, colour="#666666"),
                Words(scene.question, 14, bold=True)]
    save(picture_figure(scene, headings), out)
    SCREEN.note(f"wrote {escape(str(out))}")


@click.command(context_settings=CONTEXT)
@click.argument("sources", nargs=-1, required=True,
                type=click.Path(exists=False, path_type=Path))
@click.option("--out", type=FILE, required=True, help="PDF file to write.")
@user_errors
def sheet(sources: tuple[Path, ...], out: Path) -> None:
    """Make a printable PDF of the puzzles in SOURCES (files, or folders of .toml files).

    One puzzle per A4 page with its question in words and its difficulty, then
    an answer key with every solution drawn (the file's [solution], else solved;
    either way replayed by the engine). Exit status 1 when a file's [solution]
    is illegal or not worth its value (nothing is written), 2 for bad input.

    \b
    Example:
      boardsat sheet positions/terra-nova/puzzles/generated --out puzzles.pdf
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from solver.sheet import write_sheet

    with Progress(TextColumn("drawing"), BarColumn(), MofNCompleteColumn(), console=err,
                  transient=True, disable=not err.is_terminal) as bar:
        task = bar.add_task("pages", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        pages = write_sheet(sources, out, progress)
    SCREEN.note(f"wrote {escape(str(out))} ({pages} pages)")
