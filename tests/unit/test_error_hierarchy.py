"""One error hierarchy: operational failures share a domain base, bad input keeps its own, and
the CLI tells them apart by base class without knowing any adapter."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import cleveragents.cli.main as cli_main
from cleveragents.adapters.model_catalog import genai_prices_catalog
from cleveragents.adapters.persistence import errors as persistence_errors
from cleveragents.cli.main import EXIT_FAILURE, EXIT_USAGE, _classify
from cleveragents.domain.errors import (
    CatalogIntegrityError,
    CleverAgentsError,
    ConflictError,
    InvalidInputError,
    NotFoundError,
    OperationalError,
    StoreUnavailableError,
    TokenCountingError,
    UnknownEncodingError,
)

OPERATIONAL = (StoreUnavailableError, CatalogIntegrityError, TokenCountingError)
BAD_INPUT = (InvalidInputError, NotFoundError, ConflictError, UnknownEncodingError)


@pytest.mark.parametrize("error", OPERATIONAL)
def test_operational_errors_share_the_domain_base(error: type[Exception]) -> None:
    assert issubclass(error, OperationalError)
    assert issubclass(error, CleverAgentsError)
    assert _classify(error("the machine failed")) == ("the machine failed", EXIT_FAILURE)


@pytest.mark.parametrize("error", BAD_INPUT)
def test_bad_input_keeps_its_base_and_exit_code(error: type[Exception]) -> None:
    assert not issubclass(error, OperationalError)
    assert _classify(error("bad value")) == ("bad value", EXIT_USAGE)


def test_a_new_operational_error_needs_no_change_to_the_cli() -> None:
    class QuotaExhaustedError(OperationalError):
        pass

    assert _classify(QuotaExhaustedError("no quota left")) == ("no quota left", EXIT_FAILURE)


def test_an_os_error_is_operational_and_anything_else_a_bug() -> None:
    full = OSError(28, "No space left on device", "/tmp/out")
    assert _classify(full) == ("No space left on device: /tmp/out", EXIT_FAILURE)
    with pytest.raises(KeyError):
        _classify(KeyError("a bug"))


def test_the_old_import_locations_give_the_domain_classes() -> None:
    assert persistence_errors.StoreUnavailableError is StoreUnavailableError
    assert genai_prices_catalog.CatalogIntegrityError is CatalogIntegrityError


def test_the_cli_entry_point_imports_no_adapter() -> None:
    tree = ast.parse(Path(cli_main.__file__).read_text(encoding="utf-8"))
    imported: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            imported.append(node.module)
    assert "cleveragents.domain.errors" in imported  # the walk sees the imports inside functions
    assert [name for name in imported if name.startswith("cleveragents.adapters")] == []
