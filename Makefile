# The one task runner. `make check` is what CI runs (through .ci/run).
BIN ?= .venv/bin
PY := $(BIN)/python

.PHONY: check lint typecheck imports test bench docs

check: lint typecheck imports test

lint:
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

typecheck:
	$(PY) -m mypy

imports:
	$(BIN)/lint-imports

test:
	$(PY) -m pytest -q

bench:
	$(PY) -m benchmarks

docs:
	$(PY) -m cleveragents.cli.reference > docs/cli.md
