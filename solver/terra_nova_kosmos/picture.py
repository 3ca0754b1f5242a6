"""A Terra Nova (KOSMOS) map or position as a drawing scene for ``render``.

Hexes carry their landscape colour and letter, river hexes a light wave hatch.
Buildings are in their owner's colour with the colour's initial (black: K):
a house shape for a house, a square for a Kontor, a large disc for a palace;
neutral houses grey. Built bridges are thick lines in the owner's colour, free
bridge spots thin dashed lines, towns a dashed ring. The answers of its puzzles
are not drawn yet.
"""

from __future__ import annotations

from pathlib import Path

from solver.drawing.palette import player
from solver.drawing.scene import Cell, Key, Line, Scene, Token
from solver.errors import InputError
from solver.terra_nova_kosmos.fileformat import is_board_file, read_board, read_position
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
NO_ANSWER = "answers of Terra Nova (KOSMOS) puzzles are not drawn yet"


def picture(path: Path, solution: bool) -> Scene:
    """The map or position in ``path`` (no answer can be drawn yet)."""
    if solution:
        raise InputError(NO_ANSWER, path=path)
    if is_board_file(path):
        board, landscape = read_board(path)
        scene = _ground(board, landscape)
        scene.question = f"Map '{board.name or path.stem}'"
        scene.status = [f"{board.grid.size} hexes, {len(board.river)} river, "
                        f"{len(board.bridge_spots)} bridge spots"]
        return scene
    return position_scene(read_position(path))


def position_scene(position: Position) -> Scene:
    """The map with buildings, bridges and towns; each player's tracks under it."""
    scene = _ground(position.board, position.landscape)
    scene.question = f"{position.to_move.capitalize()} to move (round {position.round})"
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
