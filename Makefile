# Two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
LINT_STAMP := $(VENV)/.installed-lint

.PHONY: run test sweep soak fuzz lint bench bench-quick bench-depth bench-budgets bench-rounds bench-kosmos bench-full bench-docs \
	bench-solvers bench-solvers-full clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,solvers]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/boardsat show positions/terra-nova/puzzles/closing-demo.toml
	$(BIN)/boardsat solve positions/terra-nova/puzzles/closing-demo.toml

# One pytest process per core (pytest-xdist); tests that share module state run on one.
# The 15 slowest tests are listed at the end: make test must stay under 10 minutes.
test: $(STAMP)
	$(BIN)/python -m pytest -n auto --dist loadgroup --durations=15

sweep: $(STAMP)
	$(BIN)/python -m pytest -m sweep -n auto --dist loadgroup

# 500 real commands (every solve path on bundled and generated positions, and the other
# drivers: generate, review, perft, bench, export, batch) with random time
# limits (0.1-5 s) and random Ctrl-Cs: no hang, no traceback, every --json as documented.
# BOARDSAT_SOAK_RUNS, BOARDSAT_SOAK_SEED and BOARDSAT_SOAK_PARALLEL change the run.
soak: $(STAMP)
	$(BIN)/python -m pytest -m soak -s tests/test_soak.py

# 20,000 fuzz cases (10,000 per test, fresh randomness); make test runs 2,000 fixed ones.
fuzz: $(STAMP)
	BOARDSAT_FUZZ_EXAMPLES=10000 BOARDSAT_FUZZ_RANDOM=1 $(BIN)/python -m pytest tests/test_fuzz.py

# ruff, then mypy (settings in pyproject.toml: strict but for the games).
$(LINT_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,solvers,lint]'
	touch $(LINT_STAMP)

lint: $(LINT_STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/boardsat bench --suite quick

# Re-measure one suite and rewrite what it shows: its saved run and plot in
# benchmarks/results/, its tables in docs/performance.md, and the README's overview of
# where CP-SAT wins and loses (take the figures on an otherwise idle machine).
RESULTS := benchmarks/results
DOCS := --readme docs/performance.md --readme README.md
bench-quick: $(STAMP)
	$(BIN)/boardsat bench --suite quick --workers 2 --save $(RESULTS)/latest.json \
	    --plot $(RESULTS)/latest.png $(DOCS)
bench-depth: $(STAMP)
	$(BIN)/boardsat bench --suite depth --workers 2 --save $(RESULTS)/depth.json \
	    --plot $(RESULTS)/depth.png $(DOCS)
	$(BIN)/boardsat bench --suite depth-holdout --workers 2 \
	    --save $(RESULTS)/depth-holdout.json --plot $(RESULTS)/depth-holdout.png $(DOCS)
bench-budgets: $(STAMP)
	$(BIN)/boardsat bench --suite budgets --workers 2 --time-limit 15 --cap 10 \
	    --save $(RESULTS)/budgets.json --plot $(RESULTS)/budgets.png $(DOCS)
bench-rounds: $(STAMP)
	$(BIN)/boardsat bench --suite rounds --workers 1 --save $(RESULTS)/rounds.json \
	    --plot $(RESULTS)/rounds.png $(DOCS)
bench-kosmos: $(STAMP)
	$(BIN)/boardsat bench --suite kosmos --workers 2 --save $(RESULTS)/kosmos.json \
	    --plot $(RESULTS)/kosmos.png $(DOCS)
bench-full: $(STAMP)
	$(BIN)/boardsat bench --suite full --workers 1 --time-limit 20 --cap 10 \
	    --save $(RESULTS)/full.json --plot $(RESULTS)/full.png $(DOCS)

# CP-SAT against HiGHS and SCIP on each case's one model (docs/export.md): the saved run,
# its cactus plot and the solvers' table in docs/performance.md (one thread each).
SOLVERS := --workers 1 --solvers cp-sat,highs,scip --cap 0.01
bench-solvers: $(STAMP)
	$(BIN)/boardsat bench --suite quick $(SOLVERS) --save $(RESULTS)/solvers-quick.json \
	    --cactus $(RESULTS)/solvers-quick.png --readme docs/performance.md
bench-solvers-full: $(STAMP)
	$(BIN)/boardsat bench --suite fullboard $(SOLVERS) --save $(RESULTS)/solvers-fullboard.json \
	    --cactus $(RESULTS)/solvers-fullboard.png --readme docs/performance.md

# Redraw every table and plot from the saved runs; nothing is measured again.
bench-docs: $(STAMP)
	for run in latest depth budgets rounds kosmos full; do \
	    $(BIN)/boardsat bench --from $(RESULTS)/$$run.json --plot $(RESULTS)/$$run.png \
	        $(DOCS) > /dev/null || exit 1; done
	for run in $(wildcard $(RESULTS)/solvers-*.json); do \
	    $(BIN)/boardsat bench --from $$run --cactus $${run%.json}.png \
	        --readme docs/performance.md > /dev/null || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache
