"""Final scoring: Druiden triples [D32], bowl III to money, money to VP, area scoring."""

from __future__ import annotations

from solver.terra_nova_kosmos.engine.board import area_group
from solver.terra_nova_kosmos.position import Position
from solver.terra_nova_kosmos.rules import (
    AREA_POINTS,
    DRUID_EXCHANGE_AT_END,
    DRUID_TRIPLE,
    MONEY_PER_VP,
)


def money_points(money: int, power_three: int, druid: bool) -> int:
    """VP from money and bowl III at the end: the power becomes money 1:1; the Druiden
    first exchange the best number of triples (3 power → 2 VP) [D32]."""
    best = (money + power_three) // MONEY_PER_VP
    if druid:
        cost, vp = DRUID_TRIPLE
        for triples in range(1, power_three // cost + 1):
            rest = money + power_three - cost * triples
            best = max(best, vp * triples + rest // MONEY_PER_VP)
    return best


def area_points(sizes: dict[str, int]) -> dict[str, int]:
    """Places by group size score ``AREA_POINTS`` (only as many places as players);
    tied players share the points of the places they cover."""
    places = AREA_POINTS[:len(sizes)]
    ordered = sorted(sizes.values(), reverse=True)
    out = {}
    for colour, size in sizes.items():
        first = ordered.index(size)
        tied = ordered.count(size)
        total = sum(places[first:first + tied])
        out[colour] = total // tied
    return out


def final_breakdown(position: Position) -> dict[str, tuple[int, int, int]]:
    """Per player ``(vp before, money VP, area VP)`` at the end of the game."""
    sizes = {p.colour: area_group(position, p.colour) for p in position.players}
    area = area_points(sizes)
    return {p.colour: (p.vp, money_points(p.money, p.power[2],
                                          p.faction == "druiden" and DRUID_EXCHANGE_AT_END),
                       area[p.colour]) for p in position.players}


def final_scores(position: Position) -> dict[str, int]:
    """Every player's final score (the position after everyone passed in round 5)."""
    return {colour: sum(parts) for colour, parts in final_breakdown(position).items()}


def winners(scores: dict[str, int]) -> tuple[str, ...]:
    """The players with the most VP; [D33] tied players share the win."""
    best = max(scores.values())
    return tuple(colour for colour, points in scores.items() if points == best)
