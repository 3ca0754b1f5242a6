"""Terra Nova (KOSMOS 2022): the numbers of the game and the decisions [Dn].

Data only, no legality logic: the engine and the model both read these
constants and tables and share nothing else about the rules. Every decision
the rulebook leaves open that could be taken another way is a named constant
or a field of :class:`Rules` that the engine reads (docs/terra-nova-kosmos.md
lists them all, with the function holding each of the others). Faction tableaux are data too
(``factions.toml``, read by :mod:`solver.terra_nova_kosmos.fileformat`).
"""

from __future__ import annotations

from dataclasses import dataclass

# ---- landscapes and colours ---------------------------------------------------------------

LANDSCAPES: tuple[str, ...] = ("lake", "forest", "wasteland", "desert", "swamp")
"""[D6] The landscape wheel, clockwise from the top, the same cyclic order for every faction."""

LANDSCAPE_LETTER: dict[str, str] = {"lake": "l", "forest": "f", "wasteland": "w",
                                    "desert": "d", "swamp": "s"}
RIVER = "r"
"""Board letter of a river hex (never built on, never transformed)."""
LETTER_LANDSCAPE: dict[str, str] = {v: k for k, v in LANDSCAPE_LETTER.items()}

COLOURS: tuple[str, ...] = ("yellow", "blue", "green", "red", "black")
COLOUR_LETTER: dict[str, str] = {"yellow": "Y", "blue": "B", "green": "G", "red": "R",
                                 "black": "K"}
NEUTRAL = "neutral"
"""Owner of the 2-player variants' neutral houses (board letter ``N``)."""
NEUTRAL_LETTER = "N"

HOME: dict[str, str] = {"blue": "lake", "red": "wasteland", "yellow": "desert",
                        "green": "forest", "black": "swamp"}
"""[D5] Home landscape of each colour: blue and red from the text, the rest project values."""

SPADES: dict[str, dict[str, int]] = {
    home: {land: min((j - i) % 5, (i - j) % 5) for j, land in enumerate(LANDSCAPES)}
    for i, home in enumerate(LANDSCAPES)
}
"""[D6] ``SPADES[home][landscape]``: spades to make ``landscape`` habitable (the cyclic
distance on the wheel; 0 for home, else 1 or 2)."""

# ---- buildings and supply -----------------------------------------------------------------

HOUSE, KONTOR, PALACE = "house", "kontor", "palace"
BUILDING_LETTER: dict[str, str] = {HOUSE: "h", KONTOR: "k", PALACE: "p"}
LETTER_BUILDING: dict[str, str] = {v: k for k, v in BUILDING_LETTER.items()}

HOUSES = 8
KONTORE = 4
PALACES = 2
BRIDGES = 3
TOWN_TILES_EACH = 4
ROUNDS = 5
PALACE_SIDES: tuple[str, ...] = ("left", "right")

# ---- costs ------------------------------------------------------------------------------

HOUSE_COST = 4
SPADE_COST = 6
KONTOR_COST = 10
KONTOR_COST_NEIGHBOUR = 7
FELINE_KONTOR_COST = 7
FELINE_KONTOR_COST_NEIGHBOUR = 5
PALACE_COST = 14
SHIP_COST = 8
BRIDGE_COST = 10

# ---- power --------------------------------------------------------------------------------

POWER_START: tuple[int, int, int] = (2, 2, 4)
"""Bowls I, II, III at setup, for every faction (rulebook; formerly [D8])."""
POWER_TOKENS = 8

POWER_ACTIONS: dict[str, int] = {
    "pa-bridge3": 3, "pa-bridge4": 4, "pa-ship": 4, "pa-money7": 4, "pa-spade1": 4,
    "pa-spade2": 6,
}
"""The six board power actions and their power cost (two bridge actions: formerly [D15])."""
PA_MONEY = 7
IFRIT_POWER_REBATE = 1
"""Ifrit pay 1 power less on every power action (not on exchanges, not on ``inv-kontor``)."""
FEEN_SPADE_POWER = 2
INV_KONTOR_POWER = 6
KOBOLDE_POWER_PER_SPADE = 2
KOBOLDE_PALACE_POWER = 6
FEEN_INCOME_POWER = 2
DRUID_TRIPLE = (3, 2)
"""Druiden exchange: 3 power from bowl III → 2 VP, any number of times."""

