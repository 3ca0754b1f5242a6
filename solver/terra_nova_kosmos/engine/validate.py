"""Rule-level checks of a position read from a file (the reader checked its structure)."""

from __future__ import annotations

from solver.errors import InputError
from solver.terra_nova_kosmos.engine import board as topo
from solver.terra_nova_kosmos.position import Position
from solver.terra_nova_kosmos.rules import QUALIFYING_COMPONENT_ILLEGAL


def validate(position: Position) -> None:
    """InputError when the position breaks a rule: [D27] a tile-less component that
    qualifies for a town while its owner has town tiles left."""
    if not QUALIFYING_COMPONENT_ILLEGAL:
        return
    for player in position.players:
        pending = topo.pending_towns(position, player.colour)
        if pending and player.town_tiles:
            cell = position.grid.name(min(pending[0]))
            raise InputError(f"{player.colour}'s buildings at {cell} qualify for a town "
                             "but have no town tile [D27]", place=f"cell {cell}")
