"""``boardsat``: the click command group. Parses options and dispatches by game.

Each command reads the file's ``game`` key, finds the game in the registry
(:mod:`solver.games`) and hands over to it with the options it takes; the game
prints on the CLI's consoles (:class:`cli.console.ConsoleScreen`). No game
logic, and no game name, lives here.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
from click.core import ParameterSource
from click.decorators import FC

import cli
from cli.batch import batch as batch_command
from cli.cluster import scheduler_option
from cli.console import SCREEN, user_errors, without_colour
from cli.records import apply as apply_command
from cli.render import render as render_command
from cli.render import sheet as sheet_command
from cli.review import review as review_command
from solver import __version__
from solver.cpsat import SEED_MAX, SEED_MIN, default_workers
from solver.games import GAMES, all_kinds, check_options, game_of, get, require_command
from solver.protocol import Game, Shown

FILE = click.Path(exists=False, dir_okay=False, path_type=Path)
INPUT = click.Path(path_type=Path)
"""A file to read: a missing file or a folder is the reader's one-line error (exit 2)."""
CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}
SEED = click.IntRange(SEED_MIN, SEED_MAX)
TOP_MOST = 100
"""The most answers ``solve --top`` lists (each is one more CP-SAT solve)."""
"""Seeds are 32-bit signed integers (CP-SAT's ``random_seed``), on every command."""

EXIT_HELP = """\b
Exit status: 0 done (an answer is printed, proven optimal or not); 1 the
engine disagrees with the solver, or a claimed solution does not hold; 2 bad
input (one line naming the file and place); 3 no answer found within
--time-limit; 130 interrupted (Ctrl-C) before any answer was found."""


@click.group(context_settings=CONTEXT)
@click.version_option(__version__, "-V", "--version", prog_name="boardsat")
def main() -> None:
    """Solve board-game puzzle positions with proven-optimal answers.

    Games: Terra Nova (Winning Moves 2006), Rift Valley Reserve and Terra Nova
    (KOSMOS 2022: the last-round, best-round and last-rounds puzzles). Positions are
    TOML files (see docs/formats.md); the game is read from the file's `game` key.
    Every answer the CP-SAT solver finds is replayed through an independent
    reference rules engine before it is printed.

    \b
    Exit status: 0 done; 1 the engine disagrees with the solver, or a claimed
    solution does not hold; 2 bad input; 3 no answer within --time-limit;
    130 interrupted (Ctrl-C) before any answer was found.

    \b
    Colour: boards are drawn in colour on a terminal (16 or 256 colours) and
    mark what an answer changes in characters too ([##] a new stone); --no-color
    (on any command) or the NO_COLOR environment variable prints them without.

    \b
    Examples:
      boardsat show positions/terra-nova/setup-2p.toml
      boardsat solve positions/terra-nova/puzzles/closing-demo.toml
      boardsat solve FILE --top 3
      boardsat rate FILE "b1-c1 #b2"
      boardsat solve FILE --turns 2 --time-limit 30 --json
    """


def _workers_option(help_text: str = "CP-SAT worker threads.") -> Callable[[FC], FC]:
    """The shared ``--workers`` option (default: the machine's cores)."""
    return click.option(
        "--workers", type=click.IntRange(1), default=default_workers, show_default="machine cores",
        help=help_text,
    )


@main.command(context_settings=CONTEXT)
@click.argument("file", type=INPUT)
@user_errors
def show(file: Path) -> None:
    """Draw the position in FILE in colour: board, pieces or elements, scores.

    A [solution] in FILE is replayed by the engine: exit status 1 when it is illegal
    or not worth its value, 2 for bad input.
    """
    _exit(game_of(file).show(file, SCREEN))


@main.command(context_settings=CONTEXT)
@click.argument("file", type=INPUT)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (docs/json.md).")
@click.option("--via-model", is_flag=True,
              help="Count by enumerating the CP-SAT turn model's solutions instead of the "
                   "engine (a cross-check; can take minutes where the engine takes ms).")
