"""Terra Nova (KOSMOS) engine: the rulebook examples and one test per [Dn] decision."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.errors import InputError, PuzzleError
from solver.terra_nova_kosmos import rules
from solver.terra_nova_kosmos.engine import actions as act
from solver.terra_nova_kosmos.engine import board as topo
from solver.terra_nova_kosmos.engine import lastrounds, legal, rounds, scoring
from solver.terra_nova_kosmos.engine import validate as validate_module
from solver.terra_nova_kosmos.engine.actions import IllegalTurn, pass_bonus
from solver.terra_nova_kosmos.engine.lastround import check_puzzle
from solver.terra_nova_kosmos.engine.power import gain, spend
from solver.terra_nova_kosmos.engine.scoring import (
    area_points,
    final_scores,
    money_points,
    winners,
)
from solver.terra_nova_kosmos.engine.validate import validate
from solver.terra_nova_kosmos.fileformat import BOARDS_DIR, default_factions, read_board
from solver.terra_nova_kosmos.notation import format_turn, parse_turn
from tests.support.tnk_positions import make, play

NO_TILE = ["r-palace5", "r-palace5", "r-palace5", "r-palace5", "r-palace5"]


def tiles(first: str) -> list[str]:
    return [first] + NO_TILE[1:]


# ---- rulebook examples ---------------------------------------------------------------------

def test_power_example() -> None:
    assert gain((2, 2, 4), 3) == (0, 3, 5)
    assert spend((0, 3, 5), 5) == (5, 3, 0)


@given(st.tuples(st.integers(0, 8), st.integers(0, 8)).filter(lambda t: t[0] + t[1] <= 8),
       st.integers(0, 20), st.integers(0, 20))
def test_power_gains_compose_and_keep_8_tokens(bowls: tuple[int, int], x: int, y: int) -> None:
    start = (bowls[0], bowls[1], 8 - bowls[0] - bowls[1])
    assert gain(gain(start, x), y) == gain(start, x + y)
    assert sum(gain(start, x)) == 8 and min(gain(start, x)) >= 0


def test_flaschengeister_wasteland_to_lake() -> None:
    p = make("lBh w.. r..\n  s.. d.. r..", {"blue": "flaschengeister", "red": "golems"},
             {"blue": {"money": 20}}, round_tiles=NO_TILE)
    after = play(p, "terraform b1 build")
    assert after.player("blue").money == 20 - 12 - 4
    assert after.landscape[p.grid.cell("b1")] == "l"
    assert after.buildings[p.grid.cell("b1")].kind == "house"


KONTOR_BOARD = """
l.. dYh dYh l.. lBh
  l.. lBh sKh l.. lBh
l.. l.. l.. l.. lBh
"""


def test_kontor_upgrade_example() -> None:
    p = make(KONTOR_BOARD, {"blue": "flaschengeister", "yellow": "wuestentoechter",
                            "black": "kobolde"},
             {"blue": {"money": 10}, "yellow": {"power": [3, 3, 2]},
              "black": {"power": [3, 3, 2]}}, round_tiles=NO_TILE)
    income_before = rounds.player_income(p, "blue")
    after = play(p, "upgrade b2 k")
    assert after.player("blue").money == 3                     # 7: others' buildings beside
    assert after.player("yellow").power == gain((3, 3, 2), 2)  # 2 neighbouring buildings
    assert after.player("black").power == gain((3, 3, 2), 1)   # 1 neighbouring building
    faction = default_factions()["flaschengeister"]
    lost = faction.house_income[3]                             # the 4th house slot: 3 money
    assert lost == (3, 0)
    money, power = rounds.player_income(after, "blue")
    assert (money, power) == (income_before[0] - 3 + 3, income_before[1] + 1)


def test_kontor_cost_without_neighbours() -> None:
    p = make(KONTOR_BOARD, {"blue": "flaschengeister", "yellow": "wuestentoechter",
                            "black": "kobolde"}, {"blue": {"money": 10}}, round_tiles=NO_TILE)
    assert play(p, "upgrade e3 k").player("blue").money == 0


def test_pass_with_kontor_tile() -> None:
    p = make("lBk lBk w..\n  lBh d.. r..", {"blue": "flaschengeister", "red": "ifrit"},
             {"blue": {"bonus": "b-kontor", "vp": 10}}, round_tiles=NO_TILE)
    assert pass_bonus(p, "blue") == (4, 0)
    after = play(p, "pass b-house")
    assert after.player("blue").vp == 14
    assert after.player("blue").bonus == "b-house"
    assert after.player("blue").money == p.player("blue").money + 2     # [D21] its coins
    assert dict(after.bonus_display)["b-kontor"] == 0
    assert after.passed == ("blue",) and after.start == "blue"


TOWN_BOARD = """
lBh lBk r.. lBk lBk
  w.. r.. r.. w.. w..
