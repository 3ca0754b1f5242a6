"""Small Terra Nova (KOSMOS) positions for tests, written as TOML and read back."""

from __future__ import annotations

import random
from typing import Any

from solver.terra_nova_kosmos.engine import playout
from solver.terra_nova_kosmos.fileformat import (
    BOARDS_DIR,
    default_factions,
    parse_position,
    read_board,
)
from solver.terra_nova_kosmos.notation import parse_turn
from solver.terra_nova_kosmos.position import Position


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + " }"
    return str(value)


def make(board: str, factions: dict[str, str], players: dict[str, dict[str, Any]] | None = None,
         faction_data: dict[str, dict[str, Any]] | None = None, **top: Any) -> Position:
    """A position: ``board`` rows of 3-char tokens, ``factions`` colour → faction id,
    per-player tables, ``[faction_data.<id>]`` overrides, and top-level keys (defaults:
    round 1, first player to move)."""
    colours = list(factions)
    top = {"to_move": colours[0], "round": 1,
           "round_tiles": ["r-house2", "r-kontor3", "r-palace5", "r-town5", "r-ship2"],
           "bonus_display": {"b-money6": 1, "b-house": 2, "b-ship": 0}} | top
    lines = ['game = "terra-nova-kosmos"', f"players = {_toml(colours)}",
             f"factions = {_toml(factions)}"]
    lines += [f"{key} = {_toml(value)}" for key, value in top.items()]
    lines += ['board = """', board.strip("\n"), '"""']
    for colour, table in (players or {}).items():
        lines.append(f"[player.{colour}]")
        lines += [f"{key} = {_toml(value)}" for key, value in table.items()]
    for faction, table in (faction_data or {}).items():
        lines.append(f"[faction_data.{faction}]")
        lines += [f"{key} = {_toml(value)}" for key, value in table.items()]
    return parse_position("\n".join(lines) + "\n", "test.toml")


def play(position: Position, text: str, colour: str | None = None) -> Position:
    """Apply one turn in notation for ``colour`` (default: ``to_move``); same mover after."""
    from solver.terra_nova_kosmos.engine.actions import apply_turn
    if colour is not None:
        position = position.replace(to_move=colour)
    return apply_turn(position, parse_turn(text, position.grid))


def random_factions(rng: random.Random, count: int) -> list:
    """``count`` factions of distinct colours, at random."""
    return playout.random_factions(rng, count, default_factions())


def random_last_round(seed: int, players: int | None = None) -> Position:
    """A seeded last-round puzzle position on the base board."""
    board, landscape = read_board(BOARDS_DIR / "base.toml")
    return playout.last_round_position(board, landscape, default_factions(), seed, players)
