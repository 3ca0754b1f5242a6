"""The import layers of ARCHITECTURE.md, checked on every module's source with ``ast``.

Floors (errors, tomlfile, geometry, cpsat, protocol, paths, drawing) < games
(``solver/<game>/``: shared modules, ``engine/``, ``model/``, bridge modules) <
the registry (``solver.games``) < drivers (``solver.bench``, ``solver.puzzlegen``,
``solver.executor``, ``solver.batch``, ``solver.sheet``, ``cli``). Imports inside
functions count too.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from solver.games import GAMES
from solver.paths import REPO_ROOT

FLOORS = ("solver.errors", "solver.tomlfile", "solver.geometry", "solver.cpsat",
          "solver.protocol", "solver.paths", "solver.drawing", "solver.recordfile")
DRIVERS = ("solver.bench", "solver.puzzlegen", "solver.executor", "solver.batch",
           "solver.sheet", "solver.records", "solver.review", "solver.export", "cli")
REGISTRY = "solver.games"
BRIDGES = ("solve", "deep", "relaxed_bounds", "halves", "answers", "settings", "uniqueness",
           "puzzlegen", "benchcases", "view", "picture", "commands", "review", "game", "export",
           "explain", "ranking", "ranked")
"""Top-level modules of a game that may use both its engine and its model; every other
top-level module (``position``, ``notation``, ``fileformat``, ``rules``…) is shared by
the two and may use neither."""


def game_packages(root: Path = REPO_ROOT) -> tuple[str, ...]:
    """``terra_nova``, ``rift_valley``…: the folders of ``solver/`` with a ``game.py``."""
    return tuple(sorted(p.parent.name for p in (root / "solver").glob("*/game.py")))


def module_name(path: Path, root: Path = REPO_ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(source: str, module: str, is_package: bool) -> list[str]:
    """Every module ``source`` imports (relative imports resolved; ``from a import b``
    counts as ``a.b`` too, since ``b`` may be a module)."""
    found = []
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            found.append(base)
            found.extend(f"{base}.{alias.name}" for alias in node.names)
    return found


def within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def game_of_module(name: str, games: tuple[str, ...]) -> str | None:
    parts = name.split(".")
    if len(parts) >= 2 and parts[0] == "solver" and parts[1] in games:
        return parts[1]
    return None


def part_of(name: str, game: str) -> str:
    """``engine``, ``model``, a bridge module's name (:data:`BRIDGES`), or ``shared``."""
    parts = name.split(".")
    if len(parts) > 2 and (parts[2] in ("engine", "model") or parts[2] in BRIDGES):
        return parts[2]
    return "shared"


def key_strings(source: str) -> list[str]:
    """String constants equal to a game's file key (``"terra-nova"``)."""
    return [node.value for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Constant) and node.value in GAMES]


def violations(module: str, source: str, is_package: bool,
               games: tuple[str, ...]) -> list[str]:
    """What ``module`` (with ``source``) does against the import layers."""
    problems = []
    own = game_of_module(module, games)
    for target in imports_of(source, module, is_package):
        other = game_of_module(target, games)
        if own is not None:
            mine = part_of(module, own)
            if other is not None and other != own:
                problems.append(f"{module} imports another game: {target}")
            if within(target, REGISTRY) or any(within(target, d) for d in DRIVERS):
                problems.append(f"{module} (a game) imports {target}")
            if other == own:
                theirs = part_of(target, own)
                if mine == "model" and theirs == "engine":
                    problems.append(f"{module} (model) imports the engine: {target}")
                if mine == "engine" and theirs == "model":
                    problems.append(f"{module} (engine) imports the model: {target}")
                if mine in ("engine", "model", "shared") and theirs in BRIDGES:
                    problems.append(f"{module} ({mine}) imports a bridge module: {target}")
                if mine == "shared" and theirs in ("engine", "model"):
                    problems.append(f"{module} (shared by engine and model) imports {target}")
        elif any(within(module, floor) for floor in FLOORS):
            if other is not None or within(target, REGISTRY) or any(
                    within(target, d) for d in DRIVERS):
                problems.append(f"{module} (a floor) imports {target}")
        elif any(within(module, d) for d in DRIVERS):
            if other is not None:
                problems.append(f"{module} (a driver) imports a game directly: {target}")
    if any(within(module, d) for d in DRIVERS):
        problems.extend(f"{module} (a driver) names the game {key!r}"
                        for key in key_strings(source))
    return problems


