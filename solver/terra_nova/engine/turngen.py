"""The engine's mutable turn state: make/unmake of actions, turn generation, perft.

:class:`TurnState` holds one player's turn in progress on mutable arrays (a
``bytearray`` of cell contents plus Python-int bitboards) and applies or takes
back single actions. Generators walk every legal turn by make/unmake; while a
generator has yielded a turn, the state *is* the position after that turn, so
the caller can read :meth:`TurnState.key` or :meth:`TurnState.snapshot` before
resuming. Positions are only built at the API boundary (``engine.py``).

Turn semantics (BRIEF / rules doc): first action a move; a stone needs supply
and a free cell next to the current cell of an own piece that moved earlier this
turn and is still on the board; 3 actions, fewer only when no legal action is
left; at the end no moved piece still on the board stands on its start cell
(:data:`NO_RETURN`); a piece removed by scoring no longer counts as moved
(:data:`REMOVED_PIECE_UNMOVED`).
"""

from __future__ import annotations

from collections.abc import Iterator

from solver.geometry.bitboard import bits
from solver.terra_nova.engine.regions import MULTIPLIER, BoardTables, Region, new_regions

ACTIONS_PER_TURN = 3
"""A turn has this many actions (fewer only when no legal action is left)."""

NO_RETURN = True
"""[D] At the end of a turn no piece that moved in it (and is still on the board) may
stand on its start cell of the turn — for 2 and 3 moves alike (Italian rulebook)."""

REMOVED_PIECE_UNMOVED = True
"""[D] A piece removed by scoring no longer counts as moved: it anchors no later stone
of the turn and the no-return rule no longer applies to it."""

EMPTY_CELL = 0
STONE_CELL = 1
PIECE_BASE = 2
"""Cell codes in :attr:`TurnState.cell`: 0 empty, 1 stone, ``2 + p`` a piece of player ``p``."""

GAIN_BITS = 20
"""Bits per player's points gained in the compact :meth:`TurnState.key` (a turn gains far less)."""

InternalAction = tuple[int, int] | int
"""A move ``(src, dst)`` or a stone ``cell`` (cell indices)."""


