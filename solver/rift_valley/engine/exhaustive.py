"""Exact max-score search for Rift Valley puzzles, built on the reference engine's rules.

The test oracle for the CP-SAT model on small boards and the benchmark baseline.
It searches over *sets* of elements, never over orders, using these facts
(each one keeps the search exact):

1. Legality of a set does not depend on the drawing order, except that a trail
   needs its stops first and, under the first-stop rule, some new stop must be
   away from animals. Any legal set can be drawn as: that stop, the other stops,
   the trails, the tents.
2. A new stop no new trail ends at only costs 2 points and a draw, so removing it
   keeps the set legal and scores 2 more. Optimal sets therefore consist of
   trails, the new stops they end at, tents, and at most one *unconnected* new
   stop, drawn only to satisfy the first-stop rule when no connected new stop can.
3. Tents do not interact with each other except for the cell they take, and a
   tent's value (2 per connected own stop next to it) is fixed once the trails
   are chosen; the best tents are the most valuable free cells (greedy is exact).

So the search enumerates sets of candidate trails (depth-first over a fixed
candidate list, each trail's new end stops included in its cost) and completes
each set exactly with tents and, when needed, the first stop. Candidates are
sorted by an upper bound on the points each can add, and a branch stops when even
the best remaining candidates and tents cannot beat the best set found; before
descending into one candidate, the same bound is applied to the child (its gain
bound plus what the draws left after paying for it and its new stops can add).
See ``_Search._trail_gain_bound`` and ``_Search._bound`` for why the bounds are
sound; with one or two draws left only candidates that much budget can pay for are
scanned (``_Search._affordable``).
The answer is replayed through :func:`solver.rift_valley.engine.play_draws` and
re-scored.
"""

from __future__ import annotations

import time
from bisect import bisect_left
from dataclasses import dataclass

from solver.cpsat import interrupt
from solver.geometry.bitboard import bits, mask_of
from solver.rift_valley.engine.draws import Occupancy, play_draws, score, trail_problem, validate
from solver.rift_valley.notation import Draw, DrawStop, DrawTent, DrawTrail
from solver.rift_valley.position import OPEN, Position, Trail
from solver.rift_valley.rules import (
    ANIMAL_POINTS,
    DEFAULT_RULES,
    MAX_TENTS_PER_BOARD,
    TENT_POINTS_PER_STOP,
    TRAIL_AREA_CAP,
    UNCONNECTED_STOP_PENALTY,
    Rules,
)

MAX_STOPS_NEXT_TO_TENT = 4
"""A tent's 8 neighbours hold at most 4 stops of one colour (no two orthogonally adjacent)."""

_CLOCK_EVERY = 128
"""Search nodes between two looks at the clock. A node costs up to about 0.13 ms on
large boards under load (2,048 nodes took 0.2-0.3 s at load 9), so a check every 128
nodes ends a capped search within about 20 ms of its cap."""


@dataclass(frozen=True)
class Exhaustive:
    """The best score, draws reaching it in a legal order, search nodes and seconds."""

    value: int
    draws: list[Draw]
    nodes: int
    wall_s: float


@dataclass(frozen=True)
class _Candidate:
    trail: Trail
    interior: int  # bit mask of the cells between the end stops
    value: int  # capped area points
    animals: int  # bit mask of animal cells next to the trail
    gain_bound: int  # most points the trail can add (see _trail_gain_bound)
    base_bound: int  # the same without its animals


