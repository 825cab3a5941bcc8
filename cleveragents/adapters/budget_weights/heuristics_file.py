"""Weights files (TOML): the shipped defaults, and a project's file read over them.

A project's file may set only what it changes (say, ``[tiers] red = 0.9``); everything else
keeps the default. Unknown sections and kinds are refused, so that a typo is not silently
ignored. Numbers are read as Decimals, exactly as written. The file's nesting is measured
before `tomllib` reads it (`check_toml_nesting`): a hostile file is refused at once, naming the
line, instead of costing gigabytes first.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from decimal import Decimal
from functools import cache
from importlib import resources
from typing import Any

from pydantic import ValidationError

from cleveragents.adapters.input_files.toml_nesting import TomlNestingError, check_toml_nesting
from cleveragents.domain.context_budget import (
    BudgetHeuristics,
    BudgetKind,
    InvalidHeuristicsError,
    TierBoundaries,
)

DEFAULT_WEIGHTS_FILE = "weights.default.toml"
_KIND_SECTIONS = ("weights", "compaction")
_TIERS = tuple(TierBoundaries.model_fields)  # the tiers that start at a boundary


def default_weights_text() -> str:
    """The shipped weights file, as text."""
    return resources.files(__package__).joinpath(DEFAULT_WEIGHTS_FILE).read_text("utf-8")


@cache
def default_heuristics() -> BudgetHeuristics:
    return parse_heuristics(default_weights_text(), source="default")


def load_heuristics(text: str | None = None, source: str = "default") -> BudgetHeuristics:
    """The defaults, or the weights file `text` (named `source` in errors) read over them."""
    if text is None:
        return default_heuristics()
    return parse_heuristics(text, source=source, base=default_heuristics())


def parse_heuristics(
    text: str, source: str, base: BudgetHeuristics | None = None
) -> BudgetHeuristics:
    """Parse a weights file; with `base`, what it leaves out keeps `base`'s values."""
    try:
        check_toml_nesting(text)
        document = tomllib.loads(text, parse_float=Decimal)
    except TomlNestingError as error:
        raise InvalidHeuristicsError(f"{source} is not valid TOML: {error}") from None
    except tomllib.TOMLDecodeError as error:
        raise InvalidHeuristicsError(f"{source} is not valid TOML: {error}") from None
    except ValueError:  # int() refuses an integer of more than 4,300 digits
        raise InvalidHeuristicsError(
            f"{source} is not valid TOML: an integer has more than 4,300 digits"
        ) from None
    except RecursionError:
        raise InvalidHeuristicsError(f"{source} is not valid TOML: nested too deeply") from None
    unknown = sorted(set(document) - {*_KIND_SECTIONS, "tiers"})
    if unknown:
        raise InvalidHeuristicsError(
            f"{source}: unknown section [{unknown[0]}]; expected [weights], [tiers], [compaction]"
        )
    values: dict[str, Any] = (
        {
            "weights": dict(base.weights),
            "retained": dict(base.retained),
            "tiers": base.tiers.model_dump(),
        }
        if base is not None
        else {"weights": {}, "retained": {}, "tiers": {}}
    )
    values["weights"].update(_numbers(document, "weights", source, _kinds))
    values["retained"].update(_numbers(document, "compaction", source, _kinds))
    values["tiers"].update(_numbers(document, "tiers", source, _tier_names))
    try:
        return BudgetHeuristics.model_validate({**values, "source": source})
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        message = str(first["msg"]).removeprefix("Value error, ")
        raise InvalidHeuristicsError(
            f"{source}: {where + ': ' if where else ''}{message}"
        ) from None


def _kinds(key: str) -> bool:
    return key in {kind.value for kind in BudgetKind}


def _tier_names(key: str) -> bool:
    return key in _TIERS


def _numbers(
    document: dict[str, Any], section: str, source: str, known: Callable[[str], bool]
) -> dict[str, Any]:
    table = document.get(section, {})
    if not isinstance(table, dict):
        raise InvalidHeuristicsError(f"{source}: [{section}] must be a table")
    for key, value in table.items():
        if not known(key):
            names = ", ".join(BudgetKind) if section in _KIND_SECTIONS else ", ".join(_TIERS)
            raise InvalidHeuristicsError(
                f"{source}: unknown key {key!r} in [{section}]; expected one of {names}"
            )
        if isinstance(value, bool) or not isinstance(value, int | Decimal):
            raise InvalidHeuristicsError(
                f"{source}: [{section}] {key} must be a number, got {value!r}"
            )
    return {key: Decimal(value) for key, value in table.items()}
