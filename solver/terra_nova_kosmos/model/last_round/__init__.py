"""The CP-SAT model of the ``last-round`` puzzle: P's turns to the pass, then scoring.

State ``0…T`` (before step 1, after step t) and an action per step ``1…T``:

* state: per node (a hex that may carry P's building) house/Kontor/palace
  Booleans and "habitable" (P's home landscape), per free bridge spot a bridge
  Boolean, money, the three power bowls, the shipping track, palace sides
  built, town membership of each building and the town tiles left;
* action: one Boolean per action kind (one-hot, ``idle`` after the pass),
  per node the effect Booleans (transformed, house placed, upgraded, Kontor
  placed), per spot "bridged now", the exchange ``$k`` before it (k = the
  money shortfall, the canonical turn);
* transitions: linear equalities per Boolean, power gains in closed form
  with ``add_min_equality``; range from any P building over hex sides,
  bridges or at most S river hexes ([D11]);
* towns: after every step the graph of P's buildings is labelled by
  components (a root per component, parent pointers with decreasing rank,
  equal labels across every edge), subtree sums give each component's size,
  town value and old-town count; every tile-less component of ≥ 4 buildings
  and value ≥ threshold founds a town while tiles last ([D25]);
* end: pass bonuses, money ``(money + bowl III) // 3`` (Druiden triples),
  the largest group connected through range (root, rank, supporting
  neighbour) and the area places of every player;
* objective: P's final score, then the others' final scores (minimised),
  then the number of turns — one :func:`solver.cpsat.objectives.lexicographic`.

The package: :mod:`.parts` holds the variables of a step and a state and the built
model; :mod:`.core` the position's facts, the model being built and the encodings the
rule families share; :mod:`.builder` builds the model in a fixed order, one method
per rule, with the rule families :mod:`.towns`, :mod:`.economy` (shipping, money,
power and the points of a step) and :mod:`.ending` (once-per-round limits, the pass,
final scoring, the objective), each an extension of :class:`.core.Core`;
:mod:`.reading` turns a solution into turns. Components are labelled with
:mod:`solver.cpsat.connectivity`.
"""

from solver.terra_nova_kosmos.model.last_round.builder import Builder, build_last_round
from solver.terra_nova_kosmos.model.last_round.parts import (
    BRIDGING,
    DIGS,
    KINDS,
    LastRound,
    Num,
    State,
    Step,
    Unsupported,
)
from solver.terra_nova_kosmos.model.last_round.reading import (
    Predicted,
    hint_passing_at_once,
    is_on,
    plan,
    predicted,
    read_line,
)

__all__ = ["BRIDGING", "DIGS", "KINDS", "Builder", "LastRound", "Num", "Predicted", "State", "Step",
           "Unsupported", "build_last_round", "hint_passing_at_once", "is_on", "plan",
           "predicted", "read_line"]
