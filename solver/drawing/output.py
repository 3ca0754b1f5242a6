"""Write figures to SVG, PNG or PDF, and many pages to one PDF, byte for byte reproducibly.

SVG ids are salted with a constant and no dates are written, so the same
input gives the same file. Files are written atomically (missing folders are
created, :func:`solver.tomlfile.atomic_write_bytes`).
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

from matplotlib.backends.backend_pdf import PdfPages  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.typing import RcKeyType  # noqa: E402

from solver.errors import InputError  # noqa: E402
from solver.tomlfile import atomic_write_bytes  # noqa: E402

FORMATS = ("svg", "png", "pdf")
PNG_DPI = 110
METADATA = {
    "svg": {"Date": None, "Creator": "boardsat"},
    "pdf": {"CreationDate": None, "ModDate": None, "Creator": "boardsat"},
    "png": {"Software": "boardsat"},
}
RC: dict[RcKeyType, Any] = {"svg.hashsalt": "boardsat", "svg.fonttype": "path", "pdf.fonttype": 3,
      "hatch.linewidth": 0.6}


def format_of(path: Path) -> str:
    """``svg``, ``png`` or ``pdf`` from the file name; InputError for anything else."""
    suffix = path.suffix.lower().lstrip(".")
    if suffix not in FORMATS:
        raise InputError(f"cannot write '{path.suffix or path.name}': the file name must end "
                         f"in .svg, .png or .pdf", path=path)
    return suffix


def save(fig: Figure, path: Path) -> None:
    """Write ``fig`` to ``path`` in the format its name ends in."""
    kind = format_of(path)
    buffer = io.BytesIO()
    with matplotlib.rc_context(RC):
        fig.savefig(buffer, format=kind, metadata=METADATA[kind], dpi=PNG_DPI)
    atomic_write_bytes(path, buffer.getvalue())


@contextmanager
def pdf_book(path: Path) -> Iterator[PdfPages]:
    """A multipage PDF: ``book.savefig(fig)`` adds a page; written when the block ends."""
    if format_of(path) != "pdf":
        raise InputError("a sheet is written as PDF: the file name must end in .pdf", path=path)
    buffer = io.BytesIO()
    with matplotlib.rc_context(RC), PdfPages(buffer, metadata=METADATA["pdf"]) as book:
        yield book
    atomic_write_bytes(path, buffer.getvalue())
