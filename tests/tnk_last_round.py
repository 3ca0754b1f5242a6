"""Small last-round positions of Terra Nova (KOSMOS) for the model's tests."""

from __future__ import annotations

from typing import Any

from solver.terra_nova_kosmos.fileformat import parse_position
from solver.terra_nova_kosmos.position import Position


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f'"{k}" = {_toml(v)}' for k, v in value.items()) + " }"
    return str(value)


def last_round(board: str, factions: dict[str, str],
               players: dict[str, dict[str, Any]] | None = None, **top: Any) -> Position:
    """Round 5, the first colour to move, everyone else passed. ``board`` is rows of
    3-char tokens; ``players`` per colour overrides (money, power, bonus, …)."""
    colours = list(factions)
    top = {"to_move": colours[0], "start": colours[1], "round": 5,
           "round_tiles": ["r-spade2", "r-kontor3", "r-palace5", "r-ship2", "r-house2"],
           "power_actions_used": [], "bonus_display": {"b-money6": 1, "b-house": 2},
           "passed": colours[1:]} | top
    lines = ['game = "terra-nova-kosmos"', f"players = {_toml(colours)}",
             "factions = { " + ", ".join(f"{c} = \"{f}\"" for c, f in factions.items()) + " }"]
    lines += [f"{key} = {_toml(value)}" for key, value in top.items()]
    lines += ['board = """', board.strip("\n"), '"""']
    held = ("b-ship", "b-kontor", "b-palace", "b-reach", "b-m3p3")
    for seat, colour in enumerate(colours):
        table = {"vp": 20, "money": 0, "power": [4, 4, 0], "shipping": 0,
                 "bonus": held[seat],
                 "town_tiles": ["t6g5", "t9", "t8p6", "tship"]} | (players or {}).get(colour, {})
        lines.append(f"[player.{colour}]")
        lines += [f"{key} = {_toml(value)}" for key, value in table.items()]
    return parse_position("\n".join(lines) + "\n", "test.toml")
