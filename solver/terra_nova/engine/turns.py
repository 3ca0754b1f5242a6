"""The Terra Nova (2006) reference rules engine: the public API.

Everything a user or another module needs: :func:`validate`, :func:`legal_turns`,
:func:`apply_turn`, :func:`play_line`, :func:`perft`, :func:`game_over`. The
work happens on mutable arrays in :mod:`solver.terra_nova.engine.turngen` and
:mod:`solver.terra_nova.engine.regions`; :class:`~solver.terra_nova.position.Position`
objects are only built here, at the boundary.

Every project decision ([D] in the rules doc) is a named constant or a
:class:`Rules` option: :data:`STONE_SUPPLY`, :data:`EMPTY_SUPPLY_BLOCKS_STONES`,
:data:`~solver.terra_nova.engine.turngen.NO_RETURN`,
:data:`~solver.terra_nova.engine.turngen.REMOVED_PIECE_UNMOVED`,
:data:`PASS_WITHOUT_LEGAL_SEQUENCE`, :data:`PUZZLES_IGNORE_GAME_END` and
``Rules.player_out_ends_game``.

The CP-SAT model must not import this module's legality or scoring code; it
uses the engine only to replay its answers.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from solver.errors import InputError
from solver.geometry.bitboard import bits
from solver.terra_nova.engine.regions import (
    MULTIPLIER,
    Region,
    components,
    tables_for,
)
from solver.terra_nova.engine.turngen import (
    ACTIONS_PER_TURN,
    EMPTY_CELL,
    NO_RETURN,
    PIECE_BASE,
    REMOVED_PIECE_UNMOVED,
    STONE_CELL,
    InternalAction,
    TurnState,
)
from solver.terra_nova.notation import Move, Stone, Turn, format_action, format_turn
from solver.terra_nova.position import (
    EMPTY,
    PIECES_PER_PLAYER,
    STONE,
    TOTAL_STONES,
    Position,
)

__all__ = [
    "ACTIONS_PER_TURN",
    "EMPTY_SUPPLY_BLOCKS_STONES",
    "NO_RETURN",
    "PASS_WITHOUT_LEGAL_SEQUENCE",
    "GAME_ENDS_WITH_SUPPLY",
    "PUZZLES_IGNORE_GAME_END",
    "REMOVED_PIECE_UNMOVED",
    "STONE_SUPPLY",
    "IllegalTurn",
    "LineOutcome",
    "Perft",
    "Rules",
    "ScoredRegion",
    "TurnOutcome",
    "apply_turn",
    "ending",
    "game_over",
    "legal_turns",
    "perft",
    "play_line",
    "validate",
]

STONE_SUPPLY = TOTAL_STONES
"""Stones in the common supply at the start of a game (stones on board + left = this)."""

EMPTY_SUPPLY_BLOCKS_STONES = True
"""[D] With ``stones_left == 0`` no stone can be placed (no stone action exists)."""

PASS_WITHOUT_LEGAL_SEQUENCE = True
"""[D] A player whose pieces can move but who has no legal action sequence (every one
breaks the no-return rule) passes, exactly like a player who cannot move."""

GAME_ENDS_WITH_SUPPLY = True
"""[D] (c) The game ends after the turn that places the last stone of the supply:
no further stone, so no further region or point, is possible (the rulebooks are
silent; without this, pieces could move about forever)."""

PUZZLES_IGNORE_GAME_END = True
"""[D] Inside a closing puzzle the game-end rules are not applied: the player keeps
playing turns (a turn with no movable piece is a pass)."""


@dataclass(frozen=True)
class Rules:
    """Rule options of a game (the [D] options that can be switched)."""

    player_out_ends_game: bool = False
    """[D] Italian rulebook: the game also ends as soon as a player has no piece left."""


class IllegalTurn(InputError):
    """A turn that breaks the rules; ``place`` names the action (``action 2 '#d5'``)."""


@dataclass(frozen=True)
class ScoredRegion:
    """A region scored during a turn."""

    cells: tuple[int, ...]
    landscapes: int
    value: int
    winners: tuple[str, ...]
    """Colours with the most pieces in it (empty when it held no piece)."""
    share: int
    """Points each winner got: ``value // len(winners)``."""
    pieces: tuple[tuple[str, int], ...] = ()
    """The pieces each player had in it when it closed (players without one left out),
    in the order of the players: what decided the majority."""
    action: int = 0
    """The action of the turn (1-based) whose stone closed it."""


