"""Rift Valley commands `show`, `play`, `verify` and `solve`: read, call, render.

Each takes the CLI's :class:`solver.protocol.Screen` to print on and returns the
exit status.
"""

from __future__ import annotations

import random
from pathlib import Path

from rich.markup import escape
from rich.table import Table
from rich.text import Text

from solver.cpsat import SolveParams, StopReason
from solver.drawing.entries import Entries, stat_entries
from solver.drawing.report import bullets, phrases, replayed, verdict
from solver.drawing.report import heading as file_heading
from solver.errors import InputError
from solver.protocol import Screen, Shown
from solver.rift_valley.engine import draws as engine
from solver.rift_valley.engine.full_game import GameResult, play_game
from solver.rift_valley.explain import Explanation, explain_draws
from solver.rift_valley.fileformat import read_position
from solver.rift_valley.notation import DrawStop, DrawTent, format_draw, parse_draw
from solver.rift_valley.position import COLOURS, Position
from solver.rift_valley.rules import DEFAULT_RULES, MAX_PLAYERS, MIN_PLAYERS, Rules
from solver.rift_valley.solve import Answer, solve_max_score
from solver.rift_valley.view import new_elements, render_board
from solver.tomlfile import Solution, keyed


def load(file: Path, rules: Rules = DEFAULT_RULES) -> Position:
    """Read ``file`` and check it with the engine's ``validate`` (errors name the file and
    the line of the elements' key)."""
    position = read_position(file)
    try:
        engine.validate(position, rules)
    except InputError as exc:
        raise keyed(exc, file) from None
    return position


def _header(file: Path, position: Position) -> Text:
    grid = position.grid
    text = Text(f"{file}", style="bold")
    text.append(f"  {grid.cols}×{grid.rows}, rift of {position.rift_owner}, player "
                f"{position.player}")
    text.append(", draws " + ("unlimited" if position.draws is None else str(position.draws)))
    if position.first_stop_rule:
        text.append(", first-stop rule")
    return text


def show(file: Path, screen: Screen) -> int:
    """Draw the position in ``file`` with scores, and its claimed solution replayed by the
    engine if any; exit status 1 when that solution does not hold (illegal, or not worth
    its value)."""
    position = load(file)
    screen.print(_header(file, position))
    screen.print(render_board(position))
    solution = position.solution
    if solution is None:
        return 0
    screen.print(f"claimed solution: value {solution.value}, draws "
                 + (", ".join(solution.line) or "none"))
    draws, final, value, message = _replay_solution(file, position, solution, DEFAULT_RULES)
    if final is None:
        screen.print(f"[bold red]engine: the draws are illegal[/]: {escape(message)}")
        return 1
    screen.print(f"engine: {len(draws)} legal draws, {position.player} scores {value}")
    if value != solution.value:
        screen.print(f"[bold red]engine: the draws are worth {value}, not the claimed "
                     f"{solution.value}[/]")
        return 1
    return 0


def _replay_solution(file: Path, position: Position, solution: Solution, rules: Rules):
    """``(draws, final position or None if illegal, engine score, message)`` of
    ``solution`` (the position's [solution])."""
    draws = []
    for number, text in enumerate(solution.line, start=1):
        try:
            draws.append(parse_draw(text, position.grid))
        except InputError as exc:
            raise InputError(exc.message, path=file,
                             place=f"solution.draws {number} '{text}'") from None
    try:
        final = engine.play_draws(position, draws, rules)
    except engine.IllegalDraw as exc:
        return draws, None, None, str(exc)
    return draws, final, engine.score(final, position.player).total, ""


