"""Exhaustive oracles for ranked answers and rating counts: every answer the engine allows.

``solve --top N`` and ``rate`` are CP-SAT proofs; these enumerate, with the reference
engine alone, every line (or set of draws) of a small position, group them into
answers as the ranking does, and give each answer the best value of its lines:

* Terra Nova: lines of legal turns, one answer per set of stones on the board after;
* Rift Valley: sets of legal draws within the budget in which every element counts
  (a new stop has a trail ending at it, but for one animal-free first stop under the
  first-stop rule; a new tent a connected own stop beside it);
* Terra Nova (KOSMOS): canonical lines to the pass, one answer per plan (the actions
  taken by kind, the player's final buildings, habitable hexes, bridges, palace sides,
  the town tiles taken and, in a best round, the tile taken on passing).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from typing import Any

from solver.rift_valley.engine.draws import apply_draw, legal_draws
from solver.rift_valley.engine.scoring import details
from solver.rift_valley.model.max_score import animal_free_cells
from solver.rift_valley.notation import DrawStop, DrawTent
from solver.rift_valley.position import Position as RVPosition
from solver.rift_valley.rules import Rules
from solver.terra_nova.engine import turns as tn
from solver.terra_nova.position import Position as TNPosition
from solver.terra_nova_kosmos.engine import bestround, exhaustive, legal
from solver.terra_nova_kosmos.engine.lastround import score as last_score
from solver.terra_nova_kosmos.position import Position as KPosition
from solver.terra_nova_kosmos.rules import LANDSCAPE_LETTER

Answers = dict[Hashable, tuple[int, ...]]
"""Answer → the best key of its lines (larger is better; the first entry is the value)."""


def best_keys(answers: Answers, count: int) -> list[tuple[int, ...]]:
    """The keys of the ``count`` best answers, best first."""
    return sorted(answers.values(), reverse=True)[:count]


def _keep(answers: Answers, answer: Hashable, key: tuple[int, ...]) -> None:
    """``answer`` is worth at least ``key`` (one of its lines is)."""
    if answer not in answers or key > answers[answer]:
        answers[answer] = key


def better_than(answers: Answers, value: int) -> int:
    """How many answers are worth strictly more than ``value``."""
    return sum(1 for key in answers.values() if key[0] > value)


# ------------------------------------------------------------------ Terra Nova

def terra_nova(position: TNPosition, turns: int, actions: bool) -> Answers:
    """Every line of ``turns`` turns by stones placed, keyed (points, -others[, -actions])."""
    answers: Answers = {}

    def walk(current: TNPosition, left: int, points: int, others: int, done: int) -> None:
        if left == 0:
            key = (points, -others) + ((-done,) if actions else ())
            _keep(answers, current.stones, key)
            return
        for turn in tn.legal_turns(current):
            outcome = tn.apply_turn(current, turn, advance=False)
            gained = outcome.gained[position.to_move]
            walk(outcome.position, left - 1, points + gained,
                 others + sum(outcome.gained.values()) - gained, done + outcome.actions)

    walk(position, turns, 0, 0, 0)
    return answers


# ------------------------------------------------------------------ Rift Valley

def rift_valley(position: RVPosition, rules: Rules) -> Answers:
    """Every set of draws the model considers, keyed (score, -draws)."""
    player = position.player
    reached: dict[frozenset, RVPosition] = {}

    def walk(current: RVPosition, drawn: frozenset, left: int) -> None:
        if drawn in reached:
            return
        reached[drawn] = current
        if left == 0:
            return
        first = position.first_stop_rule and not drawn
        for draw in legal_draws(current, player, rules, first=first):
            walk(apply_draw(current, player, draw, rules, first=first), drawn | {draw},
                 left - 1)

    walk(position, frozenset(), position.draws if position.draws is not None else 99)
    safe = animal_free_cells(position)
    answers: Answers = {}
    for drawn, after in reached.items():
        if _counts(position, after, drawn, safe):
            answers[drawn] = (details(after, player).score().total, -len(drawn))
    return answers


def _counts(position: RVPosition, after: RVPosition, drawn: frozenset, safe) -> bool:
    """Every new element counts, as the model requires."""
    grid, own = position.grid, after.of(position.player)
    connected = {s for t in own.trails for s in t.ends}
    loose = [d.cell for d in drawn if isinstance(d, DrawStop) and d.cell not in connected]
    if len(loose) > 1 or (loose and not (position.first_stop_rule and loose[0] in safe)):
        return False
    return all(any(nb in connected and nb in own.stops for nb in grid.touching[d.cell])
               for d in drawn if isinstance(d, DrawTent))


# ------------------------------------------------------------------ Terra Nova (KOSMOS)

def kosmos(position: KPosition) -> Answers:
    """Every canonical line to the pass by plan, keyed as the puzzle orders lines."""
    best = position.puzzle is not None and position.puzzle.kind == "best-round"
    objective = bestround.objective_of(position) if best else None
    # a best round's Druiden pass ends exchanging every power triple, as its search does
    children = (exhaustive._BestRound(position, objective, None, None).children if best
                else legal.successors)
    answers: Answers = {}

    def walk(current: KPosition, kinds: Counter, turns: int) -> None:
        for turn, child in children(current):
            taken = kinds + Counter([_kind(turn.action)])
            if turn.action.name != "pass":
                walk(child, taken, turns + 1)
                continue
            if best:
                key = bestround.score(position, child, turns + 1, objective).key
            else:
                key = last_score(position, child, turns + 1).key
            _keep(answers, _plan(position, child, taken, turn.action.tile if best else None),
                  key)

    walk(position, Counter(), 0)
    return answers


def _kind(action: Any) -> str:
    if action.name == "upgrade":
        return f"upgrade-{action.piece}"
    if action.name == "pa-spade2" and len(action.cells) == 2:
        return "pa-spade2x2"
    return action.name


def _plan(root: KPosition, after: KPosition, kinds: Counter, tile: str | None) -> Hashable:
    colour = root.to_move
    me, was = after.player(colour), root.player(colour)
    home = LANDSCAPE_LETTER[root.faction(colour).home]
    built = frozenset((c, b.kind) for c, b in enumerate(after.buildings)
                      if b is not None and b.owner == colour)
    return (frozenset(kinds.items()), built,
            frozenset(c for c, land in enumerate(after.landscape) if land == home),
            frozenset(me.bridges), frozenset(me.palaces),
            frozenset(set(was.town_tiles) - set(me.town_tiles)), tile)
