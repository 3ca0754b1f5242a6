"""Terra Nova (KOSMOS) commands `show`, `perft`, `play`, `verify`, `solve`: read, call, render.

Each takes the CLI's :class:`solver.protocol.Screen` to print on and returns the
exit status.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rich.markup import escape
from rich.table import Table
from rich.text import Text

from solver.cpsat import SolveParams
from solver.drawing.entries import stat_entries
from solver.drawing.report import bullets, heading, phrases, replayed, verdict
from solver.errors import InputError, PuzzleError
from solver.protocol import Screen, Shown
from solver.recordfile import RecordedTurn, record_text, start_name
from solver.terra_nova_kosmos.engine import bestround, lastrounds, rounds
from solver.terra_nova_kosmos.engine.actions import IllegalTurn, apply_turn
from solver.terra_nova_kosmos.engine.lastround import evaluate
from solver.terra_nova_kosmos.engine.perft import perft as count_turns
from solver.terra_nova_kosmos.engine.playout import random_turn
from solver.terra_nova_kosmos.engine.scoring import final_breakdown, winners
from solver.terra_nova_kosmos.engine.validate import validate
from solver.terra_nova_kosmos.explain import OTHERS, explain_line
from solver.terra_nova_kosmos.fileformat import (
    GAME,
    is_board_file,
    read_board,
    read_position,
    write_position,
)
from solver.terra_nova_kosmos.notation import Turn, format_turn, parse_line
from solver.terra_nova_kosmos.position import Position
from solver.terra_nova_kosmos.view import changed_hexes, render_board, render_position
from solver.tomlfile import atomic_write_text


def load(file: Path) -> Position:
    """Read ``file`` and check it with the engine's ``validate`` (errors name the file);
    a map file is refused as such (only ``show`` and ``render`` take one)."""
    if is_board_file(file):
        raise InputError("a map file, not a position: show and render draw it, the other "
                         "commands need a position file", path=file)
    return checked(read_position(file), file)


def checked(position: Position, file: Path) -> Position:
    """``position`` (read from ``file``) once the engine's ``validate`` accepts it; its
    InputError names ``file``."""
    try:
        validate(position)
    except InputError as exc:
        raise exc.located(path=file) from None
    return position


RECORDED_VARIANTS = ("standard", "planer")
"""Variants a game record can hold: the Glücksgräber's neutral houses are drawn at random
between rounds, and a record holds the turns only."""


def turn_played(position: Position, turn: Turn) -> Position:
    """The position after ``to_move`` plays ``turn`` and the game moves on (next player,
    or next round); IllegalTurn says why a turn is refused. The Glücksgräber variant's
    draws between rounds are not in a record: its round end is refused."""
    after = apply_turn(position, turn)
    if position.variant not in RECORDED_VARIANTS and rounds.next_seat(after) is None:
        raise InputError(f"a record of the {position.variant} variant ends in the round it "
                         "starts: the neutral houses drawn between rounds are not recorded")
    return rounds.advance(after)


def show(file: Path, screen: Screen) -> int:
    """Draw the position (or bare board) in ``file``, with its puzzle and its claimed
    solution replayed by the engine if any; exit status 1 when that solution does not
    hold (illegal, or not worth its value)."""
    if is_board_file(file):
        board, landscape = read_board(file)
        screen.print(f"[bold]{escape(str(file))}[/]")
        screen.print(render_board(board, landscape))
        screen.print(f"{board.grid.size} hexes, {len(board.river)} river, "
                     f"{len(board.bridge_spots)} bridge spots, "
                     f"{len(board.neutral_marks)} neutral marks")
        return 0
    position = load(file)
    screen.print(f"[bold]{escape(str(file))}[/]")
    screen.print(render_position(position))
    if position.puzzle is not None:
        screen.print(f"puzzle: {puzzle_said(position)} for {position.to_move}")
    if position.solution is None:
        return 0
    screen.print(f"claimed solution: value {position.solution.value}, line "
                 + " / ".join(position.solution.line))
    result, ok, message = _judge(file, position)
    if not ok:
        screen.print(f"[bold red]engine: the line does not hold[/]: {escape(message)}")
        return 1
    screen.print(f"engine: legal, worth {result.value} ({said(result)}, "
                 f"{turns_said(result.turns)})")
    return 0


def perft(file: Path, depth: int, as_json: bool, screen: Screen) -> int:
    """Count the canonical legal turns of the player to move (depth 2: and the replies)."""
    position = load(file)
    start = time.perf_counter()
    with screen.status("counting legal turns…"):
        result = count_turns(position, depth)
    wall = time.perf_counter() - start
    if as_json:
        screen.json({"game": "terra-nova-kosmos", "turns": result.turns,
                     "positions": result.positions, "depth": depth, "pairs": result.pairs,
                     "wall_s": round(wall, 4)})
        return 0
    table = Table(title=f"perft {escape(str(file))} ({position.to_move} to move)", show_header=True)
    table.add_column("legal turns", justify="right")
    table.add_column("distinct positions", justify="right")
    if result.pairs is not None:
        table.add_column("turn pairs (depth 2)", justify="right")
    table.add_column("seconds", justify="right")
    row = [f"{result.turns:,}", f"{result.positions:,}"]
    row += [f"{result.pairs:,}"] if result.pairs is not None else []
    table.add_row(*row, f"{wall:.3f}")
    screen.print(table)
    return 0


def play(file: Path, turns: int | None, seed: int, out: Path | None, screen: Screen,
         record: Path | None = None) -> int:
    """Play seeded random turns from ``file`` to the end of the game (or ``turns`` turns);
    print each turn in notation and the final scores; ``out`` gets the last position,
    ``record`` the game record (docs/formats.md)."""
    position = load(file)
    if record is not None and position.variant not in RECORDED_VARIANTS:
        raise InputError(f"--record: the {position.variant} variant draws neutral houses at "
                         "random between rounds, which a record does not hold", path=file)
    history: list[RecordedTurn] = []
    rng = random.Random(seed)
    table = Table(title=f"random game from {escape(str(file))} (seed {seed})", show_header=True)
    for column in ("#", "round", "player", "turn"):
        table.add_column(column, justify="right" if column in ("#", "round") else "left")
    played = 0
    while not rounds.game_over(position) and (turns is None or played < turns):
        turn, after = random_turn(position, rng, eager=True)
        played += 1
        table.add_row(str(played), str(position.round), position.to_move,
                      format_turn(turn, position.grid))
        history.append(RecordedTurn(position.to_move, format_turn(turn, position.grid)))
        position = rounds.advance(after, rng)
    screen.print(table)
    screen.print(render_position(position))
    if rounds.game_over(position):
        parts = final_breakdown(position)
        scores = {c: sum(v) for c, v in parts.items()}
        won = winners(scores)
        for colour, (vp, money, area) in parts.items():
            screen.print(f"{colour}: {vp} VP + {money} money + {area} area = {scores[colour]}"
                         + ((" (winner)" if len(won) == 1 else " (shared win)")
                            if colour in won else ""))
    else:
        screen.print(f"stopped after {played} turn(s)")
    if record is not None:
        atomic_write_text(record, record_text(GAME, start_name(file, record), history))
        screen.note(f"wrote {escape(str(record))}")
    if out is not None:
        if rounds.game_over(position):
            raise InputError("the game is over; there is no position to write", path=out)
        atomic_write_text(out, write_position(position))
        screen.note(f"wrote {escape(str(out))}")
    return 0


def kind_of(position: Position) -> str:
    """The position's puzzle kind (``last-round`` without a ``[puzzle]`` table)."""
    return position.puzzle.kind if position.puzzle is not None else "last-round"


