# Two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test sweep fuzz lint bench bench-depth clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
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

# 20,000 fuzz cases (10,000 per test, fresh randomness); make test runs 2,000 fixed ones.
fuzz: $(STAMP)
	BOARDSAT_FUZZ_EXAMPLES=10000 BOARDSAT_FUZZ_RANDOM=1 $(BIN)/python -m pytest tests/test_fuzz.py

lint: $(STAMP)
	$(BIN)/ruff check .

bench: $(STAMP)
	$(BIN)/boardsat bench --suite quick

# Terra Nova depth scaling (1-4 turns, full boards): rewrites the README's table,
# benchmarks/results/depth.json and depth.png.
bench-depth: $(STAMP)
	$(BIN)/boardsat bench --suite depth --workers 2 --save benchmarks/results/depth.json \
	    --plot benchmarks/results/depth.png --readme README.md

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
