"""The CP-SAT model of the ``last-rounds`` puzzle: P's turns of round 4 and round 5,
what is played between them, then final scoring.

Two blocks of the last-round model's steps (:mod:`..last_round`: per step one action
Boolean per kind and per-hex effects, per state buildings, habitable hexes,
bridges, money, power bowls, shipping, palaces, towns, town tiles), one per round,
each ending with a pass (idle steps after it). What the rounds add:

* round 4: the held bonus tile (its special, its reach, its pass VP) and round 4's
  tile; the pass takes a display tile (a Boolean per step and tile, its coins as
  money); the pass bonuses are scored at its end as in the last round;
* between the rounds, as linear constraints on the state: the Druiden pass power;
  any exchange of bowl-III power for money (and Druiden triples for VP) before the
  income — the canonical pass turn before an income, as the engine's; the income:
  the uncovered house and Kontor slots (cumulative tables indexed by the buildings
  on the map), the left palace, the tile taken, the Feen's 2 power, gained in
  closed form;
* round 5: power actions and specials free again, the taken tile's ``b-spade``
  allowed only when it was taken and its ``b-reach`` a literal of range; round 5's
  tile; the pass takes the richest tile left (coins by round 4's choice);
* the end: round 5's pass bonuses (the taken tile's VP per unit as the product of
  its literal and the count), the last-round model's final scoring; the others get
  their income too and sit out round 5 ([D38]); once-per-round limits per round,
  bridges from one supply.

The objective is the last-round model's: P's final score, then the others' scores
(minimised), then the turns of both rounds (minimised).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ortools.sat.python import cp_model

from solver.terra_nova_kosmos.model.last_round import (
    Predicted,
    hint_passing_at_once,
    is_on,
    plan,
    predicted,
    read_line,
)
from solver.terra_nova_kosmos.model.last_rounds.builder import (
    LastRounds,
    RoundsBuilder,
    best_coins,
    build_last_rounds,
    refusal,
    second_display,
)
from solver.terra_nova_kosmos.notation import Exchange, Turn

__all__ = ["LastRounds", "Predicted", "RoundsBuilder", "build_last_rounds", "hint_passing_rounds",
           "predicted_rounds", "read_rounds_line", "refusal", "rounds_plan"]


def taken_tile(built: LastRounds, solver: cp_model.CpSolver) -> str:
    """The display tile P takes on passing in round 4."""
    return next(t for t, v in built.rounds[0].taken.items() if is_on(solver, v))


def read_rounds_line(built: LastRounds, solver: cp_model.CpSolver) -> list[Turn]:
    """The solution as turns: round 4's (its pass with the tile taken and the exchange
    before the income), then round 5's (its pass with the richest tile left)."""
    first, second = built.rounds
    taken = taken_tile(built, solver)
    rounds = []
    for block, tile in ((first, taken),
                        (second, best_coins(second_display(built.position, taken))[0]
                         if built.position.rules.final_round_swap else None)):
        rounds.append(read_line(replace(built.lr, steps=block.steps, pass_tile=tile), solver))
    triples = built.triples if isinstance(built.triples, int) \
        else solver.value(built.triples)
    exchange = solver.value(built.exchange)
    after = (((Exchange("*", triples),) if triples else ())
             + ((Exchange("$", exchange),) if exchange else ()))
    rounds[0][-1] = replace(rounds[0][-1], after=after)
    return rounds[0] + rounds[1]


def predicted_rounds(built: LastRounds, solver: cp_model.CpSolver) -> Predicted:
    """The model's value, others' total and turn count of its solution."""
    return predicted(built.lr, solver)


def hint_passing_rounds(built: LastRounds) -> None:
    """Hint the action kinds of the line that passes at once in both rounds."""
    hint_passing_at_once(built.lr, passing=(0, len(built.rounds[0].steps)))


def rounds_plan(built: LastRounds) -> list[Any]:
    """The answer up to the order of turns within each round: per round what
    :func:`..last_round.plan` keeps of a line (actions taken, the buildings,
    habitable hexes, bridges and palaces at the round's end, town tiles), and the
    tile taken on passing in round 4."""
    out: list[Any] = []
    for block in built.rounds:
        out += plan(replace(built.lr, steps=block.steps, states=block.states))
    out += [v for _, v in sorted(built.rounds[0].taken.items())]
    return out