def played(position: Position, line: list) -> Iterator[tuple[Turn, Position]]:
    """Each turn of ``line`` with the position right after it: one round's turns, or
    (last-rounds) the rounds' turns with what is played between them."""
    if kind_of(position) == "last-rounds":
        yield from lastrounds.play_line(position, line)
        return
    current = position
    for turn in line:
        current = apply_turn(current, turn)
        yield turn, current


def puzzle_said(position: Position) -> str:
    """The position's puzzle in words: its kind, with its objective or rounds."""
    kind = kind_of(position)
    if kind == "best-round":
        return f"best-round ({bestround.objective_of(position)})"
    if kind == "last-rounds":
        return f"last-rounds ({lastrounds.planned_rounds(position)} rounds)"
    return kind


def evaluate_line(position: Position, line: list) -> Any:
    """The engine's result of ``line`` for the position's puzzle kind."""
    kind = kind_of(position)
    if kind == "best-round":
        return bestround.evaluate(position, line)
    if kind == "last-rounds":
        return lastrounds.evaluate(position, line)
    return evaluate(position, line)


def _claimed_line(file: Path, position: Position) -> list:
    """The file's [solution] line parsed; one that does not parse is bad input whose place
    starts with ``[solution] line``."""
    try:
        return parse_line(position.solution.line, position.grid)
    except InputError as exc:
        raise InputError(exc.message, path=file, place=f"[solution] line, {exc.place}") from None


