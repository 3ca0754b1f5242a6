"""A review in figures: per-player totals, the costliest turns, the ``--json`` object
(docs/json.md), each player's score over the game played against best."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from solver.protocol import Best, RoundReview, TurnReview
from solver.review.run import Reviewed


@dataclass(frozen=True)
class PlayerTotals:
    """One player's turns (or rounds) of a review, added up."""

    player: str
    reviewed: int
    """Turns (rounds) reviewed."""
    loss: int
    """Points lost over them (rounds: those whose objective counts points)."""
    costly: int
    """Turns (rounds) that lost points."""
    worst: int | None
    """The number (round) of the costliest one, None when none lost points."""
    worst_loss: int
    not_proven: int
    """Reviewed turns (rounds) whose best answer is not proven optimal."""


Row = TurnReview | RoundReview
R = TypeVar("R", bound=Row)
"""One kind of row: turns, or rounds."""


def rows_of(reviewed: Reviewed) -> list[Row]:
    """Every reviewed row, turns then rounds."""
    return [*reviewed.review.turns, *reviewed.review.rounds]


def number_of(row: Row) -> int:
    """The turn's number, or the round's."""
    return row.number if isinstance(row, TurnReview) else row.round


def worst(rows: Sequence[R], count: int) -> list[R]:
    """The ``count`` costliest rows that lost points, costliest first (ties: in game
    order)."""
    costly = [row for row in rows if (row.loss or 0) > 0]
    return sorted(costly, key=lambda row: (-(row.loss or 0), number_of(row)))[:count]


def totals(reviewed: Reviewed) -> list[PlayerTotals]:
    """Per player, in seating order: what the review found."""
    out = []
    review = reviewed.review
    for player in review.players:
        mine: list[Row] = [r for r in review.turns if r.player == player]
        mine += [r for r in review.rounds if r.player == player and r.in_total]
        done = [r for r in mine if r.loss is not None]
        lost = [r for r in done if (r.loss or 0) > 0]
        top = max(lost, key=lambda r: (r.loss or 0, -number_of(r)), default=None)
        out.append(PlayerTotals(player, len(done), sum(r.loss or 0 for r in lost), len(lost),
                                None if top is None else number_of(top),
                                0 if top is None else top.loss or 0,
                                sum(1 for r in done if r.best is not None
                                    and not r.best.proven)))
    return out


def _best_json(best: Best | None) -> dict[str, Any] | None:
    if best is None:
        return None
    return {"player": best.player, "best": best.line[0] if best.line else None,
            "value": list(best.value) or None, "proven": best.proven, "bound": best.bound}


def _turn_json(row: TurnReview) -> dict[str, Any]:
    best = row.best
    found = best if best is not None and best.line else None
    return {
        "number": row.number, "player": row.player, "played": row.played,
        "played_value": list(row.played_value),
        "best": found.line[0] if found else None,
        "best_value": list(found.value) if found else None,
        "loss": row.loss,
        "proven": None if best is None else best.proven,
        "bound": None if best is None else best.bound,
        "threat_after_played": _best_json(row.threat_after_played),
        "threat_after_best": _best_json(row.threat_after_best),
    }


def _round_json(row: RoundReview) -> dict[str, Any]:
    best = row.best
    return {
        "round": row.round, "player": row.player, "puzzle": row.puzzle,
        "objective": row.objective, "played": list(row.played),
        "played_value": dict(row.played_value),
        "best": None if best is None else list(best.line),
        "best_value": dict(row.figures) if best is not None and best.value else None,
        "loss": row.loss,
        "proven": None if best is None else best.proven,
        "bound": None if best is None else best.bound,
    } | ({"note": best.note} if best is not None and best.note else {})


def to_json(reviewed: Reviewed) -> dict[str, Any]:
    """The ``--json`` object of ``review`` (docs/json.md)."""
    review = reviewed.review
    obj: dict[str, Any] = {"game": review.game, "record": review.record}
    if review.unit == "turn":
        obj["turns"] = [_turn_json(row) for row in review.turns]
    else:
        obj["rounds"] = [_round_json(row) for row in review.rounds]
    obj["summary"] = {
        "turns": len(reviewed.record.turns),
        "tasks": reviewed.tasks,
        "done": reviewed.done,
        "interrupted": reviewed.interrupted,
        "players": {t.player: {"reviewed": t.reviewed, "loss": t.loss, "costly": t.costly,
                               "worst": t.worst, "worst_loss": t.worst_loss,
                               "not_proven": t.not_proven}
                    for t in totals(reviewed)},
        "wall_s": round(reviewed.wall_s, 3),
    }
    return obj
