"""The last-rounds puzzle: P plans the game's last rounds, everything between them played.

P = ``to_move``, in round ``6 − rounds`` (round 4 for ``rounds = 2``), every other
player passed [D35]. A line is P's turns of every planned round, each round's
turns ending with a pass (taking a display tile and its coins), so the line holds
one pass per round, the last turn a pass. Between two rounds the engine plays
what a game plays there (:func:`between_rounds`): phase 3 (X-markers off, a coin
on every displayed tile, the next round tile), phase 1 (everyone's income, from
the tile P took on passing among others), and the others, who take no further
part, start the next round passed [D38]. After P's last pass everyone is scored.
The objective is the last-round puzzle's: P's final score, then the smallest sum
of the others' final scores, then the fewest turns (both passes counted);
``value`` = P's final score − P's VP in the position. :func:`evaluate` is the
reference both the exhaustive search and the CP-SAT answers are checked by.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from solver.errors import PuzzleError
from solver.terra_nova_kosmos.engine import rounds as phases
from solver.terra_nova_kosmos.engine.actions import IllegalTurn, apply_turn
from solver.terra_nova_kosmos.engine.lastround import Result, require_others_passed, score
from solver.terra_nova_kosmos.notation import Action, Turn
from solver.terra_nova_kosmos.position import PLANNED_ROUNDS, Position
from solver.terra_nova_kosmos.rules import OTHERS_SIT_OUT_LATER_ROUNDS, ROUNDS


def planned_rounds(position: Position) -> int:
    """The rounds the position's last-rounds puzzle plans (the file's, else the default)."""
    puzzle = position.puzzle
    if puzzle is None or puzzle.rounds is None:
        return PLANNED_ROUNDS[0]
    return puzzle.rounds


def check_puzzle(position: Position) -> None:
    """PuzzleError unless the position poses a last-rounds puzzle: the right round, P
    still to pass, every other player passed [D35], a tile on display to pass with, a
    variant with no random draws between the rounds [D34]."""
    first = ROUNDS - planned_rounds(position) + 1
    if position.round != first:
        raise PuzzleError(f"a last-rounds puzzle over {planned_rounds(position)} rounds "
                          f"starts in round {first}, not {position.round}")
    if position.has_passed(position.to_move):
        raise PuzzleError(f"{position.to_move} to move has passed")
    require_others_passed(position, "last-rounds")
    if not position.bonus_display:
        raise PuzzleError("a last-rounds puzzle needs a bonus tile on display to pass with")
    if position.variant == "glueckgraeber":
        raise PuzzleError("the Glücksgräber variant draws neutral houses between rounds: "
                          "no puzzle crosses a round there [D34]")


def between_rounds(after_pass: Position) -> Position:
    """The next round's phase 2 after P's pass (everyone has passed): phase 3, income for
    everyone, and the others passed again before P's first turn [D38]."""
    me = after_pass.to_move
    order = after_pass.passed
    position = phases.income(phases.end_round(after_pass))
    others = tuple(c for c in order if c != me)
    if OTHERS_SIT_OUT_LATER_ROUNDS:
        return position.replace(passed=others, to_move=me)
    for colour in others:
        coins = dict(position.bonus_display)
        tile = max(position.bonus_display, key=lambda tc: tc[1])[0] if coins else None
        position = apply_turn(position.replace(to_move=colour), Turn(Action("pass", tile=tile)))
    return position.replace(to_move=me)


def play_line(position: Position, line: Sequence[Turn]) -> Iterator[tuple[Turn, Position]]:
    """Each turn of ``line`` with the position right after it (P's pass ends a round:
    the positions after it are the next round's, :func:`between_rounds`). IllegalTurn
    names the turn that fails, or the line that does not pass once per round."""
    check_puzzle(position)
    rounds = planned_rounds(position)
    current, passes = position, 0
    for number, turn in enumerate(line, start=1):
        if passes == rounds:
            raise IllegalTurn("the line goes on after the last round's pass",
                              place=f"turn {number}")
        try:
            after = apply_turn(current, turn)
        except IllegalTurn as exc:
            raise IllegalTurn(exc.message, place=f"turn {number}") from None
        yield turn, after
        current = after
        if turn.action.name == "pass":
            passes += 1
            if passes < rounds:
                current = between_rounds(after)
    if passes < rounds:
        raise IllegalTurn(f"the line must pass once in each of the {rounds} rounds, "
                          "the last turn a pass", place=f"turn {len(line)}")


def replay(position: Position, line: Sequence[Turn]) -> Position:
    """The position after P's last pass (the game's end)."""
    positions = [after for _, after in play_line(position, line)]
    return positions[-1]


def evaluate(position: Position, line: Sequence[Turn]) -> Result:
    """Replay ``line`` for P over the planned rounds and score it; IllegalTurn names the
    turn that fails."""
    return score(position, replay(position, line), len(line))
