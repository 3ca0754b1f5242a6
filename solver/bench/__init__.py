"""Game-neutral benchmark harness: suites of cases, timing, records, table and plot.

A suite (``benchmarks/suites/*.toml``) lists cases; each case names a game, a
position (file or seeded recipe) and a puzzle kind with its horizon. The runner
times the game's CP-SAT solve and the engine's exhaustive search on the same
position in the same run (see :mod:`solver.bench.runner`).
"""
