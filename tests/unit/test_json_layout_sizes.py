"""The pretty size of a whole JSON document found without the survey (`layout_sizes`)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from cleveragents.application.services.artifact_compression.kinds.json.layout_sizes import (
    DEEPEST,
    pretty_extent,
)
from cleveragents.application.services.artifact_compression.kinds.json.survey import Survey
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**12), max_value=10**12)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=6) | st.dictionaries(st.text(max_size=6), children, max_size=6)
    ),
    max_leaves=60,
)


def _compact(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@settings(max_examples=200, deadline=None)
@given(JSON_VALUES)
def test_the_extent_is_what_json_dumps_adds_when_pretty(value: object) -> None:
    pretty = json.dumps(value, ensure_ascii=False, indent=2)
    extent = pretty_extent(value)
    assert extent is not None
    assert len(_compact(value)) + extent.extra_chars == len(pretty)
    assert extent.newlines == pretty.count("\n")


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(st.text(max_size=6), JSON_VALUES, min_size=1, max_size=6))
def test_the_extent_agrees_with_the_survey(value: dict[str, object]) -> None:
    facts = Survey(value, TaskTerms.from_task(None)).of(value)
    extent = pretty_extent(value)
    assert extent is not None
    assert (facts.pretty - facts.compact, facts.newlines) == tuple(extent)


def test_a_document_nested_deeper_than_the_walk_goes_is_left_to_the_survey() -> None:
    deep: object = {"leaf": 1}
    for _ in range(DEEPEST + 1):
        deep = {"child": deep}
    assert pretty_extent(deep) is None
    shallow: object = [1]
    for _ in range(DEEPEST - 1):
        shallow = [shallow]
    assert pretty_extent(shallow) is not None


def test_empty_containers_and_scalars_add_nothing() -> None:
    assert tuple(pretty_extent([]) or ()) == (0, 0)
    assert tuple(pretty_extent({}) or ()) == (0, 0)
    assert tuple(pretty_extent("text") or ()) == (0, 0)
    assert pretty_extent({"a": [], "b": {}}) == (4 * 2 + 1 + 0, 3)
