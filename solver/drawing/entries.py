"""A terminal line of entries (legend items, scores) that wraps between entries.

Rich wraps text at any space, so a narrow terminal split ``▲ tent`` or
``red 0 pts (13 pieces)`` across two lines. :class:`Entries` breaks only
between entries, at the width it is given when printed; an entry wider than
the whole line still wraps inside itself. Rich only, no matplotlib.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from rich.console import Console, ConsoleOptions
from rich.measure import Measurement
from rich.style import Style
from rich.text import Text


class Entries:
    """``entries`` joined by ``separator`` on as few lines as the width allows."""

    def __init__(self, entries: Sequence[Text | str], separator: str = "  ",
                 style: str | Style = "") -> None:
        self.entries = [Text(e, style=style) if isinstance(e, str) else e for e in entries]
        self.separator = Text(separator, style=style)

    def lines(self, width: int) -> list[Text]:
        """The entries on lines of at most ``width`` cells (a lone wide entry excepted)."""
        lines: list[Text] = []
        line = Text()
        for entry in self.entries:
            if line and line.cell_len + self.separator.cell_len + entry.cell_len > width:
                lines.append(line)
                line = Text()
            if line:
                line.append_text(self.separator)
            line.append_text(entry)
        if line:
            lines.append(line)
        return lines

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Text]:
        yield from self.lines(options.max_width)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widest = max((e.cell_len for e in self.entries), default=0)
        whole = sum(e.cell_len for e in self.entries) + self.separator.cell_len * max(
            0, len(self.entries) - 1)
        return Measurement(widest, whole)


def stat_entries(stats: Mapping[str, Any], seconds: float | None = None) -> Entries:
    """Solver statistics as entries (``--stats``): ``branches 812``, ``deterministic time
    0.0135``; a nested table as ``halves: b 1.47, a 0.31``; ``seconds`` first, if given."""
    entries: list[Text | str] = [] if seconds is None else [f"time {seconds:.2f} s"]
    for name, value in stats.items():
        words = name.replace("_", " ")
        if isinstance(value, Mapping):
            inner = ", ".join(f"{k.replace('_', ' ')} {_figure(v)}" for k, v in value.items())
            entries.append(f"{words}: {inner}")
        else:
            entries.append(f"{words} {_figure(value)}")
    return Entries([Text(e) if isinstance(e, str) else e for e in entries], "  ")


def _figure(value: Any) -> str:
    """A statistic as text: thousands separated, floats to 4 significant figures."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    return f"{value:,}" if isinstance(value, int) else f"{value:.4g}"
