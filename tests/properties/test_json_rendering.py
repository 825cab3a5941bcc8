"""The JSON renderer behind smart mode, on generated JSON: sizes measured without rendering equal
the rendering's length, line maps name the lines of the original, and the positions parser reads
what `json.loads` reads."""

from __future__ import annotations

import json
from dataclasses import replace
from random import Random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cleveragents.application.services.artifact_compression.kinds.json.detail import Detail
from cleveragents.application.services.artifact_compression.kinds.json.ladder import (
    BREADTH_FIRST_RANK,
    ladder,
)
from cleveragents.application.services.artifact_compression.kinds.json.line_maps import (
    LineMap,
    OneLine,
    Positions,
    UsualLayout,
    structural_line_map,
)
from cleveragents.application.services.artifact_compression.kinds.json.positions import (
    parse_with_positions,
)
from cleveragents.application.services.artifact_compression.kinds.json.pruner import Pruner
from cleveragents.application.services.artifact_compression.kinds.json.survey import Survey
from cleveragents.application.services.artifact_compression.kinds.json.writing import (
    render,
)
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import Handles
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms

NO_TERMS = TaskTerms()
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=300),
    lambda children: (
        st.lists(children, max_size=12) | st.dictionaries(st.text(max_size=6), children, max_size=6)
    ),
    max_leaves=80,
)
CONTAINERS = st.one_of(
    st.lists(JSON_VALUES, min_size=1, max_size=12),
    st.dictionaries(st.text(max_size=6), JSON_VALUES, min_size=1, max_size=6),
)


def _surveyed(value: object, terms: TaskTerms) -> tuple[Survey, LineMap]:
    """`value` written pretty, surveyed, and the map of its lines."""
    text = json.dumps(value, indent=2, ensure_ascii=False)
    survey = Survey(json.loads(text), terms)
    return survey, structural_line_map(text, survey) or Positions(
        text, parse_with_positions(text)[1]
    )


