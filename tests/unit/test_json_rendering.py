"""The JSON renderer behind smart mode, by example: the positions parser refuses what `json.loads`
refuses and reads literals and duplicate keys as it does, a layout of its own is not taken for the
usual one, and markers have their documented form. (The properties: tests/properties.)"""

from __future__ import annotations

import json

import pytest

from cleveragents.application.services.artifact_compression.kinds.json.line_maps import (
    OneLine,
    structural_line_map,
)
from cleveragents.application.services.artifact_compression.kinds.json.positions import (
    parse_with_positions,
)
from cleveragents.application.services.artifact_compression.kinds.json.survey import Survey
from cleveragents.application.services.artifact_compression.kinds.json.writing import (
    cut_string,
    items_marker,
    keys_marker,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms

NO_TERMS = TaskTerms()


@pytest.mark.parametrize(
    "text", ["", "{", "[1,]", "[1 2]", '{"a" 1}', '{"a":1,}', "[1] x", "nul", '"\x01"', "01"]
)
def test_the_positions_parser_refuses_what_json_loads_refuses(text: str) -> None:
    with pytest.raises(json.JSONDecodeError):
        json.loads(text)
    with pytest.raises((ValueError, IndexError)):
        parse_with_positions(text)


def test_the_positions_parser_reads_literals_and_duplicates_as_json_loads_does() -> None:
    text = '{"a": NaN, "b": -Infinity, "c": [true, false, null, 1.5e3, -0], "a": 2}'
    parsed, spans = parse_with_positions(text)
    assert parsed == {"a": 2, "b": float("-inf"), "c": [True, False, None, 1500.0, 0]}
    assert isinstance(parsed, dict)
    assert list(parsed) == ["a", "b", "c"]
    starts, _ = spans[id(parsed)]
    assert text[starts[0] :].startswith('"a": 2')  # the last value, in the first one's place


def test_a_layout_of_its_own_is_not_taken_for_the_usual_one() -> None:
    text = '{\n  "a": [1, 2, 3],\n  "b": {"c": 1}\n}'
    survey = Survey(json.loads(text), NO_TERMS)
    assert structural_line_map(text, survey) is None
    assert isinstance(structural_line_map('  {"a": 1}\n', survey), OneLine)


def test_markers_and_cut_strings() -> None:
    assert items_marker(1, "line 4") == "… 1 item omitted (line 4)"
    assert items_marker(35, "lines 120-340") == "… 35 items omitted (lines 120-340)"
    assert items_marker(35, "") == "… 35 items omitted"
    assert (
        keys_marker(12, "lines 40-90 of sha256:ab") == "12 keys omitted (lines 40-90 of sha256:ab)"
    )
    assert keys_marker(1, "") == "1 key omitted"
    assert cut_string("x" * 1000, 10) == "x" * 10 + "… (990 chars omitted)"
    assert cut_string("x" * 40, 10) == "x" * 40  # 30 characters saved for a marker of 20
    # Limit 0, the last level before keys are lost: a bare ellipsis, a word kept whole.
    assert cut_string("x" * 40, 0) == "…"
    assert cut_string("short", 0) == "short"
    assert cut_string("x" * 60, 10) == "x" * 10 + "… (50 chars omitted)"
    assert cut_string("\x01" * 70, 30) == "\x01" * 30 + "… (40 chars omitted)"
    assert cut_string("\x01" * 70 + "x" * 5, 70) == "\x01" * 70 + "x" * 5
