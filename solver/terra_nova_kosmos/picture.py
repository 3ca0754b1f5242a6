"""A Terra Nova (KOSMOS) map or position as a drawing scene for ``render``.

Hexes carry their landscape colour and letter, river hexes a light wave hatch.
Buildings are in their owner's colour with the colour's initial (black: K):
a house shape for a house, a square for a Kontor, a large disc for a palace;
neutral houses grey. Built bridges are thick lines in the owner's colour, free
bridge spots thin dashed lines, towns a dashed ring. A last-round answer is
drawn on the map after the line (the file's ``[solution]`` replayed by the
engine, else the CP-SAT answer, itself replayed): each turn's number stands on
the hexes it changed, and the VP of each turn by source are written under it
(:mod:`solver.terra_nova_kosmos.explain`).
"""

from __future__ import annotations

from pathlib import Path

from solver.drawing.palette import player
from solver.drawing.scene import Badge, Cell, Key, Line, Scene, Token
from solver.errors import InputError, PuzzleError
from solver.terra_nova_kosmos.fileformat import is_board_file, read_board
from solver.terra_nova_kosmos.notation import Turn, format_turn, parse_line
from solver.terra_nova_kosmos.position import Board, Position
from solver.terra_nova_kosmos.rules import (
    COLOUR_LETTER,
    LANDSCAPE_LETTER,
    NEUTRAL,
    NEUTRAL_LETTER,
    RIVER,
)

TITLE = "Terra Nova (KOSMOS)"
FACES = {"l": ("#7fb2e5", ""), "f": ("#4f8f4a", ""), "w": ("#c0664f", ""),
         "d": ("#f0d27a", ""), "s": ("#7d7160", ""), RIVER: ("#d4ecfa", "...")}
"""Fill and hatch per landscape letter (river: a light dotted hatch)."""
SHAPES = {"house": ("house", 0.9), "kontor": ("square", 1.0), "palace": ("disc", 1.15)}


def picture(path: Path, solution: bool) -> Scene:
    """The map or position in ``path``; with ``solution`` the puzzle's answer on it."""
    if is_board_file(path):
        if solution:
            raise InputError("a map file poses no puzzle: there is no answer to draw", path=path)
        board, landscape = read_board(path)
        scene = _ground(board, landscape)
        scene.question = f"Map '{board.name or path.stem}'"
        scene.status = [f"{board.grid.size} hexes, {len(board.river)} river, "
                        f"{len(board.bridge_spots)} bridge spots"]
        return scene
    from solver.terra_nova_kosmos.commands import load

    position = load(path)
    if not solution:
        return position_scene(position)
    return answer_scene(position, _answer(position, path))


def question(position: Position) -> str:
    """The puzzle in words (what ``boardsat solve`` answers), or who is to move."""
    who = position.to_move.capitalize()
    if position.puzzle is not None and position.puzzle.kind == "last-round":
        return f"{who}, last round: highest final score"
    if position.puzzle is not None and position.puzzle.kind == "last-rounds":
        return f"{who}, the last {position.puzzle.rounds} rounds: highest final score"
    if position.puzzle is not None and position.puzzle.kind == "best-round":
        aim = ("most VP" if position.puzzle.objective == "max-points"
               else "most 3 × VP + money + power")
        return f"{who}, round {position.round}: {aim} before passing"
    return f"{who} to move (round {position.round})"


