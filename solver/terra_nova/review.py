"""A Terra Nova game record reviewed turn by turn (``boardsat review``).

For every turn played: the best turn in the position before it (the best-turn puzzle,
solved by CP-SAT and replayed by the engine as every answer is), what the turn played
gained (the engine's replay, valued as ``rate`` values an answer), and the threat each
left: the next player's best turn after the turn played and after the best turn.

:func:`tasks` makes one task per position of the record, before each turn and after
the last; a task (:func:`examine`) solves the best turn there and, unless it is the
last position, the next player's best turn after that best turn. The best turn before
turn k+1 is also the threat turn k left, so each position is solved once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from solver.cpsat import SolveParams
from solver.drawing.scene import Scene
from solver.errors import BuildTimeout, NoAnswer
from solver.protocol import Best, GameRecord, Review, ReviewTask, TurnReview
from solver.terra_nova.answers import Answer
from solver.terra_nova.engine.turns import apply_turn, ending
from solver.terra_nova.explain import explain_line
from solver.terra_nova.notation import Turn
from solver.terra_nova.position import Position
from solver.terra_nova.solve import solve_puzzle


@dataclass(frozen=True)
class Examined:
    """A position of the record solved: its best turn and the reply to that best turn."""

    best: Best | None
    """None when the game is over in the position."""
    reply: Best | None = None
    """The next player's best turn after :attr:`best` (None: not asked, or the game is
    over after it)."""


def tasks(record: GameRecord, params: SolveParams) -> list[ReviewTask]:
    """One :func:`examine` per position of ``record`` (the last one without the reply);
    none for a record without turns."""
    last = len(record.positions) - 1
    if not last:
        return []
    return [ReviewTask(examine, (position, index < last, params))
            for index, position in enumerate(record.positions)]


def examine(position: Position, reply: bool, params: SolveParams) -> Examined:
    """The best turn in ``position`` and, with ``reply``, the next player's best turn
    after it. Each solve has ``params.time_limit`` of its own."""
    best, line = best_turn(position, params)
    if best is None or not reply or not line:
        return Examined(best)
    after = apply_turn(position, line[0]).position
    return Examined(best, best_turn(after, params)[0])


def best_turn(position: Position, params: SolveParams) -> tuple[Best | None, list[Turn]]:
    """The best turn of the player to move (CP-SAT, replayed by the engine) and its line;
    ``(None, [])`` when the game is over. A solve whose model is not built within the
    time limit gives an empty line, not proven."""
    if ending(position) is not None:
        return None, []
    puzzle = position.replace(puzzle=None, solution=None)
    try:
        answer = solve_puzzle(puzzle, None, params)
    except (BuildTimeout, NoAnswer):
        return Best((), (), False, None, position.to_move), []
    return _best(position, answer), answer.line


def _best(position: Position, answer: Answer) -> Best:
    return Best(tuple(answer.line_text(position)), (answer.value, answer.others),
                answer.optimal, answer.bound, position.to_move)


def result(record: GameRecord, results: Sequence[Examined | None]) -> Review:
    """The review from :func:`tasks`' results in order (None: not run)."""
    rows = []
    for number, (before, turn) in enumerate(zip(record.positions[:-1], record.turns, strict=True),
                                            start=1):
        here, there = results[number - 1], results[number]
        player = before.to_move
        rows.append(TurnReview(
            number=number, player=player, played=record.texts[number - 1],
            played_value=explain_line(before, [turn]).played().value,
            score=record.positions[number].score(player),
            best=None if here is None else here.best,
            threat_after_played=None if there is None else there.best,
            threat_after_best=None if here is None else here.reply))
    return Review("terra-nova", str(record.path), turns=rows,
                  players=record.positions[0].players)


def pictures(record: GameRecord, row: TurnReview) -> list[tuple[Scene, str]]:
    """The turn played and the best turn, each drawn on the board before them."""
    from solver.terra_nova.notation import parse_turn
    from solver.terra_nova.picture import answer_scene

    before = record.positions[row.number - 1]
    turn = record.turns[row.number - 1]
    own, others = row.played_value
    out = [(answer_scene(before, [turn], own),
            f"Turn {row.number}, {row.player}: played {row.played} (+{own})")]
    best = row.best
    if best is not None and best.line:
        value = best.value[0]
        proof = "" if best.proven else f", not proven (bound {best.bound})"
        out.append((answer_scene(before, [parse_turn(best.line[0], before.grid)], value),
                    f"Best turn: {best.line[0]} (+{value}{proof}); lost {row.loss}"))
    return out
