"""Why a Terra Nova line is worth what it is: every region it closes, as the engine scored it.

:func:`explain_line` replays a line through the reference engine and keeps, turn by
turn, each region a stone closed: its cells, landscapes and multiplier, its points,
the pieces each player had in it, and who took the points (the majority, or the
tie's split). Nothing here scores: the numbers are the engine's
(:class:`~solver.terra_nova.engine.turns.ScoredRegion`), so an explanation always
adds up to what the engine gave. ``solve`` prints it, ``--json`` carries it as
``explain``, ``render`` and ``sheet`` write it under the answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from solver.protocol import Played
from solver.terra_nova.engine import turns as engine
from solver.terra_nova.engine.regions import MULTIPLIER
from solver.terra_nova.notation import Stone, Turn, format_turn
from solver.terra_nova.position import Position

OTHERS = "the points the other players gain over the line, added up"
"""What ``others`` means in Terra Nova (text and ``--json``): their gain, not their score."""


@dataclass(frozen=True)
class Closed:
    """One region a stone closed, as the engine scored it."""

    turn: int
    """The turn (1-based) of the line."""
    stone: str
    """The cell of the stone that closed it (``b2``)."""
    cells: tuple[str, ...]
    landscapes: tuple[str, ...]
    """The landscape letters in it, sorted."""
    names: tuple[str, ...]
    """Their names where the file gives them (``[landscapes]``), else the letters."""
    multiplier: int
    """Points per cell: 3, 2 or 1 for 1, 2 or 3 landscapes."""
    points: int
    """Cells × multiplier."""
    pieces: tuple[tuple[str, int], ...]
    """The pieces each player had in it (players without one left out)."""
    winners: tuple[str, ...]
    """The players with the most pieces (empty: nobody had one, nobody scores)."""
    share: int
    """What each winner took: ``points // len(winners)``."""

    def said(self) -> str:
        """The region in words: what it is worth and who took it."""
        kind = "landscape" if len(self.names) == 1 else "landscapes"
        size = len(self.cells)
        head = (f"#{self.stone} closes {size} cell{'s' if size > 1 else ''} of {kind} "
                f"{_joined(self.names)}: {size} × {self.multiplier} = {self.points} points")
        held = ", ".join(f"{colour} {count}" for colour, count in self.pieces)
        if not self.winners:
            return f"{head}; no piece in it, nobody scores"
        if len(self.winners) == 1:
            return f"{head}; pieces {held}: {self.winners[0]} takes {self.share}"
        return (f"{head}; pieces {held}: a tie, {self.points} // {len(self.winners)} = "
                f"{self.share} each to {_joined(self.winners)}")

    def as_json(self) -> dict:
        """The ``explain.turns[].regions[]`` object of ``--json`` (docs/json.md)."""
        return {"stone": self.stone, "cells": list(self.cells),
                "landscapes": list(self.landscapes), "multiplier": self.multiplier,
                "points": self.points, "pieces": dict(self.pieces),
                "winners": list(self.winners), "share": self.share}


@dataclass(frozen=True)
class TurnExplained:
    """One turn of the line: its notation, what each player gained, the regions closed."""

    number: int
    text: str
    points: int
    """What the player to move gained."""
    others: int
    """What the other players gained, added up."""
    gained: tuple[tuple[str, int], ...]
    regions: tuple[Closed, ...]


@dataclass(frozen=True)
class Explanation:
    """A line explained: every turn and every region it closes."""

    player: str
    turns: tuple[TurnExplained, ...]

    @property
    def points(self) -> int:
        """The player's points over the line (the engine's, turn by turn)."""
        return sum(t.points for t in self.turns)

    @property
    def others(self) -> int:
        """The other players' gain over the line."""
        return sum(t.others for t in self.turns)

    @property
    def regions(self) -> tuple[Closed, ...]:
        """Every region closed, in the order of the line."""
        return tuple(r for t in self.turns for r in t.regions)

    def sentences(self) -> list[str]:
        """The explanation in words, one sentence per turn and per region."""
        out: list[str] = []
        many = len(self.turns) > 1
        for turn in self.turns:
            prefix = f"turn {turn.number}: " if many else ""
            if not turn.regions:
                out.append(f"{prefix}{turn.text} closes no region")
                continue
            out += [f"{prefix}{region.said()}" for region in turn.regions]
        return out

    def played(self) -> Played:
        """What the line is worth, ``(points, others)``, and why: how ``rate`` values a
        line and ``review`` the turn played."""
        return Played((self.points, self.others), self.as_json(), tuple(self.sentences()))

    def as_json(self) -> dict:
        """The ``explain`` object of ``--json`` (docs/json.md)."""
        return {"player": self.player, "points": self.points, "others": self.others,
                "turns": [{"turn": t.number, "line": t.text, "points": t.points,
                           "others": t.others,
                           "regions": [r.as_json() for r in t.regions]}
                          for t in self.turns]}


def explain_line(position: Position, line: Sequence[Turn]) -> Explanation:
    """The line played by the engine for the player to move, region by region.

    IllegalTurn (an InputError) when the engine refuses a turn, as
    :func:`~solver.terra_nova.engine.turns.play_line`.
    """
    outcome = engine.play_line(position, list(line))
    grid, board, me = position.grid, position.board, position.to_move
    turns = []
    for number, (turn, done) in enumerate(zip(line, outcome.outcomes, strict=True), start=1):
        regions = []
        for region in done.regions:
            letters = tuple(sorted({board.landscape[c] for c in region.cells}))
            stone = turn[region.action - 1]
            assert isinstance(stone, Stone), "a region closes with a stone"
            regions.append(Closed(
                turn=number, stone=grid.name(stone.cell),
                cells=tuple(grid.name(c) for c in region.cells), landscapes=letters,
                names=tuple(board.landscape_name(k) or k for k in letters),
                multiplier=MULTIPLIER[region.landscapes], points=region.value,
                pieces=region.pieces, winners=region.winners, share=region.share))
        gained = tuple(done.gained.items())
        turns.append(TurnExplained(
            number, format_turn(turn, grid), done.gained[me],
            sum(v for c, v in gained if c != me), gained, tuple(regions)))
    return Explanation(me, tuple(turns))


def _joined(words: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    words = list(words)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]

