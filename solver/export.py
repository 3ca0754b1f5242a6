"""``boardsat export``: a puzzle's one CP-SAT model as a file any solver can read.

The game builds the model exactly as its ``solve`` does (:meth:`Game.puzzle_model`);
here it is written as the ``CpModelProto`` itself (``.pb``, ``.pbtxt``) or as its exact
MIP translation (``.mps``, ``.lp``; :mod:`solver.cpsat.mip`), with a header of comment
lines (a side file ``MODEL.txt`` for the binary ``.pb``) that names the position, the
puzzle, the objective's offset and scale and how to read an answer back. A solution of
an exported model (``xI value`` lines) is read back with :func:`read_back`: CP-SAT checks
it against the model, the game reads it as its answer and the engine replays it.
Names no game.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solver.cpsat import SolveParams
from solver.errors import InputError
from solver.games import game_of
from solver.protocol import Case, Game, Options, PuzzleModel, Replayed
from solver.tomlfile import atomic_write_text

SOLUTION_HELP = ("a file of `xI value` lines, column xI being variable I of the CP-SAT "
                 "model (HiGHS, SCIP and Gurobi .sol files are read as they are; a "
                 "variable not listed is 0)")
"""What ``--solution`` reads."""


@dataclass(frozen=True)
class Export:
    """What :func:`export` wrote."""

    paths: list[Path]
    """The model file, then its side file when there is one."""
    puzzle: str
    variables: int
    constraints: int
    columns: int | None = None
    """MIP columns and rows (None for a CP-SAT file)."""
    rows: int | None = None


def built(game: Game, case: Case, position: Any, params: SolveParams) -> PuzzleModel:
    """The case's model (:meth:`Game.puzzle_model`); InputError naming the file."""
    try:
        return game.puzzle_model(position, case, params)
    except InputError as exc:
        raise exc.located(path=case.position) from None


def file_case(path: Path, options: Options) -> tuple[Game, Case, Any]:
    """The game, case and position of the puzzle in ``path`` (with ``--turns`` and the like)."""
    game = game_of(path)
    try:
        case = game.export_case(path, options)
        position = game.bench_load(case, Path("."))
    except InputError as exc:
        raise exc.located(path=path) from None
    return game, case, position


def header(game: Game, case: Case, pm: PuzzleModel, message: Any, mip: Any | None,
           source: str, read_back_command: str) -> str:
    """The lines that say what the model file is (:func:`export`'s module doc)."""
    objective = message.objective
    scale = objective.scaling_factor or 1.0
    weights = ", ".join(f"{goal} × {weight}" for goal, weight in zip(pm.goals, pm.weights,
                                                                      strict=True))
    settings = ", ".join(f"{k} = {v}" for k, v in pm.settings.items()) or "CP-SAT's defaults"
    workers = ("as many workers as --workers asks" if pm.workers is None
               else f"at most {pm.workers} worker{'s' if pm.workers > 1 else ''}")
    lines = [
        f"boardsat export: the one CP-SAT model of a {game.title} puzzle.",
        f"Position: {source}",
        f"Puzzle: {pm.puzzle}.",
        f"Size: {len(message.variables)} variables, {len(message.constraints)} constraints"
        + ("" if mip is None else f"; as a MIP {mip.columns} integer columns, {mip.rows} rows")
        + ".",
        "Objective: CP-SAT's objective_value = scaling_factor * (sum of the terms + offset), "
        f"here scaling_factor {scale:g} and offset {objective.offset:g}"
        + (" (a maximised objective: CP-SAT stores it negated)." if scale < 0 else "."),
    ]
    if mip is not None:
        lines.append(f"The MIP {'maximises' if mip.maximize else 'minimises'} exactly that "
                     "value (its offset written in the file): the MIP optimum is CP-SAT's "
                     "objective_value.")
    lines += [
        f"Goals in priority order, with their weights in the objective: {weights}; "
        f"the leading goal is ceil(objective / {pm.weights[0]}).",
        f"boardsat solves it with the CP-SAT parameters {settings}, on {workers} "
        "(random_seed from --seed, 0 by default); the hint is the model's own.",
    ]
    if pm.note:
        lines.append(f"Note: {pm.note}")
    lines += [
        "Reading an answer: column (or variable) xI is variable I of the CP-SAT model. "
        + pm.answer,
        f"boardsat reads a solution back, checks it against the model and replays it "
        f"through the rules engine: {read_back_command} --solution SOLUTION, SOLUTION "
        f"being {SOLUTION_HELP}.",
    ]
    return "\n".join(_wrapped(line) for line in lines)


