"""Where VP come from: a record of every VP the engine gives, by source, while asked.

The engine gives VP in one place (``actions._add``), each time naming the source
(:class:`Source`) and what gave it (a round tile, a town tile, the shipping
track…). Inside :func:`recording` those gifts are kept in order; outside it,
recording costs one look-up per gift. Explanations of an answer read the record,
so the VP they list are the engine's own.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from enum import Enum


class Source(Enum):
    """Why VP were given (its value is the word the explanation prints)."""

    ACTION = "action"
    """The action itself: a shipping step's track VP, a palace ability's VP."""
    ROUND_TILE = "round tile"
    """The round tile scoring what the action did."""
    TOWN = "town"
    """A town tile (and what scores founding a town)."""
    EXCHANGE = "exchange"
    """Druiden triples: 3 power for 2 VP."""
    PASS = "pass"
    """Passing: the bonus tile and the faction's pass abilities."""


@dataclass(frozen=True)
class Gift:
    """VP one player got from one source."""

    colour: str
    source: Source
    vp: int
    what: str
    """What gave them: ``r-house2``, ``t9``, ``shipping track``, ``b-house1``…"""


_RECORD: ContextVar[list[Gift] | None] = ContextVar("kosmos_vp_record", default=None)


@contextmanager
def recording() -> Iterator[list[Gift]]:
    """While the block runs, every VP the engine gives is appended to the list yielded."""
    gifts: list[Gift] = []
    token = _RECORD.set(gifts)
    try:
        yield gifts
    finally:
        _RECORD.reset(token)


def record(colour: str, source: Source, vp: int, what: str) -> None:
    """Note ``vp`` given to ``colour`` (nothing when not recording, or for 0 VP)."""
    gifts = _RECORD.get()
    if gifts is not None and vp:
        gifts.append(Gift(colour, source, vp, what))