def verify(file: Path, as_json: bool, screen: Screen, rules: Rules = DEFAULT_RULES) -> int:
    """Replay the file's [solution] with the engine; exit 0 when legal and worth its value."""
    position = load(file, rules)
    solution = position.solution
    if solution is None:
        raise InputError("no [solution] table to verify", path=file)
    draws, final, value, message = _replay_solution(file, position, solution, rules)
    ok = final is not None and value == solution.value
    if final is not None and not ok:
        message = f"the solution claims {solution.value}, the engine scores {value}"
    if as_json:
        screen.json({"game": "rift-valley", "kind": KIND, "ok": ok, "message": message,
                     "claimed": solution.value, "value": value})
    else:
        screen.print(_header(file, position))
        if final is not None:
            screen.print(render_board(final, new_elements(position, final)))
        if ok:
            screen.print(f"[bold green]ok[/]: {len(draws)} legal draws scoring {value}")
        else:
            screen.print(f"[bold red]not ok[/]: {message}")
    return 0 if ok else 1


def _players_and_boards(files: tuple[Path, ...], players: int | None):
    positions = [load(f) for f in files]
    if len(files) == 1:
        if players is None:
            raise InputError("give one board file per player, or one board and --players N",
                             path=files[0])
        positions = positions * players
        names = [files[0].stem] * players
    else:
        if players is not None and players != len(files):
            raise InputError(f"--players {players} but {len(files)} board files")
        names = [f.stem for f in files]
    n = len(positions)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise InputError(f"{n} players; the game takes {MIN_PLAYERS} to {MAX_PLAYERS}")
    owners = [p.rift_owner for p in positions]
    # Boards with distinct rift colours keep them (the player of that colour starts
    # there); otherwise players are the first n colours, board i going to player i.
    colours = owners if len(set(owners)) == n else list(COLOURS[:n])
    return positions, colours, names


def play(files: tuple[Path, ...], players: int | None, seed: int,
         stops_block_all_colours: bool, screen: Screen) -> int:
    """Play a seeded random game on the given boards and print the rounds and final scores."""
    positions, colours, names = _players_and_boards(files, players)
    rules = Rules(stops_block_all_colours=stops_block_all_colours)
    result = play_game(positions, colours, random.Random(seed), rules=rules)
    labels = [f"{escape(name)} ({colour})" for name, colour in zip(names, colours, strict=True)]
    screen.print(_rounds_table(result, [escape(name) for name in names]))
    for label, board in zip(labels, result.boards, strict=True):
        screen.print(Text(f"\n{label}", style="bold"))
        screen.print(render_board(board))
    screen.print(_scores_table(result, labels))
    return 0


def _rounds_table(result: GameResult, boards: list[str]) -> Table:
    """One row per round: each player's draw and the board it went on (by name only, so
    that a row fits 80 columns; the boards' headings and the scores give their owners)."""
    table = Table(title=f"{len(result.rounds)} rounds (game ended by {result.ended_by})",
                  header_style="bold", box=None, pad_edge=False)
    table.add_column("#", justify="right")
    for colour in result.players:
        table.add_column(colour)
    for number, turns in enumerate(result.rounds, start=1):
        row = [str(number)]
        for turn in turns:
            if turn.draw is None:
                row.append("[dim]pass[/]")
                continue
            grid = result.boards[turn.board].grid
            glyph = ("●" if isinstance(turn.draw, DrawStop) else
                     "▲" if isinstance(turn.draw, DrawTent) else "─")
            row.append(f"{glyph} {format_draw(turn.draw, grid)} [dim]@{boards[turn.board]}[/]")
        table.add_row(*row)
    return table


def _scores_table(result: GameResult, labels: list[str]) -> Table:
    table = Table(title="final scores", header_style="bold")
    table.add_column("rank", justify="right")
    table.add_column("player")
    for label in labels:
        table.add_column(label, justify="right")
    table.add_column("total", justify="right")
    for rank, colour in enumerate(result.ranking, start=1):
        per_board = [str(s[colour].total) for s in result.board_scores]
        table.add_row(str(rank), colour, *per_board,
                      Text(str(result.scores[colour]), style="bold"))
    return table


KIND = "max-score"


