"""Log message templates on generated lines: templates found in batches are those found in one
pass, and digits never survive the masking."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from cleveragents.application.services.artifact_compression.kinds.logs.templates import (
    TemplateIndex,
    masked_lines,
    template_ids,
    template_of,
)

_LINE = st.lists(
    st.sampled_from([*"aZ09 _-.:/\\=\"'[]()<>x,\t", "Dec", "Mon", "msg=", "ERROR", "\u00b5"]),
    max_size=24,
).map("".join)


@settings(max_examples=200, deadline=None)
@given(st.lists(_LINE, max_size=30), st.integers(min_value=1, max_value=7))
def test_batches_agree_with_one_pass(lines: list[str], batch: int) -> None:
    index = TemplateIndex()
    batched: list[int] = []
    for start in range(0, len(lines), batch):
        batched += index.ids(lines[start : start + batch])
    assert batched == template_ids(lines)
    assert masked_lines(lines) == [template_of(line) for line in lines]
    assert all(not re.search(r"[0-9]", form) for form in masked_lines(lines))
    seen: list[int] = []
    for ident in batched:  # ids appear in order: 0, then at most one more than seen so far
        assert ident <= len(seen)
        if ident == len(seen):
            seen.append(ident)
    assert template_ids(lines) == template_ids(lines)