@dataclass(frozen=True)
class TurnOutcome:
    """What a turn did."""

    position: Position
    gained: dict[str, int]
    """Points each colour gained in the turn (every player is a key)."""
    removed: tuple[int, ...]
    """Cells whose pieces were removed by scoring, in order of removal."""
    regions: tuple[ScoredRegion, ...]
    actions: int


@dataclass(frozen=True)
class LineOutcome:
    """What a line of turns by the player to move (a closing puzzle) did."""

    position: Position
    points: int
    """Points the player to move gained over all turns."""
    others: int
    """Points all other players gained together."""
    actions: int
    turn_points: tuple[int, ...]
    turn_others: tuple[int, ...]
    outcomes: tuple[TurnOutcome, ...]


@dataclass(frozen=True)
class Perft:
    """Perft counts of one position: legal turns and distinct resulting positions."""

    turns: int
    positions: int


# ------------------------------------------------------------------ boundary


def turn_state(position: Position, region_cache: dict | None = None) -> TurnState:
    """A fresh :class:`TurnState` for the player to move in ``position``."""
    tables = tables_for(position.board)
    bit = tables.bit
    pieces = [0] * len(position.players)
    stones = 0
    index = {c: p for p, c in enumerate(position.players)}
    for i, occ in enumerate(position.occupant):
        if occ == STONE:
            stones |= bit[i]
        elif occ != EMPTY:
            pieces[index[occ]] |= bit[i]
    return TurnState(tables, tuple(pieces), stones, position.stones_left,
                     index[position.to_move], region_cache)


def position_from(position: Position, pieces: Sequence[int], stones: int, stones_left: int,
                  gains: Sequence[int], *, advance: bool) -> Position:
    """``position`` with the board replaced by bitboards and ``gains`` added to the scores.

    The result carries no puzzle or solution (they belonged to the old position).
    """
    occupant = [EMPTY] * position.grid.size
    for p, bb in enumerate(pieces):
        for cell in bits(bb):
            occupant[cell] = position.players[p]
    for cell in bits(stones):
        occupant[cell] = STONE
    to_move = position.to_move
    if advance:
        k = position.players.index(to_move)
        to_move = position.players[(k + 1) % len(position.players)]
    return Position(
        board=position.board, players=position.players, to_move=to_move,
        occupant=tuple(occupant),
        scores=tuple(s + g for s, g in zip(position.scores, gains, strict=True)),
        stones_left=stones_left, puzzle=None, solution=None,
    )


def after_state(position: Position, state: TurnState, *, advance: bool) -> Position:
    """The Position a :class:`TurnState` currently holds (gains added to the scores)."""
    pieces, stones, left = state.snapshot()
    return position_from(position, pieces, stones, left, state.gains, advance=advance)


def to_turn(actions: Sequence[InternalAction]) -> Turn:
    """Internal actions → notation objects."""
    return tuple(Move(a[0], a[1]) if isinstance(a, tuple) else Stone(a) for a in actions)


def to_internal(turn: Turn) -> tuple[InternalAction, ...]:
    """Notation objects → internal actions."""
    return tuple((a.src, a.dst) if isinstance(a, Move) else a.cell for a in turn)


# ---------------------------------------------------------------- validation


