"""A prefix spec from plain data, with one-line errors that name the place of the problem."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ValidationError

from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.stable_prefix.spec import (
    PrefixFact,
    PrefixSection,
    PrefixSkill,
    PrefixSpec,
    PrefixTool,
)


def parse_prefix_spec(data: Mapping[str, Any]) -> PrefixSpec:
    """A spec from plain data (a loaded YAML or TOML document, a dict written in Python).

    Raises `InvalidInputError` naming the place of the first problem, e.g.
    ``tools[1].name: must be a string``.
    """
    try:
        return PrefixSpec.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors()
        more = len(errors) - 1
        suffix = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
        raise InvalidInputError(_describe(errors[0]) + suffix) from None


_FIELDS_BY_SECTION: dict[str, type[BaseModel]] = {
    PrefixSection.TOOLS: PrefixTool,
    PrefixSection.STABLE_FACTS: PrefixFact,
    PrefixSection.PROFESSIONAL_SKILLS: PrefixSkill,
}


def _place(loc: tuple[int | str, ...]) -> str:
    place = ""
    for part in loc:
        place += f"[{part}]" if isinstance(part, int) else f".{part}" if place else str(part)
    return place


_TYPE_NAMES = {"tuple_type": "a list", "dict_type": "a mapping", "model_type": "a mapping"}
_QUOTE_HINT = "in YAML, quote values such as 3.10, yes or 2026"


def _describe(error: Mapping[str, Any]) -> str:
    loc, kind, given = error["loc"], error["type"], error["input"]
    if loc and loc[-1] == "[key]":  # a mapping key of the wrong type: `3: x`, `yes: x`
        place = f"{_place(loc[:-2])} key {loc[-2]!r}"
    else:
        place = _place(loc) or "the prefix"
    if kind == "extra_forbidden":
        model = PrefixSpec if len(loc) == 1 else _FIELDS_BY_SECTION.get(str(loc[0]), PrefixSpec)
        return f"{place}: unknown key (allowed: {', '.join(model.model_fields)})"
    if given is None:
        return f"{place}: empty; give a value or leave the key out"
    if kind == "string_type":
        return f"{place}: must be a string, not {type(given).__name__} ({_QUOTE_HINT})"
    if kind in _TYPE_NAMES:
        return f"{place}: must be {_TYPE_NAMES[kind]}, not {type(given).__name__}"
    return f"{place}: {str(error['msg']).removeprefix('Value error, ')}"