def _judge(file: Path, position: Position) -> tuple[Any, bool, str]:
    """The engine's result of the file's [solution] (None when illegal), whether it
    holds, and why not. InputError naming ``file`` when the line does not parse or the
    position poses no puzzle."""
    solution = position.solution
    line = _claimed_line(file, position)
    try:
        result = evaluate_line(position, line)
    except PuzzleError as exc:
        raise exc.located(path=file) from None
    except IllegalTurn as exc:
        return None, False, f"{exc.place}: {exc.message}"
    ok = result.value == solution.value
    return result, ok, "" if ok else (f"the line is worth {result.value}, "
                                      f"the file says {solution.value}")


def verify(file: Path, as_json: bool, screen: Screen) -> int:
    """Check the file's [solution] of its last-round or best-round puzzle with the
    engine: the line is legal and worth its ``value``. Exit status 1 when it does not
    hold."""
    position = load(file)
    if position.solution is None:
        raise PuzzleError("the file has no [solution] to verify", path=file)
    result, ok, message = _judge(file, position)
    if as_json:
        screen.json({"game": "terra-nova-kosmos", "kind": kind_of(position), "ok": ok,
                     "message": message, "claimed": position.solution.value}
                    | ({"value": None, "turns": None} if result is None
                       else {"value": result.value, "turns": result.turns})
                    | _details(position, result))
    elif ok:
        screen.print(f"[bold green]ok[/]: the line is legal and worth {result.value} "
                     f"({said(result)}, {turns_said(result.turns)})")
    else:
        screen.print(f"[bold red]not ok[/]: {message}")
    return 0 if ok else 1


def _details(position: Position, result: Any) -> dict[str, Any]:
    """The puzzle kind's own fields of a result for ``--json`` (None: null figures)."""
    if kind_of(position) == "best-round":
        return {"objective": bestround.objective_of(position)} | {
            name: None if result is None else getattr(result, name)
            for name in ("points", "leftover", "given")}
    return {"others": None if result is None else result.others} | _rounds(position)


def _rounds(position: Position) -> dict[str, Any]:
    """``{"rounds": n}`` for a last-rounds puzzle, else nothing."""
    if kind_of(position) != "last-rounds":
        return {}
    return {"rounds": lastrounds.planned_rounds(position)}


FALLBACK = "no line found in time; showing the line that passes at once"
"""What a solve shows when CP-SAT found no line in time."""


def turns_said(turns: int) -> str:
    """``turns`` in words: "1 turn", "3 turns"."""
    return f"{turns} turn" if turns == 1 else f"{turns} turns"


