"""Smart mode for JSON: room a compact rendering leaves goes to layout (outer containers
opened), and a level far over the size limit is measured only as far as its cap."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter
from cleveragents.application.services.artifact_compression.kinds.json.compressor import (
    JsonCompressor,
)
from cleveragents.application.services.artifact_compression.kinds.json.detail import Detail
from cleveragents.application.services.artifact_compression.kinds.json.layered import (
    opening_order,
    render_opened,
)
from cleveragents.application.services.artifact_compression.kinds.json.line_maps import OneLine
from cleveragents.application.services.artifact_compression.kinds.json.pruner import Pruner
from cleveragents.application.services.artifact_compression.kinds.json.survey import Survey
from cleveragents.application.services.artifact_compression.kinds.json.writing import render
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import Handles
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms

COUNTER = TiktokenCounter("cl100k_base")
COMPRESSOR = JsonCompressor()
NO_TERMS = TaskTerms()

VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**12), max_value=10**12)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=40),
    lambda children: (
        st.lists(children, max_size=8) | st.dictionaries(st.text(max_size=6), children, max_size=6)
    ),
    max_leaves=60,
)


def nested_records(count: int) -> list[dict[str, object]]:
    return [
        {
            "id": index,
            "owner": {"login": f"user{index}", "site_admin": False, "teams": ["core", "docs"]},
            "labels": [{"name": "bug", "color": "d73a4a"}, {"name": "help", "color": "008672"}],
        }
        for index in range(count)
    ]


def test_a_whole_document_with_room_left_opens_its_outer_containers() -> None:
    items = nested_records(60)
    text = json.dumps(items, indent=2)
    compact_tokens = COUNTER.count(json.dumps(items, separators=(",", ":")))
    budget = int(compact_tokens / 0.7)
    assert budget < COUNTER.count(text)  # the input itself does not fit
    out = COMPRESSOR.fit(text, NO_TERMS, budget, COUNTER, Handles())
    assert out is not None
    assert out.tokens == COUNTER.count(out.text) <= budget
    assert out.tokens >= 0.85 * budget
    assert json.loads(out.text) == items  # everything, only laid out differently
    assert out.text.startswith('[\n  {\n    "id": 0,')


def test_a_whole_document_that_uses_the_budget_once_compact_stays_compact() -> None:
    items = nested_records(60)
    compact = json.dumps(items, separators=(",", ":"))
    out = COMPRESSOR.fit(
        json.dumps(items, indent=2), NO_TERMS, COUNTER.count(compact) + 3, COUNTER, Handles()
    )
    assert out is not None
    assert out.text == compact


@settings(max_examples=200, deadline=None)
@given(VALUES, st.integers(min_value=0, max_value=200))
def test_opening_containers_changes_the_layout_only(value: object, opened: int) -> None:
    ids, _ = opening_order(value, float("inf")) if isinstance(value, dict | list) else ([], [])
    text = render_opened(value, set(ids[:opened]))
    assert json.loads(text) == value
    if opened >= len(ids):
        assert text == json.dumps(value, indent=2, ensure_ascii=False)
    if opened == 0:
        assert text == json.dumps(value, separators=(",", ":"), ensure_ascii=False)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(VALUES, min_size=3, max_size=30),
    st.sampled_from([None, 0, 8, 40]),
    st.booleans(),
    st.integers(min_value=0, max_value=3000),
)
def test_a_capped_measure_is_exact_within_its_cap_and_over_it_otherwise(
    items: list[object], limit: int | None, last: bool, cap: int
) -> None:
    text = json.dumps(items, separators=(",", ":"), ensure_ascii=False)
    survey = Survey(json.loads(text), NO_TERMS)
    detail = Detail(string_limit=limit, last=last)
    exact = len(
        render(
            Pruner(survey, OneLine(1), Handles(), pretty=False).build(detail).value, pretty=False
        )
    )
    measured = Pruner(survey, OneLine(1), Handles(), pretty=False).measure(detail, cap)
    if exact <= cap:
        assert measured == exact
    else:
        assert measured > cap