class TurnState:
    """One player's turn in progress, on mutable arrays with make/unmake.

    ``pieces[p]`` is player ``p``'s bitboard, ``stones`` the stone bitboard,
    ``moved`` the ``[start, current]`` pairs of own pieces moved this turn and
    still on the board, ``gains[p]`` the points each player gained this turn.
    """

    def __init__(self, tables: BoardTables, pieces: tuple[int, ...], stones: int,
                 stones_left: int, player: int, region_cache: dict | None = None) -> None:
        self.t = tables
        self.me = player
        self.nplayers = len(pieces)
        self.pieces = list(pieces)
        self.stones = stones
        self.stones_left = stones_left
        cell = bytearray(tables.size)
        for i in range(tables.size):
            if stones >> i & 1:
                cell[i] = STONE_CELL
        for p, bb in enumerate(pieces):
            for i in bits(bb):
                cell[i] = PIECE_BASE + p
        self.cell = cell
        self.my_cells = list(bits(pieces[player]))
        self.moved: list[list[int]] = []
        self.gains = [0] * self.nplayers
        self.cache = region_cache if region_cache is not None else {}
        self.start_stones = stones

    # ----------------------------------------------------------------- actions

    def do_move(self, src: int, dst: int) -> int:
        """Move the own piece on ``src`` to ``dst`` (legality is the caller's job).

        Returns the undo token for :meth:`undo_move`: the index of the moved entry,
        negative when the piece had not moved before this turn.
        """
        cell = self.cell
        cell[src] = EMPTY_CELL
        cell[dst] = PIECE_BASE + self.me
        bit = self.t.bit
        self.pieces[self.me] ^= bit[src] | bit[dst]
        mc = self.my_cells
        mc[mc.index(src)] = dst
        for k, entry in enumerate(self.moved):
            if entry[1] == src:
                entry[1] = dst
                return k
        self.moved.append([src, dst])
        return -1

    def undo_move(self, src: int, dst: int, token: int) -> None:
        """Take back :meth:`do_move`."""
        cell = self.cell
        cell[dst] = EMPTY_CELL
        cell[src] = PIECE_BASE + self.me
        bit = self.t.bit
        self.pieces[self.me] ^= bit[src] | bit[dst]
        mc = self.my_cells
        mc[mc.index(dst)] = src
        if token < 0:
            self.moved.pop()
        else:
            self.moved[token][1] = src

    def regions_at(self, stone: int) -> list[Region]:
        """Regions formed by the stone just placed on ``stone`` (cached by stone set)."""
        key = (self.stones, stone)
        found = self.cache.get(key)
        if found is None:
            cell = self.cell
            found = new_regions(self.t, stone, lambda k: cell[k] == STONE_CELL)
            self.cache[key] = found
        return found

    def do_stone(self, stone: int) -> tuple | None:
        """Place a stone, score every region it forms and remove the pieces in them.

        Returns the undo token for :meth:`undo_stone` (None when nothing was scored).
        """
        self.cell[stone] = STONE_CELL
        self.stones |= self.t.bit[stone]
        self.stones_left -= 1
        regions = self.regions_at(stone)
        if not regions:
            return None
        removed: list[tuple[int, int]] = []  # (cell, its occupant code)
        token = (tuple(self.pieces), list(self.my_cells), [e[:] for e in self.moved],
                 list(self.gains), removed)
        cell, pieces, gains = self.cell, self.pieces, self.gains
        for region in regions:
            counts = [(bb & region.mask).bit_count() for bb in pieces]
            most = max(counts)
            if most > 0:
                winners = [p for p, c in enumerate(counts) if c == most]
                share = len(region.cells) * MULTIPLIER[region.landscapes] // len(winners)
                for p in winners:
                    gains[p] += share
                for c in region.cells:
                    if cell[c] >= PIECE_BASE:
                        removed.append((c, cell[c]))
                        cell[c] = EMPTY_CELL
                keep = ~region.mask
                for p in range(self.nplayers):
                    pieces[p] &= keep
        if removed:
            gone = {c for c, _ in removed}
            self.my_cells[:] = [c for c in self.my_cells if c not in gone]
            if REMOVED_PIECE_UNMOVED:
                self.moved[:] = [e for e in self.moved if e[1] not in gone]
        return token

    def undo_stone(self, stone: int, token: tuple | None) -> None:
        """Take back :meth:`do_stone` (lists are restored in place: aliases stay valid)."""
        self.cell[stone] = EMPTY_CELL
        self.stones ^= self.t.bit[stone]
        self.stones_left += 1
        if token is None:
            return
        pieces, my_cells, moved, gains, removed = token
        self.pieces[:] = pieces
        self.my_cells[:] = my_cells
        self.moved[:] = moved
        self.gains[:] = gains
        for c, code in removed:
            self.cell[c] = code

    def do(self, action: InternalAction) -> object:
        """Apply a move ``(src, dst)`` or a stone ``cell``; returns its undo token."""
        if isinstance(action, tuple):
            return self.do_move(*action)
        return self.do_stone(action)

    def undo(self, action: InternalAction, token: object) -> None:
        """Take back :meth:`do`."""
        if isinstance(action, tuple):
            self.undo_move(action[0], action[1], token)  # type: ignore[arg-type]
        else:
            self.undo_stone(action, token)  # type: ignore[arg-type]

    # ------------------------------------------------------------- legality

    def moves(self) -> list[tuple[int, int]]:
        """All local moves of the player, in order (own piece, direction, distance)."""
        cell, rays = self.cell, self.t.rays
        out = []
        for src in self.my_cells:
            for ray in rays[src]:
                for dst in ray:
                    if cell[dst]:
                        break
                    out.append((src, dst))
        return out

    def stone_targets(self) -> list[int]:
        """Free cells where a stone may go now, ascending (none when the supply is empty)."""
        if self.stones_left <= 0 or not self.moved:
            return []
        cell, nbrs = self.cell, self.t.neighbours
        if len(self.moved) == 1:
            return sorted(nb for nb in nbrs[self.moved[0][1]] if not cell[nb])
        return sorted({nb for e in self.moved for nb in nbrs[e[1]] if not cell[nb]})

    def can_move(self) -> bool:
        """Whether some own piece can move at all."""
        cell, nbrs = self.cell, self.t.neighbours
        return any(not cell[nb] for src in self.my_cells for nb in nbrs[src])

    def has_action(self) -> bool:
        """Whether any legal action (move or stone) exists now."""
        if self.can_move():
            return True
        if self.stones_left > 0:
            cell, nbrs = self.cell, self.t.neighbours
            return any(not cell[nb] for e in self.moved for nb in nbrs[e[1]])
        return False

    def returned(self) -> bool:
        """Whether a moved piece stands on its start cell (the turn may not end so)."""
        return NO_RETURN and any(e[0] == e[1] for e in self.moved)

    # ---------------------------------------------------------------- output

    def key(self) -> int:
        """Compact exact key of the current state, valid among states of this same turn."""
        rest, mine = self.key_parts()
        return mine | (rest << self.t.size)

    def key_parts(self) -> tuple[int, int]:
        """``(rest, own bitboard)``: the key split so the own pieces can vary cheaply.

        ``rest`` packs the other players' pieces (one bitboard for all: they never
        move during the turn, they can only be removed), the stones (stones_left
        follows from them) and the points each player gained.
        """
        n = self.t.size
        others = 0
        for p, bb in enumerate(self.pieces):
            if p != self.me:
                others |= bb
        gains = 0
        for p, g in enumerate(self.gains):
            gains |= g << (GAIN_BITS * p)
        return others | (self.stones << n) | (gains << (2 * n)), self.pieces[self.me]

    def snapshot(self) -> tuple[tuple[int, ...], int, int]:
        """The board state ``(pieces bitboards, stones bitboard, stones_left)``."""
        return tuple(self.pieces), self.stones, self.stones_left

    # ------------------------------------------------------------ generation

    def turns(self) -> Iterator[tuple[InternalAction, ...]]:
        """Every legal turn as an action tuple; ``()`` (pass) when there is none.

        While a turn is yielded the state is the position after it.
        """
        found = False
        for src, dst in self.moves():
            token = self.do_move(src, dst)
            for turn in self._continue(1, ((src, dst),)):
                found = True
                yield turn
            self.undo_move(src, dst, token)
        if not found:
            yield ()

    def _continue(self, depth: int, done: tuple) -> Iterator[tuple[InternalAction, ...]]:
        if depth < ACTIONS_PER_TURN:
            had = False
            for src, dst in self.moves():
                had = True
                token = self.do_move(src, dst)
                yield from self._continue(depth + 1, done + ((src, dst),))
                self.undo_move(src, dst, token)
            for s in self.stone_targets():
                had = True
                stone_token = self.do_stone(s)
                yield from self._continue(depth + 1, done + (s,))
                self.undo_stone(s, stone_token)
            if had:
                return
        if not self.returned():
            yield done

    def perft(self) -> tuple[int, int]:
        """``(turns, positions)``: legal turns and distinct resulting positions.

        Same semantics as :meth:`turns`, with the last action counted in a tight
        loop: a final move only changes the own bitboard (two bits flip), so the
        resulting positions are kept as own bitboards grouped by the rest of the key.
        """
        self._count = 0
        self._groups: dict[int, set[int]] = {}
        for src, dst in self.moves():
            token = self.do_move(src, dst)
            self._perft_node()
            self.undo_move(src, dst, token)
        if self._count == 0:
            return 1, 1
        return self._count, sum(len(g) for g in self._groups.values())

    def _record(self) -> None:
        rest, mine = self.key_parts()
        self._groups.setdefault(rest, set()).add(mine)

    def _perft_node(self) -> None:
        """After the first action: try every second action, then count the third.

        The final moves of each piece are listed once here; a leaf reuses a
        piece's list unless the second action touched a cell on one of its rays.
        """
        bit, cell, rays = self.t.bit, self.cell, self.t.rays
        lists = {}
        for src in self.my_cells:
            found = []
            seen = 0  # the free runs and the cells that end them
            for ray in rays[src]:
                for dst in ray:
                    seen |= bit[dst]
                    if cell[dst]:
                        break
                    found.append(bit[dst])
            lists[src] = (found, seen)
        had = False
        for src, dst in self.moves():
            had = True
            token = self.do_move(src, dst)
            self._perft_leaf(lists, bit[src] | bit[dst])
            self.undo_move(src, dst, token)
        for s in self.stone_targets():
            had = True
            stone_token = self.do_stone(s)
            self._perft_leaf(lists if stone_token is None else {}, bit[s])
            self.undo_stone(s, stone_token)
        if not had and not self.returned():
            self._count += 1
            self._record()

    def _perft_leaf(self, lists: dict[int, tuple[list[int], int]], changed: int) -> None:
        """After two actions: count every legal third action (or the end of the turn).

        ``lists[src]`` holds the destination bits of the piece on ``src`` before the
        second action, and the mask of those cells plus the cells that stopped each
        ray. The second action changed the cells in ``changed``; when none of them is
        in that mask the piece's moves are the same, and the list is reused.
        """
        if NO_RETURN:
            at_start = [e[1] for e in self.moved if e[0] == e[1]]
            forbid = {e[1]: e[0] for e in self.moved if e[0] != e[1]}
        else:
            at_start, forbid = [], {}
        rest, mine = self.key_parts()
        group = self._groups.get(rest)
        if group is None:
            group = self._groups[rest] = set()
        add, update = group.add, group.update
        bit, cell, rays = self.t.bit, self.cell, self.t.rays
        count = 0
        local = False
        for src in self.my_cells:
            if at_start and (len(at_start) > 1 or at_start[0] != src):
                # Moving this piece leaves another on its start: no legal final move,
                # but the move is still an action (the turn may not end early).
                local = local or any(not cell[ray[0]] for ray in rays[src])
                continue
            m0 = mine ^ bit[src]
            known = lists.get(src)
            if known is not None and src not in forbid and not known[1] & changed:
                count += len(known[0])
                update(map(m0.__xor__, known[0]))
                continue
            fb = forbid.get(src, -1)
            for ray in rays[src]:
                for dst in ray:
                    if cell[dst]:
                        break
                    if dst != fb:
                        count += 1
                        add(m0 ^ bit[dst])
                    else:
                        local = True
        local = local or count > 0
        for s in self.stone_targets():
            local = True
            token = self.do_stone(s)
            if not self.returned():
                count += 1
                self._record()
            self.undo_stone(s, token)
        if not local and not at_start:
            count += 1
            add(mine)
        self._count += count
