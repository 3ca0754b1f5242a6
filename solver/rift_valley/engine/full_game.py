"""The full Rift Valley game: simultaneous draws, boards passed left, game end, ranking.

Seating: ``players[i]`` starts in front of ``boards[i]``, whose rift is assigned
their colour (``rift_owner``). In round ``r`` (0-based) player ``i`` has board
``(i - r) mod n`` in front of them: after each round every board goes to the left
neighbour, the next player in the list. Every board is in front of exactly one
player per round, so the simultaneous draws of a round are applied one by one.

- Round 0 is on the starting boards, and the first element there must be a stop
  away from animals (the engine's first-stop rule).
- The end is triggered when, after a round, at least END_TRIGGER_BOARDS[n] boards
  carry MAX_TENTS_PER_BOARD tents. Play goes on until every player has had one
  more turn on their starting board: rounds up to the next multiple of ``n``.
  In those final rounds a player may pass.
- A player with no legal element passes. Termination: every draw takes at least
  one free open or rift cell of its board (a stop or tent its cell, a trail at
  least one cell between its two stops, which are never orthogonally adjacent),
  so only finitely many draws can ever happen. Project decision: if a whole cycle of ``n``
  rounds passes without any draw, every player has seen every board unchanged and
  nothing can change any more: the game ends there (``ended_by = "blocked"``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from solver.errors import InputError
from solver.rift_valley.engine.draws import apply_draw, legal_draws, score, validate
from solver.rift_valley.engine.scoring import Score
from solver.rift_valley.notation import Draw, DrawStop, DrawTent
from solver.rift_valley.position import COLOURS, Board, Position
from solver.rift_valley.rules import (
    DEFAULT_RULES,
    END_TRIGGER_BOARDS,
    MAX_PLAYERS,
    MAX_TENTS_PER_BOARD,
    MIN_PLAYERS,
    Rules,
)

Policy = Callable[[Position, str, list[Draw], bool, random.Random], Draw | None]
"""``policy(position, colour, legal draws, may_pass, rng)`` → a draw, or None to pass.

Called only when at least one draw is legal; may return None only when ``may_pass``.
"""


@dataclass(frozen=True)
class Turn:
    """What ``player`` did on board ``board`` (index into the game's boards); None = pass."""

    player: str
    board: int
    draw: Draw | None


@dataclass(frozen=True)
class GameResult:
    """A finished game: final boards, scores per board and in total, ranking, the rounds."""

    players: tuple[str, ...]
    boards: tuple[Position, ...]
    board_scores: tuple[dict[str, Score], ...]
    scores: dict[str, int]
    ranking: tuple[str, ...]
    rounds: tuple[tuple[Turn, ...], ...]
    ended_by: str
    """``"tents"`` (the end trigger) or ``"blocked"`` (nobody could draw for a whole cycle)."""


KIND_WEIGHTS = {"trail": 4.0, "stop": 2.0, "tent": 2.0, "idle tent": 0.25}
"""Relative odds the random policy gives each kind of draw available to it; an *idle*
tent is one next to none of the drawer's connected stops (it scores nothing yet)."""


def random_policy(position: Position, colour: str, draws: list[Draw], may_pass: bool,
                  rng: random.Random) -> Draw | None:
    """A random player that prefers trails: pick a kind of draw by KIND_WEIGHTS among the
    kinds available, then one draw of that kind uniformly. In the final stage it passes
    rather than lower its own score."""
    grid = position.grid
    own = position.of(colour)
    connected = {end for trail in own.trails for end in trail.ends}
    kinds: dict[str, list[Draw]] = {}
    for draw in draws:
        if isinstance(draw, DrawTent):
            useful = any(nb in connected for nb in grid.touching[draw.cell])
            kinds.setdefault("tent" if useful else "idle tent", []).append(draw)
        else:
            kinds.setdefault("stop" if isinstance(draw, DrawStop) else "trail", []).append(draw)
    names = [name for name in KIND_WEIGHTS if name in kinds]
    kind = rng.choices(names, weights=[KIND_WEIGHTS[name] for name in names])[0]
    choice = rng.choice(kinds[kind])
    if may_pass:
        before = score(position, colour).total
        if score(apply_draw(position, colour, choice), colour).total < before:
            return None
    return choice


def start_positions(boards: Sequence[Board | Position], players: Sequence[str]) -> list[Position]:
    """Each player's starting board as a position whose rift (and puzzle player) is theirs."""
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise InputError(f"{len(players)} players; the game takes {MIN_PLAYERS} to {MAX_PLAYERS}")
    for colour in players:
        if colour not in COLOURS:
            raise InputError(f"unknown colour {colour!r} (colours: {', '.join(COLOURS)})")
    if len(set(players)) != len(players):
        raise InputError("each player needs a different colour")
    if len(boards) != len(players):
        raise InputError(f"{len(boards)} boards for {len(players)} players: one board each")
    out = []
    for board, colour in zip(boards, players, strict=True):
        if isinstance(board, Board):
            out.append(Position(board, rift_owner=colour, player=colour))
        else:
            out.append(board.replace(rift_owner=colour, player=colour, draws=None,
                                     first_stop_rule=False, solution=None))
    return out


def rank_players(board_totals: Mapping[str, Sequence[int]]) -> tuple[str, ...]:
    """Players by total score; ties go to the better best single board, then the next best…

    Players still tied keep their order in ``board_totals``.
    """
    def key(colour: str) -> tuple[int, list[int]]:
        totals = board_totals[colour]
        return sum(totals), sorted(totals, reverse=True)
    return tuple(sorted(board_totals, key=key, reverse=True))


def play_game(boards: Sequence[Board | Position], players: Sequence[str], rng: random.Random,
              rules: Rules = DEFAULT_RULES, policy: Policy = random_policy) -> GameResult:
    """Play one full game; ``players[i]`` starts on ``boards[i]`` (see the module doc)."""
    positions = start_positions(boards, players)
    for position in positions:
        validate(position, rules)
    n = len(players)
    rounds: list[tuple[Turn, ...]] = []
    final_round: int | None = None  # last round of the final stage, once triggered
    idle_rounds = 0
    ended_by = "tents"
    while True:
        number = len(rounds)
        may_pass = final_round is not None
        turns = []
        for i, colour in enumerate(players):
            b = (i - number) % n
            position = positions[b]
            draws = list(legal_draws(position, colour, rules, first=number == 0))
            draw = policy(position, colour, draws, may_pass, rng) if draws else None
            if draw is None and draws and not may_pass:
                raise ValueError("the policy passed outside the final stage")
            if draw is not None:
                positions[b] = apply_draw(position, colour, draw, rules, first=number == 0)
            turns.append(Turn(colour, b, draw))
        rounds.append(tuple(turns))
        idle_rounds = 0 if any(t.draw is not None for t in turns) else idle_rounds + 1
        if final_round is None:
            full = sum(1 for p in positions
                       if sum(len(e.tents) for _, e in p.elements) >= MAX_TENTS_PER_BOARD)
            if full >= END_TRIGGER_BOARDS[n]:
                final_round = (number // n + 1) * n
            elif idle_rounds >= n:
                ended_by = "blocked"
                break
        elif number >= final_round:
            break
    board_scores = tuple({c: score(p, c) for c in players} for p in positions)
    totals = {c: [s[c].total for s in board_scores] for c in players}
    return GameResult(
        players=tuple(players),
        boards=tuple(positions),
        board_scores=board_scores,
        scores={c: sum(t) for c, t in totals.items()},
        ranking=rank_players(totals),
        rounds=tuple(rounds),
        ended_by=ended_by,
    )
