"""Caps: a proven bound on the player's points from a group of candidates, over all lines.

The relaxation (:mod:`~solver.terra_nova.model.relaxation`) scores a closed candidate at
its weight, the most it could give alone. Some candidates no line scores at that weight
(a region walled by a stone no piece reaches in time scores nothing at all), and the
lazy rounds of :mod:`~solver.terra_nova.deep` would remove one combination of closings
a round. A *cap* for a group ``K`` of candidates
is a number that bounds ``sum_{i in K}`` (the player's points from ``i``) over every
legal line of the horizon; :meth:`Relaxation.add_cap` lets every later relaxation use it.

:func:`cap_model` builds it: the turn model over ``K`` only (the other candidates are
neither forbidden nor scored: the model does not know them), *loose* (``TurnModel(...,
loose=True)``): a turn may end, or be passed, after any number of actions, and no-return
is not checked. Its objective is the player's points (from ``K``, the only candidates it
has), and CP-SAT's proven bound on it is the cap.

**Why every legal line has a line of the loose model with the same points from K.** Take
a legal line ``L`` (the rules of docs/rules/terra-nova.md) and let the loose model make
the same actions at the same steps, ending each turn where ``L``'s ends. In reality the
own pieces inside a region that closes are removed; the loose model removes them only for
the candidates of ``K``. The other ones stay where they were removed, as *ghosts*. Claim:
at every step the model's state is reality's plus the ghosts, every ghost stands inside a
region that has closed in reality by then (walled: all its neighbours outside it are
stones), and ``L``'s next action is an action of the model.

* A region ``R`` that closed is a component of non-stone cells and stays one (stones are
  never removed); no piece is in it in reality after its closing. A move of ``L`` starts
  on a real piece, outside every closed region, and goes in a straight line over
  neighbouring cells, free in reality; to enter a cell of ``R`` it would first stand on a
  neighbour of ``R`` outside it, a stone. So a move never passes or stops on a ghost's
  cell: it is a move of the model (its cells free there too, its source an own piece).
* A stone of ``L`` goes on a free cell next to a real piece that moved this turn. That
  cell is in no closed region ``R``: a cell of ``R`` next to a piece outside ``R`` would
  make that piece's cell a stone. So no ghost stands there and it is free in the model;
  the model's anchor rule (an own piece that moved this turn, :attr:`TurnModel.moved`)
  holds for the same piece. The supply is the same.
* The rules that the model drops are the ones a ghost could break: a turn of ``L`` that
  ends early (no legal action left in reality, or a pass) may have a ghost that could
  still move inside its region, and a ghost that ended the turn on its starting cell was
  a piece exempt from no-return in reality ([D] ``REMOVED_PIECE_UNMOVED``). So the loose
  model ends turns whenever the line does (also where
  :meth:`~solver.terra_nova.model.geometry.Geometry.surely_movable`, computed over ``K``
  only, would count a piece of another region as never removed), and has no no-return.
  "The first action is a move" needs no rule of its own: no piece has moved when a turn
  begins, so a stone cannot be its first action in either. A ghost that moved this turn
  keeps its ``moved`` flag in the model (reality: [D] ``REMOVED_PIECE_UNMOVED``), which
  only allows more stones, never forbids one of ``L``'s.
* The model's precomputed limits hold for ghosts: a ghost stands where its piece stood
  at some earlier moment ``tau``, and where an own piece can stand
  (:meth:`Geometry.own_possible`: ``dist <= tau``) only grows with ``tau``; so does where
  a moved piece can stand after the first step (:meth:`Geometry.moved_possible`; no piece
  is removed before the horizon's first stone, at step 1 at the earliest).

So the stones after every step are reality's. A candidate of ``K`` closes in the model
exactly when it does in ``L`` (all boundary cells stones, none inside), and scores the
own pieces inside it then: no ghost is among them (a region ``R`` that closed earlier or
at the same step is a different component, so disjoint from it), so they are reality's,
and the points are the same. Therefore the model's optimum, and CP-SAT's proven bound on
it, is at least ``L``'s points from ``K``. The same holds for a partial candidate list
(4+ turns): the argument never uses that ``R`` is a candidate.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from solver.terra_nova.model.geometry import Geometry
from solver.terra_nova.model.turn_model import TurnModel


def cap_model(geo: Geometry, members: Iterable[int],
              check: Callable[[], None] | None = None) -> TurnModel:
    """The loose turn model over the candidates ``members`` (indices into
    ``geo.candidates``), maximising the player's points from them: CP-SAT's proven bound
    on it is a cap for them (module doc)."""
    tm = TurnModel(geo.position, geo.turns, geometry=geo.restricted_to(members),
                   check=check, loose=True)
    tm.model.maximize(tm.own_points())
    return tm