SPECIAL_ACTIONS: tuple[str, ...] = ("b-spade", "feen-spade", "lake-house", "free-kontor",
                                    "desert-dig", "inv-kontor")
"""Special actions; all but :data:`REPEATABLE_SPECIALS` once per round (X-marker)."""
REPEATABLE_SPECIALS: frozenset[str] = frozenset({"inv-kontor"})
"""[D19] Special actions with no X-marker: ``inv-kontor`` may be taken again in the same
round; it is no power action either (no board marker, no Ifrit rebate)."""

# ---- towns --------------------------------------------------------------------------------

TOWN_VALUE: dict[str, int] = {HOUSE: 1, KONTOR: 2, PALACE: 3}
TOWN_MIN_BUILDINGS = 4
TOWN_MIN_VALUE = 7
TOWN6_MIN_VALUE = 6
"""With the side-A right palace ``TOWN6``."""
FLASCHENGEISTER_TOWN_VP = 4


@dataclass(frozen=True)
class TownTile:
    """A town tile's bonus."""

    money: int = 0
    vp: int = 0
    power: int = 0
    shipping: int = 0


TOWN_TILES: dict[str, TownTile] = {
    "t6g5": TownTile(money=6, vp=5),
    "t9": TownTile(vp=9),
    "t8p6": TownTile(power=8, vp=6),
    "tship": TownTile(shipping=1, vp=4),
}
"""Every colour's four town tiles (the same four for each)."""

# ---- round and bonus tiles ----------------------------------------------------------------

ROUND_TILES: dict[str, int] = {"r-house2": 2, "r-kontor3": 3, "r-palace5": 5, "r-town5": 5,
                               "r-ship2": 2, "r-spade2": 2}
"""Round tile → VP per house built / Kontor / palace / town / shipping step / spade used."""
ROUND_TILE_SET: tuple[str, ...] = ("r-house2", "r-house2", "r-kontor3", "r-palace5", "r-town5",
                                   "r-ship2", "r-spade2", "r-spade2")
"""[D30] The 8 round tiles setup draws from: 6 kinds in the text, the 2 doubles a project value."""


@dataclass(frozen=True)
class BonusTile:
    """A bonus tile: income, and what it scores on passing (per unit)."""

    money: int = 0
    power: int = 0
    reach: int = 0
    special: str | None = None
    pass_vp: int = 0
    pass_per: str | None = None
    """``house``, ``kontor``, ``palace`` (own buildings on the board) or ``shipping``."""


BONUS_TILES: dict[str, BonusTile] = {
    "b-money6": BonusTile(money=6),
    "b-m3p3": BonusTile(money=3, power=3),
    "b-reach": BonusTile(power=3, reach=1),
    "b-spade": BonusTile(money=2, special="b-spade"),
    "b-house": BonusTile(money=2, pass_vp=1, pass_per=HOUSE),
    "b-kontor": BonusTile(power=2, pass_vp=2, pass_per=KONTOR),
    "b-palace": BonusTile(power=4, pass_vp=4, pass_per=PALACE),
    "b-ship": BonusTile(power=3, pass_vp=3, pass_per="shipping"),
}
"""[D31] The 8 bonus tiles, named by content (the printed letters A–H are pictures)."""
BONUS_DISPLAY_EXTRA = 3
"""Setup puts ``3 + players`` bonus tiles on display ([D10]: 3 players → 6 tiles, A–F)."""

GOLEMS_PASS_VP: dict[int, int] = {0: 0, 1: 2, 2: 2, 3: 3, 4: 4}
"""Golems on passing, by own Kontore on the board."""

# ---- final scoring ------------------------------------------------------------------------

AREA_POINTS: tuple[int, ...] = (12, 8, 4, 0)
MONEY_PER_VP = 3

# ---- factions -----------------------------------------------------------------------------

FACTION_IDS: tuple[str, ...] = ("flaschengeister", "golems", "kobolde", "feen",
                                "wuestentoechter", "seebaeren", "ifrit", "erfinderinnen",
                                "druiden", "feline")
SIDE_A: frozenset[str] = frozenset(FACTION_IDS[:5])
"""Side-A factions share the right palace ``TOWN6``."""