def _wrapped(line: str, width: int = 88) -> str:
    """``line`` broken between words into lines of at most ``width`` characters."""
    out, current = [], ""
    for word in line.split(" "):
        if current and len(current) + 1 + len(word) > width:
            out.append(current)
            current = "  " + word
        else:
            current = f"{current} {word}" if current else word
    return "\n".join([*out, current])


def write(pm: PuzzleModel, game: Game, case: Case, out: Path, source: str,
          read_back_command: str) -> Export:
    """Write ``pm`` to ``out`` in the format its suffix names (module doc)."""
    from solver.cpsat.mip import translate
    from solver.cpsat.modelfiles import FORMATS, MIP_FORMATS, message_of, write_mip, write_proto
    if out.suffix not in FORMATS:
        raise InputError(f"the model file must end in {', '.join(FORMATS)}", path=out)
    message = message_of(pm.model)
    if out.suffix in MIP_FORMATS:
        mip = translate(message)
        text = header(game, case, pm, message, mip, source, read_back_command)
        write_mip(mip, out, text)
        return Export([out], pm.puzzle, len(message.variables), len(message.constraints),
                      mip.columns, mip.rows)
    text = header(game, case, pm, message, None, source, read_back_command)
    write_proto(message, out, text)
    paths = [out]
    if out.suffix == ".pb":  # no comments in a binary file: the header beside it
        side = out.with_name(out.name + ".txt")
        atomic_write_text(side, text + "\n")
        paths.append(side)
    return Export(paths, pm.puzzle, len(message.variables), len(message.constraints))


def command_line(path: Path, options: Options) -> str:
    """The ``boardsat export`` call that poses the same puzzle (for the header)."""
    given = "".join(f" --{name} {value}" for name, value in options.items()
                    if value is not None and value is not False)
    return f"boardsat export {path}{given}"


def export(path: Path, options: Options, out: Path, params: SolveParams) -> Export:
    """Build the puzzle of ``path`` and write its model to ``out``."""
    game, case, position = file_case(path, options)
    pm = built(game, case, position, params)
    return write(pm, game, case, out, str(path), command_line(path, options))


def read_solution(path: Path, variables: int) -> list[int]:
    """The values of ``variables`` variables in a solution file (:data:`SOLUTION_HELP`);
    InputError naming the line of a value that is not an integer or a column out of range."""
    from solver.tomlfile import read_text
    values = [0] * variables
    found = False
    for number, line in enumerate(read_text(path).splitlines(), start=1):
        tokens = line.split()
        for k, token in enumerate(tokens[:-1]):
            if token[:1] != "x" or not token[1:].isdigit():
                continue
            index, text = int(token[1:]), tokens[k + 1]
            try:
                value = float(text)
            except ValueError:
                raise InputError(f"{token}'s value {text!r} is not a number", path=path,
                                 place=f"line {number}") from None
            if abs(value - round(value)) > 1e-6:
                raise InputError(f"{token} = {text} is not an integer", path=path,
                                 place=f"line {number}")
            if index >= variables:
                raise InputError(f"the model has {variables} variables, no {token}",
                                 path=path, place=f"line {number}")
            values[index] = round(value)
            found = True
            break
    if not found:
        raise InputError(f"no `xI value` line: expected {SOLUTION_HELP}", path=path)
    return values


@dataclass(frozen=True)
class ReadBack:
    """A solution of an exported model as the game's answer, replayed by the engine."""

    objective: float
    replayed: Replayed


def read_back(path: Path, options: Options, solution: Path, params: SolveParams) -> ReadBack:
    """Check the solution in ``solution`` against the model of ``path``'s puzzle (CP-SAT
    with every variable fixed to it), read it as the answer and replay it through the
    engine. InputError when it is not a solution of the model."""
    from solver.cpsat.assignment import solve_assignment
    game, case, position = file_case(path, options)
    pm = built(game, case, position, params)
    values = read_solution(solution, len(pm.model.proto.variables))
    solver, result = solve_assignment(pm.model, values, params)
    if not result.feasible:
        raise InputError("not a solution of the model: with every variable fixed to it "
                         f"CP-SAT finds it {result.status}", path=solution)
    return ReadBack(solver.objective_value, pm.replay(solver, False))
