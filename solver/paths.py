"""Where the repository's bundled data lives (positions, benchmark suites)."""

from __future__ import annotations

from pathlib import Path

import solver

REPO_ROOT = Path(solver.__file__).resolve().parent.parent
"""The repository the package is installed from (editable install)."""

POSITIONS_DIR = REPO_ROOT / "positions"
"""Bundled boards, positions and the puzzle collection."""

SUITES_DIR = REPO_ROOT / "benchmarks" / "suites"
"""Benchmark suites (``quick.toml``, ``full.toml``)."""
