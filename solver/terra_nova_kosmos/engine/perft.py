"""Counting legal turns (perft) of the player to move, to depth 1 or 2."""

from __future__ import annotations

from dataclasses import dataclass

from solver.terra_nova_kosmos.engine import legal, rounds
from solver.terra_nova_kosmos.position import Position


@dataclass(frozen=True)
class Perft:
    """Canonical legal turns, the distinct positions they lead to, and (depth 2) the
    turn pairs: each turn followed by every legal turn of the next player."""

    turns: int
    positions: int
    pairs: int | None = None


def perft(position: Position, depth: int = 1) -> Perft:
    """Count the canonical legal turns of ``to_move`` in a game, the exchanges before
    passing and the Druiden triples included (depth 2: and the replies)."""
    children = legal.successors(position, game=True)
    distinct = {child for _, child in children}
    pairs = None
    if depth >= 2:
        pairs = 0
        for _, child in children:
            nxt = rounds.advance(child)
            if not rounds.game_over(nxt):
                pairs += len(legal.successors(nxt, game=True))
    return Perft(len(children), len(distinct), pairs)

