"""The power bowls: gaining moves tokens I → II, then II → III; spending moves III → I."""

from __future__ import annotations

Bowls = tuple[int, int, int]


def gain(bowls: Bowls, n: int) -> Bowls:
    """Bowls after gaining ``n`` power ([D9]: always in full; the excess is lost).

    One step at a time: from I to II while I is not empty, then from II to III.
    """
    one, two, three = bowls
    a = min(n, one)
    b = min(n - a, two + a)
    return (one - a, two + a - b, three + b)


def spend(bowls: Bowls, k: int) -> Bowls:
    """Bowls after spending ``k`` power from bowl III (ValueError when it holds less)."""
    one, two, three = bowls
    if k > three:
        raise ValueError(f"spending {k} power needs {k} in bowl III, there are {three}")
    return (one + k, two, three - k)