def solve(file: Path, draws: int | None, params: SolveParams, as_json: bool, screen: Screen,
          rules: Rules = DEFAULT_RULES, show: Shown | None = None) -> int:
    """Solve the max-score puzzle in ``file`` (``draws`` overrides its budget) and print it
    with each new element's points (``show``: the answers asked for)."""
    show = show or Shown()
    position = load(file, rules)
    with screen.status("building the model…") as status:
        def progress(objective: float, bound: float, seconds: float) -> None:
            status.update(f"solving: best {objective:.0f}, bound {bound:.0f}, {seconds:.1f} s")

        try:
            answer = solve_max_score(position, draws, params, rules=rules, progress=progress)
        except InputError as exc:  # a model not built in time: name the file
            raise exc.located(path=file) from None
    stopped = None if answer.optimal else params.cut_short_by()
    explanation = explain_draws(answer.before, answer.draws, rules)
    if show.hint:
        return _hint(answer, as_json, screen)
    if as_json:
        screen.json(_json(answer, explanation, stopped))
        return 0
    _print(file, answer, explanation, screen, show.stats, stopped)
    return 0


def _hint(answer: Answer, as_json: bool, screen: Screen) -> int:
    """Only the first draw of the answer and what the answer scores."""
    first = answer.draw_strings()[0] if answer.draws else None
    if as_json:
        screen.json({"game": "rift-valley", "kind": KIND, "hint": first,
                     "value": answer.value, "optimal": answer.optimal})
        return 0
    start = "draw nothing" if first is None else f"start with {first}"
    screen.print(phrases(f"hint: {start}; the best answer scores {answer.value}:",
                         verdict(answer.optimal, _fallback(answer), answer.bound)))
    return 0


def _fallback(answer: Answer) -> str | None:
    """The words for an answer CP-SAT did not find (nothing in time: no draws shown)."""
    return "no draws found in time; showing none" if answer.stats.get("status") == "unknown" \
        else None


def _json(answer: Answer, explanation: Explanation, stopped: StopReason | None) -> dict:
    s = answer.breakdown
    return {
        "game": "rift-valley",
        "kind": KIND,
        "player": answer.before.player,
        "budget": answer.before.draws,
        "value": answer.value,
        "optimal": answer.optimal,
        "stopped": None if stopped is None else stopped.value,
        "bound": answer.bound,
        "draws": answer.draw_strings(),
        "score": {"trails": s.trails, "animals": s.animals, "tents": s.tents,
                  "unconnected": s.unconnected, "total": s.total},
        "explain": explanation.as_json(),
        "wall_s": round(answer.wall_s, 3),
        "stats": answer.stats,
    }


def heading(file: Path, position: Position, what: str) -> Entries:
    """``FILE — max-score for yellow, draws 5, first-stop rule``."""
    words = (f"{what} for {position.player}, draws "
             + ("unlimited" if position.draws is None else str(position.draws)))
    return file_heading(file, words + (", first-stop rule" if position.first_stop_rule else ""))


def _print(file: Path, answer: Answer, explanation: Explanation, screen: Screen,
           stats: bool, stopped: StopReason | None) -> None:
    before, player = answer.before, answer.before.player
    screen.print(heading(file, before, KIND))
    screen.print(render_board(before))
    screen.print(phrases(f"{player} scores {answer.value} after {len(answer.draws)} draw"
                         f"{'s' if len(answer.draws) != 1 else ''}:",
                         replayed(verdict(answer.optimal, _fallback(answer), answer.bound,
                                          stopped)),
                         style="bold"))
    if answer.draws:
        screen.print(Text("the draws in a legal order, each with its points:"))
        screen.print(bullets(explanation.sentences()))
    elif answer.optimal:
        screen.print("no draw improves the score")
    screen.print(Text("after the answer:", style="bold"))
    screen.print(render_board(answer.after, new_elements(before, answer.after)))
    if stats:
        screen.print(stat_entries(answer.stats, answer.wall_s))