def validate(position: Position) -> None:
    """Raise InputError when ``position`` cannot occur under the rules.

    Checks the material (pieces per player, stones) and that no piece stands
    inside a region (scoring would have removed it). No rule option bears on it.
    """
    n_players = len(position.players)
    limit = PIECES_PER_PLAYER[n_players]
    for colour in position.players:
        count = len(position.pieces_of(colour))
        if count > limit:
            raise InputError(f"{colour} has {count} pieces; at most {limit} with "
                             f"{n_players} players", place="board")
    on_board = len(position.stones)
    if on_board + position.stones_left > STONE_SUPPLY:
        raise InputError(f"{on_board} stones on the board and {position.stones_left} left: "
                         f"more than the {STONE_SUPPLY} stones of the game", place="stones_left")
    if any(s < 0 for s in position.scores):
        raise InputError("scores cannot be negative", place="scores")
    tables = tables_for(position.board)
    stones = sum(tables.bit[i] for i in position.stones)
    grid = position.grid
    for comp in components(tables, stones):
        if not isinstance(comp, Region):
            continue
        for cell in comp.cells:
            if position.occupant[cell] not in (EMPTY, STONE):
                raise InputError(
                    f"a {position.occupant[cell]} piece inside a region ({len(comp.cells)} "
                    f"cells, {comp.landscapes} landscape(s)); scoring would have removed it",
                    place=f"cell {grid.name(cell)}",
                )


# ------------------------------------------------------------------ turns


def legal_turns(position: Position) -> Iterator[Turn]:
    """Every legal turn of the player to move, as distinct action sequences.

    Deterministic order: moves by own piece (in board order), direction
    (HEX_DIRECTIONS) and distance, then stones by cell. Yields ``()`` (pass)
    alone when no legal turn exists.
    """
    state = turn_state(position)
    for actions in state.turns():
        yield to_turn(actions)


def perft(position: Position) -> Perft:
    """Count the legal turns (action sequences) and the distinct positions they lead to.

    A pass counts as one turn leading to one position.
    """
    turns, positions = turn_state(position).perft()
    return Perft(turns, positions)


def apply_turn(position: Position, turn: Turn, *, advance: bool = True) -> TurnOutcome:
    """Play ``turn`` for the player to move; IllegalTurn naming the action if it is illegal.

    With ``advance`` the next player is to move afterwards; without, the same
    player (closing puzzles).
    """
    state = turn_state(position)
    grid = position.grid
    colour = position.to_move
    regions: list[ScoredRegion] = []
    removed: list[int] = []

    if not turn:
        if state.can_move():
            example = next(turn_state(position).turns())
            if example:
                raise IllegalTurn(f"{colour} can still move (e.g. "
                                  f"'{format_turn(to_turn(example), grid)}'), so may not pass",
                                  place="turn 'pass'")
        return TurnOutcome(after_state(position, state, advance=advance),
                           dict.fromkeys(position.players, 0), (), (), 0)

    for number, action in enumerate(turn, start=1):
        place = f"action {number} '{format_action(action, grid)}'"
        if number > ACTIONS_PER_TURN:
            raise IllegalTurn(f"a turn has at most {ACTIONS_PER_TURN} actions", place=place)
        if isinstance(action, Move):
            _check_move(state, action, position, place)
            state.do_move(action.src, action.dst)
        else:
            if number == 1:
                raise IllegalTurn("the first action of a turn must be a move", place=place)
            _check_stone(state, action.cell, grid, place)
            before = tuple(state.pieces)
            token = state.do_stone(action.cell)
            if token is not None:
                removed.extend(c for c, _ in token[4])
                for region in state.regions_at(action.cell):
                    regions.append(_scored(region, before, position.players, number))

    last = f"action {len(turn)} '{format_action(turn[-1], grid)}'"
    if len(turn) < ACTIONS_PER_TURN and state.has_action():
        raise IllegalTurn(f"the turn ends after {len(turn)} action(s) but a legal action is "
                          f"left; a turn has {ACTIONS_PER_TURN} actions unless none is left",
                          place=last)
    if state.returned():
        back = next(e[1] for e in state.moved if e[0] == e[1])
        raise IllegalTurn(f"the piece that started on {grid.name(back)} ends the turn there "
                          f"again (no return)", place=last)
    gained = dict(zip(position.players, state.gains, strict=True))
    return TurnOutcome(after_state(position, state, advance=advance), gained,
                       tuple(removed), tuple(regions), len(turn))


