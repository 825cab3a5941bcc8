"""Unit tests of the JSON compressor, `JsonCompressor`: its Tier 2 and its line plan for text
that is not valid JSON. Smart mode's `fit`: tests/integration/test_json_fit.py.

Real data: `tests/data/github-labels-excerpt.json`, the second recorded request of
`github-labels.json` (octokit/fixtures, MIT; the label list of a scenario repository),
re-serialised with indent 2. The fixtures of `../shared/corpus/json/`:
tests/integration/test_json_compressor_corpus.py; generated values: tests/properties."""

from __future__ import annotations

import json

import pytest

from cleveragents.application.services.artifact_compression.kinds.json.compressor import (
    JsonCompressor,
)
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import (
    MalformedCompressionError,
    Priority,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from cleveragents.domain.artifact import ArtifactKind
from tests.conftest import TEST_DATA
from tests.json_samples import marker

NO_TERMS = TaskTerms()
COMPRESSOR = JsonCompressor()


# --- real data --------------------------------------------------------------------------------


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
