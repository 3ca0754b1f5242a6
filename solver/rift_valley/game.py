"""Rift Valley Reserve as the drivers see it: the registry adapter.

Every method imports the modules it needs when called, so that listing the
games (``boardsat --help``) stays fast.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from solver.protocol import (
    Case,
    GameRecord,
    Made,
    Options,
    Played,
    PuzzleModel,
    Review,
    ReviewTask,
    RoundReview,
    Screen,
    Shown,
    Solved,
    TurnReview,
)

if TYPE_CHECKING:
    from solver.cpsat import SolveParams
    from solver.drawing.scene import Scene


def _rules(options: Options) -> Any:
    from solver.rift_valley.rules import Rules
    return Rules(stops_block_all_colours=options["stops_block_all_colours"])


class RiftValley:
    """The :class:`solver.protocol.Game` of Rift Valley Reserve."""

    key = "rift-valley"
    title = "Rift Valley Reserve"
    short = "Rift Valley"
    prefix = "rv"
    kinds = ("max-score",)
    options = {
        "show": frozenset(),
        "export": frozenset({"draws"}),
        "solve": frozenset({"draws", "stops_block_all_colours", "top", "hint", "stats"}),
        "rate": frozenset({"stops_block_all_colours", "stats"}),
        "verify": frozenset({"stops_block_all_colours"}),
        "play": frozenset({"players", "stops_block_all_colours"}),
        "generate": frozenset(),
    }
    horizon_unit = "draws"
    plot_colours = {"max-score": "tab:green"}
    demo = "rift-valley/puzzles/generated/rv-max-score-s1-c00054.toml"

    # ---- position files
    def read_position(self, path: Path) -> Any:
        from solver.rift_valley.fileformat import read_position
        return read_position(path)

    def write_position(self, position: Any) -> str:
        from solver.rift_valley.fileformat import write_position
        return write_position(position)

    # ---- commands
    def show(self, path: Path, screen: Screen) -> int:
        from solver.rift_valley import commands
        return commands.show(path, screen)

    def solve(self, path: Path, options: Options, params: Any, as_json: bool,
              screen: Screen, show: Shown) -> int:
        if show.top is not None:
            from solver.rift_valley import ranked
            return ranked.solve_top(path, params, as_json, screen, show, _rules(options),
                                    options["draws"])
        from solver.rift_valley import commands
        return commands.solve(path, options["draws"], params, as_json, screen,
                              rules=_rules(options), show=show)

    def rate(self, path: Path, texts: Sequence[str], options: Options, params: Any,
             as_json: bool, screen: Screen, show: Shown) -> int:
        from solver.rift_valley import ranked
        return ranked.rate(path, texts, params, as_json, screen, show, _rules(options))

    def played(self, position: Any, texts: Sequence[str]) -> Played:
        from solver.rift_valley.explain import explain_draws
        from solver.rift_valley.notation import parse_draw
        return explain_draws(position, [parse_draw(t, position.grid) for t in texts]).played()

    def verify(self, path: Path, options: Options, as_json: bool, screen: Screen) -> int:
        from solver.rift_valley import commands
        return commands.verify(path, as_json, screen, rules=_rules(options))

    def perft(self, path: Path, options: Options, as_json: bool, screen: Screen) -> int:
        raise NotImplementedError("Rift Valley has no perft")

    def play(self, paths: tuple[Path, ...], options: Options, seed: int, screen: Screen) -> int:
        from solver.rift_valley import commands
        return commands.play(paths, options["players"], seed,
                             options["stops_block_all_colours"], screen)

    # ---- pictures
    def picture(self, path: Path, solution: bool) -> Any:
        from solver.rift_valley.picture import picture
        return picture(path, solution)

    # ---- the puzzle generator
    def default_turns(self, kind: str) -> int:
        return 1

    def check_generate(self, kind: str, turns: int) -> None:
        """Every request of kind max-score is made (``turns`` plays no part)."""

    def puzzle_label(self, kind: str, turns: int) -> str:
        return kind

    def make_puzzle(self, seed: int, kind: str, turns: int) -> Made | None:
        from solver.rift_valley.puzzlegen import make_puzzle
        return make_puzzle(seed, kind, turns)

    # ---- the benchmark runner
    def case_turns(self, kind: str, turns: int | None) -> int | None:
        return turns

    def check_recipe(self, kind: str, recipe: Mapping[str, Any]) -> None:
        from solver.rift_valley.puzzlegen import check_recipe
        check_recipe(recipe)

    def bench_load(self, case: Case, root: Path) -> Any:
        from solver.rift_valley import benchcases
        return benchcases.load(case, root)

    def bench_size(self, position: Any) -> tuple[int, int]:
        from solver.rift_valley import benchcases
        return benchcases.size(position)

    def bench_horizon(self, position: Any, case: Case) -> int | None:
        return case.draws if case.draws is not None else position.draws

    def bench_solve(self, position: Any, case: Case, params: Any) -> Solved:
        from solver.rift_valley import benchcases
        return benchcases.solve_cpsat(position, case, params)

    def bench_exhaustive(self, position: Any, case: Case, cap: float) -> tuple[int, ...]:
        from solver.rift_valley import benchcases
        return benchcases.solve_exhaustive(position, case, cap)

    # ---- export and other solvers
    def export_case(self, path: Path, options: Options) -> Case:
        from solver.rift_valley import export
        return export.export_case(path, options)

    def export_options(self, case: Case) -> dict[str, Any]:
        return {"draws": case.draws} if case.draws is not None else {}

    def puzzle_model(self, position: Any, case: Case, params: Any) -> PuzzleModel:
        from solver.rift_valley import export
        return export.puzzle_model(position, case, params)

    def horizon_text(self, horizon: int | None) -> str:
        return "any draws" if horizon is None else f"{horizon} draws"

    # ---- game records and their review: none (``apply`` is not among the options, so the
    # drivers refuse a Rift Valley record before asking for any of these)
    def load_position(self, path: Path) -> Any:
        raise NotImplementedError("Rift Valley has no game records")

    def inline_position(self, table: Mapping[str, Any], text: str, path: Path) -> Any:
        raise NotImplementedError("Rift Valley has no game records")

    def to_move(self, position: Any) -> str:
        raise NotImplementedError("Rift Valley has no game records")

    def game_over(self, position: Any) -> str | None:
        raise NotImplementedError("Rift Valley has no game records")

    def parse_turn(self, position: Any, text: str) -> Any:
        raise NotImplementedError("Rift Valley has no game records")

    def format_turn(self, position: Any, turn: Any) -> str:
        raise NotImplementedError("Rift Valley has no game records")

    def play_turn(self, position: Any, turn: Any) -> Any:
        raise NotImplementedError("Rift Valley has no game records")

    def review_tasks(self, record: GameRecord, params: SolveParams) -> list[ReviewTask]:
        raise NotImplementedError("Rift Valley has no game records")

    def review_result(self, record: GameRecord, results: Sequence[Any | None]) -> Review:
        raise NotImplementedError("Rift Valley has no game records")

    def review_pictures(self, record: GameRecord, row: TurnReview | RoundReview
                        ) -> list[tuple[Scene, str]]:
        raise NotImplementedError("Rift Valley has no game records")


GAME = RiftValley()