@click.option("--time-limit", type=click.FloatRange(0, min_open=True), default=None,
              help="With --via-model: seconds before giving up (exit 3).")
@click.option("--depth", type=click.IntRange(1, 2), default=None,
              help="Terra Nova (KOSMOS): 2 also counts the next player's replies.")
@user_errors
def perft(file: Path, as_json: bool, via_model: bool, time_limit: float | None,
          depth: int | None) -> None:
    """Count the legal turns of the player to move in FILE (Terra Nova, both editions).

    Turns are counted as distinct action sequences (`c4-f4 #d5 #e5` and
    `c4-f4 #e5 #d5` are two); `positions` counts the distinct positions they
    lead to. Terra Nova (KOSMOS) counts canonical turns (power exchanged for
    money only as needed, right before the action).
    """
    game = game_of(file)
    require_command(game, "perft", file)
    if time_limit is not None and not via_model:
        raise click.UsageError("--time-limit is for perft --via-model")
    options = {"via_model": via_model, "time_limit": time_limit, "depth": depth}
    check_options(game, "perft", _present(options), file)
    _exit(game.perft(file, _accepted(game, "perft", options), as_json, SCREEN))


@main.command(context_settings=CONTEXT)
@click.argument("files", type=INPUT, nargs=-1, required=True)
@click.option("--turns", type=click.IntRange(1), default=None,
              help="Terra Nova (both): turns to play (default: until the game ends).")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Random seed.")
@click.option("--out", type=FILE, default=None,
              help="Terra Nova (both): write the final position here (folders are created).")
@click.option("--players", type=click.IntRange(2, 5), default=None,
              help="Rift Valley: number of players (default: one per board file).")
@click.option("--record", type=FILE, default=None,
              help="Terra Nova (both): write the game record here (docs/formats.md), for "
                   "`apply` and `review`.")
@click.option("--player-out-ends-game", is_flag=True,
              help="Terra Nova rule option: the game ends when a player has no piece left.")
@click.option("--stops-block-all-colours", is_flag=True,
              help="Rift Valley rule option: stops of any two colours may not touch.")
@user_errors
def play(files: tuple[Path, ...], turns: int | None, seed: int, out: Path | None,
         record: Path | None, players: int | None, player_out_ends_game: bool,
         stops_block_all_colours: bool) -> None:
    """Play a seeded random game from FILES and print every turn and the scores.

    Terra Nova (both editions): one position file; plays random legal turns from it.
    Rift Valley: board files, one per player (their rifts are assigned to the
    players in order), or one board with --players.
    """
    game = game_of(files[0])
    given = {"turns": turns, "out": out, "record": record, "players": players,
             "player_out_ends_game": player_out_ends_game,
             "stops_block_all_colours": stops_block_all_colours}
    check_options(game, "play", _present(given), files[0])
    _exit(game.play(files, _accepted(game, "play", given), seed, SCREEN))


@main.command(context_settings=CONTEXT)
@click.argument("file", type=INPUT)
@click.option("--turns", type=click.IntRange(1), default=None,
              help="Terra Nova: solve a closing puzzle over N turns "
                   "(default: the file's [puzzle], else best-turn).")
@click.option("--draws", type=click.IntRange(0), default=None,
              help="Rift Valley: element budget (default: the file's `draws`, else unlimited).")
@click.option("--time-limit", type=click.FloatRange(0, min_open=True), default=None,
              help="Seconds; on timeout the best answer found is printed, marked not proven.")
@_workers_option("CP-SAT worker threads (Terra Nova best-turn, Rift Valley with "
                 "unlimited draws and KOSMOS puzzles use one: measured faster).")
@click.option("--seed", type=SEED, default=0, show_default=True, help="CP-SAT random seed.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (docs/json.md).")
@click.option("--top", type=click.IntRange(1, TOP_MOST), default=None, metavar="N",
              help="The N best answers that differ on the answer itself (Terra Nova: the "
                   "stones placed; Rift Valley: the elements drawn; KOSMOS: the plan), "
                   "best first, each proven in its rank by CP-SAT and explained.")
