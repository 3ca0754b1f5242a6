"""A Terra Nova (KOSMOS) game record reviewed by rounds (``boardsat review``).

For every player and every round the record completes (the player passed in it), the
round played against the best plan from the round's start: the position at the
player's first turn of the round with every other player passed, the puzzles' [D35]
convention (the plan is the player's alone; the others stand still). Rounds 1–4 are
planned as the best-round puzzle under both objectives (``max-points``,
``max-value``), round 5 as the last-round puzzle (the final score), each solved by
CP-SAT and replayed by the engine.

The round played is measured on the game itself, as the puzzles measure a line:
points, the VP the player gained from its first turn of the round to its pass;
leftover, its money and bowl-III power after the pass; given, the power the others
gained from its own turns; turns, its turns. The last round: its final score less
its VP at the round's start, the others' final scores. The others' turns between
the player's can help or hinder it, so a round played may beat the plan (a loss
below 0).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from solver.cpsat import SolveParams
from solver.drawing.scene import Scene
from solver.errors import InputError, NoAnswer
from solver.protocol import Best, GameRecord, Review, ReviewTask, RoundReview
from solver.terra_nova_kosmos.engine import bestround, lastround
from solver.terra_nova_kosmos.engine.actions import apply_turn
from solver.terra_nova_kosmos.engine.rounds import game_over
from solver.terra_nova_kosmos.engine.scoring import final_scores
from solver.terra_nova_kosmos.notation import Turn
from solver.terra_nova_kosmos.position import OBJECTIVES, Position, Puzzle
from solver.terra_nova_kosmos.rules import ROUNDS
from solver.terra_nova_kosmos.solve import solve_best_round, solve_last_round

LAST_ROUND = "last-round"
BEST_ROUND = "best-round"
FINAL_SCORE = "final-score"
"""The objective of the last-round puzzle, as a review names it."""


@dataclass(frozen=True)
class PlayerRound:
    """One player's turns in one round of a record (indices into the record's turns)."""

    round: int
    player: str
    turns: tuple[int, ...]
    """The last one is the player's pass."""


@dataclass(frozen=True)
class Planned:
    """A plan solved: the answer as a review shows it, and its figures by name."""

    best: Best
    figures: dict[str, int]


def player_rounds(record: GameRecord) -> list[PlayerRound]:
    """Every (round, player) of ``record`` whose turns end with the player's pass, in the
    order the passes come; the last round only when the game is over at the record's end
    (its final scores are what it is measured by)."""
    open_turns: dict[tuple[int, str], list[int]] = {}
    out = []
    finished = game_over(record.positions[-1])
    for index, (position, turn) in enumerate(zip(record.positions[:-1], record.turns,
                                                 strict=True)):
        key = (position.round, position.to_move)
        open_turns.setdefault(key, []).append(index)
        if turn.action.name == "pass" and (position.round < ROUNDS or finished):
            out.append(PlayerRound(position.round, position.to_move,
                                   tuple(open_turns.pop(key))))
    return out


def alone(position: Position) -> Position:
    """``position`` as a puzzle: every player but the one to move has passed [D35]."""
    others = tuple(c for c in position.colours
                   if c != position.to_move and c not in position.passed)
    return position.replace(passed=position.passed + others, puzzle=None, solution=None)


def tasks(record: GameRecord, params: SolveParams) -> list[ReviewTask]:
    """Per completed player round: the best-round plan under each objective (rounds 1–4),
    or the last-round plan (round 5), from the round's start."""
    out = []
    for played in player_rounds(record):
        start = alone(record.positions[played.turns[0]])
        if played.round < ROUNDS:
            out += [ReviewTask(plan, (start, objective, params)) for objective in OBJECTIVES]
        else:
            out.append(ReviewTask(plan, (start, None, params)))
    return out


def plan(position: Position, objective: str | None, params: SolveParams) -> Planned:
    """The best plan from ``position`` (the player alone): best-round under ``objective``,
    or (None) the last-round puzzle. A plan the model cannot make (not covered, not
    built in time) is an empty answer saying why."""
    try:
        if objective is None:
            answer = solve_last_round(position, params)
            assert isinstance(answer.result, lastround.Result), "a last-round answer"
            figures = {"value": answer.result.value, "others": answer.result.others,
                       "turns": answer.result.turns}
        else:
            answer = solve_best_round(position, params, objective=objective)
            assert isinstance(answer.result, bestround.Result), "a best-round answer"
            figures = _best_round_figures(answer.result)
    except (InputError, NoAnswer) as exc:
        return Planned(Best((), (), False, None, position.to_move, str(exc)), {})
    best = Best(tuple(answer.line_text(position)), tuple(figures.values()), answer.optimal,
                answer.bound, position.to_move)
    return Planned(best, figures)


