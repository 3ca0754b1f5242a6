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
from solver.errors import InputError
from solver.protocol import Screen
from solver.rift_valley.engine import draws as engine
from solver.rift_valley.engine.full_game import GameResult, play_game
from solver.rift_valley.fileformat import read_position
from solver.rift_valley.notation import DrawStop, DrawTent, DrawTrail, format_draw, parse_draw
from solver.rift_valley.position import COLOURS, Position
from solver.rift_valley.rules import DEFAULT_RULES, MAX_PLAYERS, MIN_PLAYERS, Rules
from solver.rift_valley.solve import Answer, solve_max_score
from solver.rift_valley.view import PLAYER_FG, render_board
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
    text.append(f"  {grid.cols}×{grid.rows}, rift of ")
    text.append(position.rift_owner, style=PLAYER_FG[position.rift_owner])
    text.append(", player ")
    text.append(position.player, style=PLAYER_FG[position.player])
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
            new = _new_cells(position, final)
            screen.print(render_board(final, highlight=new))
        if ok:
            screen.print(f"[bold green]ok[/]: {len(draws)} legal draws scoring {value}")
        else:
            screen.print(f"[bold red]not ok[/]: {message}")
    return 0 if ok else 1


def _new_cells(before: Position, after: Position) -> set[int]:
    grid = before.grid
    cells: set[int] = set()
    for colour, elements in after.elements:
        old = before.of(colour)
        cells.update(s for s in elements.stops if s not in old.stops)
        cells.update(t for t in elements.tents if t not in old.tents)
        for trail in elements.trails:
            if trail not in old.trails:
                cells.update(trail.cells(grid))
    return cells


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
        table.add_column(Text(colour, style=PLAYER_FG[colour]))
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
        table.add_row(str(rank), Text(colour, style=PLAYER_FG[colour]), *per_board,
                      Text(str(result.scores[colour]), style="bold"))
    return table


KIND = "max-score"


def solve(file: Path, draws: int | None, params: SolveParams, as_json: bool, screen: Screen,
          rules: Rules = DEFAULT_RULES) -> int:
    """Solve the max-score puzzle in ``file`` (``draws`` overrides its budget) and print it."""
    position = load(file, rules)
    with screen.status("building the model…") as status:
        def progress(objective: float, bound: float, seconds: float) -> None:
            status.update(f"solving: best {objective:.0f}, bound {bound:.0f}, {seconds:.1f} s")

        try:
            answer = solve_max_score(position, draws, params, rules=rules, progress=progress)
        except InputError as exc:  # a model not built in time: name the file
            raise exc.located(path=file) from None
    stopped = None if answer.optimal else params.cut_short_by()
    if as_json:
        screen.json(_json(answer, stopped))
        return 0
    _print(file, answer, screen, stopped)
    return 0


def _json(answer: Answer, stopped: StopReason | None) -> dict:
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
        "wall_s": round(answer.wall_s, 3),
        "stats": answer.stats,
    }


def _answer_cells(answer: Answer) -> set[int]:
    grid = answer.before.grid
    cells: set[int] = set()
    for draw in answer.draws:
        if isinstance(draw, DrawTrail):
            cells.update(draw.trail.cells(grid))
        else:
            cells.add(draw.cell)
    return cells


def _draws_table(answer: Answer) -> Table:
    table = Table(box=None, pad_edge=False, header_style="bold")
    table.add_column("#", justify="right")
    table.add_column("draw")
    table.add_column("element")
    kinds = {DrawStop: "stop", DrawTrail: "trail", DrawTent: "tent"}
    for number, (draw, text) in enumerate(zip(answer.draws, answer.draw_strings(), strict=True),
                                          start=1):
        table.add_row(str(number), text, kinds[type(draw)])
    return table


def _print(file: Path, answer: Answer, screen: Screen, stopped: StopReason | None) -> None:
    before, player = answer.before, answer.before.player
    head = Text(f"{file}", style="bold")
    head.append("  max-score for ")
    head.append(player, style=PLAYER_FG[player])
    head.append(", draws " + ("unlimited" if before.draws is None else str(before.draws)))
    if before.first_stop_rule:
        head.append(", first-stop rule")
    screen.print(head)
    screen.print(Text("before", style="bold underline"))
    screen.print(render_board(before))
    screen.print(Text(f"draws in order ({len(answer.draws)})", style="bold underline"))
    if answer.draws:
        screen.print(_draws_table(answer))
    elif answer.optimal:
        screen.print("no draw improves the score")
    else:
        screen.print("none found in time")
    screen.print(Text("after (new elements underlined)", style="bold underline"))
    screen.print(render_board(answer.after, highlight=_answer_cells(answer)))
    bound = "" if answer.bound is None else f"; bound {answer.bound}"
    why = "" if stopped is None else f"{stopped.value}: "
    verdict = ("[bold green]proven optimal[/]" if answer.optimal
               else f"[bold yellow]{why}not proven optimal (best found{bound})[/]")
    screen.print(f"score [bold]{answer.value}[/] for {player}: {verdict}, "
                 f"replayed by the engine")
    stats = answer.stats
    screen.print(f"[grey50]{answer.wall_s:.2f} s, {stats.get('branches', 0)} branches, "
                 f"{stats.get('conflicts', 0)} conflicts, {stats.get('trails', 0)} candidate "
                 f"trails, {stats.get('stop_cells', 0)} stop cells[/]")
