# Two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test sweep lint bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/boardsat show positions/terra-nova/puzzles/closing-demo.toml
	$(BIN)/boardsat solve positions/terra-nova/puzzles/closing-demo.toml

test: $(STAMP)
	$(BIN)/python -m pytest

sweep: $(STAMP)
	$(BIN)/python -m pytest -m sweep

lint: $(STAMP)
	$(BIN)/ruff check .

bench: $(STAMP)
	$(BIN)/boardsat bench --suite quick

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
