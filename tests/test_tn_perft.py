"""Perft of the Terra Nova engine against an independent brute force and hand counts.

``brute_perft`` below is a deliberately simple, slow re-implementation written
from the rules doc, sharing nothing with the engine but the board geometry
(neighbours and rays): the position is a plain list of cell contents copied at
every step; every action sequence is enumerated recursively; after each stone
ALL components are recomputed from scratch and any region (<= 3 landscapes)
that was not already a region before the stone is scored; the turn-end rules
(3 actions unless none is left, no return, pass) are checked on the complete
sequence. The engine's fast perft (make/unmake, cached incremental fills,
bit-flip leaf keys) and its generic turn generator must both agree with it.
"""

from __future__ import annotations

import json
import random

import pytest

from solver.geometry import HexGrid
from solver.terra_nova.engine.playout import random_playout, setup
from solver.terra_nova.engine.turns import legal_turns, perft, validate
from solver.terra_nova.fileformat import parse_position
from solver.terra_nova.position import Board

MULT = {1: 3, 2: 2, 3: 1}


def brute_perft(position):
    grid, land, me = position.grid, position.board.landscape, position.to_move
    players = position.players

    def components(occ):
        seen, out = set(), []
        for i in range(grid.size):
            if occ[i] == "#" or i in seen:
                continue
            comp, todo = {i}, [i]
            while todo:
                j = todo.pop()
                for k in grid.neighbours[j]:
                    if occ[k] != "#" and k not in comp:
                        comp.add(k)
                        todo.append(k)
            seen |= comp
            out.append(frozenset(comp))
        return out

    def is_region(comp):
        return len({land[c] for c in comp}) <= 3

    def stone(state, cell):
        occ, left, scores, moved = state
        before = {c for c in components(occ) if is_region(c)}
        occ = list(occ)
        occ[cell] = "#"
        scores = dict(scores)
        for comp in components(occ):
            if not is_region(comp) or comp in before:
                continue
            value = len(comp) * MULT[len({land[c] for c in comp})]
            counts = {p: sum(occ[c] == p for c in comp) for p in players}
            top = max(counts.values())
            winners = [p for p in players if top and counts[p] == top]
            for w in winners:
                scores[w] += value // len(winners)
            for c in comp:
                if occ[c] != "#":
                    occ[c] = ""
        moved = tuple((s, c) for s, c in moved if occ[c] == me)  # removed: not moved
        return occ, left - 1, scores, moved

    def move(state, src, dst):
        occ, left, scores, moved = state
        occ = list(occ)
        occ[src], occ[dst] = "", me
        if any(c == src for _, c in moved):
            moved = tuple((s, dst if c == src else c) for s, c in moved)
        else:
            moved = moved + ((src, dst),)
        return occ, left, scores, moved

    def actions(state):
        occ, left, _, moved = state
        out = []
        for src in range(grid.size):
            if occ[src] == me:
                for ray in grid.rays[src]:
                    for dst in ray:
                        if occ[dst]:
                            break
                        out.append(("m", src, dst))
        if left > 0:
            near = {nb for _, c in moved for nb in grid.neighbours[c]}
            out += [("s", c) for c in sorted(near) if not occ[c]]
        return out

    def key(state):
        occ, left, scores, _ = state
        return tuple(occ), left, tuple(sorted(scores.items()))

    def walk(state, depth):
        todo = actions(state)
        if depth == 3 or not todo:
            if depth == 0 or any(s == c for s, c in state[3]):
                return []
            return [key(state)]
        found = []
        for a in todo:
            nxt = move(state, a[1], a[2]) if a[0] == "m" else stone(state, a[1])
            found += walk(nxt, depth + 1)
        return found

    start = (list(position.occupant), position.stones_left, position.score_map, ())
    finals = walk(start, 0) or [key(start)]
    return len(finals), len(set(finals))


def pos(board, *, players=("red", "yellow"), to_move="red", stones_left=None):
    lines = ['game = "terra-nova"', f"players = {json.dumps(list(players))}",
             f'to_move = "{to_move}"']
    if stones_left is not None:
        lines.append(f"stones_left = {stones_left}")
    lines.append(f'board = """\n{board.strip()}\n"""')
    position = parse_position("\n".join(lines) + "\n")
    validate(position)
    return position


HAND = [
    # Red a1 can only step to b1 (yellow on c1), one stone in the supply. Turns:
    # a1-b1 b1-a1 a1-b1; a1-b1 #a1 (then nothing is left); and a1-b1 b1-a1 #b1,
    # which walls a1 in as a 1-landscape region: red scores 3 and the piece is
    # removed, so being back on its start no longer matters. 3 turns, 3 positions.
    (pos("aR b. cY d. e. f.", stones_left=1), (3, 3)),
    # Nothing of red's can move: the pass, one turn to one position.
    (pos("aR bY c. d. e."), (1, 1)),
    # Corridor without stones: only a1-b1 b1-a1 a1-b1.
    (pos("aR b. cY d. e.", stones_left=0), (1, 1)),
]

SMALL = {
    "open-2p": pos("""
aR b. c. d. e.
b. c. dY e. a.
c. d. e. aR b.
"""),
    "closing-12": pos("""
a. aR aY d# c. d.
a. b. b. d# c. d.
aR b. b. d. c. e.
"""),
    "tie-3p": pos("""
aB a. c# b. c.
aR aY c. b. d.
a. a. c# e. d.
""", players=("red", "yellow", "blue")),
    "one-stone": pos("""
aR b. c. d.
b. a# dY a.
c. d. aR b.
""", stones_left=1),
    "walls": pos("""
-- aR b# c. d.
  a. bY c. d# e.
a# b. cR d. e.
  -- b. c# dY e.
""", players=("red", "yellow")),
}


@pytest.mark.parametrize(("position", "expected"), HAND)
def test_perft_hand_counts(position, expected):
    assert (perft(position).turns, perft(position).positions) == expected
    assert brute_perft(position) == expected


@pytest.mark.parametrize("name", sorted(SMALL))
def test_perft_matches_brute_force(name):
    position = SMALL[name]
    result = perft(position)
    assert (result.turns, result.positions) == brute_perft(position)
    assert sum(1 for _ in legal_turns(position)) == result.turns


def random_small(seed):
    """A seeded 4x5 board with 5 landscapes in blobs, 2-3 players, a few turns played."""
    rng = random.Random(seed)
    grid = HexGrid.full(4, 5)
    letters = [rng.choice("abcde") for _ in range(grid.size)]
    for i in range(grid.size):          # copy a neighbour's landscape: patchier maps
        if rng.random() < 0.4:
            letters[i] = letters[rng.choice(grid.neighbours[i])]
    board = Board(grid, tuple(letters))
    players = ("red", "yellow", "blue")[: rng.choice((2, 2, 3))]
    start = setup(board, players, rng, pieces=2)
    final, _ = random_playout(start, rng, turns=rng.randint(1, 4))
    return final


@pytest.mark.parametrize("seed", range(40))
def test_perft_matches_brute_force_on_random_positions(seed):
    position = random_small(seed)
    result = perft(position)
    assert (result.turns, result.positions) == brute_perft(position)
