"""Smart mode for JSON: levels that differ only in their string limit are sized from one walk,
also when that walk reused subtrees another level measured (their cut strings are kept with
their sizes), and levels that write the document alike share those sizes."""

from __future__ import annotations

import json

from cleveragents.application.services.artifact_compression.kinds.json.detail import Detail
from cleveragents.application.services.artifact_compression.kinds.json.line_maps import (
    structural_line_map,
)
from cleveragents.application.services.artifact_compression.kinds.json.pruner import Pruner
from cleveragents.application.services.artifact_compression.kinds.json.string_limit_sizes import (
    NotedStrings,
)
from cleveragents.application.services.artifact_compression.kinds.json.survey import Survey
from cleveragents.application.services.artifact_compression.kinds.json.writing import render
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import Handles
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms


def _pruner(value: object) -> tuple[Pruner, Survey, str]:
    """A pretty pruner of `value` written pretty."""
    text = json.dumps(value, indent=2)
    survey = Survey(json.loads(text), TaskTerms())
    lines = structural_line_map(text, survey)
    assert lines is not None
    return Pruner(survey, lines, Handles("sha256:ab"), pretty=True), survey, text


def _twinned(value: object) -> tuple[Pruner, Survey, str]:
    pruner, survey, text = _pruner(value)
    pruner.twin = Pruner(survey, pruner.lines, Handles("sha256:ab"), pretty=False)
    return pruner, survey, text


def _rendered(survey: Survey, text: str, detail: Detail) -> int:
    lines = structural_line_map(text, survey)
    assert lines is not None
    built = Pruner(survey, lines, Handles("sha256:ab"), pretty=True).build(detail)
    return len(render(built.value, pretty=True))


def _description(index: int) -> str:
    return " ".join(f"word{index}x{n}" for n in range(12 + index % 5))


# An API description's shape: arrays of unlike items, long strings everywhere.
API = {
    f"/path/{n}": {
        "summary": _description(n),
        "parameters": [
            {
                "name": f"p{n}{m}",
                "schema": {"description": _description(n + m), "items": {f"extra{m}": m}},
            }
            for m in range(3 + n % 3)
        ],
        "tags": [f"tag{n}", f"tag{n + 1}", f"tag{n + 2}"],
    }
    for n in range(40)
}


def test_a_walk_that_reuses_remembered_subtrees_still_sizes_every_higher_limit() -> None:
    pruner, survey, text = _pruner(API)
    # The first walk at limit 0 remembers the subtrees both levels write alike.
    pruner.measure(Detail(string_limit=0, last=False, shapes=0))
    pruner.measure(Detail(string_limit=0))
    for limit in (1, 20, 80, 160):
        detail = Detail(string_limit=limit)
        assert pruner.measure(detail) == _rendered(survey, text, detail), limit
        # Found from the strings the limit-0 walk cut, remembered ones included: no walk.
        assert detail in pruner._derived


def test_a_document_without_arrays_is_sized_from_its_strings_without_a_walk() -> None:
    # A lock file's shape: objects of objects, no array of two items, so every level that
    # drops no member writes all of it and only cuts strings.
    lock = {
        f"node_modules/p{n}": {"version": f"1.{n}.0", "integrity": "sha512-" + "ab" * (30 + n)}
        for n in range(50)
    }
    pruner, survey, text = _pruner(lock)
    every_member = survey.admission_size(survey.root)
    for detail in (
        Detail(string_limit=0, last=False),
        Detail(string_limit=40),
        Detail(string_limit=1, extra_items=3),
        Detail(string_limit=160),
        # The breadth-first level that admits every member writes all of it too.
        Detail(string_limit=0, shapes=0, task=0, last=False, members=every_member),
    ):
        assert pruner.measure(detail) == _rendered(survey, text, detail), detail
    assert not pruner._measured  # not walked


def test_a_reused_size_whose_strings_were_not_kept_gives_no_sizes() -> None:
    notes = NotedStrings()
    notes.begin()
    start = notes.mark()
    assert notes.walk is not None
    notes.walk.append("a" * 50)
    notes.keep("kept", start)
    notes.reuse("kept")
    assert notes.end() == ["a" * 50, "a" * 50]
    notes.begin()
    notes.reuse("never kept")
    assert notes.end() is None
    notes.reuse("kept")  # outside a walk: nothing to add to
    assert notes.walk is None


def test_a_pretty_level_is_sized_from_its_compact_twin_only_without_longer_arrays() -> None:
    for value, twinned in ((API, False), ({"a": {"b": [_description(1)]}, "c": 1}, True)):
        pretty, survey, text = _twinned(value)
        detail = Detail(string_limit=0)
        assert pretty.measure(detail) == _rendered(survey, text, detail)
        assert bool(pretty._measured) is not twinned  # walked itself unless twinned
        # Written straight from the document only where every member is written.
        assert (pretty.written_whole(detail) is not None) is twinned
