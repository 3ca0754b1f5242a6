"""Terra Nova commands `show`, `perft`, `play`, `solve` and `verify`: read, call, render.

Each takes the CLI's :class:`solver.protocol.Screen` to print on and returns the
exit status.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from rich.markup import escape
from rich.table import Table
from rich.text import Text

from solver.cpsat import SolveParams, StopReason
from solver.drawing.entries import Entries
from solver.errors import InputError
from solver.protocol import Screen
from solver.recordfile import RecordedTurn, record_text, start_name
from solver.terra_nova import solve as library
from solver.terra_nova.answers import Answer
from solver.terra_nova.engine import turns as engine
from solver.terra_nova.engine.playout import random_playout
from solver.terra_nova.fileformat import GAME, read_position, write_position
from solver.terra_nova.notation import Move, Stone, Turn, format_turn, parse_line
from solver.terra_nova.position import Position
from solver.terra_nova.view import render_position
from solver.tomlfile import Solution, atomic_write_text, keyed


def load(file: Path) -> Position:
    """Read ``file`` and check it with the engine's ``validate`` (errors name the file)."""
    return checked(read_position(file), file)


def checked(position: Position, file: Path) -> Position:
    """``position`` (read from ``file``) once the engine's ``validate`` accepts it; its
    InputError names ``file``."""
    try:
        engine.validate(position)
    except InputError as exc:
        raise exc.located(path=file) from None
    return position


def show(file: Path, screen: Screen) -> int:
    """Draw the position in ``file``, with its puzzle and claimed solution if any;
    exit status 1 when that solution does not hold (illegal, or not worth its value)."""
    position = load(file)
    screen.print(f"[bold]{escape(str(file))}[/]")
    screen.print(render_position(position))
    if position.puzzle is not None:
        p = position.puzzle
        details = [p.kind] + [f"{k} {v}" for k, v in (("turns", p.turns),
                              ("objective", p.objective), ("target", p.target)) if v is not None]
        screen.print("puzzle: " + ", ".join(details))
    legal = position.solution is None or _show_solution(file, position, position.solution,
                                                        screen)
    if engine.game_over(position):
        screen.print("[italic]the game is over in this position[/]")
    return 0 if legal else 1


def _claimed_line(file: Path, position: Position, solution: Solution) -> list[Turn]:
    """The file's [solution] line parsed; one that does not parse is bad input whose place
    starts with ``[solution] line``."""
    try:
        return parse_line(solution.line, position.grid)
    except InputError as exc:
        raise InputError(exc.message, path=file,
                         place=f"[solution] line, {exc.place}" if exc.place else None) from None


def _show_solution(file: Path, position: Position, solution: Solution, screen: Screen) -> bool:
    """Print the claimed ``solution`` (the position's) and what the engine makes of it;
    False when it does not hold."""
    line = _claimed_line(file, position, solution)
    screen.print(f"claimed solution: value {solution.value}, line "
                 + " / ".join(format_turn(t, position.grid) for t in line))
    try:
        result = engine.play_line(position, line)
    except engine.IllegalTurn as exc:
        screen.print(f"[bold red]engine: the line is illegal[/]: {escape(str(exc.place))}: "
                     f"{escape(exc.message)}")
        return False
    screen.print(f"engine: legal; {position.to_move} gains {result.points}, "
                 f"the others {result.others}, in {result.actions} actions")
    if result.points != solution.value:
        screen.print(f"[bold red]engine: the line is worth {result.points}, not the "
                     f"claimed {solution.value}[/]")
        return False
    return True


def _perft_table(title: str, turns: int, positions: int, wall: float) -> Table:
    table = Table(title=title, show_header=True)
    table.add_column("legal turns", justify="right")
    table.add_column("distinct positions", justify="right")
    table.add_column("seconds", justify="right")
    table.add_row(f"{turns:,}", f"{positions:,}", f"{wall:.3f}")
    return table


