"""The words every game prints around an answer: how sure it is, why it is worth that.

Rich only, no game: a game passes its figures and sentences, this words and lays
them out so that every game says the same thing the same way.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Console, ConsoleOptions
from rich.measure import Measurement
from rich.text import Text

from solver.drawing.entries import Entries


def verdict(optimal: bool, fallback: str | None = None, bound: int | None = None,
            stopped: Any = None) -> Text:
    """How sure the answer is, honestly: ``proven optimal``; a line CP-SAT found but did
    not prove, ``not proven optimal (best found; bound N)``; or, when it found none in
    time, ``not proven optimal:`` and ``fallback``, the words for what is shown instead
    (``no line found in time; showing a legal line``). ``stopped`` (a
    :class:`~solver.cpsat.StopReason`) says first what ended the search
    (``interrupted: not proven optimal …``)."""
    if optimal:
        return Text("proven optimal", style="bold green")
    why = "" if stopped is None else f"{stopped.value}: "
    bounded = "" if bound is None else f"bound {bound}"
    if fallback is not None:
        return Text(f"{why}not proven optimal: {fallback}"
                    + (f" ({bounded})" if bound is not None else ""), style="bold yellow")
    return Text(f"{why}not proven optimal (best found"
                + (f"; {bounded})" if bound is not None else ")"), style="bold yellow")


class Bulleted:
    """Sentences as a list: each after a bullet, wrapped under itself (a hanging indent)
    and only after a ``;`` or ``,`` (a phrase too long for the line between its
    words), so a long one never runs back to the left margin and a figure such as
    ``7 × 3 = 21 points`` stays on one line."""

    def __init__(self, sentences: Sequence[str], indent: int = 2) -> None:
        self.sentences = list(sentences)
        self.indent = indent

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Text]:
        hang = " " * (self.indent + 2)
        width = max(10, options.max_width - len(hang))
        for sentence in self.sentences:
            phrases: list[Text | str] = []
            for phrase in re.split(r"(?<=[;,]) ", sentence):
                phrases += [phrase] if len(phrase) <= width else phrase.split(" ")
            for number, line in enumerate(Entries(phrases, " ").lines(width)):
                yield Text(" " * self.indent + "• " if number == 0 else hang) + line

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(self.indent + 12, options.max_width)


def bullets(sentences: Sequence[str], indent: int = 2) -> Bulleted:
    """:class:`Bulleted` ``sentences``."""
    return Bulleted(sentences, indent)


def ranked_label(rank: int, proven: bool) -> str:
    """The rank as an ordinal (``1st``, ``2nd``, ``11th``, ``23rd``), a question mark after
    it for an answer not proven in its rank."""
    suffix = "th" if 10 <= rank % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(rank % 10, "th")
    return f"{rank}{suffix}" + ("" if proven else "?")


def ranking_note(ranking: Any, asked: int, differ: str) -> Text:
    """What a list of ranked answers is: each proven in its rank, fewer than asked when
    no other answer exists, cut short by Ctrl-C or the time limit (``ranking`` is a
    :class:`solver.cpsat.ranking.Ranking`; ``differ`` says how each answer differs)."""
    found = len(ranking.answers)
    words = (f"each answer {differ}, proven the best of the answers not above it")
    if ranking.exhausted and found < asked:
        words += f"; there are only {found}"
    if ranking.stopped is not None:
        words += (f"; stopped ({ranking.stopped}) after {found} of {asked}; a rank with ?: "
                  "not proven")
    return Text(words, style="italic")


def ranking_stats(results: Sequence[Any]) -> dict[str, Any]:
    """The statistics of several solves (:class:`~solver.cpsat.SolveResult`), added up."""
    return {"solves": len(results),
            "branches": sum(r.stats.get("branches", 0) for r in results),
            "conflicts": sum(r.stats.get("conflicts", 0) for r in results),
            "deterministic_time": round(sum(r.stats.get("deterministic_time", 0.0)
                                            for r in results), 4)}


@dataclass(frozen=True)
class Listed:
    """One ranked answer as a game words it: its notation, its worth, why."""

    rank: int
    proven: bool
    answer: str
    worth: str
    reasons: Sequence[str]


def ranked_answers(answers: Sequence[Listed]) -> list[Any]:
    """The renderables of a ranked list: per answer a heading (its :func:`ranked_label`,
    its notation, what it is worth) and its reasons under it."""
    out: list[Any] = []
    for answer in answers:
        label = Text(f"{ranked_label(answer.rank, answer.proven)}  {answer.answer}",
                     style="bold")
        out += [Entries([label, Text(answer.worth)], "   "), bullets(answer.reasons, indent=4)]
    return out


def heading(file: object, words: str) -> Entries:
    """``FILE — words``, wrapped between the file and the words when too long."""
    return Entries([Text(str(file), style="bold"), Text(f"— {words}")], " ")


def rating_lines(rating: Any, yours: str) -> list[Any]:
    """A :class:`~solver.protocol.Rating` in words (``yours``: what the answer rated is
    called), then why the given answer is worth what it is."""
    return [phrases(rating.said(yours), style="bold"), bullets(rating.reasons)]


def replayed(verdict_text: Text) -> Text:
    """``verdict_text`` and ``, replayed by the engine`` (every printed answer is)."""
    return Text.assemble(verdict_text, ", replayed by the engine")


def phrases(words: str, tail: Text | None = None, style: str = "") -> Entries:
    """``words`` (and ``tail``, e.g. a :func:`verdict`) on a line that wraps only after a
    ``;`` or ``,`` and before ``tail``, never inside a phrase."""
    entries: list[Text | str] = [Text(p, style=style) for p in re.split(r"(?<=[;,]) ", words)]
    if tail is not None:
        entries.append(tail)
    return Entries(entries, " ")
