"""A Terra Nova position (and its answer) as a drawing scene for ``render`` and ``sheet``.

Hexes carry their landscape colour and letter (a lake also a wave hatch), pieces
are discs in their player's colour with the colour's initial, stones dark
squares. With the answer drawn the board is the one after it: each moved piece
stands where it ends, its path numbered arrows from a dashed ring where it started,
new stones are orange, every action is numbered in order, and each region scored is
outlined with its points and who took them; the answer's explanation (the engine's
replay, :mod:`solver.terra_nova.explain`) is written under it. The answer is the
file's ``[solution]`` replayed by the engine, or else the CP-SAT answer (itself
replayed by the engine).
"""

from __future__ import annotations

from pathlib import Path

from solver.drawing.palette import STONE, player
from solver.drawing.scene import Arrow, Badge, Cell, Key, Outline, Scene, Token
from solver.terra_nova.engine.turns import play_line
from solver.terra_nova.explain import explain_line
from solver.terra_nova.notation import Move, Stone, Turn, format_turn, parse_line
from solver.terra_nova.position import EMPTY, PIECE_LETTER, Position
from solver.terra_nova.position import STONE as STONE_MARK
from solver.terra_nova.solve import MIN_TURNS_DEFAULT_CAP
from solver.terra_nova.view import pieces_said

TITLE = "Terra Nova"
NAMED_LANDSCAPES: dict[str, tuple[str, str]] = {
    "lake": ("#9cc9ee", "---"), "water": ("#9cc9ee", "---"), "meadow": ("#bfe08f", ""),
    "forest": ("#6aa55c", ""), "hills": ("#d2b07e", ""), "tundra": ("#dfe3e6", ""),
    "desert": ("#f3dc94", ""), "swamp": ("#99a577", ""), "cornfield": ("#f6e978", ""),
    "mountain": ("#a9a9a9", ""),
}
"""Fill and hatch of landscapes the file names in ``[landscapes]``."""
OTHER_LANDSCAPES = ("#e8d5b0", "#b7d7a8", "#a4c2f4", "#f4cccc", "#d9d2e9", "#fce5cd",
                    "#d0e0e3", "#eeeeee")
"""Fills of landscapes without a known name, in letter order."""
NEW_STONE = "#e07000"
REGION_EDGE = "#c0007a"
"""The outline of a region the answer scored (no landscape, piece or stone is this)."""
NBSP = "\u00a0"
"""Joins the words of one player's score, so a wrapped status line breaks between players."""


def picture(path: Path, solution: bool) -> Scene:
    """The position in ``path`` (refused as ``show`` refuses it); with ``solution`` the
    answer drawn on it."""
    from solver.terra_nova.commands import load

    position = load(path)
    if not solution:
        return position_scene(position)
    line, value = _answer(position, path)
    return answer_scene(position, line, value)


def question(position: Position) -> str:
    """The puzzle the position poses, in words (what ``boardsat solve`` answers)."""
    who = position.to_move.capitalize()
    puzzle = position.puzzle
    if puzzle is None or puzzle.kind == "best-turn":
        return f"{who} to move: best turn"
    if puzzle.objective == "min-turns":  # without turns, solve tries up to its default cap
        cap = puzzle.turns or MIN_TURNS_DEFAULT_CAP
        return f"{who}: {puzzle.target} points in the fewest turns (at most {cap})"
    return f"{who}: most points in {puzzle.turns or 1} turns"


def position_scene(position: Position) -> Scene:
    """The board, pieces and stones, with scores under it and a legend."""
    scene = _ground(position)
    for cell, occupant in enumerate(position.occupant):
        if occupant == STONE_MARK:
            scene.tokens.append(Token(cell, "square", STONE, "stone"))
        elif occupant != EMPTY:
            scene.tokens.append(Token(cell, "disc", player(occupant), "piece",
                                      PIECE_LETTER.get(occupant, "")))
    scene.status = [_scores(position)]
    return scene


