"""Stream redaction on generated cuts: what is redacted does not depend on how the stream is cut."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.redaction_samples import FIRST, REDACTED, SECOND, TEXT, WHOLE_LINE, redact_cut_at


@settings(max_examples=200)
@given(cuts=st.lists(st.integers(min_value=0, max_value=200), max_size=8))
def test_redaction_does_not_depend_on_how_the_stream_is_cut(cuts: list[int]) -> None:
    assert redact_cut_at(TEXT, [FIRST, SECOND, WHOLE_LINE], cuts) == REDACTED
