"""The plain-text compressor on generated text: Tier 2 is idempotent and keeps the final newline."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cleveragents.application.services.artifact_compression.kinds.plain_text import (
    PlainTextCompressor,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms

NO_TERMS = TaskTerms()
COMPRESSOR = PlainTextCompressor()


@given(st.text())
def test_tier2_is_idempotent_and_keeps_the_final_newline(text: str) -> None:
    out = COMPRESSOR.tier2(text, NO_TERMS)
    assert COMPRESSOR.tier2(out, NO_TERMS) == out
    assert out.endswith("\n") == text.endswith("\n")
    lines = out.split("\n")
    assert len(COMPRESSOR.line_plan(lines, NO_TERMS).priorities) == len(lines)
