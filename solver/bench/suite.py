"""Benchmark suites: TOML files listing the cases to time.

Format (``benchmarks/suites/quick.toml``)::

    [suite]
    time_limit = 60      # CP-SAT seconds per case (not proven optimal past it)
    cap = 10             # seconds the exhaustive search may take before "capped"
    plot = "horizons"    # optional: one panel, time against turns/draws
                         # (default "sizes": also time against board size)
    overview = ["terra-nova best-turn", "rift-valley max-score 8 draws"]
                         # optional: the groups (prefixes of "game kind horizon")
                         # this suite adds to the cross-suite overview (default: all)

    [[case]]
    name = "tn-late-best"
    game = "terra-nova"
    position = "positions/terra-nova/late-2p.toml"   # relative to the repository
    kind = "best-turn"   # best-turn | closing | max-score
    turns = 1            # Terra Nova horizon; Rift Valley: draws = N (absent: the file's)
    cap = 120            # optional: this case's exhaustive-search cap (default: the suite's)
    time_limit = 120     # optional: this case's CP-SAT seconds (default: the suite's)

    [[case]]                          # a generated position instead of a file
    name = "tn-small-best"
    game = "terra-nova"
    kind = "best-turn"
    recipe = { rows = 7, cols = 9, players = 2, pieces = 4, turns_played = 10, seed = 3 }

The recipe keys are the game's (see ``position_from_recipe`` in the game's
``benchcases`` module).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solver.errors import InputError
from solver.games import GAMES
from solver.paths import REPO_ROOT, SUITES_DIR
from solver.protocol import Case
from solver.tomlfile import check_keys, load_toml, place_of, require_type

PLOTS = ("sizes", "horizons")
"""What a suite's plot shows (``[suite] plot``)."""

CASE_KEYS = ("name", "game", "position", "recipe", "kind", "turns", "draws", "repeat", "cap",
             "time_limit")


@dataclass(frozen=True)
class Suite:
    """A named list of cases with the suite-wide limits."""

    name: str
    path: Path
    time_limit: float
    cap: float
    cases: tuple[Case, ...] = field(default_factory=tuple)
    plot: str = "sizes"
    """``sizes`` (time against board size and against horizon) or ``horizons``."""
    overview: tuple[str, ...] = ()
    """The groups this suite adds to the overview (:mod:`solver.bench.overview`);
    empty: all of them."""


def suite_file(name: str) -> Path:
    """The file of a named suite (``quick`` → ``benchmarks/suites/quick.toml``)."""
    return SUITES_DIR / f"{name}.toml"


def load_suite(path: str | Path, root: Path | None = None) -> Suite:
    """Read a suite file; positions are resolved against ``root`` (default: the repository).

    Bad input is an InputError naming the file and the place: the line of the key,
    inside its ``[[case]]`` (keys are named ``case.N.key``, N counting from 1).
    """
    path = Path(path)
    root = root or REPO_ROOT
    data, text = load_toml(path)
    check_keys(data, ("suite", "case"), text=text, path=path)
    head = require_type(data.get("suite", {}), dict, "suite", text=text, path=path)
    check_keys(head, ("time_limit", "cap", "plot", "overview"), text=text, path=path,
               prefix="suite.")
    plot = require_type(head.get("plot", "sizes"), str, "suite.plot", text=text, path=path)
    if plot not in PLOTS:
        raise InputError(f"plot must be {' or '.join(PLOTS)}, not {plot!r}", path=path,
                         place=place_of(text, "suite.plot"))
    overview = require_type(head.get("overview", []), list, "suite.overview", text=text,
                            path=path)
    if not all(isinstance(pick, str) for pick in overview):
        raise InputError("'suite.overview' must be a list of strings", path=path,
                         place=place_of(text, "suite.overview"))
    time_limit = _positive(head.get("time_limit", 60), "suite.time_limit", text, path)
    cap = _positive(head.get("cap", 10), "suite.cap", text, path)
    tables = require_type(data.get("case", []), list, "case", text=text, path=path)
    cases = []
    names: set[str] = set()
    for number, table in enumerate(tables, start=1):
        case = _case(table, number, root, text, path)
        if case.name in names:
            raise InputError(f"two cases are named {case.name!r}", path=path,
                             place=place_of(text, f"case.{number}.name"))
        names.add(case.name)
        cases.append(case)
    if not cases:
        raise InputError("the suite has no [[case]]", path=path)
    return Suite(path.stem, path, time_limit, cap, tuple(cases), plot, tuple(overview))


def _positive(value: Any, key: str, text: str, path: Path) -> float:
    """``value`` as seconds: a number above 0, else an InputError at ``key``."""
    seconds = float(require_type(value, (int, float), key, text=text, path=path))
    if not seconds > 0:
        raise InputError(f"'{key}' must be more than 0 seconds, not {value}", path=path,
                         place=place_of(text, key))
    return seconds


def _case(table: Any, number: int, root: Path, text: str, path: Path) -> Case:
    where = f"case {number}"
    prefix = f"case.{number}."
    require_type(table, dict, f"case.{number}", text=text, path=path)

    def place(key: str = "") -> str:
        return place_of(text, prefix + key if key else f"case.{number}")

    check_keys(table, CASE_KEYS, text=text, path=path, prefix=prefix)
    for key in ("name", "game", "kind"):
        if key not in table:
            raise InputError(f"{where} has no '{key}'", path=path, place=place())
        require_type(table[key], str, prefix + key, text=text, path=path)
    game, kind = table["game"], table["kind"]
    if game not in GAMES:
        raise InputError(f"{where}: unknown game {game!r} (games: {', '.join(GAMES)})",
                         path=path, place=place("game"))
    kinds = GAMES[game].kinds
    if kind not in kinds:
        raise InputError(f"{where}: {game} has no kind {kind!r} "
                         f"(kinds: {', '.join(kinds)})", path=path, place=place("kind"))
    if ("position" in table) == ("recipe" in table):
        raise InputError(f"{where} needs exactly one of 'position' and 'recipe'", path=path,
                         place=place())
    position = None
    if "position" in table:
        position = root / require_type(table["position"], str, prefix + "position", text=text,
                                       path=path)
        if not position.is_file():
            raise InputError(f"{where}: no position file {table['position']!r} (positions are "
                             f"relative to the repository)", path=path, place=place("position"))
    recipe = table.get("recipe")
    if recipe is not None:
        require_type(recipe, dict, prefix + "recipe", text=text, path=path)
        try:
            GAMES[game].check_recipe(kind, recipe)
        except InputError as exc:
            raise InputError(f"{where}: {exc.message}", path=path,
                             place=place("recipe")) from None
    numbers = {}
    for key in ("turns", "draws", "repeat"):
        if key in table:
            numbers[key] = require_type(table[key], int, prefix + key, text=text, path=path)
    cap = _positive(table["cap"], prefix + "cap", text, path) if "cap" in table else None
    limit = (_positive(table["time_limit"], prefix + "time_limit", text, path)
             if "time_limit" in table else None)
    try:
        turns = GAMES[game].case_turns(kind, numbers.get("turns"))
    except ValueError as exc:
        raise InputError(f"{where}: {exc}", path=path, place=place("turns")) from None
    return Case(name=table["name"], game=game, kind=kind, position=position, recipe=recipe,
                turns=turns, draws=numbers.get("draws"), repeat=max(1, numbers.get("repeat", 1)),
                cap=cap, time_limit=limit)
