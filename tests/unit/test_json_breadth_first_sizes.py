"""The sizes of the breadth-first levels of a JSON document, from the gains of its containers
measured once each (`BreadthFirstSizes`): the rendered length of every level, measured only as
far as the levels asked for reach."""

from __future__ import annotations

import json

from cleveragents.application.services.artifact_compression.kinds.json.breadth_first_sizes import (
    BreadthFirstSizes,
)
from cleveragents.application.services.artifact_compression.kinds.json.detail import Detail
from cleveragents.application.services.artifact_compression.kinds.json.line_maps import (
    structural_line_map,
)
from cleveragents.application.services.artifact_compression.kinds.json.pruner import Pruner
from cleveragents.application.services.artifact_compression.kinds.json.survey import Survey
from cleveragents.application.services.artifact_compression.kinds.json.writing import render
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import Handles
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms

LEVEL = Detail(string_limit=0, shapes=0, task=0, last=False, members=0)


def _nested(width: int, depth: int) -> object:
    if not depth:
        return "a value long enough to be cut"
    return {f"key{index}": _nested(width, depth - 1) for index in range(width)} | {
        "items": [_nested(width, depth - 1), 7, "x"]
    }


def _pruner(pretty: bool) -> tuple[Pruner, Survey]:
    text = json.dumps(_nested(3, 4), indent=2)
    survey = Survey(json.loads(text), TaskTerms())
    lines = structural_line_map(text, survey)
    assert lines is not None
    return Pruner(survey, lines, Handles("sha256:ab"), pretty=pretty), survey


def test_every_level_has_its_rendered_length() -> None:
    for pretty in (True, False):
        pruner, survey = _pruner(pretty)
        sizes = BreadthFirstSizes(pruner, LEVEL)
        for members in range(survey.admission_size(survey.root) + 1):
            level = Detail(string_limit=0, shapes=0, task=0, last=False, members=members)
            rendered = render(pruner.build(level).value, pretty=pretty)
            assert sizes.size(members) == len(rendered)


def test_small_levels_measure_the_start_of_the_document_only() -> None:
    pruner, survey = _pruner(pretty=True)
    sizes = BreadthFirstSizes(pruner, LEVEL)
    sizes.size(survey.root_members() + 2)
    small = pruner.walked
    sizes.size(survey.admission_size(survey.root) - 1)
    assert 0 < small < pruner.walked / 4


def _full(survey: Survey) -> int:
    return survey.admission_size(survey.root)


def test_the_level_that_admits_every_member_has_its_rendered_length_under_the_cap() -> None:
    for pretty in (True, False):
        pruner, survey = _pruner(pretty)
        level = Detail(string_limit=0, shapes=0, task=0, last=False, members=_full(survey))
        rendered = len(render(pruner.build(level).value, pretty=pretty))
        assert BreadthFirstSizes(pruner, LEVEL).whole_size(rendered) == rendered
        assert pruner.measure(level, rendered) == rendered  # how the search asks for it


def test_the_level_that_admits_every_member_is_over_a_cap_below_it() -> None:
    pruner, survey = _pruner(pretty=False)
    level = Detail(string_limit=0, shapes=0, task=0, last=False, members=_full(survey))
    rendered = len(render(pruner.build(level).value, pretty=False))
    for cap in (rendered - 1, rendered / 2, rendered / 5, 0.5):
        found = BreadthFirstSizes(pruner, LEVEL).whole_size(cap)
        assert found > cap
        assert found <= max(cap + 1, rendered)


def test_a_capped_whole_size_measures_only_the_start_and_leaves_the_rest_exact() -> None:
    """Stopped at its cap, the gains measured so far size the levels below it, and the
    levels past it go on measuring from there: every level still has its rendered length."""
    pruner, survey = _pruner(pretty=False)
    full = Detail(string_limit=0, shapes=0, task=0, last=False, members=_full(survey))
    rendered = len(render(pruner.build(full).value, pretty=False))
    walked = pruner.walked
    sizes = BreadthFirstSizes(pruner, LEVEL)
    assert sizes.whole_size(rendered / 4) > rendered / 4
    capped = pruner.walked - walked
    sizes.size(_full(survey) - 1)
    assert 0 < capped < (pruner.walked - walked) / 2
    for members in range(_full(survey) + 1):
        level = Detail(string_limit=0, shapes=0, task=0, last=False, members=members)
        assert sizes.size(members) == len(render(pruner.build(level).value, pretty=False))
