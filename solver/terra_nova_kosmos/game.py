"""Terra Nova (KOSMOS 2022) as the drivers see it: the registry adapter.

Every method imports the modules it needs when called, so that listing the
games (``boardsat --help``) stays fast. Commands not offered are left out of
:attr:`TerraNovaKosmos.options`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from solver.errors import InputError
from solver.protocol import (
    Case,
    GameRecord,
    Made,
    Options,
    Played,
    PuzzleModel,
    Review,
    ReviewTask,
    Screen,
    Shown,
    Solved,
)


class TerraNovaKosmos:
    """The :class:`solver.protocol.Game` of Terra Nova (KOSMOS 2022)."""

    key = "terra-nova-kosmos"
    title = "Terra Nova (KOSMOS 2022)"
    short = "Terra Nova (KOSMOS)"
    prefix = "tnk"
    kinds = ("last-round", "best-round", "last-rounds")
    options = {
        "show": frozenset(),
        "export": frozenset(),
        "perft": frozenset({"depth"}),
        "verify": frozenset(),
        "solve": frozenset({"top", "hint", "stats"}),
        "rate": frozenset({"stats"}),
        "play": frozenset({"turns", "out", "record"}),
        "apply": frozenset(),
        "review": frozenset(),
    }
    horizon_unit = "rounds planned"
    plot_colours = {"last-round": "tab:orange", "best-round": "tab:olive",
                    "last-rounds": "tab:brown"}
    demo = "terra-nova-kosmos/puzzles/generated/tnk-best-round-s0-c00019.toml"

    # ---- position files
    def read_position(self, path: Path) -> Any:
        from solver.terra_nova_kosmos.fileformat import read_position
        return read_position(path)

    def write_position(self, position: Any) -> str:
        from solver.terra_nova_kosmos.fileformat import write_position
        return write_position(position)

    # ---- commands
    def show(self, path: Path, screen: Screen) -> int:
        from solver.terra_nova_kosmos import commands
        return commands.show(path, screen)

    def solve(self, path: Path, options: Options, params: Any, as_json: bool,
              screen: Screen, show: Shown) -> int:
        if show.top is not None:
            from solver.terra_nova_kosmos import ranked
            return ranked.solve_top(path, params, as_json, screen, show)
        from solver.terra_nova_kosmos import commands
        return commands.solve(path, params, as_json, screen, show)

    def rate(self, path: Path, texts: Sequence[str], options: Options, params: Any,
             as_json: bool, screen: Screen, show: Shown) -> int:
        from solver.terra_nova_kosmos import ranked
        return ranked.rate(path, texts, params, as_json, screen, show)

    def played(self, position: Any, texts: Sequence[str]) -> Played:
        from solver.terra_nova_kosmos.explain import explain_line
        from solver.terra_nova_kosmos.notation import parse_line
        return explain_line(position, parse_line(list(texts), position.grid)).played()

    def verify(self, path: Path, options: Options, as_json: bool, screen: Screen) -> int:
        from solver.terra_nova_kosmos import commands
        return commands.verify(path, as_json, screen)

    def perft(self, path: Path, options: Options, as_json: bool, screen: Screen) -> int:
        from solver.terra_nova_kosmos import commands
        return commands.perft(path, options["depth"] or 1, as_json, screen)

    def play(self, paths: tuple[Path, ...], options: Options, seed: int, screen: Screen) -> int:
        from solver.terra_nova_kosmos import commands
        if len(paths) != 1:
            raise InputError("Terra Nova (KOSMOS) play takes exactly one position file")
        return commands.play(paths[0], options["turns"], seed, options["out"], screen,
                             options["record"])

    # ---- pictures
    def picture(self, path: Path, solution: bool) -> Any:
        from solver.terra_nova_kosmos.picture import picture
        return picture(path, solution)

    # ---- the puzzle generator
    def default_turns(self, kind: str) -> int:
        return 0

    def check_generate(self, kind: str, turns: int) -> None:
        """KOSMOS puzzles run to the pass: ``--turns`` plays no part."""
        if turns != 0:
            raise InputError(f"--turns is not for Terra Nova (KOSMOS) {kind} puzzles")

    def puzzle_label(self, kind: str, turns: int) -> str:
        return kind

    def make_puzzle(self, seed: int, kind: str, turns: int) -> Made | None:
        from solver.terra_nova_kosmos.puzzlegen import make_puzzle
        return make_puzzle(seed, kind, turns)

    # ---- the benchmark runner
    def case_turns(self, kind: str, turns: int | None) -> int | None:
        return None

    def check_recipe(self, kind: str, recipe: Mapping[str, Any]) -> None:
        from solver.terra_nova_kosmos.benchcases import check_recipe
        check_recipe(kind, recipe)

    def bench_load(self, case: Case, root: Path) -> Any:
        from solver.terra_nova_kosmos import benchcases
        return benchcases.load(case, root)

    def bench_size(self, position: Any) -> tuple[int, int]:
        return (position.grid.size, len(position.players))

    def bench_horizon(self, position: Any, case: Case) -> int | None:
        """The rounds the puzzle plans: 1 but for a last-rounds puzzle."""
        from solver.terra_nova_kosmos.engine.lastrounds import planned_rounds
        return planned_rounds(position) if case.kind == "last-rounds" else 1

    def bench_solve(self, position: Any, case: Case, params: Any) -> Solved:
        from solver.terra_nova_kosmos import benchcases
        return benchcases.solve_cpsat(position, case, params)

    def bench_exhaustive(self, position: Any, case: Case, cap: float) -> tuple[int, ...]:
        from solver.terra_nova_kosmos import benchcases
        return benchcases.solve_exhaustive(position, case, cap)

    # ---- export and other solvers
    def export_case(self, path: Path, options: Options) -> Case:
        from solver.terra_nova_kosmos import export
        return export.export_case(path, options)

    def export_options(self, case: Case) -> dict[str, Any]:
        return {}

    def puzzle_model(self, position: Any, case: Case, params: Any) -> PuzzleModel:
        from solver.terra_nova_kosmos import export
        return export.puzzle_model(position, case, params)

    def horizon_text(self, horizon: int | None) -> str:
        if horizon is None:  # a run saved before the rounds were recorded: one round
            return "to the pass"
        return f"{horizon} round" + ("s" if horizon != 1 else "")

    # ---- game records
    def load_position(self, path: Path) -> Any:
        from solver.terra_nova_kosmos.commands import load
        return load(path)

    def inline_position(self, table: Mapping[str, Any], text: str, path: Path) -> Any:
        from solver.terra_nova_kosmos.commands import checked
        from solver.terra_nova_kosmos.fileformat import position_from_toml
        return checked(position_from_toml({"game": self.key, **table}, text, path), path)

    def to_move(self, position: Any) -> str:
        return position.to_move

    def game_over(self, position: Any) -> str | None:
        from solver.terra_nova_kosmos.engine.rounds import game_over
        return "everyone has passed in the last round" if game_over(position) else None

    def parse_turn(self, position: Any, text: str) -> Any:
        from solver.terra_nova_kosmos.notation import parse_turn
        return parse_turn(text, position.grid)

    def format_turn(self, position: Any, turn: Any) -> str:
        from solver.terra_nova_kosmos.notation import format_turn
        return format_turn(turn, position.grid)

    def play_turn(self, position: Any, turn: Any) -> Any:
        from solver.terra_nova_kosmos.commands import turn_played
        return turn_played(position, turn)


    # ---- review
    def review_tasks(self, record: GameRecord, params: Any) -> list[ReviewTask]:
        from solver.terra_nova_kosmos import review
        return review.tasks(record, params)

    def review_result(self, record: GameRecord, results: Sequence[Any]) -> Review:
        from solver.terra_nova_kosmos import review
        return review.result(record, results)

    def review_pictures(self, record: GameRecord, row: Any) -> list[tuple[Any, str]]:
        from solver.terra_nova_kosmos import review
        return review.pictures(record, row)


GAME = TerraNovaKosmos()
