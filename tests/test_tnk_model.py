"""The Terra Nova (KOSMOS) last-round CP-SAT model on hand-computed positions."""

from __future__ import annotations

import re

import pytest

from solver.cpsat import SolveParams, solve
from solver.terra_nova_kosmos.model.last_round import (
    Unsupported,
    build_last_round,
    predicted,
    read_line,
)
from solver.terra_nova_kosmos.model.scope import affordable_hexes, horizon
from solver.terra_nova_kosmos.notation import format_turn
from solver.terra_nova_kosmos.solve import solve_last_round
from tests.support.tnk_last_round import last_round

PARAMS = SolveParams(workers=2, seed=0, time_limit=120)
FACTIONS = {"blue": "flaschengeister", "red": "golems"}
ROW = """
lBh l.. f.. w.. r..
  f.. l.. d.. r.. wRh
s.. w.. l.. r.. w..
"""
TOWN = """
lBp lBk lBh l.. r..
  f.. f.. f.. r.. wRh
s.. w.. s.. r.. w..
"""


def solved(position):
    lr = build_last_round(position)
    solver, result = solve(lr.model, PARAMS)
    assert result.optimal
    line = [format_turn(t, position.grid) for t in read_line(lr, solver)]
    return line, predicted(lr, solver)


def test_ship_then_build():
    # ship (8): track 1 = 2 VP; $3 build b1: r-house2 2 VP; pass: b-ship 3 × 1,
    # take b-house (2 coins); money 2 → 0 VP; area 2 vs 1 → 12. 3 houses instead: 18.
    position = last_round(ROW, FACTIONS, {"blue": {"money": 9, "power": [3, 2, 3]}})
    line, got = solved(position)
    assert (got.value, got.others, got.turns) == (19, 28, 3)
    assert line[-1] == "pass b-house"
    assert sorted(line[:2]) in (["$3 build b1", "ship"], ["$3 ship", "build b1"])


def test_house_founds_a_town():
    # build d1: palace 3 + Kontor 2 + 2 houses = 7 with 4 buildings → a town:
    # r-house2 2 + Flaschengeister 4 + (t9: 9 | tship: 4 + track 2 + b-ship 3) + area 12
    position = last_round(TOWN, FACTIONS, {"blue": {
        "money": 4, "power": [8, 0, 0], "palaces": ["left"], "specials_used": ["lake-house"]}})
    line, got = solved(position)
    assert (got.value, got.others, got.turns) == (27, 28, 2)
    assert line[0] in ("build d1 town:t9", "build d1 town:tship")


def test_refuses_what_it_does_not_encode():
    position = last_round(ROW.replace("lBh", "l.."), FACTIONS)
    with pytest.raises(Unsupported, match="no building"):
        build_last_round(position)
    position = last_round(ROW, FACTIONS, passed=[])
    with pytest.raises(Unsupported, match="passed"):
        build_last_round(position)


def test_horizon_counts_what_can_be_spent():
    # money 9 + bowl III 3 + t8p6's 8 (bowl I's 3 tokens soak up 3, 5 reach III)
    # + pa-money7 net 3 = 20 → 5 houses, + pa-money7 and the pass; t6g5 too would need
    # two towns, value 12 from one house in 7 turns
    position = last_round(ROW, FACTIONS, {"blue": {"money": 9, "power": [3, 2, 3]}})
    assert horizon(position, 8, 5) == 7
    used = ["pa-money7", "pa-ship", "pa-spade1", "pa-spade2", "pa-bridge3", "pa-bridge4"]
    poor = last_round(ROW, FACTIONS, {"blue": {"money": 2, "power": [8, 0, 0]}},
                      power_actions_used=used)
    # 2 money pay for no house, so no town brings t6g5, and t8p6's 8 would only
    # empty bowl I: the pass alone
    assert horizon(poor, 8, 5) == 1
    richer = last_round(ROW, FACTIONS, {"blue": {"money": 10, "power": [8, 0, 0]}},
                        power_actions_used=used)
    # 10 → 2 houses; a town needs 4 buildings: only the pass and two houses
    assert horizon(richer, 8, 5) == 3