@click.option("--hint", is_flag=True,
              help="Print only the first action of the answer and what the answer is worth.")
@click.option("--stats", is_flag=True,
              help="Also print the solver's statistics (--json always has them).")
@click.option("--stops-block-all-colours", is_flag=True,
              help="Rift Valley rule option: stops of any two colours may not touch.")
@user_errors
def solve(file: Path, turns: int | None, draws: int | None, time_limit: float | None,
          workers: int, seed: int, as_json: bool, top: int | None, hint: bool, stats: bool,
          stops_block_all_colours: bool) -> None:
    """Find the proven-optimal answer to the puzzle in FILE.

    Terra Nova: best-turn (one turn, most points, then fewest points to others)
    or closing (N turns in a row while the others stand still). Rift Valley:
    the highest score the player can reach with the draw budget. Terra Nova
    (KOSMOS): the puzzle its [puzzle] names (docs/terra-nova-kosmos.md). The
    answer is replayed through the reference engine before it is printed, with
    what it is worth and why (each region closed, each element's points, the VP
    by source), all from the engine's replay. --time-limit
    counts from the start of the command and covers building the model: a model
    not built in time gives one line and exit 2 (every game); once it is built,
    a limit that ends before any line is found prints a trivial legal answer,
    not proven optimal (a min-turns puzzle then has none: exit 3).

    \b
    Exit status: 0 answer printed (proven optimal or not); 1 the engine
    disagrees with the solver; 2 bad input (or a model not built within
    --time-limit); 3 no answer found within --time-limit (a min-turns
    target not reached); 130 interrupted (Ctrl-C) before any answer was found.
    """
    from solver.cpsat import SolveParams, interrupt
    params = SolveParams(time_limit=time_limit, workers=workers, seed=seed).started(cli.STARTED)
    game = game_of(file)
    options = {"turns": turns, "draws": draws, "stops_block_all_colours": stops_block_all_colours,
               "top": top, "hint": hint, "stats": stats}
    check_options(game, "solve", _present(options), file)
    if top is not None and hint:
        raise click.UsageError("--top lists answers, --hint gives the first action of one: "
                               "choose one")
    show = Shown(top=top, hint=hint, stats=stats)
    with interrupt.polled():  # the first Ctrl-C keeps the best answer so far
        status = game.solve(file, _accepted(game, "solve", options), params, as_json, SCREEN,
                            show)
    _exit(status)


@main.command(context_settings=CONTEXT)
@click.argument("file", type=INPUT)
@click.argument("answer", nargs=-1, required=True)
@click.option("--time-limit", type=click.FloatRange(0, min_open=True), default=None,
              help="Seconds for the whole rating; counting stops there (the count so far "
                   "is printed as 'at least').")
