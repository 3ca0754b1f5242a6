"""Exhaustive search of the last-round, best-round and last-rounds puzzles: every
canonical line of P, memoised.

Depth-first over :func:`~solver.terra_nova_kosmos.engine.legal.successors`
with a table of solved states; every line is finite (each non-pass action
spends money or power, places a piece from a finite supply, uses a
once-per-round slot or advances a bounded track). A node or time cap raises
TimeoutError.
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from dataclasses import replace
from typing import Any

from solver.cpsat import interrupt
from solver.terra_nova_kosmos.engine import bestround, lastrounds, legal
from solver.terra_nova_kosmos.engine.actions import apply_exchange
from solver.terra_nova_kosmos.engine.lastround import Result, check_puzzle, score
from solver.terra_nova_kosmos.notation import Exchange, Turn
from solver.terra_nova_kosmos.position import Position
from solver.terra_nova_kosmos.rules import ROUNDS


def _state(position: Position) -> Hashable:
    """What can differ between positions of one search."""
    return (position.round, position.landscape, position.buildings, position.players,
            position.power_actions_used, position.bonus_display)


def _pruned(position: Position) -> list[tuple[Turn, Position]]:
    """The successors, passing only with one tile: in the last round the new bonus tile
    does nothing but bring its coins, so the first tile with the most coins is the best
    (more money never scores less; others and turns are the same). Its pass turns with
    Seebären river towns stay."""
    children = legal.successors(position)
    passes = [(turn, child) for turn, child in children if turn.action.name == "pass"]
    rest = [(turn, child) for turn, child in children if turn.action.name != "pass"]
    if passes:
        coins: dict[str | None, int] = dict(position.bonus_display)
        best = max(passes, key=lambda tc: coins.get(tc[0].action.tile, 0))[0].action.tile
        rest += [(turn, child) for turn, child in passes if turn.action.tile == best]
    return rest


CLOCK_EVERY = 8
"""Expanded states between two looks at the clock. A state costs up to about 2 ms
(64 took up to 0.12 s on tnk-4x5-hard-puzzle at load 10): a capped search ends
within about 15 ms of its cap."""


class _Search:
    def __init__(self, root: Position, cap: float | None, max_nodes: int | None):
        self.root = root
        self.deadline = None if cap is None else time.perf_counter() + cap
        self.max_nodes = max_nodes
        self.nodes = 0
        self.memo: dict[Hashable, tuple[tuple[int, ...], Any, tuple[Turn, ...]]] = {}

    def children(self, position: Position) -> list[tuple[Turn, Position]]:
        """The turns to try from ``position``."""
        return _pruned(position)

    def leaf(self, after_pass: Position) -> tuple[Any, tuple[Turn, ...]]:
        """The result of a line whose pass leads to ``after_pass`` (one turn counted), and
        the turns that follow the pass (none: the line ends there)."""
        return score(self.root, after_pass, 1), ()

    def rank(self, result: Any, turns: int) -> tuple[int, ...]:
        """The order of results, ``turns`` from the node on: larger is better."""
        return (result.value, -result.others, -turns)

    def tick(self) -> None:
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise TimeoutError(f"more than {self.max_nodes} nodes")
        if self.nodes % CLOCK_EVERY == 0:
            interrupt.check()  # Ctrl-C
            if self.deadline is not None and time.perf_counter() > self.deadline:
                raise TimeoutError("time cap reached")

    def best(self, position: Position) -> tuple[tuple[int, ...], Any, tuple[Turn, ...]]:
        """Best (key, result, line) from ``position`` on."""
        state = _state(position)
        found = self.memo.get(state)
        if found is not None:
            key, result, line = found
        else:
            self.tick()
            key, result, line = None, None, ()
            for turn, child in self.children(position):
                if turn.action.name == "pass":
                    sub, rest = self.leaf(child)
                    sub_line: tuple[Turn, ...] = (turn,) + rest
                else:
                    _, sub, rest = self.best(child)
                    sub_line = (turn,) + rest
                candidate = self.rank(sub, len(sub_line))
                if key is None or candidate > key:
                    key, result, line = candidate, sub, sub_line
            self.memo[state] = (key, result, line)
        return key, result, line


def solve_last_round(position: Position, cap: float | None = None,
                     max_nodes: int | None = None) -> tuple[Result, list[Turn]]:
    """The optimal line of the last-round puzzle and its result.

    ``cap``: seconds, ``max_nodes``: expanded states; past either, TimeoutError.
    """
    check_puzzle(position)
    search = _Search(position, cap, max_nodes)
    _, result, line = search.best(position)
    final = Result(result.value, result.others, len(line), result.final)
    return final, list(line)


def count_states(position: Position) -> int:
    """Distinct states the search expands (for benchmarks and tests)."""
    search = _Search(position, None, None)
    search.best(position)
    return search.nodes


class _BestRound(_Search):
    """The best-round search: every pass tile, results of :mod:`.bestround`."""

    def __init__(self, root: Position, objective: str, cap: float | None,
                 max_nodes: int | None):
        super().__init__(root, cap, max_nodes)
        self.objective = objective

    def children(self, position: Position) -> list[tuple[Turn, Position]]:
        """Every canonical turn; a Druiden pass ends exchanging every power triple for
        VP (2 VP beat 3 money + power under both objectives)."""
        out = legal.successors(position)
        colour = position.to_move
        if position.player(colour).faction != "druiden":
            return out
        closed = []
        for turn, child in out:
            triples = child.player(colour).power[2] // 3
            if turn.action.name == "pass" and triples:
                exchange = Exchange("*", triples)
                turn = replace(turn, after=turn.after + (exchange,))
                child = apply_exchange(child, colour, exchange)
            closed.append((turn, child))
        return closed

    def leaf(self, after_pass: Position) -> tuple[Any, tuple[Turn, ...]]:
        return bestround.score(self.root, after_pass, 1, self.objective), ()

    def rank(self, result: Any, turns: int) -> tuple[int, ...]:
        return replace(result, turns=turns).key


def solve_best_round(position: Position, objective: str | None = None,
                     cap: float | None = None, max_nodes: int | None = None
                     ) -> tuple[bestround.Result, list[Turn]]:
    """The optimal line of the best-round puzzle under ``objective`` (default: the
    position's) and its result. ``cap``/``max_nodes`` as for :func:`solve_last_round`."""
    bestround.check_puzzle(position)
    search = _BestRound(position, objective or bestround.objective_of(position), cap,
                        max_nodes)
    _, result, line = search.best(position)
    return replace(result, turns=len(line)), list(line)


class _LastRounds(_Search):
    """The last-rounds search: a pass before the last round takes any display tile and
    any exchange after it (:func:`~.legal.passes_before_income`); the next round is
    searched from the position :func:`~.lastrounds.between_rounds` makes, memoised
    like the first (transpositions across the rounds share it)."""

    def children(self, position: Position) -> list[tuple[Turn, Position]]:
        if position.round == ROUNDS:
            return _pruned(position)
        rest = [(turn, child) for turn, child in legal.successors(position)
                if turn.action.name != "pass"]
        return rest + legal.passes_before_income(position)

    def leaf(self, after_pass: Position) -> tuple[Any, tuple[Turn, ...]]:
        if after_pass.round == ROUNDS:
            return super().leaf(after_pass)
        _, result, line = self.best(lastrounds.between_rounds(after_pass))
        return result, line


def solve_last_rounds(position: Position, cap: float | None = None,
                      max_nodes: int | None = None) -> tuple[Result, list[Turn]]:
    """The optimal line of the last-rounds puzzle (both passes in it) and its result.
    ``cap``/``max_nodes`` as for :func:`solve_last_round`."""
    lastrounds.check_puzzle(position)
    search = _LastRounds(position, cap, max_nodes)
    _, result, line = search.best(position)
    return Result(result.value, result.others, len(line), result.final), list(line)
