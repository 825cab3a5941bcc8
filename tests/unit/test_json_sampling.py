"""What smart mode for JSON knows of a document, by example: the extremes below a container, the
middle items kept for a new key or kind, the items that mention the task, and the levels of detail
of the ladder. (The properties: tests/properties.)"""

from __future__ import annotations

import json

from cleveragents.application.services.artifact_compression.kinds.json.detail import (
    Detail,
    ends_inwards,
)
from cleveragents.application.services.artifact_compression.kinds.json.ladder import ladder
from cleveragents.application.services.artifact_compression.kinds.json.line_maps import OneLine
from cleveragents.application.services.artifact_compression.kinds.json.pruner import Pruner
from cleveragents.application.services.artifact_compression.kinds.json.survey import Survey
from cleveragents.application.services.artifact_compression.kinds.json.writing import render
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import Handles
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms

NO_TERMS = TaskTerms()


def test_extremes_below_a_container() -> None:
    value = {"a": [1, 2, 3, [4, 5, 6, 7]], "b": {"c": "x" * 30, "d": {}, "e": 1, "f": 2}}
    facts = Survey(value, NO_TERMS).of(value)
    assert (facts.max_items, facts.max_string, facts.max_keys) == (4, 30, 4)


def test_a_middle_item_is_kept_for_a_new_key_or_a_new_kind_only() -> None:
    items = [{"a": 1}, {"a": 2}, {"a": None}, {"a": 3}, {"a": 4, "b": 1}, {"a": 5}, {"a": 6}]
    facts = Survey(items, NO_TERMS).of(items)
    assert facts.shape_items == (2, 4)
    assert facts.shape_ranks == (0, 1)


def test_items_and_members_that_mention_the_task() -> None:
    document = {"list": ["a", "needle b", "c", {"deep": "Needle"}], "needle_key": 1, "x": 2}
    survey = Survey(document, TaskTerms.from_task("needle"))
    assert survey.of(document["list"]).task_items == (1, 3)
    assert survey.of(document).task_items == (0, 1)
    assert survey.task_items == 2


def test_ends_inwards() -> None:
    assert list(ends_inwards(5)) == [0, 4, 1, 3, 2]
    assert list(ends_inwards(1)) == [0]
    assert list(ends_inwards(0)) == []


def test_breadth_first_members_start_with_the_root() -> None:
    first: dict[str, object] = {"x": 1, "y": 2}
    second: list[object] = [{"z": 1}, {"z": 2}, {"z": 3}]
    document: dict[str, object] = {"a": first, "b": second, "c": 3}
    survey = Survey(document, NO_TERMS)
    assert survey.root_members() == 3
    assert survey.admitted(document, 2, document) == [0, 1]
    assert survey.admitted(first, 3, document) == []  # its members rank 3 and 4
    assert survey.admitted(first, 4, document) == [0]
    assert survey.admitted(second, 6, document) == [0]  # the first item only, after a's
    assert survey.admission_size(document) == 3 + 2 + 1 + 1


def test_the_ladder_starts_with_the_whole_document_and_ends_with_its_marker() -> None:
    document = {"rows": [{"id": index, "text": "t" * 300} for index in range(50)]}
    survey = Survey(document, NO_TERMS)
    pruner = Pruner(survey, OneLine(1), Handles(), pretty=False)
    families = ladder(survey)
    richest = families[0].detail(families[0].high())
    assert json.loads(render(pruner.build(richest).value, pretty=False)) == document
    poorest = families[-1].detail(families[-1].low)
    assert json.loads(render(pruner.build(poorest).value, pretty=False)) == {"…": "1 key omitted"}
    ranks = [family.rank for family in families]
    assert ranks == sorted(ranks)


def test_below_whole_shapes_an_item_of_a_new_shape_shows_what_is_new_in_it() -> None:
    # Values longer than a marker: omitted members that are shorter would be kept as they are.
    name = "a name longer than the marker of what is left out"
    common = {"id": 10**12, "name": name, "owner": {"login": name, "id": 10**12}}
    items: list[object] = [
        dict(common),
        dict(common),
        {**common, "owner": {"login": name, "id": 3, "site_admin": True}, "extra": [1, 2]},
        dict(common),
    ]
    survey = Survey(items, NO_TERMS)
    assert survey.of(items[2]).new_members == (2, 3)  # owner (site_admin inside) and extra
    assert survey.of(items[0]).new_members is None  # the first: everything new
    pruner = Pruner(survey, OneLine(1), Handles(), pretty=False)
    detail = Detail(string_limit=64, shapes=None, last=False)
    built = pruner.build(detail).value
    assert built == [
        common,
        "… 1 item omitted (line 1)",
        {
            "owner": {"site_admin": True, "…": "2 keys omitted (line 1)"},
            "extra": [1, 2],
            "…": "2 keys omitted (line 1)",
        },
        "… 1 item omitted (line 1)",
    ]
    assert pruner.measure(detail) == len(render(built, pretty=False))
