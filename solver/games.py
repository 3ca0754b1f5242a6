"""The registry: every game boardsat knows, and the rules shared by all of them.

Drivers (the CLI, ``solver.bench``, ``solver.puzzlegen``) find games here and
talk to them through :class:`solver.protocol.Game`; they never name a game.
Adding a game = one package under ``solver/`` with a ``game.py`` adapter, and
one line in :data:`GAMES` (see ARCHITECTURE.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from solver.errors import InputError
from solver.protocol import Game
from solver.rift_valley.game import GAME as RIFT_VALLEY
from solver.terra_nova.game import GAME as TERRA_NOVA
from solver.terra_nova_kosmos.game import GAME as TERRA_NOVA_KOSMOS
from solver.tomlfile import load_toml, place_of

GAMES: dict[str, Game] = {game.key: game for game in (TERRA_NOVA, RIFT_VALLEY,
                                                   TERRA_NOVA_KOSMOS)}
"""Every game by file key, in the order help texts and choices list them."""


def get(key: str) -> Game:
    """The game with file key ``key`` (KeyError when unknown)."""
    return GAMES[key]


def game_of(path: str | Path) -> Game:
    """The game named by the ``game`` key of the file at ``path``; InputError if missing/unknown."""
    data, text = load_toml(path)
    key = data.get("game")
    if key is None:
        raise InputError("missing key 'game' (one of: " + ", ".join(GAMES) + ")", path=path)
    if not isinstance(key, str) or key not in GAMES:
        raise InputError(
            f"unknown game {key!r} (one of: {', '.join(GAMES)})", path=path,
            place=place_of(text, "game"),
        )
    return GAMES[key]


def all_kinds() -> tuple[str, ...]:
    """Every puzzle kind of every game, in registry order (``generate --kind`` choices)."""
    return tuple(kind for game in GAMES.values() for kind in game.kinds)


def offering(command: str) -> list[Game]:
    """The games that offer ``command`` (e.g. ``perft``)."""
    return [game for game in GAMES.values() if command in game.options]


def require_command(game: Game, command: str, path: Path) -> None:
    """InputError when ``game`` does not offer ``command``."""
    if command not in game.options:
        keys = ", ".join(g.key for g in offering(command))
        raise InputError(f"'{command}' is for {keys} positions, this file is {game.key}",
                         path=path)


def check_options(game: Game, command: str, given: dict[str, Any], path: Path | None) -> None:
    """The one rule for options another game's files take: ``--draws is for Rift Valley files``.

    ``given`` holds the options present on the command line (in their order there);
    every command checks them here (``solve``, ``verify``, ``perft``, ``play``,
    ``generate`` — the last with no file).
    """
    accepted = game.options.get(command, frozenset())
    for name in given:
        if name in accepted:
            continue
        owners = [g.short for g in GAMES.values() if name in g.options.get(command, ())]
        option = "--" + name.replace("_", "-")
        if not owners:
            raise InputError(f"{option} does not apply to {game.short}", path=path)
        raise InputError(f"{option} is for {' or '.join(owners)} files, not {game.short}",
                         path=path)
