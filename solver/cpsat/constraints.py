"""Constraint helpers named after the puzzle idea, with constant folding.

A :data:`Lit` is a model literal (a Boolean variable or its negation) or a Python
``True``/``False`` for something already decided when the model is built (a cell
that can never hold a piece, a supply that cannot run out…). The helpers fold
constants away instead of creating variables, so models stay small and callers
need no special cases.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Union

from ortools.sat.python import cp_model

Lit = Union[cp_model.BoolVarT, bool]  # noqa: UP007
"""A model literal (a Boolean variable or its negation), or the Python constants
``True``/``False``."""

Expr = Union[cp_model.LinearExpr, int]  # noqa: UP007
"""A linear expression (a variable, a sum…) or a Python integer. OR-tools' own
``LinearExprT`` also admits numpy integers, which its type stubs cannot add to an
expression; the models never need them."""


def negate(lit: Lit) -> Lit:
    """``not lit``."""
    if lit is True:
        return False
    if lit is False:
        return True
    return ~lit


def possible(*lits: Lit) -> bool:
    """Whether any of ``lits`` can still be true (is not ``False``)."""
    return any(lit is not False for lit in lits)


def implies(model: cp_model.CpModel, a: Lit, b: Lit) -> None:
    """Add ``a → b``; constants fold away (``b`` ``False`` forbids ``a``)."""
    if a is False or b is True:
        return
    if a is True:
        model.add_bool_or([b] if b is not False else [model.new_constant(0)])
    elif b is False:
        model.add_bool_or([negate(a)])
    else:
        model.add_implication(a, b)


def as_expr(lit: Lit) -> Expr:
    """``lit`` as a 0/1 term of a linear expression."""
    if lit is True:
        return 1
    if lit is False:
        return 0
    return lit


def live(lits: Iterable[Lit]) -> list[Lit]:
    """The literals that are not ``False`` (the ones that can still be true)."""
    return [lit for lit in lits if lit is not False]


def count(lits: Iterable[Lit]) -> Expr:
    """How many of ``lits`` are true, as a linear expression (constants counted)."""
    return sum(as_expr(lit) for lit in lits)


def clause(model: cp_model.CpModel, lits: Iterable[Lit], false: cp_model.IntVar | None = None,
           when: Iterable[Lit] = ()) -> None:
    """Add ``AND when → OR lits``; a ``True`` among ``lits`` or a ``False`` among
    ``when`` drops the clause, the other constants drop out.

    An empty clause (every literal ``False``) is added as ``OR [false]`` with
    ``false`` the model's literal fixed to 0 (its constant 0 when not given): the
    model, or the case ``when`` describes, is then infeasible, as it should be.
    """
    cond = []
    for lit in when:
        if lit is False:
            return
        if lit is not True:
            cond.append(lit)
    out = []
    for lit in lits:
        if lit is True:
            return
        if lit is False:
            continue
        out.append(lit)
    if not out:
        out = [model.new_constant(0) if false is None else false]
    model.add_bool_or(out).only_enforce_if(cond)


def any_of(model: cp_model.CpModel, lits: Iterable[Lit], name: str) -> Lit:
    """A literal equal to ``OR lits`` (reified both ways); constants fold away."""
    rest = live(lits)
    if any(lit is True for lit in rest):
        return True
    if not rest:
        return False
    if len(rest) == 1:
        return rest[0]
    lit = model.new_bool_var(name)
    model.add_bool_or(rest).only_enforce_if(lit)
    for x in rest:
        model.add_implication(x, lit)
    return lit


def gated(model: cp_model.CpModel, flag: Lit, expr: Expr, top: int,
          name: str) -> Expr:
    """``expr`` when ``flag`` holds, else 0 (``expr`` lies in ``0…top``)."""
    if flag is False:
        return 0
    var = model.new_int_var(0, top, name)
    if flag is True:
        model.add(var == expr)
    else:
        model.add(var == expr).only_enforce_if(flag)
        model.add(var == 0).only_enforce_if(~flag)
    return var


def at_least(model: cp_model.CpModel, expr: Expr, threshold: int,
             most: int | None, name: str) -> Lit:
    """A literal for ``expr >= threshold``, where ``expr`` lies in ``0…most`` (``most``
    None: no upper bound known, only a threshold of at most 0 folds)."""
    if threshold <= 0:
        return True
    if most is not None and threshold > most:
        return False
    lit = model.new_bool_var(name)
    model.add(expr >= threshold).only_enforce_if(lit)
    model.add(expr <= threshold - 1).only_enforce_if(~lit)
    return lit


def below(model: cp_model.CpModel, lits: Sequence[Lit], limit: int, name: str) -> Lit:
    """A literal for "fewer than ``limit`` of ``lits`` are true" (e.g. a supply not yet empty)."""
    if len(lits) < limit:
        return True
    if limit == 0:
        return False
    lit = model.new_bool_var(name)
    model.add(sum(lits) <= limit - 1).only_enforce_if(lit)
    model.add(sum(lits) >= limit).only_enforce_if(~lit)
    return lit


def all_of(model: cp_model.CpModel, lits: Sequence[Lit], name: str) -> Lit:
    """A literal equal to ``AND lits`` (reified both ways); constants fold away."""
    if any(lit is False for lit in lits):
        return False
    rest = [lit for lit in lits if lit is not True]
    if not rest:
        return True
    if len(rest) == 1:
        return rest[0]
    lit = model.new_bool_var(name)
    model.add_bool_and(rest).only_enforce_if(lit)
    model.add_bool_or([~x for x in rest]).only_enforce_if(~lit)
    return lit


def not_adjacent(model: cp_model.CpModel, lits: Mapping[int, Lit],
                 neighbours: Sequence[Sequence[int]]) -> None:
    """No two cells of ``lits`` that are neighbours are both true (each pair once)."""
    for cell, lit in lits.items():
        for nb in neighbours[cell]:
            if nb > cell and nb in lits:
                model.add_bool_or([negate(lit), negate(lits[nb])])
