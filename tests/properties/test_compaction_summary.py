"""The compaction summary as message text, on generated summaries: parsing the rendering gives the
summary back."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cleveragents.domain.compaction_summary import (
    CompactionSummary,
    SummarySection,
    parse_summary,
    render_summary,
)
from cleveragents.domain.transcript import SUMMARY_MARKER

# Pieces that look like the rendering's own syntax, to mix into arbitrary text.
_TRICKY = st.lists(
    st.sampled_from(
        [
            *("## ", "- ", "> ", ">", "\n", "  ", " ", "\r", "x", "…"),
            *("Goals", "## Goals", SUMMARY_MARKER),
            *("Latest request (verbatim):", "Latest request: none recorded."),
        ]
    ),
    max_size=12,
).map("".join)
_TEXT = st.one_of(st.text(), _TRICKY)
_SUMMARIES = st.builds(
    CompactionSummary,
    latest_request=st.one_of(st.none(), _TEXT),
    sections=st.dictionaries(
        st.sampled_from(list(SummarySection)), st.lists(_TEXT, max_size=4).map(tuple)
    ),
)


@given(_SUMMARIES)
def test_parsing_the_rendering_gives_the_summary_back(summary: CompactionSummary) -> None:
    text = render_summary(summary)
    assert text.split("\n", 1)[0] == SUMMARY_MARKER
    assert parse_summary(text) == summary
