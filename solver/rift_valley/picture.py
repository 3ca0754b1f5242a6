"""A Rift Valley position (and its answer) as a drawing scene for ``render`` and ``sheet``.

Cells carry their area's soft tint, areas are fenced by thick borders and each
area's number stands in its first cell; water is hatched blue, the rift hatched
along its direction in its owner's colour. Animals are pale discs lettered
k/e/l, trees green discs. Elements are in their player's colour: stops discs
with the colour's initial, tents triangles, trails thick lines. With the answer
drawn the new elements are on the board, numbered in draw order, and what each one
scores is written under it (:mod:`solver.rift_valley.explain`).
"""

from __future__ import annotations

from pathlib import Path

from solver.drawing.palette import player
from solver.drawing.scene import Badge, Border, Cell, Key, Line, Scene, Token
from solver.rift_valley.notation import Draw, DrawTrail, parse_draw
from solver.rift_valley.position import (
    ELEPHANT,
    KOB,
    LION,
    RIFT_NS,
    RIFT_WE,
    TREE,
    WATER,
    Board,
    Position,
)

TITLE = "Rift Valley Reserve"
AREA_TINTS = ("#f6e2be", "#d6ecc4", "#cddef4", "#f4d0d6", "#e4d6f4", "#faf4bc",
              "#c4ece6", "#e6e6e6", "#f4dcc4")
WATER_FACE = "#9cc9ee"
ANIMAL_FACE = "#fff8e0"
TREE_FACE = "#3f7d3f"
ANIMALS = {KOB: ("k", "kob +1"), ELEPHANT: ("e", "elephant +2"), LION: ("l", "lion +3")}
RIFT_HATCH = {RIFT_WE: "---", RIFT_NS: "|||"}


def picture(path: Path, solution: bool) -> Scene:
    """The position in ``path``; with ``solution`` the answer drawn on it."""
    from solver.rift_valley.commands import load

    position = load(path)
    if not solution:
        return position_scene(position)
    draws, after = _answer(position, path)
    return answer_scene(position, draws, after)


def question(position: Position) -> str:
    """The puzzle in words (what ``boardsat solve`` answers)."""
    budget = "any number of draws" if position.draws is None else (
        f"{position.draws} draw" + ("s" if position.draws != 1 else ""))
    return f"{position.player.capitalize()}, {budget}: highest score"


def position_scene(position: Position) -> Scene:
    """Board, terrain and every colour's elements, the player's score under it."""
    scene = _ground(position)
    for colour, elements in position.elements:
        ink = player(colour)
        for trail in elements.trails:
            scene.lines.append(Line(trail.waypoints(), ink, "trail"))
        for stop in elements.stops:
            scene.tokens.append(Token(stop, "disc", ink, "stop", colour[0].upper()))
        for tent in elements.tents:
            scene.tokens.append(Token(tent, "triangle", ink, "tent"))
    scene.status = [_score_line(position)]
    return scene


def answer_scene(position: Position, draws: list[Draw], after: Position) -> Scene:
    """The board after ``draws``, each new element numbered in draw order."""
    scene = position_scene(after)
    scene.question = question(position)
    for number, draw in enumerate(draws, start=1):
        if isinstance(draw, DrawTrail):
            scene.badges.append(Badge(draw.trail.cells(position.grid), number))
        else:
            scene.badges.append(Badge((draw.cell,), number))
    grid = position.grid
    from solver.rift_valley.notation import format_draw

    words = ", ".join(format_draw(d, grid) for d in draws) or "draw nothing"
    from solver.rift_valley.explain import explain_draws

    explanation = explain_draws(position, draws)
    scene.status = [f"after the answer: {_score_line(after)}"]
    scene.answer = [f"Answer: {words}",
                    f"{position.player} scores {explanation.after} "
                    f"({explanation.after - explanation.before:+d}); the new elements are "
                    "numbered in draw order:", *explanation.sentences()[:-1]]
    return scene


def _ground(position: Position) -> Scene:
    board, grid = position.board, position.grid
    scene = Scene(grid, TITLE, question=question(position))
    first: dict[int, int] = {}
    for cell, area in enumerate(board.areas):
        first.setdefault(area, cell)
    owner = player(position.rift_owner)
    for cell, terrain in enumerate(board.terrain):
        tint = AREA_TINTS[(board.areas[cell] - 1) % len(AREA_TINTS)]
        label = str(board.areas[cell]) if first[board.areas[cell]] == cell else ""
        if terrain == WATER:
            scene.cells.append(Cell(cell, WATER_FACE, label, "---"))
        elif terrain in RIFT_HATCH:
            scene.cells.append(Cell(cell, owner, label, RIFT_HATCH[terrain]))
        else:
            scene.cells.append(Cell(cell, tint, label))
        if terrain in ANIMALS:
            scene.tokens.append(Token(cell, "disc", ANIMAL_FACE, "animal", ANIMALS[terrain][0],
                                      scale=0.75))
        elif terrain == TREE:
            scene.tokens.append(Token(cell, "disc", TREE_FACE, "tree", "T", scale=0.6))
    for cell in range(grid.size):
        for other in grid.neighbours[cell]:
            if other > cell and board.areas[other] != board.areas[cell]:
                scene.borders.append(Border(cell, other))
    scene.keys += [Key(name, ANIMAL_FACE, letter=letter, shape="disc")
                   for letter, name in ANIMALS.values()]
    scene.keys += [Key("tree", TREE_FACE, letter="T", shape="disc"),
                   Key("water", WATER_FACE, "---"),
                   Key(f"rift of {position.rift_owner}", owner, _rift_hatch(board))]
    colours = list(position.colours)
    if position.player not in colours:
        colours.append(position.player)
    for colour in colours:
        scene.keys.append(Key(f"{colour} stop", player(colour), letter=colour[0].upper(),
                              shape="disc"))
    scene.keys += [Key("tent", "#ffffff", shape="triangle"), Key("trail", "#888888", shape="line")]
    return scene


def _rift_hatch(board: Board) -> str:
    """The hatch of the board's first rift cell (the legend shows the rift as drawn)."""
    rift = board.rift_cells
    return RIFT_HATCH[board.terrain[rift[0]]] if rift else RIFT_HATCH[RIFT_NS]


def _score_line(position: Position) -> str:
    from solver.rift_valley.engine.scoring import score

    s = score(position, position.player)
    return (f"{position.player} scores {s.total}: trails {s.trails}, animals {s.animals}, "
            f"tents {s.tents}, unconnected stops {s.unconnected}")


def _answer(position: Position, path: Path) -> tuple[list[Draw], Position]:
    """The file's [solution] (replayed by the engine: legal, worth its value), else the
    solver's answer."""
    if position.solution is not None:
        from solver.rift_valley.engine.draws import IllegalDraw, play_draws
        from solver.rift_valley.engine.scoring import score

        draws, after = position.solution.replayed(
            lambda texts: [parse_draw(text, position.grid) for text in texts],
            lambda steps: play_draws(position, steps), IllegalDraw, path, "draws")
        position.solution.check_value(score(after, position.player).total, path)
        return draws, after
    from solver.rift_valley.solve import solve_max_score

    answer = solve_max_score(position)
    return list(answer.draws), answer.after
