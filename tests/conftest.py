"""Test-session settings shared by every test file.

``make test`` runs the suite on one pytest process per core (pytest-xdist,
``--dist loadgroup``): tests are handed out one by one, except those of the
modules below, whose tests share state that is expensive or ordered, so each
of these modules runs whole, in order, on one process.
"""

from __future__ import annotations

import pytest

SHARED_STATE = {
    "test_bench.py": "one bench run (module fixture) read by several tests",
    "test_bench_solvers.py": "one bench run with --solvers (module fixture) read by several tests",
    "test_cluster.py": "one Dask cluster (module fixture); its last test kills a worker",
    "test_generate.py": "one generator run (module fixture) read by several tests",
    "test_tnk_playouts.py": "the seeded games are played once (functools.cache)",
}
"""Test modules that run whole on one xdist process, and why."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Put the tests of :data:`SHARED_STATE` modules into one xdist group per module."""
    for item in items:
        name = item.path.name
        if name in SHARED_STATE:
            item.add_marker(pytest.mark.xdist_group(name))
