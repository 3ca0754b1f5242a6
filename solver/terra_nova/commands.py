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
from solver.drawing.entries import stat_entries
from solver.drawing.report import bullets, heading, phrases, replayed, verdict
from solver.errors import InputError
from solver.protocol import Screen, Shown
from solver.recordfile import RecordedTurn, record_text, start_name
from solver.terra_nova import solve as library
from solver.terra_nova.answers import Answer
from solver.terra_nova.engine import turns as engine
from solver.terra_nova.engine.playout import random_playout
from solver.terra_nova.explain import OTHERS, Explanation, explain_line
from solver.terra_nova.fileformat import GAME, read_position, write_position
from solver.terra_nova.notation import Turn, format_action, format_turn, parse_line
from solver.terra_nova.position import Position
from solver.terra_nova.view import answer_marks, render_position
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
def located(file: Path) -> Iterator[None]:
    """InputErrors (PuzzleError included) raised inside name ``file`` and the line of
    their key (:func:`~solver.tomlfile.keyed`)."""
    try:
        yield
    except InputError as exc:
        raise keyed(exc, file) from None


def solve(file: Path, turns: int | None, params: SolveParams, as_json: bool,
          screen: Screen, show: Shown | None = None) -> int:
    """Solve the puzzle in ``file``; print the board before/after, the line, why it is
    worth its points and the proof status (``show``: the answers asked for)."""
    show = show or Shown()
    with located(file):
        position = read_position(file)
        if position.solution is not None:
            _claimed_line(file, position, position.solution)
        with screen.status("solving…") as status:
            answer = library.solve_puzzle(position, turns, params,
                                          progress=lambda text: status.update(f"solving: {text}"))
    stopped = None if answer.optimal else params.cut_short_by()
    explanation = explain_line(position, answer.line)
    if show.hint:
        return _hint(position, answer, as_json, screen)
    if as_json:
        screen.json(answer_json(position, answer, explanation, stopped))
        return 0
    _show_answer(file, position, answer, explanation, screen, show.stats, stopped)
    return 0


FALLBACK = "no line found in time; showing a legal line"
"""What a solve shows when CP-SAT found no line in time: the engine's first legal one."""


def puzzle_kind(answer: Answer) -> str:
    """The ``kind`` of ``--json``: ``best-turn`` or ``closing``."""
    return answer.kind if answer.kind == "best-turn" else "closing"


def answer_json(position: Position, answer: Answer, explanation: Explanation,
                stopped: StopReason | None = None) -> dict:
    """The object ``solve --json`` prints (docs/json.md)."""
    return {
        "game": "terra-nova",
        "kind": puzzle_kind(answer),
        "objective": None if answer.kind == "best-turn" else answer.kind,
        "value": answer.value,
        "others": answer.others,
        "others_meaning": OTHERS,
        "actions": answer.actions,
        "optimal": answer.optimal,
        "stopped": None if stopped is None else stopped.value,
        "bound": answer.bound,
        "line": answer.line_text(position),
        "turn_points": answer.turn_points,
        "turn_others": answer.turn_others,
        "explain": explanation.as_json(),
        "wall_s": round(answer.wall_s, 4),
        "stats": dict(answer.stats, build_s=round(answer.build_s, 4), status=answer.status),
    }


def _hint(position: Position, answer: Answer, as_json: bool, screen: Screen) -> int:
    """Only the first action of the answer and what the whole answer is worth."""
    first = next((a for turn in answer.line for a in turn), None)
    action = "pass" if first is None else format_action(first, position.grid)
    if as_json:
        screen.json({"game": "terra-nova", "kind": puzzle_kind(answer), "hint": action,
                     "value": answer.value, "optimal": answer.optimal})
        return 0
    turns = "" if len(answer.line) == 1 else f" over {len(answer.line)} turns"
    screen.print(phrases(f"hint: start with {action}; the best answer gains {answer.value} "
                         f"points{turns}:", verdict(answer.optimal,
                                                    FALLBACK if answer.fallback else None,
                                                    answer.bound)))
    return 0


def _region_cells(position: Position, explanation: Explanation) -> list[tuple[int, ...]]:
    """The cells (indices) of each region the line scores, in order."""
    return [tuple(position.grid.cell(name) for name in region.cells)
            for region in explanation.regions]


def _show_answer(file: Path, position: Position, answer: Answer, explanation: Explanation,
                 screen: Screen, stats: bool, stopped: StopReason | None = None) -> None:
    """The board before and after with the answer's marks, the line, how sure it is
    (``stopped``: what ended the search before its proof) and why it is worth its points."""
    before, after = answer_marks(position, answer.line, answer.final,
                                 _region_cells(position, explanation))
    screen.print(heading(file, f"{answer.kind}, {position.to_move} to move"))
    screen.print(render_position(position, before))
    texts = answer.line_text(position)
    if len(texts) == 1:
        screen.print(Text("answer: ", style="bold").append(texts[0]))
    else:
        table = Table(title="the answer, turn by turn", show_header=True)
        table.add_column("turn", justify="right")
        table.add_column("actions")
        table.add_column(f"{position.to_move} gains", justify="right")
        table.add_column("others gain", justify="right")
        for number, (text, own, others) in enumerate(
                zip(texts, answer.turn_points, answer.turn_others, strict=True), start=1):
            table.add_row(str(number), text, str(own), str(others))
        screen.print(table)
    screen.print(phrases(f"{position.to_move} gains {answer.value} points, the others gain "
                         f"{answer.others}, in {answer.actions} actions:",
                         replayed(verdict(answer.optimal, FALLBACK if answer.fallback
                                          else None, answer.bound, stopped)), style="bold"))
    screen.print(bullets(explanation.sentences()))
    screen.print(Text("after the answer:", style="bold"))
    screen.print(render_position(answer.final, after))
    if stats:
        screen.print(stat_entries(dict(answer.stats, model_build_s=round(answer.build_s, 2)),
                                  answer.wall_s))


def verify(file: Path, as_json: bool, screen: Screen) -> int:
    """Check the file's [solution] with the engine; exit status 1 when it does not hold."""
    with located(file):
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
    with located(file):
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
