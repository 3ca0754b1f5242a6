"""The last-round puzzle: round 5, everyone but P has passed; P plays to its pass.

P = ``to_move``. A line is P's turns, the last one a pass; then final scoring
for everyone. Objective: P's final score; tie-breaks: the smallest sum of the
others' final scores, then the fewest turns. ``value`` = P's final score − P's
VP in the position. :func:`evaluate` replays and scores a line; it is the
reference both the exhaustive search and the CP-SAT answers are checked by.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from solver.errors import PuzzleError
from solver.terra_nova_kosmos.engine.actions import IllegalTurn, apply_turn
from solver.terra_nova_kosmos.engine.scoring import final_scores
from solver.terra_nova_kosmos.notation import Turn
from solver.terra_nova_kosmos.position import Position
from solver.terra_nova_kosmos.rules import ROUNDS


@dataclass(frozen=True)
class Result:
    """A scored line: P's gain, the others' final scores summed, P's turns, all finals."""

    value: int
    others: int
    turns: int
    final: dict[str, int]

    @property
    def key(self) -> tuple[int, int, int]:
        """Larger is better: value, then fewer points to others, then fewer turns."""
        return (self.value, -self.others, -self.turns)


def check_puzzle(position: Position) -> None:
    """PuzzleError unless the position poses a last-round puzzle [D35]."""
    if position.round != ROUNDS:
        raise PuzzleError(f"a last-round puzzle is in round {ROUNDS}, not {position.round}")
    require_others_passed(position, "last-round")


def require_others_passed(position: Position, kind: str) -> None:
    """PuzzleError unless every player but the one to move has passed [D35]
    (``kind`` names the puzzle in the message)."""
    others = [c for c in position.colours if c != position.to_move]
    waiting = [c for c in others if not position.has_passed(c)]
    if waiting:
        raise PuzzleError(f"in a {kind} puzzle every other player has passed "
                          f"({', '.join(waiting)} has not) [D35]")


def score(position: Position, after_pass: Position, turns: int) -> Result:
    """The result once P has passed (``after_pass``) after ``turns`` turns."""
    colour = position.to_move
    final = final_scores(after_pass)
    others = sum(v for c, v in final.items() if c != colour)
    return Result(final[colour] - position.player(colour).vp, others, turns, final)


def replay_to_pass(position: Position, line: Sequence[Turn]) -> Position:
    """The position after P's ``line``, which must end with its only pass; IllegalTurn
    names the turn that fails."""
    current = position
    for number, turn in enumerate(line, start=1):
        try:
            current = apply_turn(current, turn)
        except IllegalTurn as exc:
            raise IllegalTurn(exc.message, place=f"turn {number}") from None
        if turn.action.name == "pass":
            if number != len(line):
                raise IllegalTurn("the line goes on after the pass", place=f"turn {number + 1}")
            return current
    raise IllegalTurn("the line must end with a pass", place=f"turn {len(line)}")


def evaluate(position: Position, line: Sequence[Turn]) -> Result:
    """Replay ``line`` for P and score it; IllegalTurn names the turn that fails."""
    check_puzzle(position)
    return score(position, replay_to_pass(position, line), len(line))