"""


def test_town_example() -> None:
    p = make(TOWN_BOARD, {"blue": "seebaeren", "red": "golems"},
             {"blue": {"money": 10}}, round_tiles=NO_TILE, bridge_spots=["b1-d1"])
    validate(p)
    with pytest.raises(IllegalTurn):
        play(p, "bridge b1-d1")                          # the town must be founded
    after = play(p, "bridge b1-d1 town:t6g5")
    blue = after.player("blue")
    assert (blue.money, blue.vp) == (6, 5)
    assert blue.town_tiles == ("t9", "t8p6", "tship")
    assert topo.pending_towns(after, "blue") == []        # a town is founded once
    assert legal.town_choices(after) == [()]


def test_area_scoring_example() -> None:
    assert area_points({"blue": 10, "red": 10, "yellow": 5}) == {"blue": 10, "red": 10,
                                                                 "yellow": 4}
    assert area_points({"a": 3, "b": 3, "c": 3, "d": 3}) == dict.fromkeys("abcd", 6)
    assert area_points({"a": 5, "b": 3, "c": 3, "d": 3}) == {"a": 12, "b": 4, "c": 4, "d": 4}
    assert area_points({"a": 5, "b": 1}) == {"a": 12, "b": 8}


def test_spade_round_tile_example() -> None:
    p = make("lBh d.. r..\n  s.. d.. r..", {"blue": "flaschengeister", "red": "golems"},
             {"blue": {"money": 6, "power": [0, 4, 4]}}, round_tiles=tiles("r-spade2"))
    after = play(p, "pa-spade1 b1")
    assert after.player("blue").vp == 4
    assert after.player("blue").money == 0 and after.player("blue").power == (4, 4, 0)


def test_shipping_example() -> None:
    p = make("lBh r.. r.. w..\n  r.. r.. r.. r..", {"blue": "flaschengeister", "red": "golems"},
             {"blue": {"money": 8, "shipping": 1}}, round_tiles=NO_TILE)
    far = p.grid.cell("d1")
    assert far not in topo.in_range(p, "blue")
    after = play(p, "ship")
    assert (after.player("blue").shipping, after.player("blue").vp) == (2, 3)
    assert far in topo.in_range(after, "blue")          # now over up to 2 river hexes


@pytest.mark.parametrize(("tile", "turn", "vp"), [
    ("r-house2", "build b1", 2),                        # the rulebook's round tile example
    ("r-kontor3", "upgrade a1 k", 3), ("r-palace5", "upgrade c1 pl", 5),
    ("r-spade2", "terraform b2", 4), ("r-ship2", "ship", 2 + 2)])     # r-town5: test_d25
def test_round_tiles_score_in_their_round(tile: str, turn: str, vp: int) -> None:
    board = "lBh l.. lBk\n  r.. w.. r.."
    factions = {"blue": "flaschengeister", "red": "golems"}
    p = make(board, factions, {"blue": {"money": 20}}, round_tiles=tiles(tile))
    assert play(p, turn).player("blue").vp == vp
    later = make(board, factions, {"blue": {"money": 20}}, round_tiles=["r-town5"] + [tile] * 4)
    assert play(later, turn).player("blue").vp == (2 if "ship" in turn else 0)


def test_kontor_cost_example() -> None:
    p = make("lBh r.. lBh wRp\n  r.. r.. r.. r..", {"blue": "flaschengeister", "red": "golems"},
             {"blue": {"money": 20}, "red": {"palaces": ["right"]}}, round_tiles=NO_TILE)
    assert play(p, "upgrade a1 k").player("blue").money == 10       # no other faction near
    assert play(p, "upgrade c1 k").player("blue").money == 13       # the red palace beside


def test_bridge_spot_example() -> None:
    p = make("lBh r.. l..\n  r.. r.. r..\nl.. r.. l..",
             {"blue": "flaschengeister", "red": "golems"}, {"blue": {"money": 20}},
             bridge_spots=["a1-c1", "a3-c3"], round_tiles=NO_TILE)
    after = play(p, "bridge a1-c1")                      # next to the player's house
    assert after.player("blue").bridges == ((p.grid.cell("a1"), p.grid.cell("c1")),)
    assert after.player("blue").money == 10
    with pytest.raises(IllegalTurn, match="building of its builder"):
        play(p, "bridge a3-c3")


def test_ifrit_edge_house_is_a_house_and_no_spade() -> None:
    board = "wRk l.. r.. l..\n  w.. r.. r.. r..\nr.. r.. r.. r.."
    for tile, vp in (("r-house2", 2), ("r-spade2", 0)):
        p = make(board, {"red": "ifrit", "blue": "flaschengeister"}, {"red": {"money": 14}},
                 round_tiles=tiles(tile))
        assert play(p, "upgrade a1 pl @d1").player("red").vp == vp


# ---- decisions -----------------------------------------------------------------------------
# Each test fails if its decision were taken the other way; where the decision is a flag
# in rules.py, the test also flips the flag where the engine reads it.

def test_d1_nothing_caps_money_vp_or_landscape_tiles() -> None:
    # the 103 printed coins are worth 223; VP run past the 80-point tiles
    p = make("lBh d.. r..\n  r.. r.. r..", {"blue": "flaschengeister", "red": "golems"},
             {"blue": {"money": 300, "vp": 900}}, round_tiles=tiles("r-spade2"))
    after = play(play(p, "pa-money7"), "terraform b1 build")
    assert after.player("blue").money == 307 - 12 - 4
    assert after.player("blue").vp == 900 + 2 * 2


def test_d3_ifrit_edge_house_only_on_an_edge_hex() -> None:
    board = "wRk l.. l..\n  l.. l.. l..\nl.. l.. l.."
    p = make(board, {"red": "ifrit", "blue": "flaschengeister"}, {"red": {"money": 14}},
             round_tiles=NO_TILE)
    middle = p.grid.cell("b2")
    assert len(p.grid.neighbours[middle]) == rules.EDGE_NEIGHBOURS and middle not in p.board.edge
    with pytest.raises(IllegalTurn, match="not an edge hex"):
        play(p, "upgrade a1 pl @b2")
    assert play(p, "upgrade a1 pl @c1").buildings[p.grid.cell("c1")].kind == "house"


def test_d4_bridge_adjacency_option() -> None:
    board = "lBh r.. w..\n  r.. r.. r..\nw.. r.. wRh"
    for option, expected in (("all", True), ("owner", False)):
        p = make(board, {"blue": "flaschengeister", "red": "golems"},
                 {"blue": {"bridges": ["a1-c1"]}}, bridge_spots=["a1-c1"],
                 rules={"bridge_adjacency": option})
        assert (p.grid.cell("a1") in topo.adjacent(p, p.grid.cell("c1"), "red")) is expected
        assert p.grid.cell("a1") in topo.adjacent(p, p.grid.cell("c1"), "blue")


# b2 is the player's house; its six neighbours: b1 forest, c1 wasteland, a2 lake,
# c2 desert, b3 swamp, and the river c3.
WHEEL_BOARD = "r.. f.. w..\n  l.. {home}{letter}h d..\nr.. s.. r.."
SPADE_TABLE = {"lake": ({"forest", "swamp"}, {"wasteland", "desert"}),
               "forest": ({"lake", "wasteland"}, {"desert", "swamp"}),
               "wasteland": ({"forest", "desert"}, {"lake", "swamp"}),
               "desert": ({"wasteland", "swamp"}, {"lake", "forest"}),
               "swamp": ({"desert", "lake"}, {"forest", "wasteland"})}
"""The spec's wheel table, written out: home → (1-spade, 2-spade landscapes)."""