@_workers_option("CP-SAT worker threads of the solve for the best answer.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="CP-SAT random seed.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (docs/json.md).")
@click.option("--stats", is_flag=True, help="Also print the seconds it took.")
@click.option("--stops-block-all-colours", is_flag=True,
              help="Rift Valley rule option: stops of any two colours may not touch.")
@user_errors
def rate(file: Path, answer: tuple[str, ...], time_limit: float | None, workers: int,
         seed: int, as_json: bool, stats: bool, stops_block_all_colours: bool) -> None:
    """Rate ANSWER to the puzzle in FILE: what it is worth, how many answers are worth
    more, and the best one.

    ANSWER is in notation (docs/notation.md), its words in one or several
    arguments (quote them: # starts a shell comment): a turn, "b1-c1 #b2"; the
    turns of a closing or of a KOSMOS line separated by "/", "c4-f4 #d5 / e5-e7
    #e8"; Rift Valley draws one after the other, "o a4" "a4-a7". Its value comes
    from the reference engine, which explains it; the answers worth strictly more
    (Terra Nova: other stones; Rift Valley: other elements; KOSMOS: other plans)
    are counted by CP-SAT, exactly up to 1,000 ("more than 1,000" beyond); the best
    answer is solve's, replayed by the engine.

    \b
    Exit status: 0 rated; 1 the engine disagrees with the solver; 2 bad input (an
    illegal or malformed ANSWER, a puzzle without such a rating); 3 no answer
    within --time-limit; 130 interrupted before the best answer was found.
    """
    from solver.cpsat import SolveParams, interrupt
    params = SolveParams(time_limit=time_limit, workers=workers, seed=seed).started(cli.STARTED)
    game = game_of(file)
    require_command(game, "rate", file)
    options = {"stops_block_all_colours": stops_block_all_colours, "stats": stats}
    check_options(game, "rate", _present(options), file)
    with interrupt.polled():  # the first Ctrl-C keeps the count so far
        status = game.rate(file, answer, _accepted(game, "rate", options), params, as_json,
                           SCREEN, Shown(stats=stats))
    _exit(status)


@main.command(context_settings=CONTEXT)
@click.argument("file", type=INPUT)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (docs/json.md).")
@click.option("--stops-block-all-colours", is_flag=True,
              help="Rift Valley rule option: stops of any two colours may not touch.")
@user_errors
def verify(file: Path, as_json: bool, stops_block_all_colours: bool) -> None:
    """Check FILE's [solution] with the reference engine: legal, and worth its value.

    Exit status 0 when the solution holds, 1 when it does not, 2 for bad input.
    """
    game = game_of(file)
    options = {"stops_block_all_colours": stops_block_all_colours}
    check_options(game, "verify", _present(options), file)
    _exit(game.verify(file, _accepted(game, "verify", options), as_json, SCREEN))


def _present(options: dict[str, Any]) -> dict[str, Any]:
    """The options actually given on the command line (not None, not an unset flag)."""
    return {name: value for name, value in options.items()
            if value is not None and value is not False}


def _accepted(game: Game, command: str, options: dict[str, Any]) -> dict[str, Any]:
    """The options ``game`` takes for ``command`` (the others are left out)."""
    accepted = game.options.get(command, frozenset())
    return {name: value for name, value in options.items() if name in accepted}


def _exit(status: int) -> None:
    """Leave with ``status`` when a command reports failure (e.g. verify: 1)."""
    if status:
        sys.exit(status)


@main.command(context_settings=CONTEXT)
@click.argument("game", type=click.Choice(list(GAMES)))
@click.option("--count", type=click.IntRange(1), default=5, show_default=True,
              help="Puzzles to write.")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Master seed: the same seed gives the same files.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              required=True, help="Folder for the puzzle files.")
@click.option("--kind", type=click.Choice(all_kinds()), default=None,
              help="Terra Nova: best-turn (default), closing or min-turns; Rift Valley: "
                   "max-score; Terra Nova (KOSMOS): last-round, best-round or last-rounds.")
@click.option("--turns", type=click.IntRange(1), default=None,
              help="Closing puzzles: turns (2 or 3; default 2); min-turns: turns the "
                   "answer takes (2).")
@click.option("--difficulty", type=click.Choice(["easy", "medium", "hard"]), default=None,
              help="Keep only puzzles of this grade (docs/commands.md: how grades are defined).")
@click.option("--workers", type=click.IntRange(1, default_workers(), clamp=True),
              default=default_workers, show_default="machine cores",
              help=f"Parallel candidate processes (each solves with one CP-SAT worker); "
                   f"at most the machine's cores ({default_workers()}), more are cut to that.")
@click.option("--time-limit", type=click.FloatRange(0, min_open=True), default=None,
              help="Seconds for the whole run: past them it stops as Ctrl-C does, keeping "
                   "the files written (exit 3 when fewer than COUNT).")
