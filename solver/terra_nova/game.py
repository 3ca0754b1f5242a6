"""Terra Nova (Winning Moves 2006) as the drivers see it: the registry adapter.

Every method imports the modules it needs when called, so that listing the
games (``boardsat --help``) stays fast.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

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


class TerraNova:
    """The :class:`solver.protocol.Game` of Terra Nova."""

    key = "terra-nova"
    title = "Terra Nova (Winning Moves 2006)"
    short = "Terra Nova"
    prefix = "tn"
    kinds = ("best-turn", "closing", "min-turns")
    options = {
        "show": frozenset(),
        "export": frozenset({"turns"}),
        "solve": frozenset({"turns", "top", "hint", "stats"}),
        "rate": frozenset({"stats"}),
        "verify": frozenset(),
        "perft": frozenset({"via_model", "time_limit"}),
        "play": frozenset({"turns", "out", "player_out_ends_game", "record"}),
        "generate": frozenset({"turns"}),
        "apply": frozenset(),
        "review": frozenset(),
    }
    horizon_unit = "turns"
    plot_colours = {"best-turn": "tab:blue", "closing": "tab:purple"}
    demo = "terra-nova/puzzles/generated/tn-best-turn-s1-c00055.toml"

    # ---- position files
    def read_position(self, path: Path) -> Any:
        from solver.terra_nova.fileformat import read_position
        return read_position(path)

    def write_position(self, position: Any) -> str:
        from solver.terra_nova.fileformat import write_position
        return write_position(position)

    # ---- commands
    def show(self, path: Path, screen: Screen) -> int:
        from solver.terra_nova import commands
        return commands.show(path, screen)

    def solve(self, path: Path, options: Options, params: Any, as_json: bool,
              screen: Screen, show: Shown) -> int:
        if show.top is not None:
            from solver.terra_nova import ranked
            return ranked.solve_top(path, options["turns"], params, as_json, screen, show)
        from solver.terra_nova import commands
        return commands.solve(path, options["turns"], params, as_json, screen, show)

    def rate(self, path: Path, texts: Sequence[str], options: Options, params: Any,
             as_json: bool, screen: Screen, show: Shown) -> int:
        from solver.terra_nova import ranked
        return ranked.rate(path, texts, params, as_json, screen, show.stats)

    def played(self, position: Any, texts: Sequence[str]) -> Played:
        from solver.terra_nova.explain import explain_line
        from solver.terra_nova.notation import parse_line
        return explain_line(position, parse_line(list(texts), position.grid)).played()

    def verify(self, path: Path, options: Options, as_json: bool, screen: Screen) -> int:
        from solver.terra_nova import commands
        return commands.verify(path, as_json, screen)

    def perft(self, path: Path, options: Options, as_json: bool, screen: Screen) -> int:
        from solver.terra_nova import commands
        if options["via_model"]:
            return commands.perft_via_model(path, as_json, screen, options["time_limit"])
        return commands.perft(path, as_json, screen)

    def play(self, paths: tuple[Path, ...], options: Options, seed: int, screen: Screen) -> int:
        from solver.errors import InputError
        from solver.terra_nova import commands
        if len(paths) != 1:
            raise InputError("Terra Nova play takes exactly one position file")
        return commands.play(paths[0], options["turns"], seed, options["out"],
                             options["player_out_ends_game"], screen, options["record"])

    # ---- pictures
    def picture(self, path: Path, solution: bool) -> Any:
        from solver.terra_nova.picture import picture
        return picture(path, solution)

    # ---- the puzzle generator
    def default_turns(self, kind: str) -> int:
        return 1 if kind == "best-turn" else 2

    def check_generate(self, kind: str, turns: int) -> None:
        from solver.errors import InputError
        if kind == "closing" and not 2 <= turns <= 3:
            raise InputError("closing puzzles are generated over 2 or 3 turns")
        if kind == "min-turns" and turns != 2:
            raise InputError("min-turns puzzles are generated with answers of 2 turns")
        if kind == "best-turn" and turns != 1:
            raise InputError("--turns is for closing and min-turns puzzles")

    def puzzle_label(self, kind: str, turns: int) -> str:
        return kind + (str(turns) if kind != "best-turn" else "")

    def make_puzzle(self, seed: int, kind: str, turns: int) -> Made | None:
        from solver.terra_nova.puzzlegen import make_puzzle
        return make_puzzle(seed, kind, turns)

    # ---- the benchmark runner
    def case_turns(self, kind: str, turns: int | None) -> int | None:
        turns = turns or 1
        if kind == "min-turns":
            raise ValueError("min-turns puzzles are generated, not benchmarked")
        if kind == "best-turn" and turns != 1:
            raise ValueError("best-turn has turns = 1")
        return turns

    def check_recipe(self, kind: str, recipe: Mapping[str, Any]) -> None:
        from solver.terra_nova.puzzlegen import check_recipe
        check_recipe(recipe)

    def bench_load(self, case: Case, root: Path) -> Any:
        from solver.terra_nova import benchcases
        return benchcases.load(case, root)

    def bench_size(self, position: Any) -> tuple[int, int]:
        from solver.terra_nova import benchcases
        return benchcases.size(position)

    def bench_horizon(self, position: Any, case: Case) -> int | None:
        return case.turns

    def bench_solve(self, position: Any, case: Case, params: Any) -> Solved:
        from solver.terra_nova import benchcases
        return benchcases.solve_cpsat(position, case, params)

    def bench_exhaustive(self, position: Any, case: Case, cap: float) -> tuple[int, ...]:
        from solver.terra_nova import benchcases
        return benchcases.solve_exhaustive(position, case, cap)

    # ---- export and other solvers
    def export_case(self, path: Path, options: Options) -> Case:
        from solver.terra_nova import export
        return export.export_case(path, options)

    def export_options(self, case: Case) -> dict[str, Any]:
        return {"turns": case.turns} if case.kind == "closing" else {}

    def puzzle_model(self, position: Any, case: Case, params: Any) -> PuzzleModel:
        from solver.terra_nova import export
        return export.puzzle_model(position, case, params)

    def horizon_text(self, horizon: int | None) -> str:
        return f"{horizon} turn" + ("s" if horizon != 1 else "")

    # ---- game records
    def load_position(self, path: Path) -> Any:
        from solver.terra_nova.commands import load
        return load(path)

    def inline_position(self, table: Mapping[str, Any], text: str, path: Path) -> Any:
        from solver.terra_nova.commands import checked
        from solver.terra_nova.fileformat import position_from_toml
        return checked(position_from_toml({"game": self.key, **table}, text, path), path)

    def to_move(self, position: Any) -> str:
        return position.to_move

    def game_over(self, position: Any) -> str | None:
        from solver.terra_nova.engine.turns import ending
        return ending(position)

    def parse_turn(self, position: Any, text: str) -> Any:
        from solver.terra_nova.notation import parse_turn
        return parse_turn(text, position.grid)

    def format_turn(self, position: Any, turn: Any) -> str:
        from solver.terra_nova.notation import format_turn
        return format_turn(turn, position.grid)

    def play_turn(self, position: Any, turn: Any) -> Any:
        from solver.terra_nova.engine.turns import apply_turn
        return apply_turn(position, turn).position


    # ---- review
    def review_tasks(self, record: GameRecord, params: Any) -> list[ReviewTask]:
        from solver.terra_nova import review
        return review.tasks(record, params)

    def review_result(self, record: GameRecord, results: Sequence[Any]) -> Review:
        from solver.terra_nova import review
        return review.result(record, results)

    def review_pictures(self, record: GameRecord, row: Any) -> list[tuple[Any, str]]:
        from solver.terra_nova import review
        return review.pictures(record, row)


GAME = TerraNova()
