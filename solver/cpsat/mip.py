"""The exact MIP translation of a CP-SAT model: every constraint as linear rows over
integer columns, nothing dropped.

Column ``i`` (named ``x{i}``) is variable ``i`` of the CP-SAT model with the bounds of
its domain; auxiliary columns (selectors, quotients, parities) come after them, named
after the constraint they serve (``c12_z0``). The objective is CP-SAT's own:
``scaling_factor * (sum + offset)``, maximised when the factor is negative, so the MIP
optimum *is* CP-SAT's ``objective_value``.

Every constraint kind the project's models use, and a few more, has a translation
whose integer solutions are exactly the CP-SAT model's solutions (projected on the
first columns):

* clauses (``bool_or``, ``bool_and``) as one covering row per clause; ``at_most_one``,
  ``exactly_one`` and ``linear`` as rows; ``bool_xor`` with an integer parity column;
* enforcement literals ``e1 … ek`` by big-M over the expression's bounds: with
  ``s = (1 - e1) + … + (1 - ek)``, ``expr >= lo - (lo - min expr) * s`` and
  ``expr <= hi + (max expr - hi) * s`` hold exactly when ``s = 0`` and always otherwise;
* a domain with holes (of a variable or a linear constraint) with one selector per
  interval; ``lin_max`` with one selector per argument (the one that reaches the max);
* ``int_div`` / ``int_mod`` by a constant as ``num = d * q + r`` with ``r`` in the
  rounding's range (a sign selector when the numerator can take both signs);
  ``int_prod``, ``element``, ``table`` and ``all_diff`` through one-hot columns over
  the values of an expression (at most :data:`ONE_HOT_VALUES` of them).

Scheduling, routing and automaton kinds (``circuit``, ``routes``, ``automaton``,
``inverse``, ``reservoir``, ``interval``, ``no_overlap``, ``no_overlap_2d``,
``cumulative``) and floating-point objectives are refused with :class:`Untranslatable`,
one line naming the kind: a constraint is never dropped. Search guidance (hints,
decision strategies, symmetry) is not a constraint and has no MIP counterpart.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from solver.errors import InputError

EXACT_FLOAT = 2**53
"""Integers a double holds exactly: a bound, coefficient or big-M beyond it is refused."""

ONE_HOT_VALUES = 4096
"""At most this many values for an expression written as one-hot columns."""

REFUSED = {
    "circuit": "a Hamiltonian circuit",
    "routes": "vehicle routes",
    "automaton": "an automaton over a sequence",
    "inverse": "an inverse permutation",
    "reservoir": "a reservoir over time",
    "interval": "an interval variable",
    "no_overlap": "intervals that must not overlap",
    "no_overlap_2d": "rectangles that must not overlap",
    "cumulative": "a cumulative resource",
}
"""Constraint kinds this translation refuses, with what each states."""


class Untranslatable(InputError):
    """The CP-SAT model holds something without an exact linear translation here."""


Lit = tuple[int, bool]
"""A literal over a column: ``(column, True)`` is ``x``, ``(column, False)`` is ``1 - x``."""


@dataclass
class Affine:
    """``sum(coef * column) + constant`` with integer coefficients."""

    terms: dict[int, int] = field(default_factory=dict)
    constant: int = 0

    def plus(self, other: Affine, factor: int = 1) -> Affine:
        """``self + factor * other``."""
        terms = dict(self.terms)
        for col, coef in other.terms.items():
            terms[col] = terms.get(col, 0) + factor * coef
        return Affine({c: k for c, k in terms.items() if k},
                      self.constant + factor * other.constant)

    def times(self, factor: int) -> Affine:
        """``factor * self``."""
        return Affine({c: factor * k for c, k in self.terms.items() if factor * k},
                      factor * self.constant)


def column_expr(col: int, coef: int = 1) -> Affine:
    """``coef * x_col``."""
    return Affine({col: coef})


def linear_sum(terms: Iterable[tuple[int, int]], constant: int = 0) -> Affine:
    """``sum(coef * column) + constant`` from ``(column, coef)`` pairs (a column may repeat)."""
    total: dict[int, int] = {}
    for col, coef in terms:
        total[col] = total.get(col, 0) + coef
    return Affine({c: k for c, k in total.items() if k}, constant)


def count_true(lits: Iterable[Lit]) -> Affine:
    """How many of ``lits`` are true."""
    lits = list(lits)
    return linear_sum(((col, 1 if positive else -1) for col, positive in lits),
                      sum(not positive for _, positive in lits))


def falses(lits: Sequence[Lit]) -> Affine:
    """How many of ``lits`` are false: ``sum(1 - lit)``."""
    return count_true(negations(lits))


def negations(lits: Iterable[Lit]) -> list[Lit]:
    """Each literal of ``lits`` negated."""
    return [(col, not positive) for col, positive in lits]


@dataclass
class MipModel:
    """A mixed-integer linear program (every column integer) in compressed sparse rows."""

    names: list[str]
    lower: np.ndarray
    upper: np.ndarray
    objective: np.ndarray
    offset: float
    maximize: bool
    row_starts: np.ndarray
    """Row ``r``'s entries are ``row_columns[row_starts[r]:row_starts[r + 1]]``."""
    row_columns: np.ndarray
    row_values: np.ndarray
    row_lower: np.ndarray
    """``-inf`` where a row has no lower side."""
    row_upper: np.ndarray
    row_names: list[str]
    variables: int
    """The CP-SAT model's variables: columns ``0 … variables - 1``."""

    @property
    def rows(self) -> int:
        """Number of rows."""
        return len(self.row_names)

    @property
    def columns(self) -> int:
        """Number of columns (the model's variables, then the auxiliary columns)."""
        return len(self.names)


