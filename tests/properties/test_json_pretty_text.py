"""The fast pretty writer writes exactly what `json.dumps(..., ensure_ascii=False, indent=2)`
writes, for every value a JSON parser returns and for the values it leaves to `json.dumps`."""

from __future__ import annotations

import enum
import json
import math
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cleveragents.application.services.artifact_compression.kinds.json.pretty_text import (
    pretty_json,
)

_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(alphabet=st.characters(codec="utf-8") | st.sampled_from('"\\\n\t\x00\u2028'))
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=8), inner, max_size=6)
    ),
    max_leaves=60,
)


def _expected(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2)


@settings(max_examples=400, deadline=None)
@given(_VALUES)
def test_any_value_is_written_as_json_dumps_writes_it(value: object) -> None:
    assert pretty_json(value) == _expected(value)


@settings(max_examples=200, deadline=None)
@given(_VALUES)
def test_a_parsed_document_is_written_as_json_dumps_writes_it(value: object) -> None:
    parsed = json.loads(json.dumps(value))  # the exact types a parser returns
    assert pretty_json(parsed) == _expected(parsed)


class _Level(enum.IntEnum):
    HIGH = 3


class _Name(str):
    pass


def test_what_it_does_not_write_itself_json_dumps_writes() -> None:
    odd: list[object] = [
        {1: "a", None: "b", 2.5: "c", False: "d"},  # keys json.dumps turns into strings
        [_Level.HIGH, _Name("x"), float("nan"), -math.inf],
        {"deep": {"list": [{"a": _Level.HIGH}]}},
        "\ud800 a lone surrogate, as a parser returns it from an escape",
        [[], {}, [[]], {"": {}}],
    ]
    for value in odd:
        assert pretty_json(value) == _expected(value)


def test_a_value_json_dumps_cannot_write_is_refused_too() -> None:
    for bad in ({"a": {1, 2}}, [object()], {("a", "b"): 1}):
        try:
            _expected(bad)
        except TypeError:
            pass
        else:  # pragma: no cover - the premise
            raise AssertionError("json.dumps wrote it")
        try:
            pretty_json(bad)
        except TypeError:
            continue
        raise AssertionError(f"pretty_json wrote {bad!r}")


def _strings_cut(value: object, cut: Callable[[str], str]) -> object:
    """`value` with each string value (keys stay) replaced by `cut` of it."""
    if isinstance(value, dict):
        return {key: _strings_cut(member, cut) for key, member in value.items()}
    if isinstance(value, list):
        return [_strings_cut(item, cut) for item in value]
    return cut(value) if isinstance(value, str) else value


@settings(max_examples=200, deadline=None)
@given(_VALUES, st.integers(min_value=0, max_value=12))
def test_strings_cut_as_they_are_written_give_the_cut_documents_text(
    value: object, keep: int
) -> None:
    """With `cut`, each string value is written as `cut` returns it, keys as they are: the
    text of the document with its strings cut, without the copy."""
    parsed = json.loads(json.dumps(value))

    def cut(text: str) -> str:
        return text[:keep] + "…" if len(text) > keep else text

    assert pretty_json(parsed, cut) == _expected(_strings_cut(parsed, cut))


def test_a_value_it_does_not_write_itself_is_refused_when_cutting() -> None:
    with pytest.raises(ValueError, match="own rules"):
        pretty_json({1: "a"}, str.upper)
