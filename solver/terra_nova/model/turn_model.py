"""The Terra Nova CP-SAT model: ``turns`` consecutive turns of the player to move.

Time ``tau`` counts action steps: step ``s`` (turn ``s // 3``, action ``s % 3``)
takes the state at ``tau = s`` to ``tau = s + 1``. The state is cell-based:

* ``own[tau][c]`` — an own piece stands on ``c``; other players' pieces never move
  (closing puzzles) and are constants;
* ``moved[tau][c]`` — that piece has moved earlier in the current turn and is still
  on the board (it may anchor a stone);
* ``stone[tau][x]`` — a stone lies on ``x``.

Each step is exactly one of *move*, *stone* or *none* (the turn is over). A move
is a source cell, a direction and a stopping cell, with ``enter[s][d][c]`` marking
every cell the piece enters (each must be free at that moment). A stone goes on a
free cell next to a ``moved`` cell while the supply lasts. Turn shape: the first
step is a move unless no own piece can move (pass); *none* is only allowed when no
legal move and no legal stone exists (both encoded as clauses over the state), and
once a turn is over it stays over. No return: the moves of one turn form chains
(a move continues the previous one when it starts where that one ended); the
piece at the end of each chain may not end the turn on the chain's first cell
unless it was removed.

Regions come from :func:`~solver.terra_nova.model.geometry.candidate_regions`:
``closed[i][tau]`` is true exactly when all boundary cells of candidate ``i`` are
stones and none of its cells is; it closes at step ``s`` when ``closed`` turns on
there. Every closing is scored (majority, ties split with floor division) in both
directions — the points given to others are forced, not optional — and the own
pieces in it are removed (cleared from ``own`` and ``moved``).

This module shares no legality or scoring code with the reference engine.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from itertools import combinations, pairwise

from ortools.sat.python import cp_model

from solver.cpsat.constraints import (
    Expr,
    Lit,
    all_of,
    as_expr,
    at_least,
    below,
    clause,
    live,
    negate,
)
from solver.terra_nova.model.geometry import ACTIONS_PER_TURN, Candidate, Geometry, cells_cap
from solver.terra_nova.notation import Move, Stone, Turn
from solver.terra_nova.position import Position

CellVars = dict[int, cp_model.IntVar]
"""Per cell, one model literal of a step (the move starts there, ends there, a stone goes
there)."""

MAX_NEW_REGIONS = 3
"""One stone closes at most 3 regions (its 6 neighbours form at most 3 separate arcs)."""


def _never() -> None:
    """The default ``check``: no deadline."""


@dataclass
class RegionScore:
    """Score literals of one candidate closing at one step."""

    candidate: int
    step: int
    closes: Lit
    own_points: Expr
    other_points: list[Expr]


class TurnModel:
    """The CP-SAT model of ``turns`` turns of ``position.to_move`` (others stand still).

    Build it, add an objective from :meth:`own_points` / :meth:`other_points` /
    :meth:`actions`, solve, then :meth:`line` reads the turns back.
    ``short_last_move`` (for those objectives only, not for counting or comparing
    lines): the horizon's last move is one of the short moves of :meth:`_short_moves`,
    or left open (:attr:`open_last_move`) when a move surely exists then.
    ``loose``: a turn may end (or be passed) after any number of actions and no-return
    is not checked: more lines than the legal ones, for the caps of
    :mod:`~solver.terra_nova.model.caps` (which prove why that bounds what they bound).
    """

    def __init__(self, position: Position, turns: int, geometry: Geometry | None = None,
                 check: Callable[[], None] | None = None, *, short_last_move: bool = False,
                 loose: bool = False) -> None:
        self.position = position
        self.turns = turns
        self.short_last_move = short_last_move
        self.loose = loose
        self.check = check or _never
        self.geo = geometry or Geometry(position, turns, check=self.check)
        self.model = cp_model.CpModel()
        self.steps = ACTIONS_PER_TURN * turns
        self.open_last_move = short_last_move and self.geo.surely_movable(self.steps - 1)
        """The horizon's last move has no literals (:meth:`_last_move` reads one off): it
        scores nothing, and one exists whatever came before."""
        self.grid = position.grid
        self.n = self.grid.size
        self.others = [p for p in position.players if p != position.to_move]
        self._build()

    # ------------------------------------------------------------------ helpers

    def _bool(self, name: str) -> cp_model.IntVar:
        return self.model.new_bool_var(name)

    def _clause(self, lits: Iterable[Lit]) -> None:
        """Add the clause ``OR lits``, folding Python constants."""
        clause(self.model, lits, self._false)

    # ------------------------------------------------------------------ build

    def _build(self) -> None:
        geo, m = self.geo, self.model
        self._false = self._bool("false")
        m.add(self._false == 0)
        self.reach = geo.reach
        self.stone_cells = geo.stone_cells
        self._init_state()
        self.is_move: list[Lit] = []
        self.is_stone: list[Lit] = []
        self.is_none: list[Lit] = []
        self.src_of: list[CellVars] = []
        self.dst_of: list[CellVars] = []
        self.scores: list[RegionScore] = []
        self._region_vars()
        for s in range(self.steps):
            self.check()
            self._step(s)
        self._supply()
        for t in range(0 if self.loose else self.turns):
            self.check()
            self._no_return(t)

    def _init_state(self) -> None:
        geo = self.geo
        self.own: list[dict[int, Lit]] = []
        self.moved: list[dict[int, Lit]] = []
        self.stone: list[dict[int, Lit]] = []
        for tau in range(self.steps + 1):
            own: dict[int, Lit] = {}
            moved: dict[int, Lit] = {}
            for c in self.reach:
                if tau == 0:
                    own[c] = geo.own0[c]
                elif tau == self.steps and self.open_last_move:
                    pass  # own[c] is set by the last step's _transition
                elif geo.own_possible(c, tau):
                    own[c] = self._bool(f"own_{tau}_{c}")
                else:
                    own[c] = False
                if (tau % ACTIONS_PER_TURN == 0 or own.get(c) is False
                        or not geo.moved_possible(c, tau)):
                    moved[c] = False
                else:
                    moved[c] = self._bool(f"moved_{tau}_{c}")
                    self.model.add_implication(moved[c], own[c])
            self.own.append(own)
            self.moved.append(moved)
        # stones: a new literal only after a step where a stone may land on the cell;
        # the first such step's "a stone goes on x" is the stone literal itself
        current: dict[int, Lit] = dict.fromkeys(self.stone_cells, False)
        self.stone.append(dict(current))
        self.place: list[CellVars] = []
        for s in range(self.steps):
            nxt = dict(current)
            place = {x: self._bool(f"place_{s}_{x}") for x in geo.stone_cells_at(s)}
            for x in sorted(place):
                nxt[x] = (place[x] if current[x] is False
                          else self._bool(f"stone_{s + 1}_{x}"))
            self.place.append(place)
            self.stone.append(nxt)
            current = nxt

    def _stone_at(self, tau: int, c: int) -> Lit:
        return self.stone[tau].get(c, False)

    # ------------------------------------------------------------------ regions

    def _region_vars(self) -> None:
        """``closed[i][tau]`` per candidate: all boundary stones, no stone inside."""
        self.candidates: tuple[Candidate, ...] = self.geo.candidates
        self.closed: list[list[Lit]] = []
        self.cells_in: dict[int, list[int]] = {}
        stone_cell_set = set(self.stone_cells)
        for i, cand in enumerate(self.candidates):
            self.check()
            for c in cand.cells:
                self.cells_in.setdefault(c, []).append(i)
            inside = [c for c in cand.cells if c in stone_cell_set]
            row: list[Lit] = [False]
            for tau in range(1, self.steps + 1):
                s = tau - 1
                if not self.geo.is_stone_step(s):
                    row.append(row[-1])
                    continue
                if s < cand.first_step or any(
                        self._stone_at(tau, b) is False for b in cand.boundary):
                    row.append(False)
                    continue
                var = self._bool(f"closed_{i}_{tau}")
                for b in cand.boundary:
                    self.model.add_implication(var, self._stone_at(tau, b))
                inner = [self._stone_at(tau, c) for c in inside]
                inner = [lit for lit in inner if lit is not False]
                if inner:
                    self.model.add(sum(inner) == 0).only_enforce_if(var)
                self._clause([var] + [negate(self._stone_at(tau, b)) for b in cand.boundary]
                             + inner)
                if row[-1] is not False:
                    # Sound: a closed region is walled by stones and emptied of pieces,
                    # so no stone can ever be placed inside it.
                    self.model.add_implication(row[-1], var)
                row.append(var)
            self.closed.append(row)
        # Redundant (sound): the regions closed at one moment are distinct components,
        # so no cell lies in two of them.
        for tau in range(1, self.steps + 1):
            if not self.geo.is_stone_step(tau - 1):
                continue
            self.check()
            for c in sorted(self.cells_in):
                lits = [self.closed[i][tau] for i in self.cells_in[c]]
                lits = [lit for lit in lits if lit is not False]
                if len(lits) > 1:
                    self.model.add_at_most_one(lits)

    def _closes(self, i: int, s: int) -> Lit:
        """Candidate ``i`` becomes a region by the stone of step ``s``."""
        after, before = self.closed[i][s + 1], self.closed[i][s]
        if after is False:
            return False
        if before is False:
            return after
        if after is before:
            return False
        var = self._bool(f"closes_{i}_{s}")
        self.model.add(var == after - before)
        return var

    def _score(self, i: int, s: int, closes: Lit) -> RegionScore:
        """Majority scoring of candidate ``i`` closing at step ``s`` (pieces counted at ``s``)."""
        cand = self.candidates[i]
        m = self.model
        value = cand.value
        counts = [cand.others[self.position.players.index(p)] for p in self.others]
        top = max(counts, default=0)
        tied = [j for j, k in enumerate(counts) if k == top and top > 0]
        own_terms = [self.own[s][c] for c in cand.cells if self.own[s].get(c, False) is not False]
        own_count = sum(own_terms) if own_terms else 0
        most = min(len(own_terms), self.geo.most_own_closing(cand, s))
        zero = [0] * len(self.others)

        tag = f"{i}_{s}"
        above = at_least(m, own_count, top + 1, most, f"above_{tag}")
        win = all_of(m, [closes, above], f"win_{tag}")
        own_points = value * as_expr(win)
        other_points: list[Expr] = list(zero)
        if top > 0:
            level = at_least(m, own_count, top, most, f"level_{tag}")
            tie = all_of(m, [closes, all_of(m, [level, negate(above)], f"eq_{tag}")],
                         f"tie_{tag}")
            lose = all_of(m, [closes, negate(level)], f"lose_{tag}")
            share_tie = value // (len(tied) + 1)
            share_lose = value // len(tied)
            own_points = own_points + share_tie * as_expr(tie)
            for j in tied:
                other_points[j] = share_tie * as_expr(tie) + share_lose * as_expr(lose)
        return RegionScore(i, s, closes, own_points, other_points)

    # ------------------------------------------------------------------ steps

    def _step(self, s: int) -> None:
        """Action step ``s``: one move, one stone or nothing, and the state it leads to."""
        if self.open_last_move and s == self.steps - 1:
            src_of: CellVars = {}
            dst_of: CellVars = {}
            self.src_of.append(src_of)
            self.dst_of.append(dst_of)
        elif self.short_last_move and s == self.steps - 1:
            src_of, dst_of = self._short_moves(s)
        else:
            src_of, dst_of = self._moves(s)
        self.check()
        place = self._stones(s)
        is_none = self._one_action(s, src_of, dst_of, place)
        if not self.loose:
            self._turn_ends_only_when_stuck(s, is_none)
        self.check()
        removed = self._closings(s, place)
        self.check()
        self._transition(s, src_of, dst_of, removed)

    def _moves(self, s: int) -> tuple[CellVars, CellVars]:
        """A move: a source, one of six directions, entered cells and a stopping cell.

        Every entered cell must be free at that moment. Returns the literals "the
        move starts at ``a``" and "the move stops at ``c``".
        """
        m = self.model
        own = self.own[s]
        table = self.grid.neighbour_table
        # never free now: stones, others' pieces, and cells an own piece surely holds
        blocked = [b or own.get(c, False) is True for c, b in enumerate(self.geo.static_block)]
        enter: dict[tuple[int, int], cp_model.IntVar] = {}
        starts: dict[int, list[cp_model.IntVar]] = {}
        stops: dict[int, list[cp_model.IntVar]] = {}
        for d in range(6):
            sources = [a for a in self.reach if own[a] is not False and table[a, d] >= 0
                       and not blocked[int(table[a, d])]]
            if not sources:
                continue
            path: list[int] = []
            seen = set()
            for a in sources:
                cur = int(table[a, d])
                while cur >= 0 and not blocked[cur] and cur not in seen:
                    seen.add(cur)
                    path.append(cur)
                    cur = int(table[cur, d])
            start = {a: self._bool(f"start_{s}_{d}_{a}") for a in sources}
            ent = {c: self._bool(f"enter_{s}_{d}_{c}") for c in sorted(path)}
            # a piece entering the last cell of a path stops there: one literal for both
            stop = {c: ent[c] if int(table[c, d]) not in ent
                    else self._bool(f"stop_{s}_{d}_{c}") for c in sorted(path)}
            for a, var in start.items():
                starts.setdefault(a, []).append(var)
            for c in sorted(path):
                enter[(d, c)] = ent[c]
                stops.setdefault(c, []).append(stop[c])
                if stop[c] is not ent[c]:
                    m.add_implication(stop[c], ent[c])
            for c in sorted(set(sources) | seen):
                nxt = int(table[c, d])
                if nxt < 0 or nxt not in ent:
                    continue  # a path's last cell: entering it is stopping there
                out = start.get(c, 0) + (ent[c] - stop[c] if c in ent else 0)
                m.add(ent[nxt] == out)
        entered: dict[int, list[cp_model.IntVar]] = {}
        for (_d, c), lit in enter.items():
            entered.setdefault(c, []).append(lit)
        src_of, dst_of = self._ends_of_move(s, starts, stops, entered)
        return src_of, dst_of

    def _short_moves(self, s: int) -> tuple[CellVars, CellVars]:
        """The horizon's last step's moves, one or two cells long: a move of one cell,
        or of two over a cell an own piece started the turn on.

        Exact for the objectives of :meth:`own_points`, :meth:`other_points` and
        :meth:`actions`: nothing is scored after the last move and the line ends with
        it, so only its legality counts. A legal move of ``k`` cells has a legal one-cell
        version unless that cell is where the moved piece started the turn (no return);
        then ``k >= 2`` and the two-cell version lands on a free cell that is not.
        Every move kept here is a legal move. Same literals as :meth:`_moves`.
        """
        geo = self.geo
        table = self.grid.neighbour_table
        starts: dict[int, list[cp_model.IntVar]] = {}
        stops: dict[int, list[cp_model.IntVar]] = {}
        entered: dict[int, list[cp_model.IntVar]] = {}
        for a, d, b in self._first_cells(s):
            paths: list[tuple[int, ...]] = [(b,)]
            if geo.own0[b]:
                after = int(table[b, d])
                if after >= 0 and not geo.static_block[after]:
                    paths.append((b, after))
            for path in paths:
                var = self._bool(f"step_{s}_{d}_{a}_{len(path)}")
                starts.setdefault(a, []).append(var)
                stops.setdefault(path[-1], []).append(var)
                for c in path:
                    entered.setdefault(c, []).append(var)
        return self._ends_of_move(s, starts, stops, entered)

    def _ends_of_move(self, s: int, starts: dict[int, list[cp_model.IntVar]],
                      stops: dict[int, list[cp_model.IntVar]],
                      entered: dict[int, list[cp_model.IntVar]]) -> tuple[CellVars, CellVars]:
        """Step ``s``'s "the move starts on / ends on cell c" literals from its move
        literals by cell (a move starts only where an own piece stands), recorded in
        :attr:`src_of` / :attr:`dst_of`; the cells a move passes must be free."""
        src_of = self._one_of(f"from_{s}", starts)
        for a, var in src_of.items():
            self.model.add_implication(var, self.own[s][a])
        dst_of = self._one_of(f"to_{s}", stops)
        self.src_of.append(src_of)
        self.dst_of.append(dst_of)
        self._entered_cells_free(s, entered)
        return src_of, dst_of

    def _first_cells(self, s: int) -> Iterator[tuple[int, int, int]]:
        """``(a, d, b)`` for each cell ``a`` an own piece may stand on before step ``s``
        and each direction ``d`` whose neighbour ``b`` nothing static blocks: the first
        cell of every move that step may make."""
        own = self.own[s]
        table = self.grid.neighbour_table
        for a in self.reach:
            if own[a] is False:
                continue
            for d in range(6):
                b = int(table[a, d])
                if b >= 0 and not self.geo.static_block[b]:
                    yield a, d, b

    def _one_of(self, name: str, options: dict[int, list[cp_model.IntVar]]) -> CellVars:
        """Per cell, a literal "one of its (mutually exclusive) move literals holds": the
        literal itself when there is one, else a new one equal to their sum."""
        out: CellVars = {}
        for c in sorted(options):
            lits = options[c]
            if len(lits) == 1:
                out[c] = lits[0]
                continue
            var = self._bool(f"{name}_{c}")
            self.model.add(var == sum(lits))
            out[c] = var
        return out

    def _entered_cells_free(self, s: int, entered: dict[int, list[cp_model.IntVar]]) -> None:
        """Every cell a move enters (``entered``: the move literals by cell) holds no
        piece and no stone at that moment."""
        own = self.own[s]
        for c in sorted(entered):
            terms = [*entered[c], *live((own.get(c, False), self._stone_at(s, c)))]
            self.model.add(sum(terms) <= 1)

    def _stones(self, s: int) -> CellVars:
        """A stone goes on a free cell next to a piece moved earlier in this turn."""
        m = self.model
        own = self.own[s]
        place = self.place[s]
        for x, var in place.items():
            before = self._stone_at(s, x)
            if own.get(x, False) is not False:
                m.add_implication(var, ~own[x])
            anchors = live(self.moved[s].get(c, False) for c in self.grid.neighbours[x])
            self._clause([~var, *anchors])
            if before is not False:
                m.add_implication(var, ~before)
                m.add(self.stone[s + 1][x] == before + var)
        return place

    def _one_action(self, s: int, src_of: Mapping[int, Lit], dst_of: Mapping[int, Lit],
                    place: Mapping[int, Lit]) -> Lit:
        """Each step is exactly one of move, stone or none; once a turn is over it stays
        over. Returns the *none* literal."""
        m = self.model
        open_move = self.open_last_move and s == self.steps - 1
        is_move = self._bool(f"move_{s}") if src_of or open_move else False
        is_stone = self._bool(f"stone_{s}") if place else False
        stops = self.loose or not self.geo.surely_movable(s)
        is_none = self._bool(f"none_{s}") if stops else False
        m.add_exactly_one(live((is_move, is_stone, is_none)))
        if src_of:
            m.add(sum(src_of.values()) == is_move)
            m.add(sum(dst_of.values()) == is_move)
        if place:
            m.add(sum(place.values()) == is_stone)
        self.is_move.append(is_move)
        self.is_stone.append(is_stone)
        self.is_none.append(is_none)
        if s % ACTIONS_PER_TURN > 0:
            self._clause([negate(self.is_none[s - 1]), is_none])
        return is_none

    def _turn_ends_only_when_stuck(self, s: int, is_none: Lit) -> None:
        """A turn may stop only when no legal move and no legal stone is left (nothing
        to say when it cannot stop, :meth:`Geometry.surely_movable`)."""
        if is_none is False:
            return
        geo = self.geo
        own = self.own[s]
        for a, _, b in self._first_cells(s):
            self._clause([negate(is_none), negate(own[a]), own.get(b, False),
                          self._stone_at(s, b)])
        supply_ok = self._supply_ok(s) if s % ACTIONS_PER_TURN > 0 else False
        if supply_ok is False:
            return
        stoneable = set(geo.stone_cells_at(s))
        for c in self.reach:
            mv = self.moved[s][c]
            if mv is False:
                continue
            for x in self.grid.neighbours[c]:
                if geo.static_block[x]:
                    continue
                # every free cell next to a possibly moved piece has a stone variable
                assert x in stoneable
                self._clause([negate(is_none), negate(supply_ok), negate(mv), own.get(x, False),
                              self._stone_at(s, x)])

    def _closings(self, s: int, place: Mapping[int, Lit]) -> dict[int, Lit]:
        """Regions closed by this step's stone are scored; own pieces in them are removed.

        Returns the literals "the own piece on ``c`` is removed now".
        """
        m = self.model
        own = self.own[s]
        removed: dict[int, Lit] = {}
        if not self.geo.is_stone_step(s):
            return removed
        closing: dict[int, list[Lit]] = {}
        now: list[Lit] = []
        for i in range(len(self.candidates)):
            self.check()
            closes = self._closes(i, s)
            if closes is False:
                continue
            now.append(closes)
            # the stone that closes a region lies on its boundary
            self._clause([negate(closes)] + [place[b] for b in self.candidates[i].boundary
                                      if b in place])
            self.scores.append(self._score(i, s, closes))
            for c in self.candidates[i].cells:
                if c in own:
                    closing.setdefault(c, []).append(closes)
        if len(now) > MAX_NEW_REGIONS:
            # Redundant (sound): the new regions each hold a neighbour of the stone;
            # neighbours adjacent around it share a component, so at most 3 form.
            m.add(sum(now) <= MAX_NEW_REGIONS * as_expr(self.is_stone[s]))
        for c in sorted(closing):
            lits = closing[c]
            if own[c] is False:
                continue
            rem = self._bool(f"removed_{s}_{c}")
            # rem = own here AND one of the regions through c closes now
            m.add(sum(lits) <= 1)
            m.add_implication(rem, own[c])
            m.add(rem <= sum(lits))
            m.add(rem >= own[c] + sum(lits) - 1)
            removed[c] = rem
        return removed

    def _transition(self, s: int, src_of: Mapping[int, Lit], dst_of: Mapping[int, Lit],
                    removed: Mapping[int, Lit]) -> None:
        """The pieces after the step: own - left + arrived - removed; ``moved`` follows."""
        m = self.model
        own, own_next = self.own[s], self.own[s + 1]
        for c in self.reach:
            nxt = own_next.get(c)
            if nxt is None:  # after the open last move: the pieces before it, less removed
                rem = removed.get(c, False)
                own_next[c] = own[c] if rem is False else self._bool(f"own_{s + 1}_{c}")
                if rem is not False:
                    m.add(own_next[c] == own[c] - rem)
                continue
            expr = (as_expr(own[c]) - as_expr(src_of.get(c, False))
                    + as_expr(dst_of.get(c, False)) - as_expr(removed.get(c, False)))
            if nxt is False:
                m.add(expr == 0)
                continue
            m.add(nxt == expr)
            if (s + 1) % ACTIONS_PER_TURN == 0:
                continue
            mv_next = self.moved[s + 1][c]
            if mv_next is False:
                continue
            # moved' = own' and (moved or arrived now); moved' => own' is in _init_state
            to = dst_of.get(c, False)
            self._clause([negate(mv_next), self.moved[s][c], to])
            self._clause([negate(to), mv_next])
            self._clause([negate(self.moved[s][c]), negate(nxt), mv_next])

    # ------------------------------------------------------------------ supply

    def _placed_before(self, s: int) -> list[Lit]:
        return live(self.is_stone[:s])

    def _supply_ok(self, s: int) -> Lit:
        """Literal: the supply still holds a stone at step ``s``."""
        return below(self.model, self._placed_before(s), self.position.stones_left,
                     f"supply_{s}")

    def _supply(self) -> None:
        left = self.position.stones_left
        placed = live(self.is_stone)
        if len(placed) > left:
            self.model.add(sum(placed) <= left)

    # ------------------------------------------------------------------ no return

    def _no_return(self, t: int) -> None:
        """No moved piece still on the board ends turn ``t`` on its starting cell.

        Boolean only: ``cont[(j, k)]`` (move ``k`` starts where move ``j`` ended, so
        the same piece made both: within one turn no other piece can reach that cell
        in between) is reified with clauses over the cell literals; then for every
        chain of continued moves that nothing extends, and every cell, one clause
        forbids "the chain starts and ends there and an own piece stands there at the
        end of the turn" (it is the chain's piece unless that one was removed).
        """
        first = ACTIONS_PER_TURN * t
        steps = list(range(first, first + ACTIONS_PER_TURN))
        end = first + ACTIONS_PER_TURN
        cont: dict[tuple[int, int], Lit] = {}
        for j in steps:
            for k in steps:
                if k > j:
                    cont[(j, k)] = self._continues(j, k)
        for size in range(2, len(steps) + 1):
            for chain in combinations(steps, size):
                links = [cont[(a, b)] for a, b in pairwise(chain)]
                if any(lit is False for lit in links):
                    continue
                head, tail = chain[0], chain[-1]
                before = [cont[(j, head)] for j in steps if j < head]
                after = [cont[(tail, k)] for k in steps if k > tail]
                free = [negate(lit) for lit in links] + before + after
                if self.open_last_move and end == self.steps:
                    free.append(self.is_move[end - 1])  # then that piece moves off
                src, dst = self.src_of[head], self.dst_of[tail]
                for c in sorted(set(src) & set(dst)):
                    self._clause(free + [negate(src[c]), negate(dst[c]),
                                         negate(self.own[end].get(c, False))])

    def _continues(self, j: int, k: int) -> Lit:
        """Literal: move ``k`` starts on the cell where move ``j`` stopped."""
        dst, src = self.dst_of[j], self.src_of[k]
        common = sorted(set(dst) & set(src))
        if not common:
            return False
        m = self.model
        lit = self._bool(f"cont_{j}_{k}")
        self._clause([~lit, *(dst[c] for c in common)])
        for c in common:
            m.add_bool_or([~dst[c], ~src[c], lit])
            m.add_bool_or([~lit, ~dst[c], src[c]])
        return lit

    # ------------------------------------------------------------------ objective terms

    def own_points(self, turn: int | None = None) -> Expr:
        """Points the player to move gains (in ``turn``, or over all turns)."""
        return sum((sc.own_points for sc in self.scores
                    if turn is None or sc.step // ACTIONS_PER_TURN == turn), 0)

    def other_points(self, turn: int | None = None) -> Expr:
        """Points all other players gain together (in ``turn``, or over all turns)."""
        return sum((sum(sc.other_points, 0) for sc in self.scores
                    if turn is None or sc.step // ACTIONS_PER_TURN == turn), 0)

    def player_points(self, player: str) -> Expr:
        """Points one other player gains over all turns."""
        j = self.others.index(player)
        return sum((sc.other_points[j] for sc in self.scores), 0)

    def actions(self) -> Expr:
        """Number of actions over all turns."""
        return sum(as_expr(a) + as_expr(b)
                   for a, b in zip(self.is_move, self.is_stone, strict=True))

    def closings_by_value(self) -> list[cp_model.IntVar]:
        """The literals "candidate ``i`` closes at step ``s``" of the closings that can
        score for the player to move, most valuable region first (then in build
        order): a search order that tries the best closings first."""
        scoring = [(sc, sc.closes) for sc in self.scores
                   if not isinstance(sc.own_points, int) and isinstance(sc.closes, cp_model.IntVar)]
        scoring.sort(key=lambda pair: -self.candidates[pair[0].candidate].value)
        return [closes for _, closes in scoring]

    def others_upper_bound(self) -> int:
        """A bound on the points others can gain (each candidate closes at most once)."""
        return sum(c.value for c in self.candidates if any(c.others))

    def own_upper_bound(self) -> int:
        """A bound on own points: :func:`~solver.terra_nova.model.geometry.cells_cap` of
        the model's candidates."""
        return cells_cap(self.candidates)

    # ------------------------------------------------------------------ answers

    def answer_vars(self) -> list[cp_model.IntVar]:
        """One int per step for source, destination and stone cell (0 = none): the line."""
        m = self.model
        out = []
        for s in range(self.steps):
            for name, table in (("a", self.src_of[s]), ("b", self.dst_of[s]),
                                ("x", self.place[s])):
                var = m.new_int_var(0, self.n + 1, f"ans{name}_{s}")
                m.add(var == sum((c + 1) * v for c, v in table.items()))
                out.append(var)
        return out

    def state_vars(self) -> list[cp_model.IntVar]:
        """The final state: own pieces, stones, which regions holding others' pieces closed,
        and each player's gain — what a perft 'position' is made of (the literals that
        are not constants: all are variables, none a negation)."""
        end = self.steps
        out: list[cp_model.IntVar] = []
        for c in self.reach:
            lit = self.own[end][c]
            if isinstance(lit, cp_model.IntVar):
                out.append(lit)
        for x in self.stone_cells:
            lit = self.stone[end][x]
            if isinstance(lit, cp_model.IntVar):
                out.append(lit)
        for i, cand in enumerate(self.candidates):
            lit = self.closed[i][end]
            if any(cand.others) and isinstance(lit, cp_model.IntVar):
                out.append(lit)
        for expr in [self.own_points()] + [self.player_points(p) for p in self.others]:
            var = self.model.new_int_var(0, 10**6, "gain")
            self.model.add(var == expr)
            out.append(var)
        return out

    def line(self, solver: cp_model.CpSolver) -> list[Turn]:
        """The turns of the solution held by ``solver``."""
        turns: list[Turn] = []
        for t in range(self.turns):
            actions: list[Move | Stone] = []
            for s in range(ACTIONS_PER_TURN * t, ACTIONS_PER_TURN * (t + 1)):
                if self._value(solver, self.is_move[s]) and not self.src_of[s]:
                    actions.append(self._last_move(solver, actions))
                elif self._value(solver, self.is_move[s]):
                    src = next(a for a, v in self.src_of[s].items() if solver.value(v))
                    dst = next(c for c, v in self.dst_of[s].items() if solver.value(v))
                    actions.append(Move(src, dst))
                elif self._value(solver, self.is_stone[s]):
                    actions.append(Stone(next(x for x, v in self.place[s].items()
                                              if solver.value(v))))
            turns.append(tuple(actions))
        return turns

    def hint_line(self, line: list[Turn]) -> None:
        """Hint the step variables with a known legal line (e.g. one the engine played)."""
        m = self.model
        hinted: set[int] = set()  # a literal may stand for two things (a one-cell last move)
        for t, turn in enumerate(line[:self.turns]):
            for k in range(ACTIONS_PER_TURN):
                s = ACTIONS_PER_TURN * t + k
                action = turn[k] if k < len(turn) else None
                kinds = (isinstance(action, Move), isinstance(action, Stone), action is None)
                for lit, value in zip((self.is_move[s], self.is_stone[s], self.is_none[s]),
                                      kinds, strict=True):
                    if lit is not True and lit is not False:
                        m.add_hint(lit, value)
                for table, cell in ((self.src_of[s], getattr(action, "src", None)),
                                    (self.dst_of[s], getattr(action, "dst", None)),
                                    (self.place[s], getattr(action, "cell", None))):
                    for c, lit in table.items():
                        if lit.index not in hinted:
                            hinted.add(lit.index)
                            m.add_hint(lit, c == cell)

    def _last_move(self, solver: cp_model.CpSolver, earlier: list) -> Move:
        """The open last move (:attr:`open_last_move`) of the solution in ``solver``, after
        the turn's ``earlier`` actions: a one-cell move onto a free cell, by the piece
        that is back on its starting cell if there is one (the model allowed that only
        with this move), else by the first piece that may end the turn there.

        One exists: :meth:`Geometry.surely_movable` leaves a piece that has not moved
        and has a free neighbour; a piece back on its starting cell after two moves has
        one, the cell it came back through.
        """
        end = self.steps - 1
        origin: dict[int, int] = {}  # piece moved in this turn: cell -> starting cell
        for action in earlier:
            if isinstance(action, Move):
                origin[action.dst] = origin.pop(action.src, action.src)
        own = {c for c in self.reach if self._value(solver, self.own[end][c])}
        stones = {x for x, lit in self.stone[end].items() if self._value(solver, lit)}
        blocked = self.geo.static_block

        def free(c: int) -> bool:
            return c >= 0 and not blocked[c] and c not in own and c not in stones

        back = [c for c in sorted(own) if origin.get(c) == c]
        table = self.grid.neighbour_table
        for a in back or sorted(own):
            for d in range(6):
                b = int(table[a, d])
                if free(b) and origin.get(a) != b:
                    return Move(a, b)
        raise AssertionError("the model's open last move has no legal move")

    @staticmethod
    def _value(solver: cp_model.CpSolver, lit: Lit) -> bool:
        if lit is True or lit is False:
            return bool(lit)
        return bool(solver.value(lit))
