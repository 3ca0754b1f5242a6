"""Static geometry for the Terra Nova CP-SAT model: reach, stone cells, candidate regions.

Everything here is computed from the start position and the horizon alone, before
any variable exists, and only ever *removes* impossible things from the model:

* :attr:`Geometry.dist` — how many straight moves an own piece needs at least to
  reach a cell. An own piece can stand on a cell at time ``tau`` (after ``tau``
  action steps) only if ``dist <= tau``.
* :attr:`Geometry.stone_steps` — for each step, the cells a stone can go to.
* :attr:`Geometry.candidates` — every connected set of cells that can become a
  region within the horizon (see :func:`candidate_regions` for why the list is
  complete).

This module knows the board's shape and what blocks a straight line; it holds
no rule about turns or scoring (those are constraints in ``model.py``).
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property

from solver.geometry.bitboard import bits, mask_of
from solver.terra_nova.model.cutflow import VertexCut
from solver.terra_nova.position import EMPTY, STONE, Position

ACTIONS_PER_TURN = 3
"""Action steps per turn in the model (a turn has at most 3 actions)."""

STONES_PER_TURN = 2
"""At most 2 stones per turn: the first action is always a move (shapes MPP, MMP, MPM)."""

MAX_REGION_LANDSCAPES = 3
"""A component with at most this many landscapes is a region."""

LANDSCAPE_MULTIPLIER = {1: 3, 2: 2, 3: 1}
"""Points per region cell by number of landscapes in the region."""

UNREACHABLE = 1 << 30

Witnesses = dict[int, tuple[int, int, int]]
"""Sink set -> ``(s0, reach, cut)``: a small cut found for the set ``s0`` (``_CutSearch``)."""


@dataclass(frozen=True)
class Candidate:
    """A set of cells that may become a region within the horizon.

    ``cells`` is connected and holds no stone now; ``boundary`` is every non-stone
    cell adjacent to it (all must become stones for it to close). ``others`` is the
    number of pieces of each player (in ``Position.players`` order) inside; other
    players never move, and their pieces there can only leave by this very region
    closing, so these counts are constants.
    """

    cells: tuple[int, ...]
    boundary: tuple[int, ...]
    landscapes: int
    others: tuple[int, ...]
    first_step: int = 0
    """The earliest action step whose stone can close it (:meth:`Geometry.first_close`)."""

    @property
    def value(self) -> int:
        """Points the region is worth: cells times 3, 2 or 1 for 1, 2 or 3 landscapes."""
        return len(self.cells) * LANDSCAPE_MULTIPLIER[self.landscapes]


class Geometry:
    """Precomputed reach, stone cells and candidate regions for ``turns`` turns of ``position``."""

    def __init__(self, position: Position, turns: int,
                 check: Callable[[], None] | None = None,
                 largest: int | None = None) -> None:
        self.position = position
        self.turns = turns
        self.check = check  # called often by the candidate search; raises to stop it
        self.steps = ACTIONS_PER_TURN * turns
        grid = position.grid
        self.n = grid.size
        self.me = position.to_move
        occ = position.occupant
        self.stone0 = tuple(o == STONE for o in occ)
        self.own0 = tuple(o == self.me for o in occ)
        self.other0 = tuple(o not in (EMPTY, STONE, self.me) for o in occ)
        self.static_block = tuple(s or o for s, o in zip(self.stone0, self.other0, strict=True))
        self.max_stones = min(STONES_PER_TURN * turns, position.stones_left)
        self.largest = self.max_stones if largest is None else min(largest, self.max_stones)
        """Candidates are listed up to this many boundary cells (all when ``max_stones``):
        with fewer, :attr:`candidates` holds exactly the candidates of at most this many,
        and a line closes no other one only if it places at most this many stones (a
        closing region's boundary cells all take stones of the line)."""
        self._matched: dict[int, int] = {}

    # ------------------------------------------------------------------ reach

    @cached_property
    def dist(self) -> tuple[int, ...]:
        """Fewest straight moves from any own piece to each cell (UNREACHABLE if none).

        Sound over-approximation of where own pieces can be: lines are blocked
        only by things that never leave a cell an own piece could enter — stones
        (never removed) and other players' pieces (they never move in a puzzle, and
        one is removed only when its region closes, after which the region is
        walled by stones and unreachable). Own pieces are ignored as blockers.
        """
        dist = [UNREACHABLE] * self.n
        starts = [c for c in range(self.n) if self.own0[c]]
        for k, layer in enumerate(self._move_layers(starts)):
            for c in layer:
                dist[c] = k
        return tuple(dist)

    def own_possible(self, cell: int, tau: int) -> bool:
        """Whether an own piece can stand on ``cell`` after ``tau`` action steps."""
        return self.dist[cell] <= min(tau, self.steps)

    def most_own_closing(self, cand: Candidate, step: int) -> int:
        """Most own pieces ``cand`` can hold when the stone of ``step`` closes it.

        Every boundary cell needs a stone, one per step, the last at ``step``; so of
        the steps before it at most ``step - (|boundary| - 1)`` are moves, and each
        brings at most one piece in to the own pieces that stood there at the start.
        """
        start = sum(1 for c in cand.cells if self.own0[c])
        return start + max(0, step - (len(cand.boundary) - 1))

    @cached_property
    def piece_reach(self) -> tuple[tuple[int, ...], ...]:
        """For each own piece at the start (ascending cells): ``masks[k]`` = the cells
        it can stand on after at most ``k`` of its own moves, ``k = 0..steps``, as
        bitboards.

        The same over-approximation as :attr:`dist`, per piece: its moves are blocked
        only by stones and other players' pieces of the start position.
        """
        out = []
        for start in range(self.n):
            if not self.own0[start]:
                continue
            masks, seen = [], 0
            for layer in self._move_layers([start], self.steps):
                seen |= mask_of(layer)
                masks.append(seen)
            masks += [seen] * (self.steps + 1 - len(masks))
            out.append(tuple(masks))
        return tuple(out)

    def _move_layers(self, starts: list[int], limit: int | None = None) -> Iterator[list[int]]:
        """The cells first reached after 0, 1, 2, … straight moves from ``starts`` (at
        most ``limit`` moves), a list per number of moves; moves are blocked only by
        :attr:`static_block` (see :attr:`dist`)."""
        rays = self.position.grid.rays
        seen = set(starts)
        layer = list(starts)
        moves = 0
        while layer:
            yield layer
            if limit is not None and moves == limit:
                return
            moves += 1
            nxt = []
            for c in layer:
                for ray in rays[c]:
                    for cell in ray:
                        if self.static_block[cell]:
                            break
                        if cell not in seen:
                            seen.add(cell)
                            nxt.append(cell)
            layer = nxt

    def entry_costs(self, cand: Candidate) -> tuple[int, ...]:
        """Fewest moves each own piece outside ``cand`` needs to stand inside it, ascending
        (pieces that cannot reach it within the horizon left out; see :attr:`piece_reach`)."""
        inside = mask_of(cand.cells)
        costs = []
        for masks in self.piece_reach:
            if masks[0] & inside:
                continue
            for k in range(1, len(masks)):
                if masks[k] & inside:
                    costs.append(k)
                    break
        return tuple(sorted(costs))

    @cached_property
    def reach(self) -> tuple[int, ...]:
        """Cells an own piece can stand on at some time of the horizon, ascending."""
        return tuple(c for c in range(self.n) if self.own_possible(c, self.steps))

    def surely_movable(self, step: int) -> bool:
        """Whether some own piece can surely move after ``step`` action steps of the
        horizon, whatever they were (so the turn cannot end or be passed then).

        Sound test: ``step + 1`` own pieces that no candidate region holds (so none is
        removed) each have ``step + 1`` free neighbours now (no stone, no piece). An
        action fills at most one cell and moves at most one piece, so after ``step``
        of them one of these pieces has not moved and still has a free neighbour: a
        one-cell move.
        """
        need = step + 1
        held = set().union(*(cand.cells for cand in self.candidates))
        nbrs = self.position.grid.neighbours
        occ = self.position.occupant
        safe = sum(1 for c in range(self.n) if self.own0[c] and c not in held
                   and sum(1 for b in nbrs[c] if occ[b] == EMPTY) >= need)
        return safe >= need

    # ------------------------------------------------------------------ stones

    @staticmethod
    def is_stone_step(step: int) -> bool:
        """A stone needs a piece moved earlier in the turn, so never at a turn's first step."""
        return step % ACTIONS_PER_TURN != 0

    def stones_possible_through(self, step: int) -> int:
        """Most stones that can have been placed in steps ``0..step`` (inclusive)."""
        turn, k = divmod(step, ACTIONS_PER_TURN)
        return min(STONES_PER_TURN * turn + k, self.position.stones_left)

    def stone_cells_at(self, step: int) -> tuple[int, ...]:
        """Cells where a stone can be placed at ``step``, ascending.

        A stone goes on a free cell next to a piece that moved earlier in the turn;
        such a piece stands at time ``step`` on a cell with ``dist <= step``, and at
        step 1 on a cell with ``dist == 1`` (:meth:`moved_possible`). Cells holding a
        stone or another player's piece are never free.
        """
        if not self.is_stone_step(step) or self.stones_possible_through(step) == 0:
            return ()
        nbrs = self.position.grid.neighbours
        return tuple(
            x for x in range(self.n)
            if not self.static_block[x] and any(self.moved_possible(c, step) for c in nbrs[x])
        )

    def moved_possible(self, cell: int, tau: int) -> bool:
        """Whether a piece that moved in the current turn can stand on ``cell`` after
        ``tau`` action steps: where an own piece can stand, and after the horizon's
        first step only where one straight move ends (the cells own pieces stood on
        were all occupied then)."""
        if tau == 1:
            return self.dist[cell] == 1
        return self.own_possible(cell, tau)

    @cached_property
    def stone_cells(self) -> tuple[int, ...]:
        """Cells where a stone can be placed at some step of the horizon, ascending."""
        cells: set[int] = set()
        for s in range(self.steps):
            cells.update(self.stone_cells_at(s))
        return tuple(sorted(cells))

    # ------------------------------------------------------------------ schedules

    @cached_property
    def _pairs(self) -> dict[int, frozenset[int]]:
        """Stone cells two stones of one turn can go to together, by cell.

        Two stones in one turn only come from the shape move, stone, stone: both
        lie next to the one piece that moved, so they share a neighbour on which
        an own piece can stand. In the horizon's first turn that piece has made one
        move from the start position, so the neighbour is one straight move from
        an own piece and not where an own piece stood (``dist == 1``); a one-turn
        horizon has no other turn.
        """
        nbrs = self.position.grid.neighbours
        out: dict[int, set[int]] = {x: set() for x in self.stone_cells}
        anchors = self.reach if self.turns > 1 else [c for c in self.reach if self.dist[c] == 1]
        for c in anchors:
            around = [x for x in nbrs[c] if x in out]
            for a in around:
                out[a].update(b for b in around if b != a)
        return {x: frozenset(v) for x, v in out.items()}

    @property
    def stone_pairs(self) -> dict[int, frozenset[int]]:
        """Stone cells whose stones can share one turn, by cell (see :attr:`_pairs`)."""
        return self._pairs

    def _matching(self, cells: tuple[int, ...]) -> int:
        """Most disjoint pairs of ``cells`` whose stones can share one turn."""
        return self._match(mask_of(cells))

    def _match(self, mask: int) -> int:
        """:meth:`_matching` of the cells of ``mask``, memoised (the search asks for the
        same sets again and again)."""
        known = self._matched.get(mask)
        if known is not None:
            return known
        size = mask.bit_count()
        best = 0
        if size >= 2:
            low = mask & -mask
            rest = mask ^ low
            best = self._match(rest)
            partners = rest & self._pair_masks.get(low.bit_length() - 1, 0)
            while partners and 2 * best < size - 1:
                b = partners & -partners
                partners ^= b
                best = max(best, 1 + self._match(rest ^ b))
        self._matched[mask] = best
        return best

    @cached_property
    def _pair_masks(self) -> dict[int, int]:
        """:attr:`_pairs` as bitboards."""
        return {x: mask_of(v) for x, v in self._pairs.items()}

    def may_share_turns(self, cells: int) -> bool:
        """Whether stones on the cells of bitboard ``cells`` (part of a boundary) can all
        be placed in time.

        A boundary ``B`` needs ``m(B) >= |B| - turns`` (:meth:`first_close`); adding a
        cell raises the pair count ``m`` by at most one, so a part ``X`` with
        ``m(X) < |X| - turns`` has no completion that fits.
        """
        size = cells.bit_count()
        if size <= self.turns:
            return True
        return self._match(cells) >= size - self.turns

    def first_close(self, boundary: tuple[int, ...]) -> int | None:
        """The earliest step at which a stone can complete ``boundary`` (None: never).

        Sound bound: by step ``s`` (turn ``t``) at most ``stones_possible_through(s)``
        stones exist, and a turn places two only as a pair sharing a neighbour
        (:attr:`_pairs`), one otherwise; so ``k`` new stones over ``t + 1`` turns need
        at least ``k - t - 1`` disjoint such pairs among them.
        """
        need = len(boundary)
        pairs = self._matching(boundary)
        for s in range(self.steps):
            if not self.is_stone_step(s) or self.stones_possible_through(s) < need:
                continue
            if pairs >= need - s // ACTIONS_PER_TURN - 1:
                return s
        return None

    # ------------------------------------------------------------------ regions

    @cached_property
    def candidates(self) -> tuple[Candidate, ...]:
        """Every region that can close within the horizon and matters (see module doc)."""
        return candidate_regions(self)

    @cached_property
    def most_region_value(self) -> int:
        """An upper bound on the value of every region that can form within the horizon,
        listed among :attr:`candidates` or not (0 when none can).

        A region that forms is connected, holds no stone now, lies in a component of
        non-stone cells that has 4+ landscapes now (the others are regions already,
        :func:`candidate_regions`), and has ``k <= 3`` landscapes, the set ``L``: so it
        lies in one component of that component's cells of landscapes in ``L``, and is
        worth its cells times ``LANDSCAPE_MULTIPLIER[k]``. The bound is the largest such
        component's size times the multiplier, over every set ``L`` of 1 to 3 landscapes.
        """
        grid = self.position.grid
        land = self.position.board.landscape_id
        free = mask_of(c for c in range(self.n) if not self.stone0[c])
        parts = _Parts(grid.neighbours, free, land)
        lands = sorted({land[c] for c in bits(parts.open_)})
        best = 0
        for k in range(1, MAX_REGION_LANDSCAPES + 1):
            for chosen in itertools.combinations(lands, k):
                cells = mask_of(c for c in bits(parts.open_) if land[c] in chosen)
                while cells:
                    part = parts.reach(cells & -cells, ~cells)
                    cells &= ~part
                    best = max(best, part.bit_count() * LANDSCAPE_MULTIPLIER[k])
        return best

    def restricted_to(self, keep: Iterable[int]) -> Geometry:
        """This geometry with only the candidates at the indices ``keep`` (reach, stone
        cells and caches shared): what a restricted closing model is built over."""
        view = copy.copy(self)
        view.candidates = tuple(self.candidates[i] for i in sorted(set(keep)))
        return view


def most_points_ever(position: Position) -> int:
    """An upper bound on the points the player to move can gain from ``position``, in
    any number of turns: 0 with an empty supply, else ``LANDSCAPE_MULTIPLIER[1]`` per cell
    of the components (of non-stone cells) that hold one of the player's pieces now.

    Points come only from regions formed by a stone, and a region scores for the
    player only with an own piece inside. A piece never passes a stone and stones stay
    for good, so each own piece stays in the component it stands in now (components
    only split); every region that ever scores for the player lies in one of those.
    A scored region is closed for good, so each cell scores at most once, at most at
    the largest multiplier.
    """
    if position.stones_left == 0:
        return 0
    grid = position.grid
    occ = position.occupant
    free = mask_of(c for c in range(grid.size) if occ[c] != STONE)
    parts = _Parts(grid.neighbours, free, position.board.landscape_id)
    held = 0
    for piece in position.pieces_of(position.to_move):
        if not held >> piece & 1:
            held |= parts.reach(1 << piece, 0)
    return held.bit_count() * LANDSCAPE_MULTIPLIER[1]


def cells_cap(candidates: Iterable[Candidate]) -> int:
    """A bound on the own points of any line that closes only some of ``candidates``:
    closed regions never share a cell (a closed region is closed for good), so each cell
    scores at most once, at most the largest multiplier of a candidate holding it.
    Without the LP CP-SAT's own bound can stay far above this."""
    multiplier: dict[int, int] = {}
    for c in candidates:
        each = c.value // len(c.cells)
        for cell in c.cells:
            multiplier[cell] = max(multiplier.get(cell, 0), each)
    return sum(multiplier.values())


def candidate_regions(geo: Geometry) -> tuple[Candidate, ...]:
    """All sets of cells that can become a region within the horizon and change anything.

    Completeness: a region that forms at some step is a component then — a connected
    set ``S`` of non-stone cells whose every neighbour outside ``S`` is a stone. Stones
    are never removed, so ``S`` holds no stone now; its neighbours that are not stones
    now (its *boundary*) must all receive a stone within the horizon, so the boundary
    lies in :attr:`Geometry.stone_cells` and has at most ``max_stones`` cells; and it
    has at most 3 landscapes. Every such set is enumerated (growth search below; for a
    one-turn horizon the direct search of :func:`_one_turn_cuts`), except sets whose
    boundary is empty (components now: an existing region, or a
    component with 4+ landscapes that can never be a region as a whole).

    With :attr:`Geometry.largest` below ``max_stones`` the budget is ``largest``: the
    same search lists exactly the sets of at most ``largest`` boundary cells.

    Dropped as impossible: sets whose boundary cannot be stoned in time
    (:meth:`Geometry.first_close`); each candidate keeps its earliest closing step.
    Dropped as irrelevant: sets with no other player's piece that no own piece can
    reach — closing them scores nothing and removes nothing.
    """
    grid = geo.position.grid
    nbrs = grid.neighbours
    land = geo.position.board.landscape_id
    players = geo.position.players
    budget = geo.largest
    if budget == 0:
        return ()
    cuttable = mask_of(geo.stone_cells)
    free = mask_of(c for c in range(geo.n) if not geo.stone0[c])
    reachable = mask_of(geo.reach)
    if geo.turns == 1:
        found = _one_turn_cuts(nbrs, free, cuttable, land, budget, geo.stone_pairs)
    else:
        search = _CutSearch(nbrs, free, cuttable, land, budget, geo.may_share_turns,
                            geo.check)
        found = []
        for seed in bits(free):
            found.extend(search.grow_from(seed))
    out = []
    occ = geo.position.occupant
    check = geo.check or (lambda: None)
    for inside, boundary in found:
        check()
        cells = tuple(bits(inside))
        counts = tuple(sum(1 for c in cells if occ[c] == colour) if colour != geo.me else 0
                       for colour in players)
        if not any(counts) and not inside & reachable:
            continue
        first = geo.first_close(tuple(bits(boundary)))
        if first is None:
            continue
        out.append(Candidate(cells, tuple(bits(boundary)), len({land[c] for c in cells}),
                             counts, first))
    return tuple(out)


def _one_turn_cuts(nbrs, free: int, cuttable: int, land, budget: int,
                   pairs: dict[int, frozenset[int]]) -> list[tuple[int, int]]:
    """The sets and boundaries (bitboards) :class:`_CutSearch` finds when the horizon is
    one turn, found directly: a boundary is then one stone cell, or two whose stones
    can share the turn (``pairs``, :attr:`Geometry.stone_pairs`), so each set is a part
    of the free cells left once those one or two cells are stoned. Every such part
    next to them with at most 3 landscapes, inside a component of 4+ landscapes now,
    is one (:class:`_Parts` finds them). Ordered by smallest cell, then bitboard.
    """
    parts = _Parts(nbrs, free, land)
    open_ = parts.open_
    found: dict[int, int] = {}
    # (cut, walk from): a part with both cells of a pair on its boundary is next to
    # each; a part next to one of them only is found with that cell alone
    cuts = [(1 << x, 1 << x) for x in bits(cuttable & open_)]
    if budget >= 2:
        cuts += [(1 << x | 1 << z, 1 << z) for x in bits(cuttable & open_)
                 for z in pairs.get(x, ()) if z > x and open_ >> z & 1]
    for cut, origin in cuts:
        near = parts.nbr_mask[origin.bit_length() - 1] & open_ & ~cut
        while near:
            part, region = parts.part(near & -near, cut)
            near &= ~part
            if region and part not in found:
                around = 0
                for c in bits(part):
                    around |= parts.nbr_mask[c]
                found[part] = around & ~part
    return sorted(found.items(), key=lambda item: ((item[0] & -item[0]).bit_length(), item[0]))


class _Parts:
    """The parts of the free cells once a few cells are cut out, and their landscapes.

    A walk goes outwards layer by layer and stops at the 4th landscape. It steps over
    whole *patches* (connected cells of one landscape) that hold no cut cell, so a
    part of many landscapes is left after a few patches whatever their size.
    """

    def __init__(self, nbrs, free: int, land) -> None:
        n = len(land)
        self.nbr_mask = [mask_of(nbrs[c]) & free for c in range(n)]
        self.land_masks = [mask_of(c for c in bits(free) if land[c] == lam)
                           for lam in sorted(set(land))]
        self.land_bit = [1 << land[c] for c in range(n)]
        self.patch = [0] * n  # the cells of each free cell's patch
        self.patch_around = [0] * n  # the free cells next to that patch, outside it
        for lam_cells in self.land_masks:
            todo = lam_cells
            while todo:
                patch = self.reach(todo & -todo, ~lam_cells)
                todo &= ~patch
                around = 0
                for c in bits(patch):
                    around |= self.nbr_mask[c]
                for c in bits(patch):
                    self.patch[c] = patch
                    self.patch_around[c] = around & ~patch
        self.open_ = 0
        todo = free
        while todo:
            comp = self.reach(todo & -todo, 0)
            todo &= ~comp
            if self.landscapes(comp) > MAX_REGION_LANDSCAPES:
                self.open_ |= comp

    def landscapes(self, cells: int) -> int:
        """How many landscapes the bitboard ``cells`` holds."""
        return sum(1 for mask in self.land_masks if cells & mask)

    def reach(self, start: int, blocked: int) -> int:
        """The free cells connected to bitboard ``start`` avoiding ``blocked``."""
        seen = todo = start
        while todo:
            low = todo & -todo
            todo ^= low
            new = self.nbr_mask[low.bit_length() - 1] & ~seen & ~blocked
            seen |= new
            todo |= new
        return seen

    def part(self, start: int, cut: int) -> tuple[int, bool]:
        """The part of the free cells minus ``cut`` holding bitboard cell ``start``, and
        whether it has at most 3 landscapes; when not, the cells seen when the walk
        stopped (all in that part)."""
        seen = layer = start
        lands = 0
        while layer:
            new = 0
            while layer:
                low = layer & -layer
                c = low.bit_length() - 1
                lands |= self.land_bit[c]
                patch = self.patch[c]
                if patch & cut:
                    new |= self.nbr_mask[c]
                    layer ^= low
                else:
                    seen |= patch
                    new |= self.patch_around[c]
                    layer &= ~patch
            if lands.bit_count() > MAX_REGION_LANDSCAPES:
                return seen, False
            layer = new & ~seen & ~cut
            seen |= layer
        return seen, True


class _CutSearch:
    """Enumerates connected sets whose free neighbourhood is a small set of cuttable cells.

    ``grow_from(seed)`` yields each set whose smallest cell is ``seed`` exactly once: the
    search keeps a growing set ``S`` (connected, contains ``seed``) and a set ``X`` of
    cells decided to be boundary; each undecided neighbour ``u`` of ``S`` goes either
    into ``S`` or into ``X``, and a set is reported when no undecided neighbour is left.
    Choices are forced when only one is allowed (``u < seed``, a 4th landscape, or
    ``u`` not cuttable). A branch is cut when the boundary cannot stay within budget:
    the final set contains ``S`` and must be separated by cuttable cells from every
    cell it cannot contain (cells below ``seed``; when ``S`` already has 3 landscapes,
    all cells of other landscapes; when it has fewer, all but ``3 - |L(S)|`` of the
    other landscapes), so a vertex max-flow above the remaining budget proves that no
    completion exists.

    Sets of cells are bitboards (Python ints, :mod:`solver.geometry.bitboard`); a
    reported set comes with its boundary, which is ``X`` then (``X`` only ever takes
    neighbours of ``S``, and no undecided neighbour is left).
    """

    def __init__(self, nbrs, free: int, cuttable: int, land, budget: int,
                 schedulable: Callable[[int], bool],
                 check: Callable[[], None] | None = None) -> None:
        self.check = check or (lambda: None)
        self.schedulable = schedulable
        self.free = free
        self.cuttable = cuttable
        self.land = land
        self.budget = budget
        n = len(land)
        self.nbr_mask = [mask_of(nbrs[c]) & free for c in range(n)]
        self.cut = VertexCut(nbrs, [bool(free >> c & 1) for c in range(n)],
                             [bool(cuttable >> c & 1) for c in range(n)])
        self.cells_of_land: dict[int, int] = {}
        for c in bits(free):
            self.cells_of_land[land[c]] = self.cells_of_land.get(land[c], 0) | 1 << c
        # the landscapes of each free cell's component, computed once
        self.lands_of: list[tuple[int, ...]] = [()] * n
        for c in bits(free):
            if not self.lands_of[c]:
                comp = self._component(c)
                lands = tuple(sorted({land[b] for b in bits(comp)}))
                for b in bits(comp):
                    self.lands_of[b] = lands

    def grow_from(self, seed: int) -> list[tuple[int, int]]:
        """The sets (and their boundaries) whose smallest cell is ``seed``, as bitboards."""
        self.seed = seed
        self.out: list[tuple[int, int]] = []
        # Only the component of the seed matters; its landscapes bound the search.
        if len(self.lands_of[seed]) <= MAX_REGION_LANDSCAPES:
            return []  # a region already (or part of one): nothing can change in it
        self.comp_lands = list(self.lands_of[seed])
        self.above = self.free & ~((2 << seed) - 1)
        self.below = self.free & ((1 << seed) - 1)
        self._rec(1 << seed, self.nbr_mask[seed], 0, {self.land[seed]}, {})
        return self.out

    def _component(self, seed: int) -> int:
        seen = 1 << seed
        todo = seen
        while todo:
            low = todo & -todo
            todo ^= low
            new = self.nbr_mask[low.bit_length() - 1] & ~seen
            seen |= new
            todo |= new
        return seen

    def _rec(self, s: int, around: int, x: int, lands: set[int], known: Witnesses) -> None:
        """Grow ``s`` (free neighbours ``around``) with boundary cells ``x`` decided;
        ``known``: the cuts found above this branch (:meth:`_hopeless`)."""
        self.check()
        while True:
            frontier = around & ~s & ~x
            if not frontier:
                if x:
                    self.out.append((s, x))
                return
            if len(lands) < MAX_REGION_LANDSCAPES:
                allowed = self.above
            else:
                allowed = 0
                for lam in lands:
                    allowed |= self.cells_of_land[lam]
                allowed &= self.above
            forced_x = frontier & ~allowed
            if forced_x & ~self.cuttable:
                return
            if (x | forced_x).bit_count() > self.budget:
                return
            if forced_x:
                x |= forced_x
                if not self.schedulable(x):
                    return
                continue
            forced_s = frontier & ~self.cuttable
            if forced_s:
                # Adding one forced cell at a time keeps the landscape rule exact.
                u = (forced_s & -forced_s).bit_length() - 1
                s |= 1 << u
                around |= self.nbr_mask[u]
                lands = lands | {self.land[u]}
                continue
            break
        open_ = frontier
        if x.bit_count() + open_.bit_count() > self.budget:
            hopeless, known = self._hopeless(s, around, x, lands, known)
            if hopeless:
                return
        low = open_ & -open_
        u = low.bit_length() - 1
        self._rec(s | low, around | self.nbr_mask[u], x, lands | {self.land[u]}, known)
        if x.bit_count() < self.budget and self.schedulable(x | low):
            self._rec(s, around, x | low, lands, known)

    # -------------------------------------------------------------- pruning

    def _hopeless(self, s: int, around: int, x: int, lands: set[int],
                  known: Witnesses) -> tuple[bool, Witnesses]:
        """True when no completion of ``s`` has a boundary within budget (see class doc),
        and the cuts that showed a sink set within budget, for the branches below.

        ``known`` maps a sink set to ``(s0, reach, cut)`` from a flow at an ancestor of
        this branch (:meth:`VertexCut.cut_within`, found for ``s0``). That cut, with the
        free neighbours of the cells ``s`` gained since outside ``reach``, still
        separates ``s`` from the sinks here: a path from a neighbour of a gained cell
        in ``reach`` continues a path from ``s0`` that did not cross the cut, a path
        from a neighbour of another gained cell starts on one of the added cells, and
        cells only ever leave the flow network down a branch. So when that cut's cells
        still in the network are cuttable and fit the room, no flow is needed, and the
        answer is the one the flow would give: the search tree stays the same. (Only
        True must be proven; a wrong False would cost time, never a candidate.)
        """
        room = self.budget - x.bit_count()
        blocked = s | x
        learned: Witnesses = {}

        def exceeds(sinks: int) -> bool:
            seen = known.get(sinks)
            if seen is not None:
                s0, reach, cut = seen
                for c in bits(s & ~s0 & ~reach):
                    cut |= self.nbr_mask[c]  # new start cells the cut may not cover
                cut &= ~blocked
                if not cut & ~self.cuttable and cut.bit_count() <= room:
                    return False
            found = self.cut.cut_within(s, around, x, sinks, room)
            if found is None:
                return True
            learned[sinks] = (s, *found)
            return False

        def result(hopeless: bool) -> tuple[bool, Witnesses]:
            return hopeless, ({**known, **learned} if learned else known)

        if exceeds(self.below):
            return result(True)
        others = [lam for lam in self.comp_lands if lam not in lands]
        allowed_more = MAX_REGION_LANDSCAPES - len(lands)
        if allowed_more == 0:
            sinks = self.below
            for lam in others:
                sinks |= self.cells_of_land[lam]
            return result(exceeds(sinks))
        too_far = 0
        for lam in others:
            if exceeds(self.below | self.cells_of_land[lam]):
                too_far += 1
                if too_far > allowed_more:
                    return result(True)
        return result(False)