def said(result: Any) -> str:
    """A result's tie-break figures in words."""
    if isinstance(result, bestround.Result):
        return (f"{result.objective}: {result.points} VP, {result.leftover} money + "
                f"power left, {result.given} power to others")
    return f"the others' final scores {result.others}"


def solve(file: Path, params: SolveParams, as_json: bool, screen: Screen,
          show: Shown | None = None) -> int:
    """Solve the puzzle in ``file`` (last-round, best-round or last-rounds) with CP-SAT
    (the engine replays the line): print the line, its VP by source where it is
    explained, its value and whether it is proven optimal (``show``: the answers asked
    for)."""
    from solver.terra_nova_kosmos import solve as bridge
    show = show or Shown()
    position = load(file)
    if position.solution is not None:  # as Terra Nova's solve: a line that does not parse
        _claimed_line(file, position)  # is bad input; the claim itself is verify's
    best = kind_of(position) == "best-round"
    run = bridge.SOLVERS[kind_of(position)]
    params = params.started()
    try:
        with screen.status("solving…") as status:
            answer = run(position, params, progress=lambda text: status.update(
                f"solving: {text}"))
    except PuzzleError as exc:
        raise exc.located(path=file) from None
    result = answer.result
    stopped = None if answer.optimal else params.cut_short_by()
    explanation = explain_line(position, answer.line)
    if show.hint:
        return _hint(position, answer, as_json, screen)
    if as_json:
        screen.json({"game": "terra-nova-kosmos", "kind": kind_of(position),
                     "value": result.value}
                    | ({} if best else {"others": result.others, "others_meaning": OTHERS})
                    | (_details(position, result) if best else _rounds(position))
                    | {"turns": result.turns, "optimal": answer.optimal,
                       "stopped": None if stopped is None else stopped.value,
                       "bound": answer.bound, "line": answer.line_text(position)}
                    | ({} if best else {"final": result.final})
                    | {"explain": explanation.as_json()}
                    | {"wall_s": round(answer.wall_s, 4),
                       "stats": dict(answer.stats, build_s=round(answer.build_s, 4),
                                     status=answer.status, horizon=answer.horizon)})
        return 0
    screen.print(heading(file, f"{puzzle_said(position)}, {position.to_move} to move"))
    screen.print(render_position(position))
    gain = (f"{position.to_move} scores {result.value} ({said(result)}, "
            if best else f"{position.to_move} gains {result.value} (the others' final "
            f"scores {result.others}, ")
    screen.print(phrases(f"{gain}{turns_said(result.turns)}):",
                         replayed(verdict(answer.optimal, FALLBACK if answer.fallback
                                          else None, answer.bound, stopped)), style="bold"))
    screen.print("the line, each turn with its VP by source:")
    screen.print(bullets(explanation.sentences()))
    after = final_position(position, answer.line)
    screen.print(Text("after the line:", style="bold"))
    screen.print(render_position(after, changed_hexes(position, after)))
    if show.stats:
        screen.print(stat_entries(dict(answer.stats, model_build_s=round(answer.build_s, 2),
                                       horizon=answer.horizon), answer.wall_s))
    return 0


def _hint(position: Position, answer: Any, as_json: bool, screen: Screen) -> int:
    """Only the first turn of the answer and what the answer is worth."""
    first = answer.line_text(position)[0]
    if as_json:
        screen.json({"game": "terra-nova-kosmos", "kind": kind_of(position), "hint": first,
                     "value": answer.result.value, "optimal": answer.optimal})
        return 0
    screen.print(phrases(f"hint: start with {first}; the best line is worth "
                         f"{answer.result.value}:",
                         verdict(answer.optimal, FALLBACK if answer.fallback else None,
                                 answer.bound)))
    return 0


def final_position(position: Position, line: list) -> Position:
    """The position after the player's ``line`` (the engine's replay; a last-rounds line
    plays on through the rounds between its passes)."""
    if kind_of(position) == "last-rounds":
        return lastrounds.replay(position, line)
    current = position
    for turn in line:
        current = apply_turn(current, turn)
    return current