def _scored(region: Region, pieces: Sequence[int], players: Sequence[str],
            action: int) -> ScoredRegion:
    counts = [(bb & region.mask).bit_count() for bb in pieces]
    most = max(counts)
    winners = tuple(players[p] for p, c in enumerate(counts) if most and c == most)
    value = len(region.cells) * MULTIPLIER[region.landscapes]
    held = tuple((players[p], c) for p, c in enumerate(counts) if c)
    return ScoredRegion(region.cells, region.landscapes, value, winners,
                        value // len(winners) if winners else 0, held, action)


def _check_move(state: TurnState, move: Move, position: Position, place: str) -> None:
    grid = position.grid
    if state.cell[move.src] != PIECE_BASE + state.me:
        raise IllegalTurn(f"no {position.to_move} piece on {grid.name(move.src)}", place=place)
    for ray in state.t.rays[move.src]:
        if move.dst in ray:
            for cell in ray[: ray.index(move.dst) + 1]:
                if state.cell[cell] != EMPTY_CELL:
                    what = "a stone" if state.cell[cell] == STONE_CELL else "a piece"
                    raise IllegalTurn(f"{grid.name(cell)} holds {what}; a move may not land on "
                                      f"or jump over pieces or stones", place=place)
            return
    raise IllegalTurn(f"{grid.name(move.dst)} is not on a straight line from "
                      f"{grid.name(move.src)}", place=place)


def _check_stone(state: TurnState, cell: int, grid, place: str) -> None:
    if EMPTY_SUPPLY_BLOCKS_STONES and state.stones_left <= 0:
        raise IllegalTurn("no stones left in the supply", place=place)
    if state.cell[cell] != EMPTY_CELL:
        raise IllegalTurn(f"{grid.name(cell)} is not free", place=place)
    if not any(cell in state.t.neighbours[e[1]] for e in state.moved):
        raise IllegalTurn("not adjacent to a piece that moved this turn", place=place)


def play_line(position: Position, turns: Sequence[Turn]) -> LineOutcome:
    """Play ``turns`` in a row for the player to move (closing puzzle: nobody else moves).

    Game-end rules are not applied (:data:`PUZZLES_IGNORE_GAME_END`). Errors name
    the turn: ``turn 2, action 1 'c4-f4'``.
    """
    outcomes = []
    current = position
    me = position.to_move
    for number, turn in enumerate(turns, start=1):
        try:
            outcome = apply_turn(current, turn, advance=False)
        except IllegalTurn as exc:
            raise IllegalTurn(exc.message, place=f"turn {number}, {exc.place}") from None
        outcomes.append(outcome)
        current = outcome.position
    points = tuple(o.gained[me] for o in outcomes)
    others = tuple(sum(v for c, v in o.gained.items() if c != me) for o in outcomes)
    return LineOutcome(current, sum(points), sum(others), sum(o.actions for o in outcomes),
                       points, others, tuple(outcomes))


# ------------------------------------------------------------------ game end


def movable_players(position: Position) -> list[str]:
    """Colours that have at least one piece able to move."""
    nbrs = position.grid.neighbours
    occ = position.occupant
    return [c for c in position.players
            if any(occ[nb] == EMPTY for cell in position.pieces_of(c) for nb in nbrs[cell])]


def board_divided(position: Position) -> bool:
    """End condition (a): every component of the board is a region."""
    tables = tables_for(position.board)
    stones = sum(tables.bit[i] for i in position.stones)
    return all(isinstance(comp, Region) for comp in components(tables, stones))


def game_over(position: Position, rules: Rules = Rules()) -> bool:  # noqa: B008 (frozen)
    """Whether the game has ended in ``position`` (checked after every turn).

    (a) every component is a region; (b) at most one player has a piece that
    can move; [D] (c) the stone supply is empty (:data:`GAME_ENDS_WITH_SUPPLY`);
    with ``rules.player_out_ends_game`` also when a player has no piece.
    """
    return ending(position, rules) is not None


def ending(position: Position, rules: Rules = Rules()) -> str | None:  # noqa: B008 (frozen)
    """Why the game has ended in ``position`` (:func:`game_over`'s conditions in words),
    or None while it goes on."""
    if len(movable_players(position)) <= 1:
        return "at most one player can still move a piece"
    if board_divided(position):
        return "the board is divided into regions"
    if GAME_ENDS_WITH_SUPPLY and position.stones_left == 0:
        return "the stone supply is empty"
    if rules.player_out_ends_game and any(not position.pieces_of(c) for c in position.players):
        return "a player has no piece left"
    return None