@dataclass(frozen=True)
class Faction:
    """One faction's tableau data [D7] (``factions.toml``, overridable per position)."""

    id: str
    name: str
    side: str
    colour: str
    start_money: int
    house_income: tuple[tuple[int, int], ...]
    """``(money, power)`` under each of the 8 house slots, left to right."""
    kontor_income: tuple[tuple[int, int], ...]
    """``(money, power)`` under each of the 4 Kontor slots."""
    palace_income: tuple[int, int]
    """``(money, power)`` of the built left palace (rulebook values)."""
    shipping_vp: tuple[int, ...]
    """VP printed on shipping spaces 1, 2, …; the track ends at ``len(shipping_vp)``."""

    @property
    def home(self) -> str:
        """The faction's home landscape (its colour's [D5])."""
        return HOME[self.colour]

    @property
    def max_shipping(self) -> int:
        """The last space of the shipping track [D14]."""
        return len(self.shipping_vp)


# ---- rule options -------------------------------------------------------------------------

BRIDGE_ADJACENCY = ("all", "owner")
TURN_ORDERS = ("standard", "pass")
VARIANTS = ("standard", "planer", "glueckgraeber")


@dataclass(frozen=True)
class Rules:
    """The rule options of a position (``rules = {…}`` in the file)."""

    bridge_adjacency: str = "all"
    """[D4] ``all``: a bridge joins its hexes for every player; ``owner``: for its owner only."""
    final_round_swap: bool = True
    """[D23] Passing in round 5 swaps the bonus tile and takes its coins too."""
    turn_order: str = "standard"
    """``pass``: from round 2 players act in the order they passed the round before."""


DEFAULT_RULES = Rules()

# ---- the remaining decisions, each read by the engine -------------------------------------
# Decisions the engine holds in its structure rather than in a flag: no cap on money
# [D1], gains in full [D9], river-only shipping [D11], towns and settlements as
# components [D25][D28], optional river links [D26], river adjacency by side [D29],
# shared wins [D33], neutral houses owned by nobody [D34], puzzles after the others
# passed [D35], start houses placed [D36], a transformed Planer mark no longer its
# colour's [D37]. docs/terra-nova-kosmos.md names the function that holds each.

EDGE_NEIGHBOURS = 6
"""[D3] An edge hex is a landscape hex with fewer than this many neighbouring cells."""
TRANSFORM_WITHOUT_HOUSE = True
"""[D12] Transforming without building is legal, also with no house left."""
FREE_SPADES_MUST_TRANSFORM = True
"""[D13] A free-spade action transforms at least one hex (not one already home);
unused free spades are lost."""
SHIP_AT_TRACK_END = False
"""[D14] Shipping at the last track space is illegal; ``tship`` there gives its VP only."""
PA_SPADE2_PAIR_SPADES = 1
"""[D16] ``pa-spade2`` on two distinct hexes: each needs exactly this many spades."""
LAKE_HOUSE_LANDSCAPE = "lake"
"""[D17] ``lake-house`` builds only on an unbuilt hex of this landscape (no spades) and
needs a house on the tableau."""
DESERT_DIG_BY_SIDE_ONLY = True
"""[D18] The ``desert-dig`` target shares a hex side with a building (no bridge, no ship)."""
IFRIT_EDGE_NEEDS_HOUSE = False
"""[D20] The Ifrit edge house goes on any unbuilt edge landscape; with no house left the
hex is only transformed (True: the edge house would need a house on the tableau)."""
BONUS_COINS_TAKEN = True
"""[D21] Taking a bonus tile from the display takes the coins on it."""
NEIGHBOUR_POWER_TO_PASSED = True
"""[D24] Power from others' building is mandatory, free, and reaches passed players too."""
QUALIFYING_COMPONENT_ILLEGAL = True
"""[D27] A position with a tile-less qualifying component (owner has tiles left) is illegal."""
DRUID_EXCHANGE_AT_END = True
"""[D32] Druiden may exchange triples for VP at game end before the money conversion."""
OTHERS_SIT_OUT_LATER_ROUNDS = True
"""[D38] In a puzzle over several rounds the others, who passed before P in the first,
sit out the later rounds too ([D35]: no actions, no tile swaps later): between rounds
the engine plays phase 3 and everyone's income (phase 1 is for all at once), and each
later round starts with the others passed, in the order they passed the round before,
keeping their bonus tiles and scoring nothing on passing. False: they pass first as
in a game, scoring their pass bonuses and swapping their tile for the display tile
with the most coins (the first such in display order)."""
PLANER_ROUND = 3
PLANER_LATER_HOUSES = 2
"""Planer: in phase 3 of round 3 the neutral colour's houses go on up to 2 more of its
free, untransformed marked hexes (in cell order)."""
