"""Unit tests of the JSON compressor, `JsonCompressor`: its Tier 2 and its line plan for text
that is not valid JSON. Smart mode's `fit`: tests/integration/test_json_fit.py.

Real data: the GitHub API fixtures of octokit/fixtures (MIT) in `../shared/corpus/json/`, and
`tests/data/github-labels-excerpt.json`, the second recorded request of
`github-labels.json` (the label list of a scenario repository), re-serialised with indent 2.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cleveragents.application.services.artifact_compression.kinds.json.compressor import (
    JsonCompressor,
)
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import (
    MalformedCompressionError,
    Priority,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from cleveragents.domain.artifact import ArtifactKind
from tests.conftest import TEST_DATA, corpus_files

NO_TERMS = TaskTerms()
COMPRESSOR = JsonCompressor()
JSON_FILES = [
    *corpus_files("json", "*.json"),
    TEST_DATA / "github-labels-excerpt.json",
]


def marker(omitted: int) -> dict[str, str]:
    return {"_truncated": f"{omitted} items omitted"}


def key_paths(value: object, path: tuple[str, ...] = ()) -> set[tuple[str, ...]]:
    """Every key as the path of keys that leads to it, array indices left out."""
    found: set[tuple[str, ...]] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            found.add((*path, key))
            found |= key_paths(item, (*path, key))
    elif isinstance(value, list):
        for item in value:
            found |= key_paths(item, path)
    return found


def without_markers(paths: set[tuple[str, ...]]) -> set[tuple[str, ...]]:
    return {path for path in paths if path[-1] != "_truncated"}


def assert_tier2_shape(original: object, compressed: object) -> None:
    """Walk both documents side by side: same keys in the same order, arrays over 10 items as
    5 + marker + 2, strings over 200 characters cut with the count of what was cut."""
    if isinstance(original, dict):
        assert isinstance(compressed, dict)
        assert list(compressed) == list(original)
        for key, item in original.items():
            assert_tier2_shape(item, compressed[key])
    elif isinstance(original, list):
        assert isinstance(compressed, list)
        if len(original) > 10:
            assert len(compressed) == 8
            assert compressed[5] == marker(len(original) - 7)
            pairs = zip(original[:5] + original[-2:], compressed[:5] + compressed[-2:], strict=True)
        else:
            pairs = zip(original, compressed, strict=True)
        for item, new in pairs:
            assert_tier2_shape(item, new)
    elif isinstance(original, str) and len(original) > 200:
        assert compressed == f"{original[:200]}... ({len(original) - 200} chars omitted)"
    else:
        assert compressed == original


# --- real data --------------------------------------------------------------------------------


@pytest.mark.parametrize("path", JSON_FILES, ids=lambda path: path.name)
def test_tier2_on_real_json_keeps_every_key_and_the_shape(path: Path) -> None:
    """Tier 2 is to "keep all keys and structure". Omitting array items can in principle
    lose a key that only an omitted item has; so the per-item guarantee is the shape walk
    below, and the set of key paths (keys by the path of keys that leads to them, indices
    ignored) is asserted equal on the real data, whose arrays are homogeneous."""
    text = path.read_text(encoding="utf-8")
    out = COMPRESSOR.tier2(text, NO_TERMS)
    original, compressed = json.loads(text), json.loads(out)
    assert_tier2_shape(original, compressed)
    assert without_markers(key_paths(compressed)) == key_paths(original)
    assert out == json.dumps(compressed, ensure_ascii=False, indent=2)  # pretty like the input
    assert len(out) < len(text)


@pytest.mark.parametrize("path", JSON_FILES, ids=lambda path: path.name)
def test_tier2_is_deterministic(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert COMPRESSOR.tier2(text, NO_TERMS) == COMPRESSOR.tier2(text, NO_TERMS)


def test_real_json_with_a_task_keeps_the_matching_array_item() -> None:
    text = (TEST_DATA / "github-labels-excerpt.json").read_text(encoding="utf-8")
    headers = json.loads(text)["rawHeaders"]
    assert headers.index("X-GitHub-Request-Id") not in {*range(5), len(headers) - 2}
    terms = TaskTerms.from_task("check the X-GitHub-Request-Id header")
    kept = json.loads(COMPRESSOR.tier2(text, terms))["rawHeaders"]
    assert "X-GitHub-Request-Id" in kept
    assert "X-GitHub-Request-Id" not in json.loads(COMPRESSOR.tier2(text, NO_TERMS))["rawHeaders"]


# --- the rules on small documents -------------------------------------------------------------


def test_arrays_of_ten_are_kept_and_of_eleven_cut() -> None:
    assert json.loads(COMPRESSOR.tier2(json.dumps(list(range(10))), NO_TERMS)) == list(range(10))
    cut = json.loads(COMPRESSOR.tier2(json.dumps(list(range(11))), NO_TERMS))
    assert cut == [0, 1, 2, 3, 4, marker(4), 9, 10]


def test_strings_are_cut_at_200_and_keys_never() -> None:
    key, value = "k" * 300, "v" * 250
    out = json.loads(COMPRESSOR.tier2(json.dumps({key: value, "short": "x" * 200}), NO_TERMS))
    assert out == {key: "v" * 200 + "... (50 chars omitted)", "short": "x" * 200}


def test_layout_follows_the_input_and_key_order_is_kept() -> None:
    assert COMPRESSOR.tier2('{"b": 1, "a": [true, null]}', NO_TERMS) == '{"b":1,"a":[true,null]}'
    assert COMPRESSOR.tier2('{"b": 1,\n "a": "é"}', NO_TERMS) == '{\n  "b": 1,\n  "a": "é"\n}'


def test_top_level_scalars_nan_and_duplicate_keys() -> None:
    assert (
        COMPRESSOR.tier2('"' + "x" * 205 + '"', NO_TERMS)
        == '"' + "x" * 200 + '... (5 chars omitted)"'
    )
    assert COMPRESSOR.tier2("42", NO_TERMS) == "42"
    out = COMPRESSOR.tier2('{"a": NaN, "b": -Infinity}', NO_TERMS)
    assert out == '{"a":NaN,"b":-Infinity}'
    assert COMPRESSOR.tier2('{"a": 1, "a": 2}', NO_TERMS) == '{"a":2}'  # json.loads: last wins


@pytest.mark.parametrize(
    "text",
    ["", "   ", "{", "{'a': 1}", "[1,]", '{"a" 1}', "[1] [2]", "[" * 100_000 + "]" * 100_000],
)
def test_invalid_or_too_deep_json_is_malformed(text: str) -> None:
    with pytest.raises(MalformedCompressionError):
        COMPRESSOR.tier2(text, NO_TERMS)


def test_task_terms_keep_middle_items_between_head_and_tail() -> None:
    items = [{"id": index, "name": f"item{index}"} for index in range(20)]
    items[9]["name"] = "needle"
    out = json.loads(COMPRESSOR.tier2(json.dumps(items), TaskTerms.from_task("find the needle")))
    assert out == [*items[:5], marker(12), items[9], *items[18:]]
    everything = TaskTerms.from_task("item name")  # every item has a `name` key
    assert json.loads(COMPRESSOR.tier2(json.dumps(items), everything)) == items


def test_a_term_inside_a_nested_omitted_array_keeps_the_outer_item() -> None:
    items: list[object] = [[index] for index in range(15)]
    items[7] = ["x"] * 11 + ["needle"]
    out = json.loads(COMPRESSOR.tier2(json.dumps(items), TaskTerms.from_task("needle")))
    assert out[5] == marker(7)
    assert out[6] == ["x"] * 5 + [marker(5), "x", "needle"]


def test_line_plan_and_marker_for_text_that_is_not_json() -> None:
    lines = ["{", '  "name": "x",', '  "tags": [', '    "needle",', '    "other"', "  ]", "}"]
    assert COMPRESSOR.line_plan(lines, TaskTerms.from_task("needle")).priorities == [
        Priority.CONTEXT,
        Priority.ESSENTIAL,
        Priority.ESSENTIAL,
        Priority.IMPORTANT,
        Priority.CONTEXT,
        Priority.CONTEXT,
        Priority.CONTEXT,
    ]
    assert COMPRESSOR.marker("lines 3-9 omitted") == "... (lines 3-9 omitted)"
    assert COMPRESSOR.kind is ArtifactKind.JSON


# --- properties -------------------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=300),
    lambda children: (
        st.lists(children, max_size=14) | st.dictionaries(st.text(max_size=5), children, max_size=5)
    ),
    max_leaves=60,
)


@given(st.text())
def test_arbitrary_text_gives_json_or_a_malformed_error(text: str) -> None:
    try:
        out = COMPRESSOR.tier2(text, TaskTerms.from_task("needle 0"))
    except MalformedCompressionError:
        return
    json.loads(out)


@given(JSON_VALUES, st.booleans())
def test_any_json_value_gives_valid_json_with_its_keys(value: object, pretty: bool) -> None:
    text = json.dumps(value, indent=2 if pretty else None)
    out = json.loads(COMPRESSOR.tier2(text, NO_TERMS))
    assert without_markers(key_paths(out)) <= key_paths(value)


@given(st.floats(allow_nan=True))
def test_special_floats_survive(number: float) -> None:
    out = json.loads(COMPRESSOR.tier2(json.dumps([number]), NO_TERMS))
    assert out[0] == number or (math.isnan(number) and math.isnan(out[0]))
