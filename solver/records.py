"""Game records replayed by the engine, and turns played on a position (``boardsat apply``).

A record (:mod:`solver.recordfile`) names its game; the game reads the start
position, each turn in its notation, and plays it with its engine
(:class:`solver.protocol.Game`). A bad record is one line naming the file and the
turn: ``game.toml: turn 3 (line 17): yellow's turn 'c4-f4 #d5' is illegal: action 2
'#d5': not adjacent to a piece that moved this turn``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solver.errors import InputError
from solver.games import game_of, require_command
from solver.protocol import Game, GameRecord
from solver.recordfile import (
    POSITION_KEY,
    RecordedTurn,
    is_record,
    read_record_file,
    record_text,
    start_path,
    turn_place,
)
from solver.tomlfile import load_toml, place_of


def replay(path: Path, command: str = "apply", upto: int | None = None) -> GameRecord:
    """The record at ``path`` replayed by its game's engine; with ``upto``, only the turns
    before turn ``upto`` (1 to the number of turns + 1). ``command`` names what the
    record is for, in the message when its game offers no records."""
    game = game_of(path)
    require_command(game, command, path)
    data, _ = load_toml(path)
    if not is_record(data):
        raise InputError("a position file, not a game record (a start 'position' and "
                         "[[turn]] tables: docs/formats.md; `play --record` writes one)",
                         path=path)
    record = read_record_file(path)
    position = _start(game, record.position, record.text, path)
    total = len(record.turns)
    if upto is not None and not 1 <= upto <= total + 1:
        raise InputError(f"--upto {upto}: the record has {total} turn(s), so 1 to {total + 1}",
                         path=path)
    entries = record.turns if upto is None else record.turns[:upto - 1]
    positions, turns, texts = [position], [], []
    for number, entry in enumerate(entries, start=1):
        turn, position = play(game, position, entry, number, path, record.text)
        positions.append(position)
        turns.append(turn)
        texts.append(game.format_turn(positions[-2], turn))
    return GameRecord(game.key, path, tuple(positions), tuple(turns),
                      tuple(e.player for e in entries), tuple(texts),
                      tuple(e.note for e in entries))


def _start(game: Game, start: Any, text: str, path: Path) -> Any:
    """The record's start position: the file it names (relative to the record) or its
    inline ``[position]`` table."""
    if isinstance(start, str):
        file = start_path(start, path)
        try:
            return game.load_position(file)
        except InputError as exc:
            raise InputError(f"its start position: {exc}", path=path,
                             place=place_of(text, POSITION_KEY)) from None
    return game.inline_position(start, text, path)


def play(game: Game, position: Any, entry: RecordedTurn, number: int, path: Path,
         text: str = "") -> tuple[Any, Any]:
    """``(turn, position after it)`` for turn ``number`` of a record (``text``: the
    record's, to name the turn's line); InputError naming the turn when it cannot be
    played, and why."""
    def fail(message: str) -> InputError:
        return InputError(message, path=path, place=turn_place(text, number))

    over = game.game_over(position)
    if over is not None:
        raise fail(f"the game is over ({over}); no turn can follow")
    mover = game.to_move(position)
    if entry.player != mover:
        raise fail(f"it is {mover}'s turn, the record says {entry.player!r}")
    said = f"{mover}'s turn {entry.turn.strip()!r}"
    try:
        turn = game.parse_turn(position, entry.turn)
    except InputError as exc:
        raise fail(f"{said} does not read: {_why(exc)}") from None
    try:
        return turn, game.play_turn(position, turn)
    except InputError as exc:
        raise fail(f"{said} is illegal: {_why(exc)}") from None


def _why(error: InputError) -> str:
    """An error's place and message, without a file."""
    return f"{error.place}: {error.message}" if error.place else error.message


@dataclass(frozen=True)
class Applied:
    """Turns played on a position: the game, the position after them and the turns."""

    game: Game
    position: Any
    texts: tuple[str, ...]
    players: tuple[str, ...]


def apply_turns(path: Path, turns: Sequence[str], upto: int | None = None) -> Applied:
    """The position after ``turns`` (one string per turn, the game's notation) are played
    on the position in ``path``: a position file, or a record (its position before turn
    ``upto``, else after its last turn). A turn that cannot be played names its number
    among ``turns``."""
    data, _ = load_toml(path)
    if is_record(data):
        record = replay(path, "apply", upto)
        game, position = game_of(path), record.positions[-1]
    else:
        if upto is not None:
            raise InputError("--upto is for a record (its position before turn N); this is "
                             "a position file", path=path)
        game = game_of(path)
        require_command(game, "apply", path)
        position = game.load_position(path)
    texts, players = [], []
    for number, text in enumerate(turns, start=1):
        mover = game.to_move(position)
        try:
            turn, after = play(game, position, RecordedTurn(mover, text), number, path)
        except InputError as exc:
            raise exc.located(place=None) if exc.place is None else InputError(
                exc.message, path=path, place=f"{exc.place} of the command line") from None
        texts.append(game.format_turn(position, turn))
        players.append(mover)
        position = after
    return Applied(game, position, tuple(texts), tuple(players))


def canonical(path: Path) -> str:
    """The canonical text of the record at ``path`` (it replays first): written back, a
    record written by boardsat is the same text again."""
    record = read_record_file(path)
    replayed = replay(path, "apply")
    game = game_of(path)
    turns = [RecordedTurn(p, t, n) for p, t, n in
             zip(replayed.players, replayed.texts, replayed.notes, strict=True)]
    if record.inline:
        return record_text(game.key, game.write_position(replayed.positions[0]), turns,
                           inline=True)
    return record_text(game.key, str(record.position), turns)