class _Search:
    """State of one exhaustive search (bit masks over cell indices)."""

    def __init__(self, position: Position, budget: int | None, rules: Rules,
                 time_cap: float | None):
        # the cap counts from here: building the candidates (0.4-0.5 s on large boards
        # under load) is part of the search's time
        self.deadline = None if time_cap is None else time.monotonic() + time_cap
        self.position, self.rules = position, rules
        self.colour = colour = position.player
        board, grid = position.board, position.grid
        self.grid = grid
        occ = Occupancy.of(position)
        own = position.of(colour)
        self.own_existing = mask_of(own.stops)
        self.connected_existing = mask_of(c for t in own.trails for c in t.ends)
        self.own_tents = own.tents
        self.tents_left = MAX_TENTS_PER_BOARD - len(occ.tents)
        self.occupied = mask_of(c for c in range(grid.size) if occ.holds(c))
        self.open = mask_of(c for c in range(grid.size) if board.terrain[c] == OPEN)
        self.all_stops = mask_of(occ.stops)
        self.king = [mask_of(grid.touching[c]) for c in range(grid.size)]
        self.orth = [mask_of(grid.neighbours[c]) for c in range(grid.size)]
        self.animal_value = {c: ANIMAL_POINTS[board.terrain[c]] for c in board.animal_cells}
        near_animal = 0
        for c in board.animal_cells:
            near_animal |= self.king[c]
        self.first_ok = self.open & ~near_animal  # cells where the first stop may go
        self.covered_existing = 0
        for trail in own.trails:
            for cell in trail.cells(grid):
                self.covered_existing |= self.king[cell]
        self.covered_existing &= mask_of(board.animal_cells)
        blockers = self.own_existing if not rules.stops_block_all_colours else self.all_stops
        blocked = 0
        for s in bits(blockers):
            blocked |= self.orth[s]
        self.new_stop_ok = self.open & ~self.occupied & ~blocked
        self.base = score(position, colour).total
        free_cells = (self.open & ~self.occupied).bit_count()
        rift_cells = len(board.rift_cells)
        # Every element takes at least one free open or rift cell, so this caps any budget.
        self.budget = free_cells + rift_cells if budget is None else budget
        self.need_first = position.first_stop_rule
        self.value_masks = tuple(
            (points, mask_of(c for c, v in self.animal_value.items() if v == points))
            for points in sorted(set(self.animal_value.values())))
        # Area and animal points of the existing own trails.
        self.existing_points = self._animal_points(self.covered_existing) + sum(
            min(TRAIL_AREA_CAP, len({board.areas[c] for c in t.cells(grid)})) for t in own.trails)
        self.candidates = self._candidates(occ)
        # The inner loop reads plain tuples:
        # (gain bound, interior, both ends, animals, their points, area value).
        self.rows = [(c.gain_bound, c.interior, (1 << c.trail.start) | (1 << c.trail.end),
                      c.animals, self._animal_points(c.animals), c.value)
                     for c in self.candidates]
        self.by_end: list[list[int]] = [[] for _ in range(grid.size)]
        for index, cand in enumerate(self.candidates):
            for end in cand.trail.ends:
                self.by_end[end].append(index)
        self.bound_cache: dict[tuple[int, ...], int] = {}
        self.max_base_gain = max((c.base_bound for c in self.candidates), default=0)
        self.reachable = 0  # animal cells some candidate trail touches
        for cand in self.candidates:
            self.reachable |= cand.animals
        self.nodes = 0
        self.best_value = self.base
        self.best: tuple[tuple[_Candidate, ...], tuple[int, ...], int | None] = ((), (), None)

    def _candidates(self, occ: Occupancy) -> list[_Candidate]:
        position, grid, board = self.position, self.grid, self.position.board
        ends = sorted(bits(self.own_existing | self.new_stop_ok))
        own = set(bits(self.own_existing))
        found = []
        # Candidate trails are checked by the engine against the position with both
        # ends present as own stops; the check only reads stops at the two ends.
        for i, a in enumerate(ends):
            for b in ends[i + 1:]:
                if a not in own and b not in own and b in grid.neighbours[a]:
                    continue
                stops = dict(occ.stops)
                stops[a] = stops[b] = self.colour
                probe = Occupancy(stops, occ.tents, occ.trail_cells)
                (ra, ca), (rb, cb) = grid.coords[a], grid.coords[b]
                if ra == rb or ca == cb:
                    shapes = [Trail(a, b)]
                else:
                    shapes = [Trail(a, b, c) for c in sorted(grid.corners(a, b))]
                for trail in shapes:
                    if trail_problem(position, probe, self.colour, trail) is not None:
                        continue
                    cells = trail.cells(grid)
                    value = min(TRAIL_AREA_CAP, len({board.areas[c] for c in cells}))
                    touched = 0
                    for c in cells:
                        touched |= self.king[c]
                    animals = touched & mask_of(self.animal_value)
                    gain = self._trail_gain_bound(trail, value, animals)
                    base = gain - sum(self.animal_value[c] for c in bits(animals))
                    found.append(_Candidate(trail, mask_of(cells[1:-1]), value, animals, gain,
                                            base))
        found.sort(key=lambda c: -c.gain_bound)
        return found

    def _trail_gain_bound(self, trail: Trail, value: int, animals: int) -> int:
        """Points one trail can add at most: its areas, every animal it touches, and for
        each end stop not yet connected, the existing own tents next to it that start
        counting it, plus the lifted penalty if it is an existing stop."""
        gain = value + sum(self.animal_value[c] for c in bits(animals))
        for end in trail.ends:
            if self.connected_existing >> end & 1:
                continue
            gain += TENT_POINTS_PER_STOP * sum(1 for t in self.own_tents if self.king[end] >> t & 1)
            if self.own_existing >> end & 1:
                gain -= UNCONNECTED_STOP_PENALTY
        return gain

    def _animal_points(self, mask: int) -> int:
        """Points of the animal cells in ``mask``."""
        return sum(points * (mask & cells).bit_count() for points, cells in self.value_masks)

    def _bound(self, fixed: int, left: int, gain: int, stops: int, near: int,
               uncovered: int) -> int:
        """Most a set can score that adds up to ``left`` elements to one worth ``fixed``
        (new tents not counted), given ``stops`` own stops now, at most ``near`` of them
        next to any one free cell, animal points ``uncovered`` still reachable, and no
        further trail gaining more than ``gain``.

        With N more stops, at most 2·C(stops+N, 2) trails exist (a straight shape or
        two L shapes per pair), and T + N + K <= left for T trails and K tents. Trails
        add at most T·gain, and at most T·(best gain without animals) + ``uncovered``.
        A tent goes on a cell free now and adds 2 per connected own stop next to it:
        at most ``near`` present stops and the N new ones, and never more than 4.
        """
        key = (left, gain, stops, near, uncovered)
        best = self.bound_cache.get(key)
        if best is None:
            best = self.bound_cache[key] = self._best_addition(*key)
        return fixed + best

    def _best_addition(self, left: int, gain: int, stops: int, near: int,
                       uncovered: int) -> int:
        best = 0
        for new in range(left + 1):
            room = left - new
            pairs = (stops + new) * (stops + new - 1)
            most = min(pairs, room)
            tent_gain = TENT_POINTS_PER_STOP * min(MAX_STOPS_NEXT_TO_TENT, near + new)
            # The value is concave and piecewise linear in the number of trails: its
            # maximum lies at an end of [0, most] or next to a break point.
            tries = {0, most, room - self.tents_left}
            if gain > self.max_base_gain:
                turn = uncovered // (gain - self.max_base_gain)
                tries |= {turn, turn + 1}
            for trails in tries:
                if 0 <= trails <= most:
                    value = (min(trails * gain, trails * self.max_base_gain + uncovered)
                             + min(self.tents_left, room - trails) * tent_gain)
                    best = max(best, value)
            if pairs >= room and near + new >= MAX_STOPS_NEXT_TO_TENT:
                break  # more stops only take budget from trails and tents
        return best

    # --- search -------------------------------------------------------------

    def run(self) -> None:
        self._dfs(0, (), 0, 0, self.connected_existing, self.covered_existing, 0, 0,
                  self._animal_points(self.reachable & ~self.covered_existing))

    def _dfs(self, start: int, chosen: tuple[_Candidate, ...], used: int, interiors: int,
             connected: int, covered: int, new_stops: int, points: int,
             uncovered: int) -> None:
        """Visit the set ``chosen`` (new trails) and extend it with candidates from
        ``start`` on. ``points``: the new trails' area and animal points; ``uncovered``:
        points of the animals candidates reach that no own trail touches yet."""
        self.nodes += 1
        if self.nodes % _CLOCK_EVERY == 0:
            interrupt.check()  # Ctrl-C
            if self.deadline is not None and time.monotonic() > self.deadline:
                raise TimeoutError(f"exhaustive search passed its time cap after "
                                   f"{self.nodes} nodes")
        fixed = self._complete(chosen, used, interiors, connected, new_stops, points)
        left = self.budget - used
        if left <= 0:
            return
        stops = self.own_existing | new_stops
        stop_count = stops.bit_count()
        taken = interiors | stops | self.occupied
        near = self._most_next_to(stops, self.open & ~taken)
        # Cells a new end stop may not take. Two new ends of one candidate are never
        # orthogonally adjacent (such pairs are not candidates).
        blocked_new = interiors | self.all_stops | new_stops
        for s in bits(new_stops):
            blocked_new |= self.orth[s]
        rows = self.rows
        gain: int | None = None
        bound = 0  # the bound for ``gain``, set with the first candidate
        for index in self._affordable(start, stops, left):
            cand_gain, interior, ends, animals, animal_points, value = rows[index]
            if cand_gain != gain:
                gain = cand_gain
                bound = self._bound(fixed, left, cand_gain, stop_count, near, uncovered)
            if bound <= self.best_value:
                return  # candidates are sorted by gain bound: no later one does better
            if interior & taken:
                continue
            new = ends & ~stops
            if new & blocked_new:
                continue
            added = new.bit_count()
            if added >= left:
                continue
            # The child is worth at most fixed + this trail's gain bound, plus what its
            # remaining draws can add with later (no better) candidates.
            fresh = (self._animal_points(animals & ~covered) if animals & covered
                     else animal_points)
            if self._bound(fixed + cand_gain, left - 1 - added, cand_gain, stop_count + added,
                           near + added, uncovered - fresh) <= self.best_value:
                continue
            self._dfs(index + 1, chosen + (self.candidates[index],), used + 1 + added,
                      interiors | interior, connected | ends, covered | animals,
                      new_stops | new, points + value + fresh, uncovered - fresh)

    def _affordable(self, start: int, stops: int, left: int):
        """Candidate indices from ``start`` on, ascending, that ``left`` draws can pay for:
        with one draw left only trails between two present stops, with two at least one
        end must be present; otherwise all of them."""
        if left >= 3:
            return range(start, len(self.rows))
        found: set[int] = set()
        for stop in bits(stops):
            ends_here = self.by_end[stop]  # ascending
            found.update(ends_here[bisect_left(ends_here, start):])
        if left == 1:
            rows = self.rows
            return sorted(i for i in found if not rows[i][2] & ~stops)
        return sorted(found)

    def _next_to(self, stops: int) -> tuple[int, int, int, int]:
        """Masks of the cells next to at least 1, 2, 3, 4 of ``stops`` (bit-sliced count;
        own stops are never orthogonally adjacent, so no cell is next to more than
        MAX_STOPS_NEXT_TO_TENT of them)."""
        ones = twos = threes = fours = 0
        for stop in bits(stops):
            ring = self.king[stop]
            fours |= threes & ring
            threes |= twos & ring
            twos |= ones & ring
            ones |= ring
        return ones, twos, threes, fours

    def _most_next_to(self, stops: int, cells: int) -> int:
        """The most of ``stops`` any one of ``cells`` is next to."""
        counts = self._next_to(stops)
        for number in range(len(counts), 0, -1):
            if counts[number - 1] & cells:
                return number
        return 0

    def _tent_tiers(self, live: int, free: int) -> list[tuple[int, int]]:
        """``(value, cells)`` from the best tent cells down: free cells next to 4, 3, 2, 1
        connected own stops."""
        ones, twos, threes, fours = self._next_to(live)
        return [(TENT_POINTS_PER_STOP * 4, fours & free),
                (TENT_POINTS_PER_STOP * 3, threes & ~fours & free),
                (TENT_POINTS_PER_STOP * 2, twos & ~threes & free),
                (TENT_POINTS_PER_STOP, ones & ~twos & free)]

    @staticmethod
    def _best_tents(tiers: list[tuple[int, int]], count: int) -> list[tuple[int, int]]:
        """The ``count`` best ``(value, cell)`` tents, by value then cell number."""
        out: list[tuple[int, int]] = []
        for value, cells in tiers:
            for cell in bits(cells):
                if len(out) >= count:
                    return out
                out.append((value, cell))
        return out

    def _complete(self, chosen, used, interiors, connected, new_stops, points) -> int:
        """Record the best completion of this trail set with tents (and the first stop
        when the first-stop rule needs one); return the set's value without new tents."""
        left = self.budget - used
        stops = self.own_existing | new_stops
        live = connected & stops
        fixed = (points + self.existing_points
                 + UNCONNECTED_STOP_PENALTY * (stops & ~connected).bit_count()
                 + TENT_POINTS_PER_STOP * sum((self.king[t] & live).bit_count()
                                              for t in self.own_tents))
        free = self.open & ~self.occupied & ~interiors & ~stops
        tiers = self._tent_tiers(live, free)
        if not (self.need_first and not new_stops & self.first_ok):
            tents = self._best_tents(tiers, min(left, self.tents_left))
            self._record(fixed + sum(v for v, _ in tents), chosen, tents, None)
            return fixed
        # The first-stop rule wants a new stop away from animals and no connected new
        # stop is one: draw nothing at all, or add one unconnected stop (fact 2).
        if not chosen:
            self._record(fixed, chosen, [], None)
        if left < 1:
            return fixed
        blocked = 0
        for s in bits(stops if not self.rules.stops_block_all_colours
                           else stops | self.all_stops):
            blocked |= self.orth[s]
        wanted = self._best_tents(tiers, min(left - 1, self.tents_left))
        wanted_cells = {c for _, c in wanted}
        pool = self._best_tents(tiers, len(wanted) + 1)
        for spot in bits(free & self.first_ok & ~blocked):
            tents = [vc for vc in pool if vc[1] != spot][:len(wanted)]
            self._record(fixed + UNCONNECTED_STOP_PENALTY + sum(v for v, _ in tents),
                         chosen, tents, spot)
            if spot not in wanted_cells:
                break  # this stop costs no wanted tent: no other spot does better
        return fixed

    def _record(self, value: int, chosen, tents, first_stop) -> None:
        if value > self.best_value:
            self.best_value = value
            self.best = (chosen, tuple(c for _, c in tents), first_stop)

    def answer(self) -> list[Draw]:
        """The best set as draws in a legal order (first stop, stops, trails, tents)."""
        chosen, tents, first_stop = self.best
        own = self.own_existing
        stops: list[int] = []
        for cand in chosen:
            for end in cand.trail.ends:
                if not own >> end & 1 and end not in stops:
                    stops.append(end)
        stops.sort(key=lambda s: (not self.first_ok >> s & 1, s))
        if first_stop is not None:
            stops.insert(0, first_stop)
        return ([DrawStop(s) for s in stops] + [DrawTrail(c.trail) for c in chosen]
                + [DrawTent(t) for t in tents])


def best_score(position: Position, draws: int | None = None, rules: Rules = DEFAULT_RULES,
               time_cap: float | None = None) -> Exhaustive:
    """The exact best score ``position.player`` can reach on this board.

    ``draws`` overrides the position's budget (``position.draws``; None = unlimited).
    Raises TimeoutError after ``time_cap`` seconds. The returned draws are replayed
    through the engine, which must score them at ``value``.
    """
    validate(position, rules)
    budget = draws if draws is not None else position.draws
    started = time.monotonic()
    search = _Search(position, budget, rules, time_cap)
    search.run()
    answer = search.answer()
    replay = position.replace(draws=None)
    final = play_draws(replay, answer, rules)
    check = score(final, position.player).total
    if check != search.best_value:
        raise AssertionError(f"exhaustive search scored {search.best_value}, the engine {check}")
    return Exhaustive(search.best_value, answer, search.nodes, time.monotonic() - started)

