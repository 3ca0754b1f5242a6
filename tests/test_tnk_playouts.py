"""Terra Nova (KOSMOS): seeded random games for 2–4 players and every faction, with
invariants checked after every turn, and every kind of action played somewhere."""

from __future__ import annotations

import functools
import random
from collections import Counter

import pytest

from solver.terra_nova_kosmos.engine import board as topo
from solver.terra_nova_kosmos.engine import legal, rounds
from solver.terra_nova_kosmos.engine.playout import random_game
from solver.terra_nova_kosmos.engine.scoring import final_scores
from solver.terra_nova_kosmos.fileformat import (
    BOARDS_DIR,
    parse_position,
    read_board,
    write_position,
)
from solver.terra_nova_kosmos.notation import Turn, format_turn, parse_turn
from solver.terra_nova_kosmos.position import Position
from solver.terra_nova_kosmos.rules import (
    BRIDGES,
    FACTION_IDS,
    HOUSES,
    KONTORE,
    PALACES,
    POWER_TOKENS,
    TOWN_TILES_EACH,
)
from tests.support.tnk_positions import random_factions

GAMES = 300
BOARD, LANDSCAPE = read_board(BOARDS_DIR / "base.toml")


def check_position(position: Position) -> None:
    """Resources never negative, supply kept, 8 power tokens, towns and tiles add up."""
    for player in position.players:
        assert player.money >= 0 and player.vp >= 0
        assert min(player.power) >= 0 and sum(player.power) == POWER_TOKENS
        for kind, supply in (("house", HOUSES), ("kontor", KONTORE), ("palace", PALACES)):
            assert 0 <= position.count(player.colour, kind) <= supply
        assert len(player.palaces) == position.count(player.colour, "palace")
        assert len(player.bridges) <= BRIDGES
        assert len(player.towns) + len(player.town_tiles) == TOWN_TILES_EACH


ACTION_KINDS = {
    "build", "terraform", "terraform build", "upgrade k", "upgrade pl", "upgrade pr", "ship",
    "bridge", "pa-bridge3", "pa-bridge4", "pa-ship", "pa-money7", "pa-spade1",
    "pa-spade1 build", "pa-spade2", "pa-spade2 build", "pa-spade2 pair",
    "pa-spade2 pair build", "b-spade", "b-spade build", "pass", "town", "$", "*",
}
FACTION_KINDS = {
    "flaschengeister": {"lake-house"}, "feen": {"feen-spade"},
    "wuestentoechter": {"desert-dig", "desert-dig build"},
    "seebaeren": {"free-kontor", "upgrade pl ship", "river town"},
    "erfinderinnen": {"inv-kontor"}, "ifrit": {"upgrade pl @edge"}, "druiden": {"*"},
}
"""Each faction's own actions (the palace specials, the one-time palace extras, the
Seebären river towns, the Druiden triples)."""
OWN_KINDS = set().union(*FACTION_KINDS.values())
GENERATED: set[tuple[str, str]] = set()
"""The faction kinds whose first played turn was found among the legal turns."""


def kinds(turn: Turn, position: Position) -> set[str]:
    """What a turn exercises: its action, the action's variant, towns, exchanges."""
    action = turn.action
    name = action.name + (" pair" if len(action.cells) == 2 else "")
    out = {action.name, name}
    if action.piece:
        out.add(f"upgrade {action.piece}")
    if action.build is not None:
        out.add(f"{name} build")
    if action.edge is not None:
        out.add("upgrade pl @edge")
    if action.ship:
        out.add("upgrade pl ship")
    out |= {"river town" if t.at is not None and position.is_river(t.at) else "town"
            for t in turn.towns}
    return out | {exchange.kind for exchange in turn.before + turn.after}


def play_checked(seed: int) -> tuple[Position, int, list[str], set[tuple[str, str]]]:
    rng = random.Random(seed)
    count = 2 + seed % 3
    factions = random_factions(rng, count)
    final, steps = random_game(BOARD, LANDSCAPE, factions, seed)
    position = rounds.setup(BOARD, LANDSCAPE, factions, random.Random(seed))
    texts, played = [], set()
    for number, step in enumerate(steps):
        faction = position.player(step.colour).faction
        turn_kinds = {(faction, kind) for kind in kinds(step.turn, position)}
        played |= turn_kinds
        assert step.colour == position.to_move
        text = format_turn(step.turn, BOARD.grid)
        texts.append(text)
        assert parse_turn(text, BOARD.grid) == step.turn
        before = {p.colour: p.vp for p in position.players}
        after = step.after
        check_position(after)
        # [D25] after the actor's action no tile-less component qualifies (tiles left)
        actor = after.player(step.colour)
        assert not topo.pending_towns(after, step.colour) or not actor.town_tiles
        assert all(after.player(c).vp >= v for c, v in before.items())   # VP only rise
        own = {(faction, kind) for faction, kind in turn_kinds if kind in OWN_KINDS}
        if number % 53 == 0 or own - GENERATED:   # the first of each faction's own kinds
            assert step.turn in legal.legal_turns(position)
            GENERATED.update(own)
        position = rounds.advance(after)
        if number % 17 == 0 and not rounds.game_over(position):
            assert parse_position(write_position(position)) == position
    assert position == final and rounds.game_over(final)
    scores = final_scores(final)
    assert all(scores[p.colour] >= p.vp for p in final.players)
    return final, count, texts, played


checked = functools.cache(play_checked)
"""Each seed's game played and checked once, for the invariants and the coverage."""


@pytest.mark.parametrize("block", range(6))
def test_random_games_keep_invariants(block: int) -> None:
    seen: Counter[str] = Counter()
    players: Counter[int] = Counter()
    for seed in range(block * GAMES // 6, (block + 1) * GAMES // 6):
        final, count, _, _ = checked(seed)
        seen.update(p.faction for p in final.players)
        players[count] += 1
    assert set(players) == {2, 3, 4}
    if block == 0:
        assert set(seen) == set(FACTION_IDS)


def test_every_action_and_faction_special_is_played() -> None:
    played = set().union(*(checked(seed)[3] for seed in range(GAMES)))
    assert ACTION_KINDS <= {kind for _, kind in played}
    for faction, own in FACTION_KINDS.items():
        assert own <= {kind for f, kind in played if f == faction}, faction
    assert {kind for f, kind in played if f != "druiden"}.isdisjoint({"*"})


def test_games_are_reproducible() -> None:
    assert play_checked(7)[2] == play_checked(7)[2]
