"""The JSON compressor on generated input: arbitrary text gives JSON or a malformed-input error,
any JSON value gives valid JSON with all its keys, and special floats survive."""

from __future__ import annotations

import json
import math

from hypothesis import given
from hypothesis import strategies as st

from cleveragents.application.services.artifact_compression.kinds.json.compressor import (
    JsonCompressor,
)
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import (
    MalformedCompressionError,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from tests.json_samples import key_paths, without_markers

NO_TERMS = TaskTerms()
COMPRESSOR = JsonCompressor()
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