def answer_scene(position: Position, line: list[Turn]) -> Scene:
    """The map after ``line``: every turn's number on the hexes it changed."""
    from solver.terra_nova_kosmos.commands import evaluate_line, kind_of, played, said

    result = evaluate_line(position, line)
    current = position
    changed: list[tuple[int, ...]] = []
    for _, after in played(position, line):
        cells = [c for c in range(position.grid.size)
                 if after.buildings[c] != current.buildings[c]]
        cells += [c for p, q in zip(current.players, after.players, strict=True)
                  for bridge in set(q.bridges) - set(p.bridges) for c in bridge]
        cells += [c for p, q in zip(current.players, after.players, strict=True)
                  for c in set(q.towns) - set(p.towns)]
        changed.append(tuple(dict.fromkeys(cells)))
        current = after
    scene = position_scene(current)
    scene.question = question(position)
    for number, cells in enumerate(changed, start=1):
        scene.badges += [Badge((cell,), number) for cell in cells]
    grid = position.grid
    texts = [f"{i}. {format_turn(t, grid)}" for i, t in enumerate(line, start=1)]
    if kind_of(position) == "last-rounds":  # each round's turns after its number
        rounds = [n for n, t in enumerate(line) if n == 0 or line[n - 1].action.name == "pass"]
        for number, n in enumerate(rounds):
            texts[n] = f"round {position.round + number}: {texts[n]}"
    turns = "   ".join(texts)
    worth = (f"{position.to_move} scores {result.value} ({said(result)})"
             if kind_of(position) == "best-round" else
             f"{position.to_move} gains {result.value} points to the final scoring "
             f"(the others' final scores {result.others})")
    from solver.terra_nova_kosmos.explain import explain_line

    scene.answer = [f"Answer: {turns}", worth, *explain_line(position, line).sentences(),
                    "the map after the line; numbers: the turn that changed the hex"]
    return scene


def _answer(position: Position, path: Path) -> list[Turn]:
    """The file's [solution] (replayed by the engine: legal, worth its value), else the
    solver's answer."""
    from solver.terra_nova_kosmos.commands import evaluate_line, kind_of
    from solver.terra_nova_kosmos.engine.actions import IllegalTurn

    if position.solution is None:
        from solver.terra_nova_kosmos import solve

        try:
            return solve.SOLVERS[kind_of(position)](position).line
        except InputError as exc:
            raise exc.located(path=path) from None
    try:
        line, result = position.solution.replayed(
            lambda texts: parse_line(texts, position.grid),
            lambda steps: evaluate_line(position, steps), IllegalTurn, path)
    except PuzzleError as exc:  # no puzzle the line answers
        raise exc.located(path=path) from None
    position.solution.check_value(result.value, path)
    return line


def position_scene(position: Position) -> Scene:
    """The map with buildings, bridges and towns; each player's tracks under it."""
    scene = _ground(position.board, position.landscape)
    scene.question = question(position)
    for cell, building in enumerate(position.buildings):
        if building is None:
            continue
        shape, scale = SHAPES[building.kind]
        if building.owner == NEUTRAL:
            shape, scale = SHAPES["house"]
        letter = NEUTRAL_LETTER if building.owner == NEUTRAL else COLOUR_LETTER[building.owner]
        scene.tokens.append(Token(cell, shape, player(building.owner), building.kind, letter,
                                  scale=scale))
    for p in position.players:
        for a, b in p.bridges:
            scene.lines.append(Line((a, b), player(p.colour), "bridge", width=6))
        for cell in p.towns:
            scene.tokens.append(Token(cell, "disc", player(p.colour), "town", ghost=True,
                                      scale=1.35))
    for p, faction in zip(position.players, position.factions, strict=True):
        scene.status.append(f"{p.colour} ({faction.name}): {p.vp} VP, {p.money} coins, "
                            f"power {'/'.join(map(str, p.power))}, shipping {p.shipping}")
    scene.keys += [Key(colour, player(colour), letter=COLOUR_LETTER[colour], shape="disc")
                   for colour in position.colours]
    scene.keys += [Key("house", "#ffffff", shape="house"), Key("Kontor", "#ffffff", shape="square"),
                   Key("palace", "#ffffff", shape="disc")]
    return scene


def _ground(board: Board, landscape: tuple[str, ...]) -> Scene:
    scene = Scene(board.grid, TITLE)
    for cell, letter in enumerate(landscape):
        face, hatch = FACES[letter]
        scene.cells.append(Cell(cell, face, "" if letter == RIVER else letter, hatch))
    for a, b in board.bridge_spots:
        scene.lines.append(Line((a, b), "#5a5a5a", "spot", width=1.6, style="dashed",
                                outline=False))
    scene.keys += [Key(name, FACES[letter][0], letter=letter)
                   for name, letter in LANDSCAPE_LETTER.items()]
    scene.keys += [Key("river", *FACES[RIVER]), Key("bridge spot", "#5a5a5a", shape="line")]
    return scene