def _best_round_figures(result: bestround.Result) -> dict[str, int]:
    return {"value": result.value, "points": result.points, "leftover": result.leftover,
            "given": result.given, "turns": result.turns}


def given_power(before: Position, after: Position) -> int:
    """The power the others gained between ``before`` and ``after`` (one turn of the
    player to move), counted as :mod:`~solver.terra_nova_kosmos.engine.bestround` counts
    it: tokens leaving bowl I plus tokens reaching bowl III."""
    total = 0
    for colour in before.colours:
        if colour != before.to_move:
            was, now = before.player(colour).power, after.player(colour).power
            total += (was[0] - now[0]) + (now[2] - was[2])
    return total


def _round_played(record: GameRecord, played: PlayerRound,
                  objective: str) -> tuple[dict[str, int], int]:
    """What the round played is worth under ``objective`` (its figures by name) and the
    player's score after it (VP; the last round: the final score)."""
    start = record.positions[played.turns[0]]
    colour = played.player
    if objective == FINAL_SCORE:
        final = final_scores(record.positions[-1])
        last = lastround.Result(final[colour] - start.player(colour).vp,
                                sum(v for c, v in final.items() if c != colour),
                                len(played.turns), final)
        return {"value": last.value, "others": last.others,
                "turns": last.turns}, final[colour]
    given = 0
    after = start
    for index in played.turns:
        before: Position = record.positions[index]
        turn: Turn = record.turns[index]
        after = apply_turn(before, turn)
        given += given_power(before, after)
    me = after.player(colour)
    result = bestround.Result(objective, me.vp - start.player(colour).vp,
                              me.money + me.power[2], given, len(played.turns))
    return _best_round_figures(result), me.vp


def result(record: GameRecord, results: Sequence[Planned | None]) -> Review:
    """The review from :func:`tasks`' results in order (None: not run)."""
    rows = []
    answers = iter(results)
    for played in player_rounds(record):
        objectives = (OBJECTIVES if played.round < ROUNDS else (FINAL_SCORE,))
        for objective in objectives:
            planned = next(answers)
            figures, score = _round_played(record, played, objective)
            rows.append(RoundReview(
                round=played.round, player=played.player,
                puzzle=BEST_ROUND if played.round < ROUNDS else LAST_ROUND,
                objective=objective,
                played=tuple(record.texts[i] for i in played.turns),
                played_value=figures, score=score,
                best=None if planned is None else planned.best,
                figures={} if planned is None else planned.figures,
                in_total=objective != OBJECTIVES[1]))
    return Review("terra-nova-kosmos", str(record.path), rounds=rows,
                  players=record.positions[0].colours, unit="round")


def pictures(record: GameRecord, row: RoundReview) -> list[tuple[Scene, str]]:
    """The plan drawn on the round's start, and the map after the round played."""
    from solver.terra_nova_kosmos.notation import parse_line
    from solver.terra_nova_kosmos.picture import answer_scene, position_scene

    played = next(p for p in player_rounds(record)
                  if (p.round, p.player) == (row.round, row.player))
    start = record.positions[played.turns[0]]
    last = played.turns[-1]
    after = apply_turn(record.positions[last], record.turns[last])
    value = row.played_value["value"]
    scene = position_scene(after)
    scene.answer = ["Played: " + "   ".join(f"{i}. {t}" for i, t in
                                           enumerate(row.played, start=1)),
                    f"worth {value} ({row.objective}); the map after the pass"]
    out = [(scene, f"Round {row.round}, {row.player} ({row.objective}): as played")]
    best = row.best
    if best is not None and best.line:
        puzzle = Puzzle(row.puzzle, None if row.puzzle == LAST_ROUND else row.objective)
        position = alone(start).replace(puzzle=puzzle)
        proof = "" if best.proven else f", not proven (bound {best.bound})"
        out.append((answer_scene(position, parse_line(list(best.line), start.grid)),
                    f"The plan from the round's start: worth {best.value[0]}{proof}; "
                    f"lost {row.loss}"))
    return out