def all_modules() -> list[Path]:
    return sorted([*(REPO_ROOT / "solver").rglob("*.py"), *(REPO_ROOT / "cli").rglob("*.py")])


@pytest.mark.parametrize("path", all_modules(), ids=lambda p: str(p.relative_to(REPO_ROOT)))
def test_module_keeps_to_its_layer(path: Path):
    games = game_packages()
    problems = violations(module_name(path), path.read_text(encoding="utf-8"),
                          path.name == "__init__.py", games)
    assert problems == []


def test_every_registered_game_has_engine_and_model_side_by_side():
    packages = game_packages()
    assert len(packages) == len(GAMES)
    for name in packages:
        folder = REPO_ROOT / "solver" / name
        assert (folder / "engine" / "__init__.py").is_file()
        assert (folder / "model" / "__init__.py").is_file()


GAMES_HERE = ("alpha", "beta")


@pytest.mark.parametrize(("module", "source", "expected"), [
    ("solver.alpha.model.x", "from solver.alpha.engine import rules", "model) imports the engine"),
    ("solver.alpha.engine.x", "from solver.alpha.model.y import z", "engine) imports the model"),
    ("solver.alpha.engine.x", "from ..model import y", "engine) imports the model"),
    ("solver.alpha.model.x", "def f():\n    from solver.alpha import solve\n",
     "imports a bridge module"),
    ("solver.alpha.solve", "import solver.beta.position", "imports another game"),
    ("solver.alpha.position", "from solver.alpha.model.geometry import G",
     "(shared by engine and model) imports"),
    ("solver.alpha.notation", "from solver.alpha import solve", "(shared) imports a bridge"),
    ("solver.alpha.game", "from solver.games import GAMES", "(a game) imports solver.games"),
    ("solver.alpha.puzzlegen", "from solver.puzzlegen import x", "(a game) imports"),
    ("solver.alpha.view", "from cli.console import out", "(a game) imports cli"),
    ("solver.cpsat.harness", "from solver.alpha.position import P", "(a floor) imports"),
    ("solver.bench.runner", "from solver.alpha import benchcases", "imports a game directly"),
    ("cli.main", "x = 'terra-nova'", "names the game"),
])
def test_the_checker_catches(module, source, expected):
    problems = violations(module, source, False, GAMES_HERE)
    assert any(expected in p for p in problems), problems


def test_the_checker_allows_the_layers():
    allowed = [
        ("solver.alpha.engine.x",
         "from solver.alpha.position import P\nfrom solver.errors import E"),
        ("solver.alpha.model.x", "from solver.alpha.model.geometry import G\nimport solver.cpsat"),
        ("solver.alpha.solve",
         "from solver.alpha.engine import a\nfrom solver.alpha.model import b"),
        ("solver.games", "from solver.alpha.game import GAME"),
        ("cli.main", "from solver.games import GAMES"),
    ]
    for module, source in allowed:
        assert violations(module, source, False, GAMES_HERE) == []


def test_the_command_line_starts_without_or_tools():
    """``boardsat --help`` and option parsing import no OR-tools (nor pandas, which it
    imports): the games' ``game.py`` and :mod:`solver.cpsat` load them on first use."""
    code = ("import sys, cli.main\n"
            "heavy = ('ortools', 'pandas', 'rich.progress')\n"
            "print(','.join(m for m in heavy if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=REPO_ROOT, check=True)
    assert done.stdout.strip() == ""


def test_the_pytest_command_collects_the_tests_that_import_tests_modules():
    """``.venv/bin/pytest FILE`` (not only ``python -m pytest``) finds
    ``tests.support.tnk_positions``: pyproject's ``pythonpath``. Before, seven test files
    failed to collect that way."""
    pytest_command = Path(sys.executable).parent / "pytest"
    if not pytest_command.exists():
        pytest.skip("no pytest command next to this Python")
    result = subprocess.run(
        [str(pytest_command), "--collect-only", "-q", "-p", "no:cacheprovider",
         "tests/test_tnk_rules.py"], cwd=REPO_ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-2000:]
    assert "ModuleNotFoundError" not in result.stdout