def perft(file: Path, as_json: bool, screen: Screen) -> int:
    """Count the legal turns and resulting positions of the player to move."""
    position = load(file)
    start = time.perf_counter()
    with screen.status("counting legal turns…"):
        result = engine.perft(position)
    wall = time.perf_counter() - start
    if as_json:
        screen.json({"game": "terra-nova", "turns": result.turns,
                     "positions": result.positions, "wall_s": round(wall, 4)})
        return 0
    title = f"perft {escape(str(file))} ({position.to_move} to move)"
    screen.print(_perft_table(title, result.turns, result.positions, wall))
    return 0


def play(file: Path, turns: int | None, seed: int, out: Path | None,
         player_out_ends_game: bool, screen: Screen, record: Path | None = None) -> int:
    """Play a seeded random game from ``file``; print every turn; ``out`` gets the end,
    ``record`` the game record (docs/formats.md)."""
    rules = engine.Rules(player_out_ends_game=player_out_ends_game)
    position = load(file)
    final, history = random_playout(position, random.Random(seed), turns=turns, rules=rules)
    table = Table(title=f"random playout from {escape(str(file))} (seed {seed})", show_header=True)
    table.add_column("#", justify="right")
    table.add_column("player")
    table.add_column("turn")
    table.add_column("points gained")
    for number, (colour, turn, gained) in enumerate(history, start=1):
        points = ", ".join(f"{c} +{g}" for c, g in gained.items() if g) or "-"
        table.add_row(str(number), colour, format_turn(turn, position.grid), points)
    screen.print(table)
    screen.print(render_position(final))
    if engine.game_over(final, rules):
        reason = "the stone supply is empty" if final.stones_left == 0 else "game over"
        screen.print(f"{reason}: " + _winners(final))
    else:
        screen.print(f"stopped after {len(history)} turn(s)")
    if out is not None:
        atomic_write_text(out, write_position(final))
        screen.note(f"wrote {escape(str(out))}")
    if record is not None:
        played = [RecordedTurn(colour, format_turn(turn, position.grid))
                  for colour, turn, _ in history]
        atomic_write_text(record, record_text(GAME, start_name(file, record), played))
        screen.note(f"wrote {escape(str(record))}")
    return 0


def _winners(position: Position) -> str:
    best = max(position.scores)
    leaders = [c for c, s in position.score_map.items() if s == best]
    return ("winner " if len(leaders) == 1 else "tied ") + ", ".join(leaders) + f" ({best} pts)"


@contextmanager
def _located(file: Path) -> Iterator[None]:
    """InputErrors (PuzzleError included) raised inside name ``file`` and the line of
    their key (:func:`~solver.tomlfile.keyed`)."""
    try:
        yield
    except InputError as exc:
        raise keyed(exc, file) from None


def solve(file: Path, turns: int | None, params: SolveParams, as_json: bool,
          screen: Screen) -> int:
    """Solve the puzzle in ``file``; print the board before/after, the line and the proof status."""
    with _located(file):
        position = read_position(file)
        if position.solution is not None:
            _claimed_line(file, position, position.solution)
        with screen.status("solving…") as status:
            answer = library.solve_puzzle(position, turns, params,
                                          progress=lambda text: status.update(f"solving: {text}"))
    stopped = None if answer.optimal else params.cut_short_by()
    if as_json:
        screen.json({
            "game": "terra-nova",
            "kind": answer.kind if answer.kind == "best-turn" else "closing",
            "objective": None if answer.kind == "best-turn" else answer.kind,
            "value": answer.value,
            "others": answer.others,
            "actions": answer.actions,
            "optimal": answer.optimal,
            "stopped": None if stopped is None else stopped.value,
            "bound": answer.bound,
            "line": answer.line_text(position),
            "turn_points": answer.turn_points,
            "turn_others": answer.turn_others,
            "wall_s": round(answer.wall_s, 4),
            "stats": dict(answer.stats, build_s=round(answer.build_s, 4), status=answer.status),
        })
        return 0
    _show_answer(file, position, answer, screen, stopped)
    return 0