def answer_scene(position: Position, line: list[Turn], value: int) -> Scene:
    """The board after ``line``: each moved piece where it ends, its path drawn as numbered
    arrows from a dashed ring where it started; new stones in orange; each region scored
    outlined, with its points and who took them; the line explained in words (the
    engine's replay) under it."""
    explanation = explain_line(position, line)
    final = play_line(position, line).position
    scene = position_scene(final)
    scene.question = question(position)
    colour = player(position.to_move)
    number = 0
    started: set[int] = set()
    now: dict[int, int] = {}  # where a moved piece stands -> where it started
    for turn in line:
        for action in turn:
            number += 1
            if isinstance(action, Move):
                start = now.pop(action.src, action.src)
                now[action.dst] = start
                if start not in started and final.occupant[start] == EMPTY:
                    scene.tokens.append(Token(start, "disc", colour, "start", ghost=True))
                started.add(start)
                scene.arrows.append(Arrow(action.src, action.dst, colour))
                scene.badges.append(Badge((action.src, action.dst), number))
            elif isinstance(action, Stone):
                scene.tokens.append(Token(action.cell, "square", NEW_STONE, "new-stone",
                                          scale=0.8))
                scene.badges.append(Badge((action.cell,), number))
    grid = position.grid
    for region in explanation.regions:
        taker = (f"{region.winners[0]}" if len(region.winners) == 1 else
                 f"{region.share} each" if region.winners else "nobody")
        scene.outlines.append(Outline(tuple(grid.cell(c) for c in region.cells), REGION_EDGE,
                                      f"{region.points} → {taker}"))
    turns = [format_turn(t, grid) for t in line]
    words = turns[0] if len(turns) == 1 else "   ".join(
        f"turn {i}: {t}" for i, t in enumerate(turns, start=1))
    others = f" (the others gain {explanation.others})" if explanation.others else ""
    scene.status = [f"after the answer: {_scores(final)}"]
    scene.answer = [f"Answer: {words}", f"{position.to_move} gains {value} points{others}",
                    *explanation.sentences(),
                    "pieces where they end, arrows from dashed rings where they started; "
                    "orange: new stones; numbers: order; outlined: the regions scored"]
    scene.keys += [Key("new stone", NEW_STONE, shape="square"),
                   Key("piece started here", "none", shape="disc"),
                   Key("region scored", REGION_EDGE, shape="line")]
    return scene


def _ground(position: Position) -> Scene:
    board = position.board
    fills = _landscape_fills(position)
    scene = Scene(position.grid, TITLE, question=question(position))
    for cell, letter in enumerate(board.landscape):
        face, hatch = fills[letter]
        scene.cells.append(Cell(cell, face, letter, hatch))
    for letter in board.letters:
        face, hatch = fills[letter]
        name = board.landscape_name(letter) or "landscape"
        scene.keys.append(Key(name, face, hatch, letter))
    for colour in position.players:
        scene.keys.append(Key(colour, player(colour), letter=PIECE_LETTER.get(colour, ""),
                              shape="disc"))
    scene.keys.append(Key("stone", STONE, shape="square"))
    return scene


def _landscape_fills(position: Position) -> dict[str, tuple[str, str]]:
    fills = {}
    others = iter(OTHER_LANDSCAPES * 3)
    for letter in position.board.letters:
        name = (position.board.landscape_name(letter) or "").lower()
        fills[letter] = NAMED_LANDSCAPES.get(name) or (
            NAMED_LANDSCAPES["lake"] if letter == "w" and not name else (next(others), ""))
    return fills


def _scores(position: Position) -> str:
    parts = [f"{colour} {position.score(colour)} pts "
             f"({pieces_said(len(position.pieces_of(colour)))})" for colour in position.players]
    parts.append(f"stones left {position.stones_left}")
    return "     ".join(part.replace(" ", NBSP) for part in parts)


def _answer(position: Position, path: Path) -> tuple[list[Turn], int]:
    """The file's [solution] (checked by the engine: legal, worth its value), else the
    solver's replayed answer."""
    if position.solution is not None:
        from solver.terra_nova.engine.turns import IllegalTurn, play_line

        line, outcome = position.solution.replayed(
            lambda texts: parse_line(texts, position.grid),
            lambda steps: play_line(position, steps), IllegalTurn, path)
        position.solution.check_value(outcome.points, path)
        return line, outcome.points
    from solver.terra_nova.solve import solve_puzzle

    answer = solve_puzzle(position)
    return answer.line, answer.value
