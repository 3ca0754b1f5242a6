"""``boardsat apply``: play turns on a position, or cut a record, and write the position.

The record and the turns are read and played by :mod:`solver.records`; this is the
click layer.
"""

from __future__ import annotations

from pathlib import Path

import click
from rich.markup import escape

from cli.console import SCREEN, user_errors

FILE = click.Path(exists=False, dir_okay=False, path_type=Path)
CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


@click.command(context_settings=CONTEXT)
@click.argument("file", type=click.Path(path_type=Path))
@click.argument("turns", nargs=-1)
@click.option("--upto", type=click.IntRange(1), default=None, metavar="N",
              help="FILE is a record: start from its position before turn N (1: its start "
                   "position), not after its last turn.")
@click.option("--out", type=FILE, required=True,
              help="Position file to write (folders are created).")
@user_errors
def apply(file: Path, turns: tuple[str, ...], upto: int | None, out: Path) -> None:
    """Play TURNS on the position in FILE with the engine and write the position after them.

    FILE is a position file or a game record (docs/formats.md); TURNS are the next
    turns in the game's notation (docs/notation.md), one argument each (quote a
    turn of several actions), played by whoever is to move. With a record and no
    TURNS, --upto N writes the position before its turn N: the way to enter a real
    position is to type the game's turns.

    \b
    Exit status: 0 written; 2 bad input (a turn that does not read or is illegal:
    one line naming it and why; a game over after the turns).

    \b
    Examples:
      boardsat apply positions/terra-nova/setup-2p.toml "c10-c9 #b9 #b10" --out next.toml
      boardsat apply game.toml --upto 12 --out before-12.toml
    """
    from solver.errors import InputError
    from solver.records import apply_turns
    from solver.tomlfile import atomic_write_text

    applied = apply_turns(file, turns, upto)
    over = applied.game.game_over(applied.position)
    if over is not None:
        raise InputError(f"the game is over after these turns ({over}); there is no "
                         "position to play on to write", path=file)
    text = applied.game.write_position(applied.position)

    for player, turn in zip(applied.players, applied.texts, strict=True):
        SCREEN.note(f"{escape(player)}: {escape(turn)}")
    atomic_write_text(out, text)
    SCREEN.note(f"wrote {escape(str(out))} "
                f"({escape(applied.game.to_move(applied.position))} to move)")
