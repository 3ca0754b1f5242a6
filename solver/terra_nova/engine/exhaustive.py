"""Exact exhaustive search with the reference engine: the oracle and benchmark baseline.

:func:`best_turn` answers best-turn puzzles, :func:`best_closing` closing puzzles
(``max-points`` and ``min-turns``), both by walking every legal turn with the
engine's make/unmake :class:`~solver.terra_nova.engine.turngen.TurnState`. The pruning
is exact (see each function); ties keep the first line in the engine's
deterministic turn order.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from solver.cpsat import interrupt
from solver.errors import PuzzleError
from solver.terra_nova.engine.turngen import ACTIONS_PER_TURN, TurnState
from solver.terra_nova.engine.turns import to_turn, turn_state
from solver.terra_nova.notation import Turn
from solver.terra_nova.position import Position

CHECK_EVERY = 256
"""Nodes between two looks at the clock when a time cap is set. 2,048 nodes took up to
0.12 s (median 0.024 s) on full-board closings at load 10; 256 keep a capped search
within about 15 ms of its cap, for a clock read per ~3 ms of search."""


@dataclass
class Exhaustive:
    """Result of an exhaustive search.

    ``key`` is the full objective tuple: best-turn ``(points, others)``; closing
    max-points ``(points, others, actions)``; min-turns ``(turns_used, actions)``.
    """

    key: tuple[int, ...]
    line: list[Turn]
    nodes: int = 0
    wall_s: float = 0.0


@dataclass
class SearchClock:
    """Counts search nodes; raises TimeoutError past ``time_cap`` seconds or ``node_cap`` nodes,
    :class:`~solver.cpsat.interrupt.Interrupted` after Ctrl-C."""

    time_cap: float | None = None
    node_cap: int | None = None
    start: float = field(default_factory=time.perf_counter)
    nodes: int = 0

    def tick(self, count: int = 1) -> None:
        before = self.nodes
        self.nodes += count
        if self.node_cap is not None and self.nodes > self.node_cap:
            raise TimeoutError(f"exhaustive search passed its budget of {self.node_cap} nodes")
        if before // CHECK_EVERY != self.nodes // CHECK_EVERY:
            interrupt.check()  # Ctrl-C
            if self.time_cap is not None and time.perf_counter() - self.start > self.time_cap:
                raise TimeoutError(f"exhaustive search passed its {self.time_cap:g} s time cap "
                                   f"after {self.nodes} nodes")

    @property
    def wall(self) -> float:
        return time.perf_counter() - self.start


Final = tuple[tuple[tuple[int, ...], int, int], tuple[int, ...]]
"""A final position: the board snapshot and the points each player gained."""


class OneTurnSearch:
    """Depth-first search for the best single turn of a TurnState's player.

    Rank compared: ``(points, -others)`` or, with ``count_actions``, ``(points,
    -others, -actions)``. Besides the first best line it keeps up to
    ``keep_finals`` distinct final positions (board and gains) reaching the best
    rank, for uniqueness checks. Exact pruning: a last action that is a move
    gains nothing, so every legal final move of a two-action prefix has the
    prefix's value; only the first ``max(1, keep_finals)`` of them are examined.
    """

    def __init__(self, state: TurnState, clock: SearchClock, count_actions: bool,
                 keep_finals: int = 0) -> None:
        self.s = state
        self.clock = clock
        self.count_actions = count_actions
        self.keep_finals = keep_finals
        self.best: tuple | None = None
        self.line: tuple = ()
        self.finals: dict[Final, tuple] = {}

    def run(self) -> tuple[tuple, tuple]:
        """Search every turn; return the best rank and the first line reaching it."""
        s = self.s
        for move in s.moves():
            token = s.do_move(*move)
            self._node(1, (move,))
            s.undo_move(*move, token)
        if self.best is None:
            self._consider(())
        assert self.best is not None, "the pass was considered"
        return self.best, self.line

    def _consider(self, done: tuple) -> None:
        s = self.s
        gains = s.gains
        others = sum(gains) - gains[s.me]
        rank = (gains[s.me], -others) + ((-len(done),) if self.count_actions else ())
        if self.best is None or rank > self.best:
            self.best, self.line, self.finals = rank, done, {}
        if rank == self.best and len(self.finals) < self.keep_finals:
            self.finals.setdefault((s.snapshot(), tuple(gains)), done)

    def _node(self, depth: int, done: tuple) -> None:
        s = self.s
        self.clock.tick()
        if depth == ACTIONS_PER_TURN:
            if not s.returned():
                self._consider(done)
            return
        had = False
        last = depth == ACTIONS_PER_TURN - 1
        legal_last = 0
        for move in s.moves():
            had = True
            token = s.do_move(*move)
            if not last:
                self._node(depth + 1, done + (move,))
            elif not s.returned():
                self._consider(done + (move,))
                legal_last += 1
            s.undo_move(*move, token)
            if legal_last >= max(1, self.keep_finals):
                break
        for stone in s.stone_targets():
            had = True
            stone_token = s.do_stone(stone)
            self._node(depth + 1, done + (stone,))
            s.undo_stone(stone, stone_token)
        if not had and not s.returned():
            self._consider(done)


def best_turn(position: Position, *, time_cap: float | None = None) -> Exhaustive:
    """The best turn for the player to move: most points, then fewest points to others.

    ``key = (points, others)``. A player without a legal turn passes: key ``(0, 0)``.
    """
    clock = SearchClock(time_cap)
    rank, line = OneTurnSearch(turn_state(position), clock, count_actions=False).run()
    return Exhaustive((rank[0], -rank[1]), [to_turn(line)], clock.nodes, clock.wall)


def best_closing(position: Position, turns: int | None, objective: str = "max-points",
                 target: int | None = None, *, time_cap: float | None = None,
                 node_cap: int | None = None) -> Exhaustive:
    """Solve a closing puzzle: the player to move plays ``turns`` turns, nobody else moves.

    ``max-points`` (``turns`` required): key ``(points, others, actions)`` —
    maximise own points, then minimise others', then actions. ``min-turns``:
    key ``(turns_used, actions)`` for reaching ``target`` points; ``turns`` (if
    given) caps the horizon; PuzzleError when the target cannot be reached.
    Game-end rules are not applied inside the puzzle. TimeoutError past ``time_cap``
    seconds or ``node_cap`` search nodes.
    """
    clock = SearchClock(time_cap, node_cap)
    key: tuple[int, ...]
    if objective == "max-points":
        if turns is None or turns < 1:
            raise PuzzleError("a max-points closing puzzle needs turns >= 1")
        search = _MaxPoints(position, clock)
        rank, line = search.value(search.root, turns)
        key = (rank[0], -rank[1], -rank[2])
    elif objective == "min-turns":
        if target is None or target < 1:
            raise PuzzleError("a min-turns closing puzzle needs a target of at least 1 point")
        key, line = _min_turns(position, turns, target, clock)
    else:
        raise PuzzleError(f"unknown objective {objective!r}")
    return Exhaustive(key, [to_turn(t) for t in line], clock.nodes, clock.wall)


Snapshot = tuple[tuple[int, ...], int, int]


class _MaxPoints:
    """Memoised search over (board snapshot, turns left) for max-points closing puzzles.

    Exact pruning: (1) the value of the remaining turns depends only on the board
    (pieces, stones, supply), not on how it was reached, so it is memoised per
    snapshot; (2) among the turns from one board that lead to the same next board,
    only the best-ranked one can be part of an optimal line, because the
    objective ``(points, -others, -actions)`` is a sum over turns and lexicographic
    order is preserved under adding the same suffix.
    """

    def __init__(self, position: Position, clock: SearchClock) -> None:
        first = turn_state(position)
        self.tables, self.me, self.cache = first.t, first.me, first.cache
        self.root: Snapshot = first.snapshot()
        self.clock = clock
        self.memo: dict[tuple[Snapshot, int], tuple[tuple, list]] = {}

    def _state(self, snap: Snapshot) -> TurnState:
        pieces, stones, left = snap
        return TurnState(self.tables, pieces, stones, left, self.me, self.cache)

    def value(self, snap: Snapshot, turns: int) -> tuple[tuple, list]:
        """Best ``(points, -others, -actions)`` over ``turns`` turns from ``snap``, and a line."""
        memo_key = (snap, turns)
        if memo_key in self.memo:
            return self.memo[memo_key]
        state = self._state(snap)
        if turns == 1:
            rank, turn = OneTurnSearch(state, self.clock, count_actions=True).run()
            result = (rank, [turn])
        else:
            successors: dict[Snapshot, tuple[tuple, tuple]] = {}
            gains = state.gains
            for acts in state.turns():
                self.clock.tick()
                rank = (gains[self.me], gains[self.me] - sum(gains), -len(acts))
                nxt = state.snapshot()
                if nxt not in successors or rank > successors[nxt][0]:
                    successors[nxt] = (rank, acts)
            best: tuple | None = None
            line: list = []
            for nxt, (rank, acts) in successors.items():
                sub_rank, sub_line = self.value(nxt, turns - 1)
                total = tuple(a + b for a, b in zip(rank, sub_rank, strict=True))
                if best is None or total > best:
                    best, line = total, [acts, *sub_line]
            assert best is not None, "every position has a turn, if only the pass"
            result = (best, line)
        self.memo[memo_key] = result
        return result


def _min_turns(position: Position, cap: int | None, target: int,
               clock: SearchClock) -> tuple[tuple[int, int], list]:
    """Breadth-first over turns: fewest turns to ``target`` points, then fewest actions.

    Exact pruning: a (board, points so far) state already reached after fewer
    turns is dropped — any finish from the later copy is matched by the earlier
    one in fewer turns. Points are capped at ``target`` (more cannot matter).
    Among copies in one layer the fewest actions so far is kept (the rest of the
    line does not depend on how the state was reached).
    """
    first = turn_state(position)
    tables, me, cache = first.t, first.me, first.cache
    root = (first.snapshot(), 0)
    seen = {root}
    frontier: dict = {root: 0}
    parent: dict = {root: None}
    used = 0
    while frontier and (cap is None or used < cap):
        used += 1
        layer: dict = {}
        for key, actions in frontier.items():
            (pieces, stones, left), points = key
            state = TurnState(tables, pieces, stones, left, me, cache)
            for acts in state.turns():
                clock.tick()
                nxt = (state.snapshot(), min(target, points + state.gains[me]))
                if nxt in seen:
                    continue
                total = actions + len(acts)
                if nxt not in layer or total < layer[nxt]:
                    layer[nxt] = total
                    parent[nxt] = (key, acts)
        hits = [(a, k) for k, a in layer.items() if k[1] >= target]
        if hits:
            actions, key = min(hits, key=lambda h: h[0])
            line = []
            while parent[key] is not None:
                key, acts = parent[key]
                line.append(acts)
            return (used, actions), line[::-1]
        seen.update(layer)
        frontier = layer
    horizon = f"within {cap} turn(s)" if cap is not None else "at all"
    raise PuzzleError(f"{target} points cannot be reached {horizon}")
