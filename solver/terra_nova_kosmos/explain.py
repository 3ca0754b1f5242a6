"""Why a Terra Nova (KOSMOS) line is worth what it is: the VP of every turn by source.

:func:`explain_line` replays the line through the reference engine turn by turn
while the engine's VP record is on (:mod:`~solver.terra_nova_kosmos.engine.ledger`):
each VP the player gets is listed with its source — the action itself, the round
tile, a town, a Druiden exchange, the pass — and what gave it. A last-round line
then adds the final scoring (money and bowl III as VP, the area places) of every
player, from :func:`~solver.terra_nova_kosmos.engine.scoring.final_breakdown`. The
engine gives every number, so the sources add up to the value it scored.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from solver.protocol import Played
from solver.terra_nova_kosmos.engine import bestround, lastrounds
from solver.terra_nova_kosmos.engine.actions import apply_turn
from solver.terra_nova_kosmos.engine.board import area_group
from solver.terra_nova_kosmos.engine.lastround import Result, evaluate
from solver.terra_nova_kosmos.engine.ledger import Gift, Source, recording
from solver.terra_nova_kosmos.engine.scoring import final_breakdown
from solver.terra_nova_kosmos.notation import Turn, format_turn
from solver.terra_nova_kosmos.position import Position

OTHERS = "the other players' final scores, added up"
"""What ``others`` means in Terra Nova (KOSMOS) (text and ``--json``): their final
scores, not what they gain."""

KEYS = {Source.ACTION: "action", Source.ROUND_TILE: "round_tile", Source.TOWN: "town",
        Source.EXCHANGE: "exchange", Source.PASS: "pass"}
"""The ``--json`` key of each source."""


@dataclass(frozen=True)
class TurnVP:
    """One turn of the line and the VP the player got in it, gift by gift."""

    number: int
    text: str
    gifts: tuple[Gift, ...]
    round: int
    """The round the turn is played in."""

    @property
    def vp(self) -> int:
        """The VP of the turn."""
        return sum(g.vp for g in self.gifts)

    def said(self) -> str:
        """``2. upgrade e4 k: round tile r-kontor3 +3, action Druiden right palace +3``."""
        why = ", ".join(f"{g.source.value} {g.what} +{g.vp}" for g in self.gifts)
        return f"{self.number}. {self.text}: " + (why or "no VP")


@dataclass(frozen=True)
class FinalScore:
    """One player's final score: VP before the final scoring, money VP, area VP."""

    colour: str
    vp: int
    money: int
    area: int
    group: int
    """The size of the player's largest connected group (what the area places rank)."""

    @property
    def total(self) -> int:
        """The final score."""
        return self.vp + self.money + self.area


@dataclass(frozen=True)
class Explanation:
    """A line explained: the VP turn by turn and, in the last round, the final scoring."""

    player: str
    turns: tuple[TurnVP, ...]
    finals: tuple[FinalScore, ...]
    """Every player's final scoring (last-round); empty for best-round."""
    figures: tuple[int, ...]
    """What the engine's evaluation of the puzzle gives the line, the value first
    (last-round: value, others, turns; best-round: value, points, leftover, given,
    turns)."""

    def by_source(self) -> dict[str, int]:
        """The player's VP by source key (``action``, ``round_tile``…; ``final_money``
        and ``final_area`` in the last round), every key present."""
        totals = dict.fromkeys(KEYS.values(), 0)
        for turn in self.turns:
            for gift in turn.gifts:
                totals[KEYS[gift.source]] += gift.vp
        mine = self.final_of(self.player)
        if mine is not None:
            totals |= {"final_money": mine.money, "final_area": mine.area}
        return totals

    @property
    def gained(self) -> int:
        """What the sources add up to: the player's VP gain (last round: final score minus
        VP in the position; best round: the VP of the round)."""
        return sum(self.by_source().values())

    def final_of(self, colour: str) -> FinalScore | None:
        """``colour``'s final scoring (None outside the last round)."""
        return next((f for f in self.finals if f.colour == colour), None)

    def sentences(self) -> list[str]:
        """The explanation in words: one sentence per turn (after ``round N:`` where the
        line crosses rounds), then the final scoring."""
        several = len({turn.round for turn in self.turns}) > 1
        out = [(f"round {turn.round}: " if several else "") + turn.said()
               for turn in self.turns]
        for final in self.finals:
            out.append(f"final scoring, {final.colour}: {final.vp} VP + {final.money} from "
                       f"money and bowl III + {final.area} for the area (largest group "
                       f"{final.group}) = {final.total}")
        sources = ", ".join(f"{key.replace('_', ' ')} {vp}"
                            for key, vp in self.by_source().items() if vp)
        out.append(f"{self.player} gains {self.gained}" + (f": {sources}" if sources else ""))
        return out

    def played(self) -> Played:
        """What the line is worth (:attr:`figures`) and why: how ``rate`` values it."""
        return Played(self.figures, self.as_json(), tuple(self.sentences()))

    def as_json(self) -> dict:
        """The ``explain`` object of ``--json`` (docs/json.md)."""
        return {"player": self.player, "gained": self.gained, "sources": self.by_source(),
                "turns": [{"turn": t.number, "round": t.round, "line": t.text, "vp": t.vp,
                           "gifts": [{"source": KEYS[g.source], "what": g.what, "vp": g.vp}
                                     for g in t.gifts]} for t in self.turns],
                "final": [{"colour": f.colour, "vp": f.vp, "money": f.money, "area": f.area,
                           "group": f.group, "total": f.total} for f in self.finals]}


def explain_line(position: Position, line: Sequence[Turn]) -> Explanation:
    """The VP of ``line`` (the player to move's turns up to the pass; a last-rounds line
    up to its last pass, the rounds between played as its evaluation plays them) by
    source.

    The line is checked as the puzzle's evaluation checks it (IllegalTurn, PuzzleError);
    a last-round or last-rounds position gets every player's final scoring. VP the
    player gets between two rounds counts with the turn after them."""
    kind = "last-round" if position.puzzle is None else position.puzzle.kind
    result: Result | bestround.Result
    if kind == "best-round":
        result = bestround.evaluate(position, line)
        figures: tuple[int, ...] = (result.value, result.points, result.leftover,
                                    result.given, result.turns)
    else:
        result = (lastrounds.evaluate if kind == "last-rounds" else evaluate)(position, line)
        figures = (result.value, result.others, result.turns)
    colour, grid = position.to_move, position.grid
    steps = lastrounds.play_line(position, line) if kind == "last-rounds" \
        else _one_round(position, line)
    turns = []
    current, round_ = position, position.round
    for number in range(1, len(line) + 1):
        with recording() as gifts:
            turn, current = next(steps)
        mine = tuple(g for g in gifts if g.colour == colour)
        turns.append(TurnVP(number, format_turn(turn, grid), mine, round_))
        round_ += turn.action.name == "pass"
    finals: tuple[FinalScore, ...] = ()
    if kind != "best-round":
        finals = tuple(FinalScore(c, vp, money, area, area_group(current, c))
                       for c, (vp, money, area) in final_breakdown(current).items())
    return Explanation(colour, tuple(turns), finals, figures)


def _one_round(position: Position, line: Sequence[Turn]) -> Iterator[tuple[Turn, Position]]:
    """Each turn of ``line`` with the position right after it, all in one round."""
    current = position
    for turn in line:
        current = apply_turn(current, turn)
        yield turn, current
