"""Connected components of a graph given by a neighbour function (plain Python, no model)."""

from __future__ import annotations

from collections.abc import Callable, Iterable


def component_of(start: int, near: Callable[[int], Iterable[int]]) -> set[int]:
    """The nodes joined to ``start`` by paths whose every step goes from a node to one
    of ``near(node)`` (``start`` included)."""
    seen, stack = {start}, [start]
    while stack:
        node = stack.pop()
        for nb in near(node):
            if nb not in seen:
                seen.add(nb)
                stack.append(nb)
    return seen


def components(nodes: Iterable[int], near: Callable[[int], Iterable[int]]) -> list[set[int]]:
    """The components of the graph on ``nodes`` (in the order of their first node);
    ``near(node)`` gives a node's neighbours, and only those in ``nodes`` count."""
    members = set(nodes)
    out: list[set[int]] = []
    placed: set[int] = set()
    for start in sorted(members):
        if start not in placed:
            comp = component_of(start, lambda n: (x for x in near(n) if x in members))
            placed |= comp
            out.append(comp)
    return out
