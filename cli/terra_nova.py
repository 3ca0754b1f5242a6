"""Terra Nova commands `show`, `perft` and `play`: read, call the engine, render."""

from __future__ import annotations

import random
import time
from pathlib import Path

from rich.table import Table

from cli.console import err, print_json
from cli.console import out as stdout
from cli.hexboard import render_position
from solver.errors import InputError
from solver.terra_nova.engine import turns as engine
from solver.terra_nova.engine.playout import random_playout
from solver.terra_nova.fileformat import read_position, write_position
from solver.terra_nova.notation import format_turn, parse_line
from solver.terra_nova.position import Position
from solver.tomlfile import atomic_write_text


def load(file: Path, rules: engine.Rules = engine.Rules()) -> Position:  # noqa: B008 (frozen)
    """Read ``file`` and check it with the engine's ``validate`` (errors name the file)."""
    position = read_position(file)
    try:
        engine.validate(position, rules)
    except InputError as exc:
        raise exc.located(path=file) from None
    return position


def show(file: Path) -> None:
    """Draw the position in ``file``, with its puzzle and claimed solution if any."""
    position = load(file)
    stdout.print(f"[bold]{file}[/]")
    stdout.print(render_position(position))
    if position.puzzle is not None:
        p = position.puzzle
        details = [p.kind] + [f"{k} {v}" for k, v in (("turns", p.turns),
                              ("objective", p.objective), ("target", p.target)) if v is not None]
        stdout.print("puzzle: " + ", ".join(details))
    if position.solution is not None:
        _show_solution(file, position)
    if engine.game_over(position):
        stdout.print("[italic]the game is over in this position[/]")


def _show_solution(file: Path, position: Position) -> None:
    """Print the claimed solution and what the engine makes of it (verify judges it)."""
    solution = position.solution
    try:
        line = parse_line(solution.line, position.grid)
    except InputError as exc:
        raise InputError(exc.message, path=file,
                         place=f"[solution] line, {exc.place}" if exc.place else None) from None
    stdout.print(f"claimed solution: value {solution.value}, line "
                 + " / ".join(format_turn(t, position.grid) for t in line))
    try:
        result = engine.play_line(position, line)
    except engine.IllegalTurn as exc:
        stdout.print(f"engine: the line is illegal: {exc.place}: {exc.message}")
        return
    stdout.print(f"engine: legal; {position.to_move} gains {result.points}, "
                 f"the others {result.others}, in {result.actions} actions")


def perft(file: Path, as_json: bool) -> None:
    """Count the legal turns and resulting positions of the player to move."""
    position = load(file)
    start = time.perf_counter()
    with err.status("counting legal turns…", spinner="dots"):
        result = engine.perft(position)
    wall = time.perf_counter() - start
    if as_json:
        print_json({"game": "terra-nova", "turns": result.turns,
                    "positions": result.positions, "wall_s": round(wall, 4)})
        return
    table = Table(title=f"perft {file} ({position.to_move} to move)", show_header=True)
    table.add_column("legal turns", justify="right")
    table.add_column("distinct positions", justify="right")
    table.add_column("seconds", justify="right")
    table.add_row(f"{result.turns:,}", f"{result.positions:,}", f"{wall:.3f}")
    stdout.print(table)


def play(file: Path, turns: int | None, seed: int, out: Path | None,
         player_out_ends_game: bool) -> None:
    """Play a seeded random game from ``file``; print every turn; ``out`` gets the end."""
    rules = engine.Rules(player_out_ends_game=player_out_ends_game)
    position = load(file, rules)
    final, history = random_playout(position, random.Random(seed), turns=turns, rules=rules)
    table = Table(title=f"random playout from {file} (seed {seed})", show_header=True)
    table.add_column("#", justify="right")
    table.add_column("player")
    table.add_column("turn")
    table.add_column("points gained")
    for number, (colour, turn, gained) in enumerate(history, start=1):
        points = ", ".join(f"{c} +{g}" for c, g in gained.items() if g) or "-"
        table.add_row(str(number), colour, format_turn(turn, position.grid), points)
    stdout.print(table)
    stdout.print(render_position(final))
    if engine.game_over(final, rules):
        stdout.print("game over: " + _winners(final))
    elif final.stones_left == 0:
        stdout.print("stone supply empty: no more points possible; " + _winners(final))
    else:
        stdout.print(f"stopped after {len(history)} turn(s)")
    if out is not None:
        atomic_write_text(out, write_position(final))
        err.print(f"wrote {out}")


def _winners(position: Position) -> str:
    best = max(position.scores)
    leaders = [c for c, s in position.score_map.items() if s == best]
    return ("winner " if len(leaders) == 1 else "tied ") + ", ".join(leaders) + f" ({best} pts)"