def test_reach_counts_the_buildings_on_the_way():
    # from a1: a house on the lake b1 (home) costs 4, on the forest a2 4 + a spade 6
    position = last_round(ROW, FACTIONS, {"blue": {"money": 9, "power": [3, 2, 3]}},
                          power_actions_used=BOARD_ACTIONS_USED)

    def names(p, budget):
        return sorted(p.grid.name(c) for c in affordable_hexes(p, {0}, 0, budget))

    assert names(position, 3) == ["a2", "b1"]
    assert names(position, 4) == ["a2", "b1", "b2", "c1"]
    assert names(position, 8) == ["a2", "b1", "b2", "b3", "c1", "c2", "c3"]
    assert names(position, 10) == ["a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3"]
    # pa-spade1 and pa-spade2 still free: the forest a2 costs a house only
    free = last_round(ROW, FACTIONS, {"blue": {"money": 9, "power": [3, 2, 3]}})
    assert names(free, 4) == ["a2", "a3", "b1", "b2", "b3", "c1"]


IFRIT = """
wRh wRk f.. l.. r..
  wRk f.. d.. r.. lBh
s.. w.. s.. r.. w..
"""
BRIDGED = """
lBh r.. wRh f..
  l.. r.. w.. w..
w.. s.. r.. lBh
"""
ONE = SolveParams(workers=1, seed=0)
BOARD_ACTIONS_USED = ["pa-bridge3", "pa-bridge4", "pa-spade1", "pa-spade2", "pa-ship"]


def test_ifrit_palace_builds_its_edge_house():
    # the left palace (14) on b1 puts a free house on the unbuilt edge hex c1, which
    # completes a town: palace 3 + Kontor a2 2 + houses a1, c1 = 7 (or the house on
    # a3, or the palace on a2); r-palace5 5 + t9 9 + area 12 - money 4 (or tship: 4 VP
    # and a shipping step worth as much)
    position = last_round(IFRIT, {"red": "ifrit", "blue": "flaschengeister"},
                          {"red": {"money": 14, "power": [8, 0, 0]}},
                          power_actions_used=[*BOARD_ACTIONS_USED, "pa-money7"],
                          round_tiles=["r-spade2", "r-kontor3", "r-house2", "r-ship2",
                                       "r-palace5"])
    answer = solve_last_round(position, ONE)
    line = answer.line_text(position)
    assert answer.optimal and answer.key == (26, -28, -2)
    assert re.fullmatch(r"upgrade (b1|a2) pl @(c1|a3|b3) town:(t9|tship)", line[0])


@pytest.mark.parametrize(("adjacency", "value", "first"),
                         [("all", 15, "upgrade c1 k"), ("owner", 13, "build c2")])
def test_bridge_adjacency_owner(adjacency, value, first):
    # blue's bridge a1-c1 makes red's c1 a neighbour of blue's a1 only with "all":
    # the Kontor costs 7 (red's money) instead of 10 [D4]
    position = last_round(BRIDGED, {"red": "golems", "blue": "flaschengeister"},
                          {"red": {"money": 7, "power": [4, 4, 0]},
                           "blue": {"bridges": ["a1-c1"]}},
                          power_actions_used=[*BOARD_ACTIONS_USED, "pa-money7"],
                          bridge_spots=["a1-c1"], rules={"bridge_adjacency": adjacency},
                          round_tiles=["r-spade2", "r-kontor3", "r-palace5", "r-ship2",
                                       "r-kontor3"])
    answer = solve_last_round(position, ONE)
    assert answer.optimal and answer.result.value == value
    assert answer.line_text(position) == [first, "pass b-house"]


RIVER_TOWN = """
l.. r.. r.. lBk
  r.. w.. sKh l..
lBp lBp sKh f..
"""


def test_seebaeren_town_over_the_river():
    # terraform b2 build: b2 and d1 do not touch but share river hex c1; linked there
    # [D26], Kontor d1 2 + house b2 1 + palaces a3, b3 6 make a town of 4 buildings
    position = last_round(RIVER_TOWN, {"blue": "seebaeren", "black": "kobolde"},
                          {"blue": {"vp": 21, "money": 12, "power": [1, 1, 6],
                                    "bonus": "b-reach", "palaces": ["left", "right"]},
                           "black": {"vp": 15, "money": 1, "power": [0, 4, 4]}},
                          power_actions_used=BOARD_ACTIONS_USED,
                          bonus_display={"b-m3p3": 3, "b-spade": 0},
                          round_tiles=["r-spade2", "r-kontor3", "r-palace5", "r-ship2",
                                       "r-town5"])
    answer = solve_last_round(position, ONE)
    assert answer.optimal and answer.key == (28, -25, -3)
    line = answer.line_text(position)
    assert any(turn.startswith("terraform b2 build") for turn in line)
    assert any(re.search(r"town:t9@c1$", turn) for turn in line)
