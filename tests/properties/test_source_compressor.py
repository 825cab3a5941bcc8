"""The source compressor's pattern-based roles on generated text: any text, in any language
without a tree, gets one rank a line, each a known rank."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.source_samples import NAME, QUIET, ranks


@settings(max_examples=150, deadline=None)
@given(
    source=st.text(alphabet="defclass(){}:;#/*-\"' \t\nend@[]xy", max_size=300),
    language=st.sampled_from(["python", "ruby", "shell", "sql", "lua", "go", "kotlin", "cobol"]),
)
def test_the_patterns_rank_any_text_one_rank_a_line(source: str, language: str) -> None:
    found = ranks(source, language)
    assert len(found) == len(source.split("\n"))
    assert all(NAME <= rank <= QUIET for rank in found)
