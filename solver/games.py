"""Which game a position file holds (its ``game`` key). Knows names only, no rules."""

from __future__ import annotations

from pathlib import Path

from solver.errors import InputError
from solver.tomlfile import load_toml, place_of

GAMES: tuple[str, ...] = ("terra-nova", "rift-valley")


def game_of(path: str | Path) -> str:
    """The ``game`` named by the file at ``path``; InputError if missing or unknown."""
    data, text = load_toml(path)
    game = data.get("game")
    if game is None:
        raise InputError("missing key 'game' (one of: " + ", ".join(GAMES) + ")", path=path)
    if game not in GAMES:
        raise InputError(
            f"unknown game {game!r} (one of: {', '.join(GAMES)})", path=path,
            place=place_of(text, "game"),
        )
    return game