def domain_intervals(flat: Sequence[int]) -> list[tuple[int, int]]:
    """A proto domain ``[a0, b0, a1, b1, …]`` as intervals."""
    return [(int(flat[i]), int(flat[i + 1])) for i in range(0, len(flat), 2)]


class _Translation:
    """Builds the :class:`MipModel` of one CP-SAT model (:func:`translate`)."""

    def __init__(self, proto: Any) -> None:
        self.proto = proto
        self.lower: list[int] = []
        self.upper: list[int] = []
        self.names: list[str] = []
        self.starts: list[int] = [0]
        self.columns: list[int] = []
        self.values: list[int] = []
        self.row_lower: list[float] = []
        self.row_upper: list[float] = []
        self.row_names: list[str] = []
        self.handlers: dict[str, Callable[[Any, str, list[Lit]], None]] = {
            "bool_or": self._bool_or, "bool_and": self._bool_and,
            "at_most_one": self._at_most_one, "exactly_one": self._exactly_one,
            "bool_xor": self._bool_xor, "linear": self._linear, "lin_max": self._lin_max,
            "int_div": self._int_div, "int_mod": self._int_mod, "int_prod": self._int_prod,
            "element": self._element, "table": self._table, "all_diff": self._all_diff,
            "dummy_constraint": lambda c, name, lits: None,
        }

    # ---- columns and rows
    def column(self, lo: int, hi: int, name: str) -> int:
        """A new integer column in ``[lo, hi]``."""
        for bound in (lo, hi):
            if abs(bound) > EXACT_FLOAT:
                raise Untranslatable(f"{name} has the bound {bound}, beyond the integers a MIP "
                                     f"solver's doubles hold exactly (±2^53)")
        self.lower.append(lo)
        self.upper.append(hi)
        self.names.append(name)
        return len(self.names) - 1

    def binary(self, name: str) -> int:
        """A new 0/1 column."""
        return self.column(0, 1, name)

    def bounds(self, e: Affine) -> tuple[int, int]:
        """The least and greatest value of ``e`` over the columns' bounds."""
        lo = hi = e.constant
        for col, coef in e.terms.items():
            a, b = coef * self.lower[col], coef * self.upper[col]
            lo += min(a, b)
            hi += max(a, b)
        return lo, hi

    def row(self, e: Affine, lo: int | None, hi: int | None, name: str) -> None:
        """``lo <= e <= hi`` (None: no such side)."""
        for value in (*e.terms.values(), lo or 0, hi or 0):
            if abs(value) > EXACT_FLOAT:
                raise Untranslatable(f"row {name} needs the number {value}, beyond the "
                                     f"integers a MIP solver's doubles hold exactly (±2^53)")
        self.columns.extend(e.terms)
        self.values.extend(e.terms.values())
        self.starts.append(len(self.columns))
        self.row_lower.append(-np.inf if lo is None else lo - e.constant)
        self.row_upper.append(np.inf if hi is None else hi - e.constant)
        self.row_names.append(name)

    def enforced(self, e: Affine, lo: int | None, hi: int | None, lits: Sequence[Lit],
                 name: str) -> None:
        """``lo <= e <= hi`` when every literal of ``lits`` is true (module doc: big-M over
        the bounds of ``e``); a side the bounds already imply is left out."""
        least, most = self.bounds(e)
        lo = None if lo is None or lo <= least else lo
        hi = None if hi is None or hi >= most else hi
        if lo is None and hi is None:
            return
        if not lits:
            self.row(e, lo, hi, name)
            return
        off = falses(lits)
        if lo is not None:
            self.row(e.plus(off, lo - least), lo, None, name if hi is None else f"{name}_lo")
        if hi is not None:
            self.row(e.plus(off, -(most - hi)), None, hi, name if lo is None else f"{name}_hi")

    def clause(self, lits: Sequence[Lit], name: str) -> None:
        """At least one of ``lits``."""
        self.row(count_true(lits), 1, None, name)

    def in_domain(self, e: Affine, domain: Sequence[tuple[int, int]], lits: Sequence[Lit],
                  name: str) -> None:
        """``e`` in the union of ``domain``'s intervals when ``lits`` hold: one interval
        as a row, several with a selector each (exactly one chosen; its rows enforced)."""
        least, most = self.bounds(e)
        reachable = [(max(a, least), min(b, most)) for a, b in domain
                     if max(a, least) <= min(b, most)]
        if not reachable:  # never satisfiable: the enforcement must fail
            self.clause(negations(lits), name)
            return
        if len(reachable) == 1:
            self.enforced(e, *reachable[0], lits, name)
            return
        chosen = [self.binary(f"{name}_z{k}") for k in range(len(reachable))]
        self.row(Affine(dict.fromkeys(chosen, 1)), 1, 1, f"{name}_one")
        for k, (a, b) in enumerate(reachable):
            self.enforced(e, a, b, [*lits, (chosen[k], True)], f"{name}_{k}")

    def one_hot(self, e: Affine, lits: Sequence[Lit], name: str,
                values: Iterable[int] | None = None) -> dict[int, int]:
        """Value → 0/1 column, exactly one set, ``e`` equal to the chosen value when
        ``lits`` hold; over ``values`` (default: every integer ``e`` can take)."""
        least, most = self.bounds(e)
        chosen = sorted({v for v in values if least <= v <= most}) if values is not None \
            else list(range(least, most + 1))
        if len(chosen) > ONE_HOT_VALUES:
            raise Untranslatable(f"{name} needs the {len(chosen)} values of an expression as "
                                 f"columns (at most {ONE_HOT_VALUES})")
        if not chosen:
            self.clause(negations(lits), name)
            return {}
        hot = {v: self.binary(f"{name}_v{k}") for k, v in enumerate(chosen)}
        self.row(Affine(dict.fromkeys(hot.values(), 1)), 1, 1, f"{name}_one")
        picked = Affine({col: v for v, col in hot.items() if v})
        self.enforced(e.plus(picked, -1), 0, 0, lits, f"{name}_is")
        return hot

    # ---- reading the proto
    def expr(self, proto_expr: Any, name: str) -> Affine:
        """A ``LinearExpressionProto`` over the model's columns."""
        return self.terms(proto_expr.vars, proto_expr.coeffs, name, int(proto_expr.offset))

    def terms(self, refs: Sequence[int], coeffs: Sequence[int], name: str,
              constant: int = 0) -> Affine:
        """``sum(coeffs * variables) + constant`` over the model's variables ``refs``."""
        for ref in refs:
            if ref < 0:
                raise Untranslatable(f"{name} refers to a negated integer variable ({ref})")
        return linear_sum(zip(map(int, refs), map(int, coeffs), strict=True), constant)

    def _var(self, ref: int, name: str) -> Affine:
        return self.terms([ref], [1], name)

    @staticmethod
    def literal(ref: int) -> Lit:
        """A proto literal reference (negative: the negation) as a :data:`Lit`."""
        return (ref, True) if ref >= 0 else (-ref - 1, False)

    # ---- constraint kinds
    def _bool_or(self, c: Any, name: str, lits: list[Lit]) -> None:
        self.clause([*map(self.literal, c.bool_or.literals), *negations(lits)], name)

    def _bool_and(self, c: Any, name: str, lits: list[Lit]) -> None:
        negated = negations(lits)
        for k, ref in enumerate(c.bool_and.literals):
            self.clause([self.literal(ref), *negated], f"{name}_{k}")

    def _sum(self, refs: Iterable[int]) -> Affine:
        return count_true(map(self.literal, refs))

    def _at_most_one(self, c: Any, name: str, lits: list[Lit]) -> None:
        self.enforced(self._sum(c.at_most_one.literals), None, 1, lits, name)

    def _exactly_one(self, c: Any, name: str, lits: list[Lit]) -> None:
        self.enforced(self._sum(c.exactly_one.literals), 1, 1, lits, name)

    def _bool_xor(self, c: Any, name: str, lits: list[Lit]) -> None:
        total = self._sum(c.bool_xor.literals)
        half = self.column(0, len(c.bool_xor.literals) // 2, f"{name}_half")
        self.enforced(total.plus(column_expr(half), -2), 1, 1, lits, name)

    def _linear(self, c: Any, name: str, lits: list[Lit]) -> None:
        e = self.terms(c.linear.vars, c.linear.coeffs, name)
        self.in_domain(e, domain_intervals(c.linear.domain), lits, name)

    def _lin_max(self, c: Any, name: str, lits: list[Lit]) -> None:
        target = self.expr(c.lin_max.target, name)
        exprs = [self.expr(e, name) for e in c.lin_max.exprs]
        if not exprs:
            raise Untranslatable(f"{name}: a lin_max of no expressions")
        reach = [self.binary(f"{name}_z{k}") for k in range(len(exprs))]
        self.row(Affine(dict.fromkeys(reach, 1)), 1, 1, f"{name}_one")
        for k, e in enumerate(exprs):
            gap = target.plus(e, -1)
            self.enforced(gap, 0, None, lits, f"{name}_ge{k}")
            self.enforced(gap, None, 0, [*lits, (reach[k], True)], f"{name}_at{k}")

    def _constant_divisor(self, c: Any, kind: str, name: str) -> tuple[Affine, Affine, int]:
        arg = getattr(c, kind)
        num, den = (self.expr(e, name) for e in arg.exprs)
        least, most = self.bounds(den)
        if least != most or least == 0:
            raise Untranslatable(f"{name}: '{kind}' by a variable (only a nonzero constant "
                                 f"divisor has an exact linear translation here)")
        return num, self.expr(arg.target, name), least

    def _quotient(self, num: Affine, quotient: Affine, d: int, lits: list[Lit],
                  name: str) -> None:
        """``quotient = num / d`` rounded towards zero (CP-SAT's division), ``d > 0``."""
        least, most = self.bounds(num)
        rest = num.plus(quotient, -d)  # num - d * q, the remainder
        if least >= 0:
            self.enforced(rest, 0, d - 1, lits, name)
        elif most <= 0:
            self.enforced(rest, -(d - 1), 0, lits, name)
        else:
            sign = self.binary(f"{name}_pos")
            self.enforced(num, 0, None, [*lits, (sign, True)], f"{name}_p")
            self.enforced(rest, 0, d - 1, [*lits, (sign, True)], f"{name}_pr")
            self.enforced(num, None, 0, [*lits, (sign, False)], f"{name}_n")
            self.enforced(rest, -(d - 1), 0, [*lits, (sign, False)], f"{name}_nr")

    def _int_div(self, c: Any, name: str, lits: list[Lit]) -> None:
        num, target, d = self._constant_divisor(c, "int_div", name)
        if d < 0:
            num, d = num.times(-1), -d
        self._quotient(num, target, d, lits, name)

    def _int_mod(self, c: Any, name: str, lits: list[Lit]) -> None:
        num, target, d = self._constant_divisor(c, "int_mod", name)
        d = abs(d)
        least, most = self.bounds(num)
        q = self.column(-(-least // d) if least < 0 else least // d,
                        -(-most // d) if most < 0 else most // d, f"{name}_q")
        self._quotient(num, column_expr(q), d, lits, name)
        self.enforced(num.plus(column_expr(q), -d).plus(target, -1), 0, 0, lits, f"{name}_r")

    def _product(self, left: Affine, right: Affine, lits: list[Lit], name: str) -> Affine:
        """An expression equal to ``left * right`` (when ``lits`` hold): over the values of
        the factor with fewer of them, ``product = v * other`` where that factor is ``v``."""
        (a, b), (c, d) = self.bounds(left), self.bounds(right)
        if b - a > d - c:
            left, right, (a, b), (c, d) = right, left, (c, d), (a, b)
        corners = [a * c, a * d, b * c, b * d]
        product = column_expr(self.column(min(corners), max(corners), f"{name}_p"))
        for v, col in self.one_hot(left, lits, f"{name}_f").items():
            self.enforced(product.plus(right, -v), 0, 0, [*lits, (col, True)], f"{name}_v{v}")
        return product

    def _int_prod(self, c: Any, name: str, lits: list[Lit]) -> None:
        target = self.expr(c.int_prod.target, name)
        factors = [self.expr(e, name) for e in c.int_prod.exprs]
        product = factors[0] if factors else Affine({}, 1)
        for k, factor in enumerate(factors[1:]):
            product = self._product(product, factor, lits, f"{name}_{k}")
        self.enforced(target.plus(product, -1), 0, 0, lits, name)

    def _element(self, c: Any, name: str, lits: list[Lit]) -> None:
        el = c.element
        if el.HasField("linear_index"):
            index, target = self.expr(el.linear_index, name), self.expr(el.linear_target, name)
            exprs = [self.expr(e, name) for e in el.exprs]
        else:
            index, target = self._var(el.index, name), self._var(el.target, name)
            exprs = [self._var(v, name) for v in el.vars]
        hot = self.one_hot(index, lits, f"{name}_i", range(len(exprs)))
        for v, col in hot.items():
            self.enforced(target.plus(exprs[v], -1), 0, 0, [*lits, (col, True)], f"{name}_{v}")

    def _table(self, c: Any, name: str, lits: list[Lit]) -> None:
        table = c.table
        exprs = [self.expr(e, name) for e in table.exprs] or \
            [self._var(v, name) for v in table.vars]
        n = len(exprs)
        tuples = [tuple(table.values[i:i + n]) for i in range(0, len(table.values), n)] if n \
            else []
        hots = [self.one_hot(e, lits, f"{name}_x{k}") for k, e in enumerate(exprs)]
        if table.negated:
            for t, row in enumerate(tuples):
                found = [hot.get(v) for hot, v in zip(hots, row, strict=True)]
                cols = [col for col in found if col is not None]
                if len(cols) == n:  # a tuple out of reach needs no row
                    self.enforced(Affine(dict.fromkeys(cols, 1)), None, n - 1, lits,
                                  f"{name}_t{t}")
            return
        allowed = [row for row in tuples
                   if all(v in hot for hot, v in zip(hots, row, strict=True))]
        pick = [self.binary(f"{name}_t{t}") for t in range(len(allowed))]
        self.enforced(Affine(dict.fromkeys(pick, 1)), 1, 1, lits, f"{name}_one")
        for k, hot in enumerate(hots):
            for v, col in hot.items():  # the value is taken iff a chosen tuple has it
                users = [p for p, row in zip(pick, allowed, strict=True) if row[k] == v]
                self.enforced(Affine(dict.fromkeys(users, 1)).plus(column_expr(col), -1), 0, 0,
                              lits, f"{name}_x{k}_{v}")

    def _all_diff(self, c: Any, name: str, lits: list[Lit]) -> None:
        hots = [self.one_hot(self.expr(e, name), lits, f"{name}_x{k}")
                for k, e in enumerate(c.all_diff.exprs)]
        for v in sorted({v for hot in hots for v in hot}):
            cols = [hot[v] for hot in hots if v in hot]
            if len(cols) > 1:
                self.enforced(Affine(dict.fromkeys(cols, 1)), None, 1, lits, f"{name}_v{v}")

    # ---- the whole model
    def translate(self) -> MipModel:
        p = self.proto
        if p.HasField("floating_point_objective"):
            raise Untranslatable("the model has a floating-point objective, which has no "
                                 "exact integer translation here")
        for i, var in enumerate(p.variables):
            domain = domain_intervals(var.domain)
            self.column(domain[0][0], domain[-1][1], f"x{i}")
        variables = len(p.variables)
        for i, var in enumerate(p.variables):
            domain = domain_intervals(var.domain)
            if len(domain) > 1:
                self.in_domain(column_expr(i), domain, [], f"x{i}_domain")
        kinds = [c.WhichOneof("constraint") for c in p.constraints]
        refused = sorted({k for k in kinds if k is not None and k not in self.handlers},
                         key=kinds.index)
        if refused:
            what = ", ".join(f"'{k}' ({REFUSED.get(k, 'a kind this translation does not know')}"
                             f", constraint {kinds.index(k)})" for k in refused)
            raise Untranslatable(f"the model has {what}: no exact linear translation here; "
                                 "export .pb or .pbtxt to keep the model whole")
        for ci, (c, kind) in enumerate(zip(p.constraints, kinds, strict=True)):
            if kind is not None:
                self.handlers[kind](c, f"c{ci}", [self.literal(r) for r in c.enforcement_literal])
        for k, ref in enumerate(p.assumptions):
            self.clause([self.literal(ref)], f"assumption{k}")
        scale = p.objective.scaling_factor or 1.0
        terms = self.terms(p.objective.vars, p.objective.coeffs, "the objective")
        if p.objective.domain:
            self.in_domain(terms, domain_intervals(p.objective.domain), [], "objective_domain")
        objective = np.zeros(len(self.names))
        for col, coef in terms.terms.items():
            objective[col] = scale * coef
        return MipModel(
            names=self.names, lower=np.array(self.lower, dtype=float),
            upper=np.array(self.upper, dtype=float), objective=objective,
            offset=scale * p.objective.offset, maximize=scale < 0,
            row_starts=np.array(self.starts, dtype=np.int64),
            row_columns=np.array(self.columns, dtype=np.int64),
            row_values=np.array(self.values, dtype=float),
            row_lower=np.array(self.row_lower, dtype=float),
            row_upper=np.array(self.row_upper, dtype=float),
            row_names=self.row_names, variables=variables)


def translate(proto: Any) -> MipModel:
    """The exact MIP of a CP-SAT model (a ``cp_model_pb2.CpModelProto``, see
    :func:`solver.cpsat.protofile.message_of`); :class:`Untranslatable` names the first
    constraint kind without an exact linear translation."""
    return _Translation(proto).translate()
