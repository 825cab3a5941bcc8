# The one task runner. `make check`: lint, types, import contracts, the whole suite.
# `make verify`: check, then `agents verify` on a store built from the corpus; the delivery
# gate, what CI runs (through .ci/run).
BIN ?= .venv/bin
PY := $(BIN)/python

.PHONY: check verify lint typecheck imports test docs-audit verify-store bench docs

check: lint typecheck imports test

# The docs audit (tests/docs: every console example run and matched, every command and
# container service documented) is part of the suite that check runs, so it is not run again.
verify: check verify-store

lint:
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

typecheck:
	$(PY) -m mypy

imports:
	$(BIN)/lint-imports

test:
	$(PY) -m pytest -q

docs-audit:
	$(PY) -m pytest -q tests/docs

# A fresh SQLite store from ../shared/corpus (else tests/data) through the CLI, then
# `agents --db URL verify` on it: non-zero when a gate fires (tests/corpus_store.py).
verify-store:
	$(PY) -m tests.corpus_store

bench:
	$(PY) -m benchmarks

docs:
	$(PY) -m cleveragents.cli.reference > docs/cli.md