def _touched(answer: Answer) -> set[int]:
    cells: set[int] = set()
    for turn in answer.line:
        for action in turn:
            if isinstance(action, Move):
                cells.update((action.src, action.dst))
            elif isinstance(action, Stone):
                cells.add(action.cell)
    return cells


def _show_answer(file: Path, position: Position, answer: Answer, screen: Screen,
                 stopped: StopReason | None = None) -> None:
    """The board before and after, the line, and how sure it is (``stopped``: what ended
    the search before its proof)."""
    touched = _touched(answer)
    screen.print(f"[bold]{escape(str(file))}[/] — {answer.kind}, {position.to_move} to move")
    screen.print(render_position(position, highlight=touched))
    table = Table(title="solution line", show_header=True)
    table.add_column("turn", justify="right")
    table.add_column("actions")
    table.add_column(f"{position.to_move} gains", justify="right")
    table.add_column("others gain", justify="right")
    for number, (text, own, others) in enumerate(
            zip(answer.line_text(position), answer.turn_points, answer.turn_others, strict=True),
            start=1):
        table.add_row(str(number), text, str(own), str(others))
    screen.print(table)
    screen.print("after the line:")
    screen.print(render_position(answer.final, highlight=touched))
    bound = "" if answer.bound is None else f"; bound {answer.bound}"
    why = "" if stopped is None else f"{stopped.value}: "
    proof = ("[bold green]proven optimal[/]" if answer.optimal
             else f"[bold yellow]{why}not proven optimal (best found{bound})[/]")
    screen.print(Entries([f"value {answer.value} points, others {answer.others}, "
                          f"{answer.actions} actions —", Text.from_markup(proof)], " "))
    stats = [f"{k} {v}" for k, v in answer.stats.items()]
    screen.print(Entries([f"time {answer.wall_s:.2f}s (model build {answer.build_s:.2f}s);",
                          *(f"{s}," for s in stats[:-1]), *stats[-1:]], " "))


def verify(file: Path, as_json: bool, screen: Screen) -> int:
    """Check the file's [solution] with the engine; exit status 1 when it does not hold."""
    with _located(file):
        position = read_position(file)
        if position.solution is not None:
            _claimed_line(file, position, position.solution)
        verdict = library.verify_solution(position)
    assert position.solution is not None, "verify_solution refuses a file without one"
    if as_json:
        puzzle = position.puzzle
        screen.json({"game": "terra-nova",
                     "kind": "best-turn" if puzzle is None else puzzle.kind,
                     "ok": verdict.ok, "message": verdict.message,
                     "claimed": position.solution.value, "value": verdict.points})
    elif verdict.ok:
        screen.print(f"[bold green]ok[/]: the solution is legal and gains {verdict.points} points")
    else:
        screen.print(f"[bold red]not ok[/]: {verdict.message}")
    return 0 if verdict.ok else 1


def perft_via_model(file: Path, as_json: bool, screen: Screen,
                    time_limit: float | None = None) -> int:
    """Count legal turns by enumerating the CP-SAT turn model's solutions (slow: a
    cross-check of the engine; a warning says so, a spinner counts, ``time_limit`` stops)."""
    params = SolveParams(time_limit=time_limit, workers=1).started()
    with _located(file):
        position = read_position(file)
        screen.note("perft via the model enumerates every solution of the CP-SAT turn model: "
                    "minutes where the engine takes milliseconds"
                    + ("" if time_limit else " (--time-limit stops it)"))
        with screen.status("enumerating the turn model…") as status:
            def counted(found: int) -> None:
                if found % 100 == 0:
                    status.update(f"enumerating the turn model: {found:,} solutions so far")

            result = library.perft_via_model(position, params, progress=counted)
    if as_json:
        screen.json({"game": "terra-nova", "turns": result.turns, "positions": result.positions,
                     "wall_s": round(result.wall_s, 4), "via": "model"})
        return 0
    screen.print(_perft_table(f"perft via the CP-SAT model: {escape(str(file))}", result.turns,
                              result.positions, result.wall_s))
    return 0
