"""The best-round puzzle: round 1–4, everyone but P has passed; P plans the round.

P = ``to_move``. A line is P's turns, the last one ``pass <tile>`` (P takes a
display tile and its coins). Nothing after the pass is scored: no round end,
no income. What a line is worth (:class:`Result`):

* ``points`` — the VP P gains in the round: actions, round tile, towns, pass
  bonuses (and Druiden triples, which are VP too);
* ``leftover`` — P's money + bowl-III power after the pass turn;
* ``given`` — the power the others gain from P's building ([D24]), counted as
  tokens moved in their bowls: (bowl I before − after) + (bowl III after −
  before) per player (a gain their full bowls lose is not given);
* ``turns`` — P's turns, the pass included.

Objective ``max-points``: most points, then most leftover, then least given,
then fewest turns. Objective ``max-value``: most ``3 × points + leftover``
(leftovers at the end-game rate), then least given, then fewest turns.
:func:`evaluate` replays and scores a line; it is the reference both the
exhaustive search and the CP-SAT answers are checked by.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from solver.errors import PuzzleError
from solver.terra_nova_kosmos.engine.lastround import replay_to_pass, require_others_passed
from solver.terra_nova_kosmos.notation import Turn
from solver.terra_nova_kosmos.position import OBJECTIVES, Position
from solver.terra_nova_kosmos.rules import MONEY_PER_VP, ROUNDS


@dataclass(frozen=True)
class Result:
    """A scored best-round line (see the module docstring)."""

    objective: str
    points: int
    leftover: int
    given: int
    turns: int

    @property
    def value(self) -> int:
        """The objective's value: ``points`` (max-points) or ``3 × points + leftover``."""
        if self.objective == "max-points":
            return self.points
        return MONEY_PER_VP * self.points + self.leftover

    @property
    def key(self) -> tuple[int, ...]:
        """Larger is better: the objective with its tie-breaks."""
        if self.objective == "max-points":
            return (self.points, self.leftover, -self.given, -self.turns)
        return (self.value, -self.given, -self.turns)


def objective_of(position: Position) -> str:
    """The position's best-round objective (``max-points`` without a ``[puzzle]``)."""
    puzzle = position.puzzle
    if puzzle is None or puzzle.objective is None:
        return OBJECTIVES[0]
    return puzzle.objective


def check_puzzle(position: Position) -> None:
    """PuzzleError unless the position poses a best-round puzzle [D35]."""
    if not 1 <= position.round < ROUNDS:
        raise PuzzleError(f"a best-round puzzle is in round 1 to {ROUNDS - 1}, "
                          f"not {position.round}")
    if position.has_passed(position.to_move):
        raise PuzzleError(f"{position.to_move} to move has passed")
    require_others_passed(position, "best-round")
    if not position.bonus_display:
        raise PuzzleError("a best-round puzzle needs a bonus tile on display to pass with")


def score(root: Position, after_pass: Position, turns: int, objective: str) -> Result:
    """The result once P has passed (``after_pass``) after ``turns`` turns from ``root``."""
    colour = root.to_move
    before, after = root.player(colour), after_pass.player(colour)
    given = 0
    for other in root.colours:
        if other != colour:
            was, now = root.player(other).power, after_pass.player(other).power
            given += (was[0] - now[0]) + (now[2] - was[2])
    return Result(objective, after.vp - before.vp, after.money + after.power[2], given, turns)


def evaluate(position: Position, line: Sequence[Turn], objective: str | None = None
             ) -> Result:
    """Replay ``line`` for P and score it under ``objective`` (default: the position's);
    IllegalTurn names the turn that fails."""
    check_puzzle(position)
    objective = objective or objective_of(position)
    return score(position, replay_to_pass(position, line), len(line), objective)