@pytest.mark.parametrize(("colour", "faction", "home"), [
    ("blue", "flaschengeister", "lake"), ("red", "golems", "wasteland"),
    ("yellow", "wuestentoechter", "desert"), ("green", "feen", "forest"),
    ("black", "kobolde", "swamp")])
def test_d5_d6_homes_and_spades_by_the_wheel(colour: str, faction: str, home: str) -> None:
    other = "red" if colour != "red" else "blue"
    board = WHEEL_BOARD.format(home=rules.LANDSCAPE_LETTER[home],
                               letter=rules.COLOUR_LETTER[colour])
    p = make(board, {colour: faction, other: "druiden" if other == "green" else
                     {"red": "ifrit", "blue": "seebaeren"}[other]},
             {colour: {"money": 20}}, round_tiles=NO_TILE)
    one, two = SPADE_TABLE[home]
    built, paid = set(), {}
    for cell in p.grid.neighbours[p.grid.cell("b2")]:
        if p.is_river(cell):
            continue
        land = rules.LETTER_LANDSCAPE[p.landscape[cell]]
        name = p.grid.name(cell)
        try:                                               # [D5] build on home directly
            play(p, f"build {name}")
            built.add(land)
        except IllegalTurn:
            paid[land] = 20 - play(p, f"terraform {name}").player(colour).money
    assert built == {home}
    assert paid == {land: rules.SPADE_COST * (1 if land in one else 2) for land in one | two}


def test_d7_faction_data_overridden_per_position() -> None:
    board = "lBh d.. r..\n  r.. r.. r.."
    factions = {"blue": "flaschengeister", "red": "golems"}
    default = make(board, factions, {"blue": {"money": 8}}, round_tiles=NO_TILE)
    changed = make(board, factions, {"blue": {"money": 8}}, round_tiles=NO_TILE,
                   faction_data={"flaschengeister": {"shipping_vp": [5, 7],
                                                     "house_income": [[1, 1]] * 8}})
    assert play(default, "ship").player("blue").vp == default_factions()[
        "flaschengeister"].shipping_vp[0] != 5
    assert play(changed, "ship").player("blue").vp == 5
    assert rounds.player_income(changed, "blue") == (1, 1)          # one house, no tile
    assert rounds.player_income(default, "blue") != rounds.player_income(changed, "blue")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_d10_setup_displays_3_plus_players_tiles(players: int) -> None:
    board, landscape = read_board(BOARDS_DIR / "base.toml")
    factions = default_factions()
    chosen = [factions[f] for f in ("flaschengeister", "golems", "feen", "kobolde")[:players]]
    p = rounds.setup(board, landscape, chosen, random.Random(players))
    held = [pl.bonus for pl in p.players]
    shown = [tile for tile, _ in p.bonus_display]
    assert len(set(held + shown)) == len(held + shown) == rules.BONUS_DISPLAY_EXTRA + players


def test_d9_gain_in_full_and_excess_lost() -> None:
    assert gain((0, 1, 7), 5) == (0, 0, 8)
    assert gain((8, 0, 0), 20) == (0, 0, 8)
    p = make("lBh l.. wRh\n  r.. r.. r..", {"blue": "flaschengeister", "red": "golems"},
             {"blue": {"money": 4}, "red": {"power": [1, 0, 7]}}, round_tiles=NO_TILE)
    assert play(p, "build b1").player("red").power == (0, 1, 7)   # no choice to decline


def test_d11_shipping_through_river_only() -> None:
    board = "lBh r.. r.. w.. w..\n  w.. w.. r.. w.. w.."
    p = make(board, {"blue": "flaschengeister", "red": "golems"},
             {"blue": {"shipping": 1}})
    reach = topo.in_range(p, "blue")
    g = p.grid
    assert g.cell("a2") in reach                          # side neighbour
    assert g.cell("b2") in reach                          # over 1 river hex (b1)
    assert g.cell("d1") not in reach                      # needs 2 river hexes
    p2 = make(board, {"blue": "flaschengeister", "red": "golems"}, {"blue": {"shipping": 2}})
    assert g.cell("d1") in topo.in_range(p2, "blue")
    assert g.cell("e1") not in topo.in_range(p2, "blue")  # never through land


D12_BOARD = "lBh w.. lBh lBh lBh\n  lBh lBh lBh lBh r.."


def test_d12_transform_without_house(monkeypatch: pytest.MonkeyPatch) -> None:
    p = make(D12_BOARD, {"blue": "flaschengeister", "red": "golems"},
             {"blue": {"money": 20, "towns": ["a1"], "town_tiles": ["t9", "t8p6", "tship"]}})
    assert p.houses_left("blue") == 0
    after = play(p, "terraform b1")
    assert after.landscape[p.grid.cell("b1")] == "l"
    with pytest.raises(IllegalTurn):
        play(p, "terraform b1 build")
    assert "terraform b1" in {format_turn(t, p.grid) for t in legal.legal_turns(p)}
    monkeypatch.setattr(act, "TRANSFORM_WITHOUT_HOUSE", False)
    monkeypatch.setattr(legal, "TRANSFORM_WITHOUT_HOUSE", False)
    with pytest.raises(IllegalTurn, match="D12"):
        play(p, "terraform b1")
    assert not any(t.action.name == "terraform" for t in legal.legal_turns(p))


