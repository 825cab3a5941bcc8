"""What smart mode for JSON knows of a document, on generated JSON: the survey's sizes are those
`json.dumps` writes, new-shape items show every key path, runs of kept items are the kept items,
and the task items are those the task terms match."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cleveragents.application.services.artifact_compression.kinds.json.detail import (
    Detail,
    kept_items,
    kept_runs,
    runs,
)
from cleveragents.application.services.artifact_compression.kinds.json.line_maps import OneLine
from cleveragents.application.services.artifact_compression.kinds.json.pruner import Pruner
from cleveragents.application.services.artifact_compression.kinds.json.survey import Survey
from cleveragents.application.services.artifact_compression.kinds.json.writing import render
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import Handles
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from tests.json_samples import key_paths

NO_TERMS = TaskTerms()
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=60),
    lambda children: (
        st.lists(children, max_size=10) | st.dictionaries(st.text(max_size=5), children, max_size=6)
    ),
    max_leaves=60,
)


def containers(value: object) -> list[dict[str, object] | list[object]]:
    found: list[dict[str, object] | list[object]] = []
    if isinstance(value, dict | list):
        found.append(value)
        for item in value.values() if isinstance(value, dict) else value:
            found += containers(item)
    return found


@SETTINGS
@given(JSON_VALUES)
def test_recorded_sizes_are_what_json_dumps_writes(value: object) -> None:
    survey = Survey(value, NO_TERMS)
    for container in containers(value):
        facts = survey.of(container)
        compact = json.dumps(container, ensure_ascii=False, separators=(",", ":"))
        pretty = json.dumps(container, ensure_ascii=False, indent=2)
        assert facts.compact == len(compact)
        assert facts.pretty == len(pretty)
        assert facts.newlines == pretty.count("\n")


@SETTINGS
@given(st.lists(JSON_VALUES, min_size=3, max_size=30))
def test_new_shape_items_show_every_key_path(items: list[object]) -> None:
    """First, last and new-shape items (with theirs, inside) hold every key path."""
    survey = Survey(items, NO_TERMS)
    pruner = Pruner(survey, OneLine(1), Handles(), pretty=False)
    coverage = Detail(string_limit=16, task=0)
    shown = json.loads(render(pruner.build(coverage).value, pretty=False))
    assert key_paths(items) <= key_paths(shown)


@SETTINGS
@given(
    st.integers(min_value=3, max_value=60),
    st.integers(min_value=0, max_value=70),
    st.lists(st.integers(min_value=1, max_value=58), max_size=6),
    st.integers(min_value=0, max_value=4),
)
def test_runs_of_kept_items_are_the_kept_items(
    count: int, extra: int, specials: list[int], shapes: int
) -> None:
    items: list[object] = [{"a": index} for index in range(count)]
    for index in specials:
        if index < count - 1:
            items[index] = {"new": index}
    survey = Survey(items, NO_TERMS)
    facts = survey.of(items)
    detail = Detail(extra_items=extra, shapes=shapes)
    kept, _ = kept_items(facts, count, detail)
    assert kept_runs(facts, count, detail)[0] == runs(kept)
    assert kept[0] == 0
    assert kept[-1] == count - 1
    assert len(kept) == min(count, 2 + extra + len([r for r in facts.shape_ranks if r < shapes]))


@SETTINGS
@given(st.lists(st.text(max_size=40), min_size=1, max_size=20), st.text(max_size=30))
def test_task_items_are_those_the_task_terms_match(items: list[str], task: str) -> None:
    terms = TaskTerms.from_task(task)
    expected = tuple(index for index, item in enumerate(items) if terms.matches(item))
    assert Survey(items, terms).of(items).task_items == expected
