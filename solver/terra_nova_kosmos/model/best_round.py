"""The CP-SAT model of the ``best-round`` puzzle: P's turns of round 1–4 to the pass.

The steps, state and transitions are the last-round model's (:mod:`.last_round`:
per step one action Boolean per kind and per-hex effects; per state buildings,
habitable hexes, bridges, money, power bowls, shipping, palaces, towns and
town tiles; range, towns and the round tile's VP per step). What differs:

* the pass takes a display tile: one Boolean per (step, tile), exactly one
  when the step passes; the tile's coins are money at that step;
* nothing is scored after the pass: *points* are the VP of the steps (round
  tile, shipping track, towns, palaces, Druiden triples before a gain) and the
  pass bonuses (held tile, Golems, Ifrit's and Feline's right palaces), and for
  the Druiden every power triple left after the pass (and its power), 2 VP
  each; *leftover* is money + bowl III after the pass (and those triples);
  *given* is, per other player, (bowl I before − after) + (bowl III after −
  before) after the power P's building gives them ([D24]);
* objective ``max-points``: points, then leftover, then least given, then
  fewest turns; ``max-value``: ``3 × points + leftover``, then least given,
  then fewest turns — one :func:`solver.cpsat.objectives.lexicographic`.

Refused (with the reason): every position the last-round model refuses, round
aside.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from ortools.sat.python import cp_model

from solver.cpsat.constraints import Lit, live
from solver.cpsat.objectives import Goal, Lexicographic, lexicographic
from solver.terra_nova_kosmos.model.geometry import Geometry
from solver.terra_nova_kosmos.model.last_round import (
    KINDS,
    Builder,
    Num,
    State,
    Step,
    Unsupported,
    is_on,
    plan,
    read_line,
)
from solver.terra_nova_kosmos.model.scope import unsupported
from solver.terra_nova_kosmos.notation import Action, Exchange, Turn
from solver.terra_nova_kosmos.position import OBJECTIVES, Position
from solver.terra_nova_kosmos.rules import DRUID_TRIPLE, MONEY_PER_VP, POWER_TOKENS, ROUNDS

BIG = 10 ** 4
"""A bound on the points of one round (loose: the tightest is not needed)."""

__all__ = ["KINDS", "BestRound", "Unsupported", "build_best_round", "best_plan",
           "read_best_line"]


@dataclass
class BestRound:
    """A built best-round model and what its solution is read from."""

    position: Position
    model: cp_model.CpModel
    objective: Lexicographic
    goal: str
    """``max-points`` or ``max-value``."""
    geometry: Geometry
    steps: list[Step]
    states: list[State]
    value: Num
    points: Num
    leftover: Num
    given: Num
    turns: Num
    takes: dict[int, dict[str, Lit]]
    """Per step that may pass: display tile → "taken" Boolean."""
    answer: list[Lit]
    """The Booleans that make up a line (for uniqueness checks)."""
    closing: Num = 0
    """Druiden: power triples exchanged for VP after the pass (all there are)."""
    pass_tile: str | None = None
    """Unused (the tile is a variable); :func:`read_line` of last-round expects it."""


def refusal(position: Position) -> str | None:
    """Why the best-round model cannot take ``position``, or None when it can."""
    if not 1 <= position.round < ROUNDS:
        return f"a best-round puzzle is in round 1 to {ROUNDS - 1}, not {position.round}"
    if not position.bonus_display:
        return "a best-round puzzle needs a bonus tile on display to pass with"
    # the last-round model's own limits (factions, rule options), the round aside
    return unsupported(position.replace(round=ROUNDS))


class _BestRoundBuilder(Builder):
    """The last-round builder with the pass, the scoring and the objective of a round."""

    def __init__(self, position: Position, objective: str,
                 check: Callable[[], None] | None = None):
        if objective not in OBJECTIVES:
            raise ValueError(f"unknown objective {objective!r}")
        self.goal = objective
        self.takes: dict[int, dict[str, Lit]] = {}
        super().__init__(position, check)

    def refusal(self, position: Position) -> str | None:
        return refusal(position)

    def pass_income(self, t: int, step: Step) -> Num:
        """One "taken" Boolean per display tile; the coins of the tile taken."""
        passing = step.kind["pass"]
        if passing is False:
            return 0
        takes: dict[str, Lit] = {tile: self.bool(f"take_{t}_{tile}")
                                 for tile, _ in self.p.bonus_display}
        self.m.add(sum(takes.values()) == passing)
        self.takes[t] = takes
        return sum(coins * takes[tile] for tile, coins in self.p.bonus_display)

    def given(self) -> Num:
        """Tokens moved in the other players' bowls by what P's building gives them."""
        terms = []
        for colour in self.p.colours:
            if colour == self.me:
                continue
            one, _, three = self.p.player(colour).power
            _, bowls = self.other_after(colour)
            terms.append((one - bowls[0]) + (bowls[2] - three))
        given = self.m.new_int_var(0, 2 * POWER_TOKENS * len(terms), "given")
        self.m.add(given == sum(terms))
        return given

    def finish(self) -> BestRound:  # type: ignore[override]
        m = self.m
        self.round_limits()
        end = self.states[-1]
        bowls = self.passed_bowls(end)
        closing: Num = 0
        if self.fid == "druiden":
            closing = m.new_int_var(0, POWER_TOKENS // DRUID_TRIPLE[0], "closing_triples")
            three = m.new_int_var(0, POWER_TOKENS, "three_after_pass")
            m.add(three == bowls[2])
            m.add_division_equality(closing, three, DRUID_TRIPLE[0])
        points = m.new_int_var(0, BIG, "points")
        m.add(points == sum(self.vp_terms) + self.pass_points(end) + self.kept_points()
              + DRUID_TRIPLE[1] * closing)
        top = self.mmax + POWER_TOKENS
        leftover = m.new_int_var(0, top, "leftover")
        m.add(leftover == end.money + bowls[2] - DRUID_TRIPLE[0] * closing)
        given = self.given()
        turns = self.turns()
        spans = [top, 2 * POWER_TOKENS * (len(self.p.players) - 1), self.T]
        if self.goal == "max-points":
            value: Num = points
            goals = [Goal(points, "max"), Goal(top - leftover, "min", spans[0])]
        else:
            value = m.new_int_var(0, MONEY_PER_VP * BIG + top, "value")
            m.add(value == MONEY_PER_VP * points + leftover)
            goals = [Goal(value, "max")]
        goals += [Goal(given, "min", spans[1]), Goal(turns, "min", spans[2])]
        goal = lexicographic(goals)
        m.maximize(goal.expr)
        answer: list[Lit] = []
        for s in self.steps:
            tables: list[Mapping[Any, Lit]] = [s.kind, *s.choices(), s.found, s.tiles]
            answer += [x for d in tables for x in live(d.values()) if x is not True]
        answer += [x for takes in self.takes.values() for x in takes.values()]
        return BestRound(self.p, m, goal, self.goal, self.g, self.steps, self.states,
                         value, points, leftover, given, turns, self.takes, answer, closing)


def build_best_round(position: Position, objective: str,
                     check: Callable[[], None] | None = None) -> BestRound:
    """The best-round model of ``position`` under ``objective`` (:class:`Unsupported`
    when outside the model); ``check`` as in :func:`build_last_round`."""
    return _BestRoundBuilder(position, objective, check).build()  # type: ignore[return-value]


def read_best_line(br: BestRound, solver: cp_model.CpSolver) -> list[Turn]:
    """The solution as turns in notation, the pass with the tile taken."""
    turns = read_line(br, solver)  # type: ignore[arg-type]
    passing = len(turns)
    tile = next(t for t, v in br.takes[passing].items() if is_on(solver, v))
    closing = br.closing if isinstance(br.closing, int) else solver.value(br.closing)
    after = (Exchange("*", closing),) if closing else ()
    turns[-1] = replace(turns[-1], action=Action("pass", tile=tile), after=after)
    return turns


def best_plan(br: BestRound) -> list[Any]:
    """The answer up to the order of turns (:func:`plan` of last-round) and the tile
    taken on passing."""
    out = plan(br)  # type: ignore[arg-type]
    tiles: dict[str, list[Any]] = {}
    for takes in br.takes.values():
        for tile, v in takes.items():
            tiles.setdefault(tile, []).append(v)
    for tile, lits in sorted(tiles.items()):
        taken = br.model.new_bool_var(f"takes_{tile}")
        br.model.add(taken == sum(lits))
        out.append(taken)
    return out