def levels(survey: Survey) -> list[Detail]:
    """A few levels of every family of the ladder, and some between knobs."""
    found: list[Detail] = []
    for family in ladder(survey):
        high = family.high()
        for knob in sorted({family.low, high, (family.low + high) // 2, family.low + 1}):
            if knob > high:
                continue
            found.append(family.detail(knob))
            if family.between is not None and knob < high:
                for inner in family.between(knob):
                    found.append(inner.detail(inner.low))
                    found.append(inner.detail(inner.high()))
    return found


@SETTINGS
@given(CONTAINERS, st.booleans(), st.booleans(), st.booleans())
def test_measured_sizes_are_the_rendered_lengths(
    value: object, pretty_input: bool, pretty: bool, with_task: bool
) -> None:
    """Every level, measured in any order (the measurements of parts are reused between
    levels) and built, has the length its rendering has."""
    text = json.dumps(value, indent=2 if pretty_input else None, ensure_ascii=False)
    terms = TaskTerms.from_task("needle true 0") if with_task else NO_TERMS
    survey = Survey(json.loads(text), terms)
    lines = structural_line_map(text, survey) or Positions(text, parse_with_positions(text)[1])
    pruner = Pruner(survey, lines, Handles("sha256:ab"), pretty=pretty)
    details = levels(survey)
    for detail in [*details, *reversed(details)]:
        built = pruner.build(detail)
        out = render(built.value, pretty=pretty)
        assert built.chars == len(out)
        assert pruner.measure(detail) == len(out)
        json.loads(out)


@SETTINGS
@given(JSON_VALUES, st.sampled_from([None, 1, 2, 4]))
def test_the_positions_parser_reads_what_json_loads_reads(
    value: object, indent: int | None
) -> None:
    text = json.dumps(value, indent=indent)
    parsed, spans = parse_with_positions(text)
    assert parsed == json.loads(text)
    for container in _containers(parsed):
        starts, ends = spans[id(container)]
        assert len(starts) == len(ends) == len(container)
        members = container.values() if isinstance(container, dict) else container
        for start, end, member in zip(starts, ends, members, strict=True):
            piece = text[start:end]
            if isinstance(container, dict):
                piece = piece.split(":", 1)[1] if not piece.startswith('"') else _after_key(piece)
            assert json.loads(piece) == member


def _after_key(piece: str) -> str:
    _, end = json.decoder.scanstring(piece, 1)  # type: ignore[attr-defined]
    return piece[end:].lstrip().removeprefix(":")


def _containers(value: object) -> list[dict[str, object] | list[object]]:
    found: list[dict[str, object] | list[object]] = []
    if isinstance(value, dict):
        found.append(value)
        for item in value.values():
            found += _containers(item)
    elif isinstance(value, list):
        found.append(value)
        for item in value:
            found += _containers(item)
    return found


@SETTINGS
@given(CONTAINERS, st.sampled_from([1, 2, 4]))
def test_the_usual_layout_map_gives_the_lines_the_positions_give(
    value: object, indent: int
) -> None:
    text = json.dumps(value, indent=indent) + "\n"
    survey = Survey(json.loads(text), NO_TERMS)
    usual = structural_line_map(text, survey)
    if "\n" not in text.strip():
        assert isinstance(usual, OneLine)
        return
    assert isinstance(usual, UsualLayout)
    parsed, spans = parse_with_positions(text)
    _compare_lines(usual, Positions(text, spans), survey.root, parsed, usual.root_line)


def _compare_lines(
    usual: UsualLayout, exact: Positions, mine: object, theirs: object, line: int
) -> None:
    """Walk the two parses side by side: every member starts and ends on the same lines."""
    if not isinstance(mine, dict | list) or not mine:
        return
    assert isinstance(theirs, dict | list)
    members = list(mine.values() if isinstance(mine, dict) else mine)
    others = list(theirs.values() if isinstance(theirs, dict) else theirs)
    for index, (member, other) in enumerate(zip(members, others, strict=True)):
        start = usual.child_line(mine, line, index)
        assert start == exact.child_line(theirs, 0, index)
        assert usual.span(mine, line, index, index) == exact.span(theirs, 0, index, index)
        _compare_lines(usual, exact, member, other, start)


@SETTINGS
@given(CONTAINERS, st.booleans(), st.randoms(use_true_random=False))
def test_breadth_first_levels_measured_in_any_order_have_their_rendered_lengths(
    value: object, pretty: bool, random: Random
) -> None:
    """Every breadth-first level (every count of members admitted), measured in a random
    order by one pruner (a container whose members' members are all left out is measured
    once per count of its own members admitted, and reused), has its rendering's length."""
    survey, lines = _surveyed(value, NO_TERMS)
    pruner = Pruner(survey, lines, Handles("sha256:ab"), pretty=pretty)
    breadth_first = [family for family in ladder(survey) if family.rank >= BREADTH_FIRST_RANK]
    details = [
        family.detail(members)
        for family in breadth_first
        for members in range(family.low, family.high() + 2)
    ]
    random.shuffle(details)
    for detail in details:
        measured = pruner.measure(detail)
        fresh = Pruner(survey, lines, Handles("sha256:ab"), pretty=pretty).build(detail)
        assert measured == len(render(fresh.value, pretty=pretty))


LONG_STRINGS = st.text(max_size=300) | st.text(
    alphabet="abcdef0123456789+/", min_size=20, max_size=200
)
STRING_HEAVY = st.recursive(
    st.none() | st.integers() | LONG_STRINGS,
    lambda children: (
        st.lists(children, max_size=8) | st.dictionaries(st.text(max_size=6), children, max_size=6)
    ),
    max_leaves=60,
)


# Objects of 64 members or more are measured from tables of their members.
WIDE_OBJECTS = st.dictionaries(
    st.from_regex(r"k[0-9]{1,3}", fullmatch=True),
    LONG_STRINGS | st.integers(),
    min_size=64,
    max_size=90,
)


@SETTINGS
@given(
    st.lists(STRING_HEAVY | WIDE_OBJECTS, min_size=1, max_size=8)
    | st.dictionaries(st.text(max_size=6), STRING_HEAVY | WIDE_OBJECTS, min_size=1, max_size=8)
    | WIDE_OBJECTS,
    st.booleans(),
    st.booleans(),
    st.randoms(use_true_random=False),
)
def test_string_limits_measured_in_any_order_have_their_rendered_lengths(
    value: object, pretty: bool, with_task: bool, random: Random
) -> None:
    """Levels that differ only in their string limit, measured in a random order by one
    pruner (after one walk, the others are found from the strings it cut), each have the
    length their rendering has; and some of them were found without a walk."""
    terms = TaskTerms.from_task("needle true 0") if with_task else NO_TERMS
    survey, lines = _surveyed(value, terms)
    pruner = Pruner(survey, lines, Handles("sha256:ab"), pretty=pretty)
    families = [Detail(), Detail(last=False, shapes=0), Detail(extra_items=1, one_more_below=2)]
    limits: list[int | None] = [None, 0, 1, 2, 7, 8, 9, 20, 39, 40, 64, 100, 160, 299]
    details = [replace(family, string_limit=limit) for family in families for limit in limits]
    random.shuffle(details)
    for detail in details:
        measured = pruner.measure(detail)
        fresh = Pruner(survey, lines, Handles("sha256:ab"), pretty=pretty).build(detail)
        assert measured == len(render(fresh.value, pretty=pretty)), detail
        assert pruner.build(detail).chars == measured
    if survey.entries > 1:
        assert pruner._derived  # found without a walk


# Objects of 64 members or more, their members containers too: breadth-first levels whose
# point is one of them size it from its members' sizes (`Pruner.object_admitting`).
WIDE_NESTED = st.dictionaries(
    st.from_regex(r"(…|k)[0-9]{1,2}", fullmatch=True),
    st.integers()
    | LONG_STRINGS
    | st.lists(st.integers(), max_size=3)
    | st.just({"a": 1})
    | st.just("a needle"),
    min_size=64,
    max_size=100,
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.dictionaries(st.text(max_size=4), WIDE_NESTED, min_size=1, max_size=3) | WIDE_NESTED,
    st.booleans(),
    st.booleans(),
    st.randoms(use_true_random=False),
)
def test_breadth_first_levels_through_wide_objects_have_their_rendered_lengths(
    value: object, pretty: bool, with_task: bool, random: Random
) -> None:
    """Breadth-first levels whose point falls inside a wide object, measured in a random order
    by one pruner (the object sized from its members' running sizes, or measured when that
    cannot be sure), each have their rendering's length."""
    terms = TaskTerms.from_task("needle") if with_task else NO_TERMS
    survey, lines = _surveyed(value, terms)
    pruner = Pruner(survey, lines, Handles("sha256:ab"), pretty=pretty)
    family = next(family for family in ladder(survey) if family.rank == BREADTH_FIRST_RANK)
    knobs = list(range(family.low, family.high() + 1))
    details = [family.detail(members) for members in random.sample(knobs, min(len(knobs), 30))]
    for detail in details:
        measured = pruner.measure(detail)
        fresh = Pruner(survey, lines, Handles("sha256:ab"), pretty=pretty).build(detail)
        assert measured == len(render(fresh.value, pretty=pretty)), detail


# Documents with no array of two items: objects of objects, like lock files.
NO_LONG_ARRAYS = st.recursive(
    st.none() | st.integers() | LONG_STRINGS,
    lambda children: (
        st.lists(children, max_size=1) | st.dictionaries(st.text(max_size=6), children, max_size=6)
    ),
    max_leaves=60,
)


@SETTINGS
@given(
    st.dictionaries(st.text(max_size=6), NO_LONG_ARRAYS, min_size=1, max_size=8),
    st.randoms(use_true_random=False),
)
def test_pretty_sizes_found_from_the_compact_ones_are_the_rendered_lengths(
    value: object, random: Random
) -> None:
    """In a document with no array of two items, a level that drops no member is sized from
    the document's strings alone (the whole less what cutting them saves), and a pretty one
    from its compact twin's size (the whole document's whitespace more): neither layout is
    walked, and each size is its rendering's length."""
    survey, lines = _surveyed(value, NO_TERMS)
    pretty = Pruner(survey, lines, Handles("sha256:ab"), pretty=True)
    pretty.twin = Pruner(survey, lines, Handles("sha256:ab"), pretty=False)
    details = [
        detail for detail in levels(survey) if detail.members is None and detail.partial is None
    ]
    random.shuffle(details)
    for detail in details:
        for pruner in (pretty, pretty.twin):
            measured = pruner.measure(detail)
            fresh = Pruner(survey, lines, Handles("sha256:ab"), pretty=pruner.pretty).build(detail)
            rendered = render(fresh.value, pretty=pruner.pretty)
            assert measured == len(rendered), detail
            # Written straight from the document (pretty only), it is that rendering.
            assert pruner.written_whole(detail) == (rendered if pruner.pretty else None)
    assert not pretty._measured  # neither layout was walked
    assert not pretty.twin._measured