@scheduler_option("the candidates")
@user_errors
def generate(game: str, count: int, seed: int, out_dir: Path, kind: str | None,
             turns: int | None, difficulty: str | None, workers: int,
             time_limit: float | None, scheduler: str | None) -> None:
    """Generate COUNT puzzles of GAME with a unique optimal answer into --out.

    Candidates come from realistic play (engine playouts with a greedy player);
    a puzzle is kept only when CP-SAT proves its optimum unique, and its file
    carries [solution] verified by the reference engine. --workers runs
    candidates in parallel processes, --scheduler on a Dask cluster (docs/commands.md:
    Running on a cluster); the same seed gives the same files either way.
    --time-limit ends the run like Ctrl-C: the files written are the first ones
    the same run without a limit writes.

    Exit status: 0 COUNT puzzles written; 2 bad input, or no COUNT puzzles among
    the candidates a request may try; 3 the time limit ended the run first;
    130 interrupted (Ctrl-C).
    """
    from cli import generate as generate_cli
    chosen = get(game)
    check_options(chosen, "generate", _present({"turns": turns}), None)
    generate_cli.run(chosen, count, seed, out_dir, kind, turns, difficulty, workers,
                     scheduler, time_limit)


@main.command(context_settings=CONTEXT)
@click.argument("file", type=INPUT)
@click.option("--turns", type=click.IntRange(1), default=None,
              help="Terra Nova: the closing over N turns (default: the file's [puzzle]).")
@click.option("--draws", type=click.IntRange(0), default=None,
              help="Rift Valley: element budget (default: the file's `draws`, else unlimited).")
@click.option("--out", type=FILE, default=None,
              help="The model file: .pb or .pbtxt (the CP-SAT model), .mps or .lp (its exact "
                   "MIP translation).")
@click.option("--solution", type=INPUT, default=None, metavar="FILE",
              help="Instead of writing: read this solution of the exported model (`xI value` "
                   "lines) back, check it and replay it through the engine.")
@user_errors
def export(file: Path, turns: int | None, draws: int | None, out: Path | None,
           solution: Path | None) -> None:
    """Write the one CP-SAT model of the puzzle in FILE for other solvers.

    The model is exactly the one `solve` builds (docs/export.md): .pb/.pbtxt
    hold its CpModelProto, .mps/.lp its exact MIP translation (a constraint
    without one is refused, never dropped). A header (beside a .pb: MODEL.pb.txt)
    names the position, the puzzle, the objective's offset and scale, the CP-SAT
    parameters boardsat uses and how to read an answer back (--solution).
    """
    from cli import export as export_cli
    if (out is None) == (solution is None):
        raise click.UsageError("give --out MODEL to write the model, or --solution FILE to "
                               "read a solution back")
    game = game_of(file)
    options = {"turns": turns, "draws": draws}
    check_options(game, "export", _present(options), file)
    export_cli.run(file, _accepted(game, "export", options), out, solution)


RUN_OPTIONS = {"suite_name": "--suite", "suite_file": "--suite-file", "workers": "--workers",
               "time_limit": "--time-limit", "cap": "--cap", "seed": "--seed",
               "scheduler": "--scheduler", "solvers": "--solvers"}
"""``bench`` options that only mean something when the suite is run (not with ``--from``)."""


@main.command(context_settings=CONTEXT)
@click.option("--suite", "suite_name",
              type=click.Choice(["quick", "full", "budgets", "depth", "depth-holdout",
                                 "kosmos", "rounds", "fullboard"]),
              default="quick", show_default=True, help="Suite in benchmarks/suites/.")
@click.option("--suite-file", type=INPUT, metavar="FILE", default=None,
              help="Run this suite file instead.")
@click.option("--from", "saved", type=INPUT, metavar="FILE", default=None,
              help="Run nothing: print, plot and write (--plot, --readme, --save) the "
              "run saved in FILE (a --save or --json output).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of tables.")
