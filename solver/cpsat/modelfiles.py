"""Model files: a CP-SAT model as its ``CpModelProto`` (``.pb`` binary, ``.pbtxt`` text)
and its exact MIP translation (:mod:`solver.cpsat.mip`) as ``.mps`` or ``.lp``.

The MIP files are written by OR-tools' own exporter (free MPS, CPLEX LP) from an
``MPModelProto``; a header of comment lines (``*`` in MPS, ``\\`` in LP, ``#`` in text
protos) says what the model is. Every file is written atomically.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from google.protobuf import text_format
from ortools.linear_solver import linear_solver_pb2, pywraplp
from ortools.sat import cp_model_pb2
from ortools.sat.python import cp_model

from solver.cpsat.mip import MipModel
from solver.errors import InputError
from solver.tomlfile import atomic_write_bytes, atomic_write_text, read_text

PROTO_FORMATS = (".pb", ".pbtxt")
"""CP-SAT model files: the binary and the text form of ``CpModelProto``."""
MIP_FORMATS = (".mps", ".lp")
"""MIP files: free MPS and CPLEX LP."""
FORMATS = PROTO_FORMATS + MIP_FORMATS

COMMENT = {".pbtxt": "# ", ".mps": "* ", ".lp": "\\ "}
"""How a header line starts in each text format (``.pb`` has none: a side file)."""


def message_of(model: cp_model.CpModel) -> cp_model_pb2.CpModelProto:
    """The model as a protobuf message (OR-tools' Python model holds a C++ proto)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "model.pb"
        if not model.export_to_file(str(path)):
            raise RuntimeError("OR-tools could not write the model")
        return cp_model_pb2.CpModelProto.FromString(path.read_bytes())


def model_of(message: cp_model_pb2.CpModelProto) -> cp_model.CpModel:
    """A CP-SAT model holding ``message``."""
    model = cp_model.CpModel()
    model.proto.parse_text_format(text_format.MessageToString(message))
    return model


def read_model(path: Path) -> cp_model.CpModel:
    """The CP-SAT model in a ``.pb`` or ``.pbtxt`` file; InputError when it is not one."""
    try:
        if path.suffix == ".pb":
            message = cp_model_pb2.CpModelProto.FromString(path.read_bytes())
        else:
            message = text_format.Parse(read_text(path), cp_model_pb2.CpModelProto())
    except (text_format.ParseError, ValueError) as exc:
        raise InputError(f"not a CP-SAT model: {exc}", path=path) from None
    except OSError as exc:
        raise InputError(f"cannot read it: {exc.strerror}", path=path) from None
    return model_of(message)


def commented(header: str, suffix: str) -> str:
    """``header``'s lines as comment lines of a ``suffix`` file."""
    start = COMMENT[suffix]
    return "".join(f"{start}{line}".rstrip() + "\n" for line in header.splitlines())


def write_proto(message: cp_model_pb2.CpModelProto, path: Path, header: str) -> None:
    """``.pb`` (binary) or ``.pbtxt`` (text, ``header`` as its first lines)."""
    if path.suffix == ".pb":
        atomic_write_bytes(path, message.SerializeToString())
    else:
        atomic_write_text(path, commented(header, ".pbtxt") + text_format.MessageToString(message))


def mip_message(mip: MipModel, name: str) -> linear_solver_pb2.MPModelProto:
    """``mip`` as OR-tools' ``MPModelProto`` (every column integer)."""
    proto = linear_solver_pb2.MPModelProto(name=name, maximize=mip.maximize,
                                           objective_offset=mip.offset)
    for k in range(mip.columns):
        proto.variable.add(name=mip.names[k], lower_bound=mip.lower[k], upper_bound=mip.upper[k],
                           is_integer=True, objective_coefficient=mip.objective[k])
    starts = mip.row_starts
    for r in range(mip.rows):
        a, b = starts[r], starts[r + 1]
        proto.constraint.add(name=mip.row_names[r], var_index=mip.row_columns[a:b].tolist(),
                             coefficient=mip.row_values[a:b].tolist(),
                             lower_bound=mip.row_lower[r], upper_bound=mip.row_upper[r])
    return proto


def mip_text(mip: MipModel, suffix: str, name: str, header: str) -> str:
    """The text of ``mip`` as a ``.mps`` or ``.lp`` file, ``header`` as its first lines."""
    proto = mip_message(mip, name)
    options = pywraplp.ModelExportOptions()
    body: str = (pywraplp.ExportModelAsMpsFormat(proto, options) if suffix == ".mps"
                 else pywraplp.ExportModelAsLpFormat(proto, options))
    if not body:
        raise RuntimeError(f"OR-tools could not write the {suffix} file")
    return commented(header, suffix) + body


def write_mip(mip: MipModel, path: Path, header: str) -> None:
    """``mip`` as an ``.mps`` or ``.lp`` file at ``path`` (named after the file's stem)."""
    atomic_write_text(path, mip_text(mip, path.suffix, path.stem, header))


def solution_of(mip: MipModel, values: Sequence[float | None]) -> list[int]:
    """The CP-SAT variables' values in a MIP solution of ``mip`` (its first columns),
    rounded; a column the solver never saw (None: in no row, not in the objective) takes
    the value of its bounds nearest 0."""
    return [int(np.clip(0, mip.lower[i], mip.upper[i])) if v is None else round(v)
            for i, v in enumerate(values)]