def test_d13_free_spades_must_transform_and_count_needed(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    board = "l.. sKh s..\n  r.. r.. r.."
    p = make(board, {"black": "kobolde", "red": "golems"},
             {"black": {"money": 0, "power": [2, 0, 6]}}, round_tiles=tiles("r-spade2"))
    with pytest.raises(IllegalTurn, match="already home"):
        play(p, "pa-spade2 c1")                           # home already: nothing to do
    after = play(p, "pa-spade2 a1")                       # Kobolde (swamp): lake is 1 spade
    assert after.player("black").vp == 2                   # 1 spade used, the 2nd lost
    assert after.player("black").power == gain((8, 0, 0), 2)   # Kobolde: +2 per spade
    monkeypatch.setattr(act, "FREE_SPADES_MUST_TRANSFORM", False)
    monkeypatch.setattr(legal, "FREE_SPADES_MUST_TRANSFORM", False)
    assert play(p, "pa-spade2 c1").player("black").vp == 0      # allowed, 0 spades used
    assert "pa-spade2 c1" in {format_turn(t, p.grid) for t in legal.legal_turns(p)}


def test_d14_no_shipping_at_track_end_and_tship_vp_only(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    p = make(TOWN_BOARD, {"blue": "seebaeren", "red": "golems"},
             {"blue": {"money": 18, "shipping": 3}}, round_tiles=tiles("r-ship2"),
             bridge_spots=["b1-d1"])
    with pytest.raises(IllegalTurn, match="D14"):
        play(p, "ship")
    after = play(p, "bridge b1-d1 town:tship")
    assert after.player("blue").vp == 4 and after.player("blue").shipping == 3
    monkeypatch.setattr(act, "SHIP_AT_TRACK_END", True)
    paid = play(p, "ship").player("blue")
    assert (paid.money, paid.shipping, paid.vp) == (10, 3, 0)


def test_d16_pa_spade2_pairs() -> None:
    board = "lBh f.. s..\n  s.. r.. r.."
    p = make(board, {"blue": "flaschengeister", "red": "golems"},
             {"blue": {"power": [0, 2, 6]}}, round_tiles=NO_TILE)
    after = play(p, "pa-spade2 b1 a2 build a2")            # forest and swamp: 1 spade each
    assert after.landscape[p.grid.cell("b1")] == "l" == after.landscape[p.grid.cell("a2")]
    assert after.buildings[p.grid.cell("a2")] is not None
    with pytest.raises(IllegalTurn):
        play(p, "pa-spade2 b1 b1")                         # two different hexes
    with pytest.raises(IllegalTurn):
        play(p, "pa-spade2 b1 c1")                         # c1 only in range after b1
    q = make("lBh f.. s..\n  w.. r.. r..", {"blue": "flaschengeister", "red": "golems"},
             {"blue": {"power": [0, 2, 6]}}, round_tiles=NO_TILE)
    with pytest.raises(IllegalTurn, match="exactly 1 spade"):
        play(q, "pa-spade2 b1 a2")                         # wasteland needs 2 spades
    assert play(q, "pa-spade2 a2").landscape[q.grid.cell("a2")] == "l"   # alone it may


def test_d17_lake_house() -> None:
    board = "lBp l.. r.. l..\n  w.. r.. r.. r.."
    p = make(board, {"blue": "flaschengeister", "red": "golems"},
             {"blue": {"palaces": ["left"], "money": 0}}, round_tiles=NO_TILE)
    after = play(p, "lake-house d1")                       # no range needed, free
    assert after.buildings[p.grid.cell("d1")].kind == "house"
    with pytest.raises(IllegalTurn):
        play(after, "lake-house b1")                       # once per round
    with pytest.raises(IllegalTurn, match="D17"):
        play(p, "lake-house a2")                           # not a lake: no spades
    full = make("lBp lBh lBh lBh lBh l..\n  lBh lBh lBh lBh r.. r..",
                {"blue": "flaschengeister", "red": "golems"},
                {"blue": {"palaces": ["left"], "towns": ["a1"],
                          "town_tiles": ["t9", "t8p6", "tship"]}}, round_tiles=NO_TILE)
    with pytest.raises(IllegalTurn, match="no house left"):
        play(full, "lake-house f1")                        # needs a house on the tableau
    assert not any(t.action.name == "lake-house" for t in legal.legal_turns(full))


def test_d18_desert_dig_by_side_only(monkeypatch: pytest.MonkeyPatch) -> None:
    board = "dYp r.. l.. l..\n  w.. r.. r.. r.."
    p = make(board, {"yellow": "wuestentoechter", "red": "golems"},
             {"yellow": {"palaces": ["left"], "money": 4}}, round_tiles=NO_TILE)
    after = play(p, "desert-dig a2 build")
    assert after.landscape[p.grid.cell("a2")] == "d" and after.player("yellow").money == 0
    with pytest.raises(IllegalTurn):
        play(p, "desert-dig c1")                           # across the river
    shipping = make(board, {"yellow": "wuestentoechter", "red": "golems"},
                    {"yellow": {"palaces": ["left"], "money": 4, "shipping": 1}},
                    round_tiles=NO_TILE)
    with pytest.raises(IllegalTurn, match="D18|side"):
        play(shipping, "desert-dig c1")                    # in range by ship, yet no side
    bridged = make(board, {"yellow": "wuestentoechter", "red": "golems"},
                   {"yellow": {"palaces": ["left"], "bridges": ["a1-c1"]}},
                   bridge_spots=["a1-c1"], round_tiles=NO_TILE)
    with pytest.raises(IllegalTurn, match="D18"):
        play(bridged, "desert-dig c1")                     # joined by a bridge only
    monkeypatch.setattr(act, "DESERT_DIG_BY_SIDE_ONLY", False)
    assert play(bridged, "desert-dig c1").landscape[p.grid.cell("c1")] == "d"
    assert "desert-dig c1" in {format_turn(t, p.grid) for t in legal.legal_turns(bridged)}


def test_d19_inv_kontor_repeatable(monkeypatch: pytest.MonkeyPatch) -> None:
    board = "sKp l.. w.. r..\n  w.. r.. r.. r.."
    p = make(board, {"black": "erfinderinnen", "red": "golems"},
             {"black": {"palaces": ["left"], "power": [0, 0, 8]}}, round_tiles=NO_TILE)
    after = play(p, "inv-kontor b1")
    assert after.buildings[p.grid.cell("b1")].kind == "kontor"
    assert after.landscape[p.grid.cell("b1")] == "s"
    assert after.power_actions_used == () and after.player("black").specials_used == ()
    after = after.with_player(replace(after.player("black"), power=(0, 0, 8)))
    assert play(after, "inv-kontor a2").buildings[p.grid.cell("a2")].kind == "kontor"
    monkeypatch.setattr(act, "REPEATABLE_SPECIALS", frozenset())
    once = play(p, "inv-kontor b1")
    assert once.player("black").specials_used == ("inv-kontor",)
    with pytest.raises(IllegalTurn, match="used this round"):
        play(once.with_player(replace(once.player("black"), power=(0, 0, 8))),
             "inv-kontor a2")


IFRIT_FULL = "wRk wRh wRh r.. wRh wRh wRh r.. l..\n  wRh r.. r.. r.. wRh wRh r.. r.. r.."


def test_d20_ifrit_edge_house(monkeypatch: pytest.MonkeyPatch) -> None:
    board = "wRk l.. r.. l..\n  w.. r.. r.. r..\nr.. r.. r.. r.."
    p = make(board, {"red": "ifrit", "blue": "flaschengeister"},
             {"red": {"money": 14}}, round_tiles=NO_TILE)
    after = play(p, "upgrade a1 pl @d1")                   # any landscape: a lake
    assert after.landscape[p.grid.cell("d1")] == "w"
    assert after.buildings[p.grid.cell("d1")].kind == "house"
    full = make(IFRIT_FULL, {"red": "ifrit", "blue": "flaschengeister"},
                {"red": {"money": 14}}, round_tiles=NO_TILE)
    assert full.houses_left("red") == 0
    after = play(full, "upgrade a1 pl @i1")                # no house left: transform only
    assert after.landscape[full.grid.cell("i1")] == "w"
    assert after.buildings[full.grid.cell("i1")] is None
    monkeypatch.setattr(act, "IFRIT_EDGE_NEEDS_HOUSE", True)
    with pytest.raises(IllegalTurn, match="no house left"):
        play(full, "upgrade a1 pl @i1")


def test_d21_taking_a_tile_takes_its_coins(monkeypatch: pytest.MonkeyPatch) -> None:
    p = make("lBh w..\n  r.. wRh", {"blue": "flaschengeister", "red": "golems"},
             {"blue": {"money": 0}}, bonus_display={"b-house": 3, "b-ship": 0})
    after = play(p, "pass b-house")
    assert after.player("blue").money == 3 and "b-house" not in dict(after.bonus_display)
    monkeypatch.setattr(act, "BONUS_COINS_TAKEN", False)
    assert play(p, "pass b-house").player("blue").money == 0


def test_d23_final_round_swap_option() -> None:
    board = "lBh w..\n  r.. wRh"
    base = {"round": 5, "passed": ["red"], "round_tiles": NO_TILE}
    p = make(board, {"blue": "flaschengeister", "red": "golems"}, {"blue": {"money": 0}},
             **base)
    assert play(p, "pass b-house").player("blue").money == 2
    with pytest.raises(IllegalTurn):
        play(p, "pass")
    q = make(board, {"blue": "flaschengeister", "red": "golems"}, {"blue": {"money": 0}},
             rules={"final_round_swap": False}, **base)
    assert play(q, "pass").player("blue").money == 0
    with pytest.raises(IllegalTurn):
        play(q, "pass b-house")


def test_d24_power_to_passed_players(monkeypatch: pytest.MonkeyPatch) -> None:
    p = make("lBh l.. wRh\n  r.. r.. r..", {"blue": "flaschengeister", "red": "golems"},
             {"blue": {"money": 4}, "red": {"power": [4, 4, 0]}}, passed=["red"],
             round_tiles=NO_TILE)
    assert play(p, "build b1").player("red").power == (3, 5, 0)
    monkeypatch.setattr(act, "NEIGHBOUR_POWER_TO_PASSED", False)
    assert play(p, "build b1").player("red").power == (4, 4, 0)


def test_d25_several_towns_in_one_action() -> None:
    board = "lBk lBk lBh lBh r.. lBk lBk lBh lBh\n  r.. r.. r.. r.. r.. r.. r.. r.. r.."
    p = make(board, {"blue": "flaschengeister", "red": "golems"}, {"blue": {"money": 14}},
             round_tiles=tiles("r-town5"))
    validate(p)                                           # value 6 each: no town yet
    with pytest.raises(IllegalTurn):
        play(p, "upgrade a1 pr town:t9")                  # two towns are due
    with pytest.raises(IllegalTurn):
        play(p, "upgrade a1 pr")                          # founding is automatic
    with pytest.raises(IllegalTurn, match="two town tiles"):
        play(p, "upgrade a1 pr town:t9@a1 town:t8p6@b1")  # one town per component
    after = play(p, "upgrade a1 pr town:t9@a1 town:t8p6@f1")   # TOWN6: both at once
    assert after.player("blue").vp == 9 + 6 + 2 * 5 + 2 * 4    # tiles, round tile, ability
    assert len(after.player("blue").towns) == 2
    assert legal.town_choices(after) == [()]


def test_town_grows_instead_of_founding_again() -> None:
    board = "lBh lBk r.. lBk lBk l..\n  w.. r.. r.. w.. r.. r.."
    p = make(board, {"blue": "seebaeren", "red": "golems"},
             {"blue": {"money": 14, "towns": ["a1"], "town_tiles": ["t9", "t8p6", "tship"],
                       "bridges": ["b1-d1"]}}, bridge_spots=["b1-d1"], round_tiles=NO_TILE)
    after = play(p, "build f1")                            # [D25] 5 buildings, one town
    assert after.player("blue").town_tiles == ("t9", "t8p6", "tship")


def test_d26_seebaeren_river_town() -> None:
    board = "lBk lBk r.. lBk lBk\n  r.. r.. r.. r.. r.."
    p = make(board, {"blue": "seebaeren", "red": "golems"}, {"blue": {"money": 8}},
             round_tiles=NO_TILE)
    after = play(p, "ship town:t9@c1")                    # optional: link over c1
    blue = after.player("blue")
    assert blue.towns == (p.grid.cell("c1"),) and blue.vp >= 9
    assert blue.links == ((p.grid.cell("b1"), p.grid.cell("d1")),)
    assert play(p, "ship").player("blue").towns == ()      # founding is optional


def test_d27_qualifying_component_is_illegal(monkeypatch: pytest.MonkeyPatch) -> None:
    board = "lBk lBk lBk lBh r..\n  r.. r.. r.. r.. r.."
    p = make(board, {"blue": "flaschengeister", "red": "golems"})
    with pytest.raises(InputError, match="D27"):
        validate(p)
    q = make(board, {"blue": "flaschengeister", "red": "golems"},
             {"blue": {"towns": ["a1"], "town_tiles": ["t9", "t8p6", "tship"]}})
    validate(q)
    monkeypatch.setattr(validate_module, "QUALIFYING_COMPONENT_ILLEGAL", False)
    validate(p)


def test_d28_settlements_druiden_pass_power() -> None:
    board = "fGp r.. fGh fGh\n  r.. r.. r.. r.."
    p = make(board, {"green": "druiden", "red": "golems"},
             {"green": {"palaces": ["left"], "power": [8, 0, 0]}}, round_tiles=NO_TILE)
    assert len(topo.components(p, "green")) == 2
    assert pass_bonus(p, "green") == (0, 4)                # 2 power per settlement
    q = make(board, {"green": "druiden", "red": "golems"},
             {"green": {"palaces": ["left"], "power": [8, 0, 0], "bridges": ["a1-c1"]}},
             bridge_spots=["a1-c1"], round_tiles=NO_TILE)
    assert pass_bonus(q, "green") == (0, 2)                # a bridge joins the settlements


def test_d29_feline_right_palace_counts_buildings_off_the_river() -> None:
    board = "dYp dYh r..\n  dYh w.. w.."
    p = make(board, {"yellow": "feline", "red": "golems"},
             {"yellow": {"palaces": ["right"]}}, round_tiles=NO_TILE)
    off = [c for c in p.buildings_of("yellow") if c not in p.board.river_adjacent]
    assert pass_bonus(p, "yellow")[0] == len(off) == 2


def test_d30_setup_draws_from_the_round_tile_set() -> None:
    board, landscape = read_board(BOARDS_DIR / "base.toml")
    factions = default_factions()
    chosen = [factions["flaschengeister"], factions["golems"]]
    supply = Counter(rules.ROUND_TILE_SET)
    doubled = False
    for seed in range(40):
        drawn = Counter(rounds.setup(board, landscape, chosen, random.Random(seed)).round_tiles)
        assert all(drawn[t] <= supply[t] for t in drawn)
        doubled |= max(drawn.values()) == 2
    assert doubled                                         # the set holds two doubles
    twice = make("lBh w..\n  r.. wRh", {"blue": "flaschengeister", "red": "golems"},
                 round_tiles=["r-spade2", "r-spade2", "r-house2", "r-house2", "r-town5"])
    assert twice.round_tiles.count("r-spade2") == 2        # positions name tiles by kind


def test_d31_bonus_tiles_named_by_content() -> None:
    with pytest.raises(InputError, match="bonus"):
        make("lBh w..\n  r.. wRh", {"blue": "flaschengeister", "red": "golems"},
             {"blue": {"bonus": "A"}})
    with pytest.raises(InputError, match="bonus tile"):
        parse_turn("pass A", read_board(BOARDS_DIR / "base.toml")[0].grid)


def test_d32_druiden_exchange_at_end(monkeypatch: pytest.MonkeyPatch) -> None:
    assert money_points(0, 6, druid=True) == 4            # 2 triples
    assert money_points(0, 6, druid=False) == 2
    assert money_points(1, 5, druid=True) == 3            # 1 triple (2 VP) + 3 money (1)
    p = make("fGh r.. wRh\n  r.. r.. r..", {"green": "druiden", "red": "golems"},
             {"green": {"money": 0, "power": [2, 0, 6]}}, round=5, passed=["red"],
             round_tiles=NO_TILE)
    assert final_scores(p)["green"] == 4 + 10              # 2 triples + shared area places
    monkeypatch.setattr(scoring, "DRUID_EXCHANGE_AT_END", False)
    assert final_scores(p)["green"] == 2 + 10


def test_d33_tied_players_share_the_win() -> None:
    assert winners({"blue": 30, "red": 30, "yellow": 12}) == ("blue", "red")
    assert winners({"blue": 31, "red": 30}) == ("blue",)


def test_d34_neutral_houses_count_for_nobody() -> None:
    board = "lBh lNh lBh\n  r.. r.. r.."
    p = make(board, {"blue": "flaschengeister", "red": "golems"}, variant="planer",
             neutral="green")
    assert topo.area_group(p, "blue") == 1
    assert p.grid.cell("b1") not in topo.in_range(p, "red")
    assert len(topo.components(p, "blue")) == 2            # no settlement through it
    q = make("lBh lNh l..\n  r.. r.. r..", {"blue": "flaschengeister", "red": "golems"},
             {"blue": {"money": 11}, "red": {"power": [4, 4, 0]}}, variant="planer",
             neutral="green", round_tiles=NO_TILE)
    after = play(q, "upgrade a1 k")                        # the neutral house: 7, not 10
    assert after.player("blue").money == 4                # neutral: no power to give to


def test_d35_puzzles_need_every_other_player_passed() -> None:
    p = make("lBh w..\n  r.. wRh", {"blue": "flaschengeister", "red": "golems"}, round=5)
    with pytest.raises(PuzzleError, match="D35"):
        check_puzzle(p)
    check_puzzle(p.replace(passed=("red",)))


def test_d36_setup_places_start_houses() -> None:
    board, landscape = read_board(BOARDS_DIR / "base.toml")
    factions = default_factions()
    chosen = [factions[f] for f in ("flaschengeister", "wuestentoechter", "erfinderinnen")]
    p = rounds.setup(board, landscape, chosen, random.Random(3))
    assert [len(p.buildings_of(f.colour)) for f in chosen] == [2, 3, 2]
    assert all(pl.vp == 0 for pl in p.players)
    for pl in p.players:            # start power + income only: no Erfinderinnen power
        assert pl.power == gain(rules.POWER_START, rounds.player_income(p, pl.colour)[1])
    assert all(coins == 1 for _, coins in p.bonus_display)


def test_d38_the_others_sit_out_the_later_rounds(monkeypatch: pytest.MonkeyPatch) -> None:
    p = make("lBh l.. r.. wRh\n  f.. w.. r.. wRh", {"blue": "flaschengeister", "red": "golems"},
             {"blue": {"money": 5, "bonus": "b-ship"},
              "red": {"vp": 30, "money": 3, "power": [4, 4, 0], "bonus": "b-house"}},
             round=4, passed=["red"], start="red",
             bonus_display={"b-money6": 1, "b-m3p3": 2})
    after = play(p, "pass b-money6")
    nxt = lastrounds.between_rounds(after)
    red = nxt.player("red")
    assert red.vp == 30 and red.bonus == "b-house" and nxt.passed == ("red",)
    assert dict(nxt.bonus_display) == {"b-m3p3": 3, "b-ship": 1}
    monkeypatch.setattr(lastrounds, "OTHERS_SIT_OUT_LATER_ROUNDS", False)
    nxt = lastrounds.between_rounds(after)
    red = nxt.player("red")
    # red passes as in a game: b-house scores its 2 houses, Golems no Kontor; it takes
    # the tile with the most coins
    assert red.vp == 30 + 2 and red.bonus == "b-m3p3" and nxt.passed == ("red",)
    assert red.money == 3 + 2 + 2 + 3
    assert dict(nxt.bonus_display) == {"b-house": 0, "b-ship": 1}
    assert nxt.to_move == "blue"


def test_final_scores_example() -> None:
    board = "lBh lBh r.. wRh\n  r.. r.. r.. r.."
    p = make(board, {"blue": "flaschengeister", "red": "golems"},
             {"blue": {"vp": 10, "money": 5, "power": [0, 4, 4]},
              "red": {"vp": 20, "money": 2, "power": [4, 4, 0]}},
             round=5, passed=["red"], round_tiles=NO_TILE)
    assert final_scores(p) == {"blue": 10 + 3 + 12, "red": 20 + 0 + 8}


def test_erfinderinnen_and_feline_watch_others() -> None:
    board = "lBh l.. r.. sKh\n  r.. r.. r.. r.."
    p = make(board, {"blue": "flaschengeister", "black": "erfinderinnen"},
             {"blue": {"money": 14}, "black": {"power": [4, 4, 0]}}, round_tiles=NO_TILE)
    assert play(p, "build b1").player("black").power == (2, 6, 0)          # 2 players: +2
    board = "lBh l.. r.. dYh\n  r.. r.. r.. r..\nwRh r.. r.. r.."
    p = make(board, {"blue": "flaschengeister", "yellow": "feline", "red": "golems"},
             {"blue": {"money": 14}, "yellow": {"money": 0}}, round_tiles=NO_TILE)
    assert play(p, "upgrade a1 k").player("yellow").money == 1             # 3 players: +1
    assert play(p, "build b1").player("yellow").money == 0


def test_turn_order_pass_option() -> None:
    board = "lBh l.. wRh\n  r.. r.. dYh"
    factions = {"blue": "flaschengeister", "red": "golems", "yellow": "feline"}
    for option, expected in (("standard", ("yellow", ["yellow", "blue", "red"])),
                             ("pass", ("red", ["red", "yellow", "blue"]))):
        p = make(board, factions, passed=["red", "yellow"], start="yellow",
                 rules={"turn_order": option})
        after = rounds.advance(play(p, "pass b-money6"))
        assert after.round == 2 and after.to_move == expected[0]
        seen = [after.to_move]
        for _ in range(2):
            after = after.replace(to_move=rounds.next_seat(after))
            seen.append(after.to_move)
        assert seen == expected[1]


def test_variants_planer_and_glueckgraeber() -> None:
    from solver.terra_nova_kosmos.engine.playout import random_game
    board, landscape = read_board(BOARDS_DIR / "two-player.toml")
    factions = default_factions()
    chosen = [factions["flaschengeister"], factions["golems"]]
    for seed in range(6):
        final, steps = random_game(board, landscape, chosen, seed, variant="planer")
        neutral = final.buildings_of("neutral")
        assert final.neutral not in ("blue", "red") and 1 <= len(neutral) <= 3
        home = rules.LANDSCAPE_LETTER[rules.HOME[final.neutral]]
        assert all(c in board.neutral_marks and final.landscape[c] == home for c in neutral)
        final, _ = random_game(board, landscape, chosen, seed, variant="glueckgraeber")
        assert all(c in board.neutral_marks for c in final.buildings_of("neutral"))
        assert len(final.buildings_of("neutral")) <= 2 * 5
    with pytest.raises(InputError):
        rounds.setup(board, landscape, chosen + [factions["feline"]], random.Random(1),
                     variant="planer")


def test_d37_planer_transformed_mark_takes_no_house() -> None:
    board, landscape = read_board(BOARDS_DIR / "two-player.toml")
    factions = default_factions()
    p = rounds.setup(board, landscape, [factions["flaschengeister"], factions["golems"]],
                     random.Random(2), variant="planer")
    home = rules.LANDSCAPE_LETTER[rules.HOME[p.neutral]]
    free = [c for c in board.neutral_marks if landscape[c] == home and p.buildings[c] is None]
    changed = list(p.landscape)
    changed[free[0]] = next(x for x in "lfwds" if x != home)
    q = p.replace(round=3, landscape=tuple(changed), passed=p.colours)
    after = rounds.end_round(q)
    placed = set(after.buildings_of("neutral")) - set(p.buildings_of("neutral"))
    assert free[0] not in placed and placed == set(free[1:3])


# ---- faction abilities and palaces ---------------------------------------------------------

def test_kobolde_palace_power_and_seebaeren_palace_ship() -> None:
    p = make("sKk l.. r..\n  r.. r.. r..", {"black": "kobolde", "red": "golems"},
             {"black": {"money": 14, "power": [8, 0, 0]}}, round_tiles=NO_TILE)
    assert play(p, "upgrade a1 pl").player("black").power == gain((8, 0, 0), 6)
    q = make("lBk l.. r..\n  r.. r.. r..", {"blue": "seebaeren", "red": "golems"},
             {"blue": {"money": 14}}, round_tiles=tiles("r-ship2"))
    after = play(q, "upgrade a1 pl ship")
    assert after.player("blue").shipping == 1
    assert after.player("blue").vp == 2 + 2               # track space 1, round tile
    assert play(q, "upgrade a1 pl").player("blue").shipping == 0       # optional


def test_golems_palace_spade_and_pass_vp() -> None:
    p = make("wRp l.. r..\n  r.. r.. r..", {"red": "golems", "blue": "flaschengeister"},
             {"red": {"money": 6, "palaces": ["left"]}}, round_tiles=NO_TILE)
    after = play(p, "terraform b1")                        # lake → wasteland: 2 → 1 spade
    assert after.player("red").money == 0
    q = make("wRk wRk wRk\n  r.. r.. r..", {"red": "golems", "blue": "flaschengeister"},
             {"red": {"towns": ["a1"], "town_tiles": ["t9", "t8p6", "tship"]}})
    assert pass_bonus(q, "red") == (3, 0)                   # 3 Kontore → 3 VP


def test_feline_and_druiden_palaces() -> None:
    p = make("dYp dYh r..\n  r.. r.. r..", {"yellow": "feline", "red": "golems"},
             {"yellow": {"money": 7, "palaces": ["left"]}}, round_tiles=NO_TILE)
    assert play(p, "upgrade b1 k").player("yellow").money == 0   # Feline: 7 alone
    q = make("fGp fGh r..\n  r.. r.. r..", {"green": "druiden", "red": "golems"},
             {"green": {"money": 10, "palaces": ["right"]}}, round_tiles=tiles("r-kontor3"))
    assert play(q, "upgrade b1 k").player("green").vp == 3 + 3


def test_erfinderinnen_palace_ifrit_rebate_and_right_palace() -> None:
    p = make("sKp l.. r..\n  r.. r.. r..", {"black": "erfinderinnen", "red": "golems"},
             {"black": {"money": 4, "palaces": ["right"]}}, round_tiles=NO_TILE)
    p = p.replace(landscape=tuple("s" if i == p.grid.cell("b1") else land
                                  for i, land in enumerate(p.landscape)))
    assert play(p, "build b1").player("black").vp == 2
    q = make("wRp w.. r..\n  r.. r.. r..", {"red": "ifrit", "blue": "flaschengeister"},
             {"red": {"power": [5, 0, 3], "palaces": ["right"]}}, round_tiles=NO_TILE)
    assert play(q, "pa-money7").player("red").power == (8, 0, 0)  # 4 - 1 power
    assert pass_bonus(q, "red") == (1, 0)                  # one settlement on the edge


def test_feen_income_and_spade_action() -> None:
    p = make("fGp l.. r..\n  r.. r.. r..", {"green": "feen", "red": "golems"},
             {"green": {"money": 4, "palaces": ["left"], "power": [4, 2, 2]}},
             round_tiles=NO_TILE)
    money, power = rounds.player_income(p, "green")
    assert power == 3 + 2 and money == 2                   # palace 3 power 2 money, ability 2
    after = play(p, "feen-spade b1 build")                 # forest home: lake is 1 spade
    assert after.player("green").power == (6, 2, 0) and after.player("green").money == 0
    with pytest.raises(IllegalTurn):
        play(after, "feen-spade b1")                       # once per round


@pytest.mark.parametrize(("tile", "vp"), [("b-house", 2), ("b-kontor", 2), ("b-palace", 4),
                                          ("b-ship", 6), ("b-money6", 0)])
def test_bonus_tiles_on_passing(tile: str, vp: int) -> None:
    p = make("lBp lBk lBh lBh\n  r.. r.. r.. r..", {"blue": "seebaeren", "red": "golems"},
             {"blue": {"bonus": tile, "shipping": 2, "palaces": ["left"]}},
             bonus_display={"b-m3p3": 0, "b-reach": 0, "b-spade": 0})
    assert pass_bonus(p, "blue") == (vp, 0)


def test_b_reach_in_phase_2_only_and_b_spade() -> None:
    board = "lBh r.. l.. r..\n  r.. r.. r.. r.."
    p = make(board, {"blue": "flaschengeister", "red": "golems"},
             {"blue": {"bonus": "b-reach", "money": 4}})
    assert p.grid.cell("c1") in topo.in_range(p, "blue")     # shipping 0 + 1
    assert topo.shipping_value(p, "blue", final=True) == 0
    q = make("lBh w.. f..\n  r.. r.. r..", {"blue": "flaschengeister", "red": "golems"},
             {"blue": {"bonus": "b-spade", "money": 10}}, round_tiles=NO_TILE)
    after = play(q, "b-spade b1 build")                     # 2 spades: 1 free, 1 bought
    assert after.player("blue").money == 0 and after.player("blue").specials_used == ("b-spade",)
    assert act.spades_needed(after, "blue", q.grid.cell("c1")) == 1
    with pytest.raises(IllegalTurn, match="used this round"):
        play(after, "b-spade c1")


def test_d26_river_town_after_any_action_even_the_pass() -> None:
    board = "lBk lBk r.. lBk lBk\n  r.. r.. r.. r.. r.."
    p = make(board, {"blue": "seebaeren", "red": "golems"}, round_tiles=NO_TILE)
    turns = {format_turn(t, p.grid) for t in legal.legal_turns(p)}
    assert "pass b-house town:t9@c1" in turns and "pass b-house" in turns
    assert play(p, "pass b-house town:t9@c1").player("blue").vp == 9