@click.option("--plot", type=FILE, default=None, help="Write a PNG plot here.")
@click.option("--save", type=FILE, default=None, help="Also write the JSON to this file.")
@click.option("--readme", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              multiple=True, metavar="FILE", help="Markdown file to update (repeatable): "
              "the medians go between the suite's markers (<!-- bench:SUITE --> ... "
              "<!-- /bench:SUITE -->), one row per case between <!-- bench-cases:SUITE --> "
              "markers, each with when and on what it was measured; a <!-- bench-overview "
              "--> block (where CP-SAT wins and loses, across saved runs) is refilled and "
              "its plot redrawn.")
@_workers_option()
@click.option("--time-limit", type=click.FloatRange(0, min_open=True), default=None,
              help="CP-SAT seconds per case (default: the suite's).")
@click.option("--cap", type=click.FloatRange(0, min_open=True), default=None,
              help="Seconds the exhaustive search may take on every case (default: each "
              "case's own cap, else the suite's).")
@click.option("--seed", type=SEED, default=0, show_default=True, help="CP-SAT random seed.")
@scheduler_option("the cases (side by side; times are then the workers')")
@click.option("--solvers", default=None, metavar="LIST",
              help="Also solve each case's one model (as `export` writes it) with these, "
                   "comma-separated: cp-sat, highs, scip (HiGHS and SCIP: pip install "
                   "'boardsat[solvers]'), with the same time limit and --workers.")
@click.option("--cactus", type=FILE, default=None,
              help="With --solvers: write a PNG cactus plot here (cases proven against time, "
                   "one line per solver).")
@click.option("--instances", type=click.Path(file_okay=False, path_type=Path), default=None,
              metavar="DIR", help="Write each case's one model (.pb and .mps) to DIR with a "
              "README: what each instance is, its proven optimum and how it was proven.")
@user_errors
def bench(suite_name: str, suite_file: Path | None, saved: Path | None, as_json: bool,
          plot: Path | None, save: Path | None, readme: tuple[Path, ...], workers: int,
          time_limit: float | None, cap: float | None, seed: int,
          scheduler: str | None, solvers: str | None, cactus: Path | None,
          instances: Path | None) -> None:
    """Time CP-SAT against the engine's exhaustive search on a benchmark suite.

    Prints a table per case (CP-SAT time to a proven optimum, exhaustive time
    or 'capped', their ratio) and medians per group. With --solvers, each
    case's one model is also solved by each solver named (docs/export.md), in
    a table of their times and ratios to CP-SAT's. With --from, runs nothing
    and shows a saved run again (to redraw its plot or Markdown tables).

    \b
    Exit status: 0 done; 1 a proven CP-SAT optimum differs from the exhaustive
    search's, or two solvers proved different optima (everything is still
    printed and written, then one line names the cases); 2 bad input; 130
    interrupted.
    """
    from cli import bench as bench_cli
    if saved is not None:
        context = click.get_current_context()
        running = [option for name, option in RUN_OPTIONS.items()
                   if context.get_parameter_source(name) is ParameterSource.COMMANDLINE]
        if running:
            raise click.UsageError(f"--from shows a saved run; {', '.join(running)} would run "
                                   "one")
        bench_cli.rerender(saved, as_json, plot, save, readme, cactus, instances)
        return
    bench_cli.run(suite_name, suite_file, as_json, plot, save, workers, time_limit, cap, seed,
                  scheduler, readme, solvers, cactus, instances)


main.add_command(apply_command)
main.add_command(batch_command)
main.add_command(render_command)
main.add_command(review_command)
main.add_command(sheet_command)


def _no_colour(context: click.Context, parameter: click.Parameter, value: bool) -> None:
    if value:
        without_colour()


def _no_colour_option() -> click.Option:
    return click.Option(["--no-color"], is_flag=True, expose_value=False, is_eager=True,
                        callback=_no_colour,
                        help="Print without colour (as the NO_COLOR environment variable "
                             "does); boards keep their markers in characters.")


main.params.append(_no_colour_option())
for _command in main.commands.values():
    _command.params.append(_no_colour_option())
