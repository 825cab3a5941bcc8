"""The compaction summary as message text: its rendering, and parsing it back exactly."""

from __future__ import annotations

from cleveragents.domain.compaction_summary import (
    SECTION_TITLES,
    CompactionSummary,
    SummarySection,
    parse_summary,
    render_summary,
)
from cleveragents.domain.transcript import SUMMARY_MARKER, Message, Role, TextBlock

EXAMPLE = CompactionSummary(
    latest_request="Fix the login bug.\n\nKeep the API stable.",
    sections={
        SummarySection.FILES_MODIFIED: ("src/auth.py",),
        SummarySection.GOALS: ("Fix the login bug.", "Add a test"),
        SummarySection.ERRORS: ("Bash `pytest`: assert False\ntraceback follows",),
    },
)


def test_the_rendering_is_exact() -> None:
    assert render_summary(EXAMPLE) == "\n".join(
        [
            SUMMARY_MARKER,
            "This summary replaces the earlier messages of this conversation.",
            "",
            "Latest request (verbatim):",
            "> Fix the login bug.",
            "> ",
            "> Keep the API stable.",
            "",
            "## Goals",
            "- Fix the login bug.",
            "- Add a test",
            "",
            "## Files modified",
            "- src/auth.py",
            "",
            "## Errors and resolutions",
            "- Bash `pytest`: assert False",
            "  traceback follows",
        ]
    )


def test_sections_are_rendered_in_section_order_and_empty_ones_left_out() -> None:
    summary = CompactionSummary(
        sections={section: (section.value,) for section in reversed(SummarySection)}
        | {SummarySection.DECISIONS: ()}
    )
    headings = [line[3:] for line in render_summary(summary).split("\n") if line.startswith("## ")]
    assert headings == [
        SECTION_TITLES[section]
        for section in SummarySection
        if section is not SummarySection.DECISIONS
    ]


def test_a_summary_without_a_request_says_so_and_parses_back() -> None:
    summary = CompactionSummary(sections={SummarySection.GOALS: ("g",)})
    text = render_summary(summary)
    assert "Latest request: none recorded." in text
    assert parse_summary(text) == summary


def test_the_rendered_text_is_a_summary_message() -> None:
    message = Message(role=Role.USER, content=(TextBlock(text=render_summary(EXAMPLE)),))
    assert message.is_summary
    assert parse_summary(message.text) == EXAMPLE


def test_text_without_the_marker_is_not_a_summary() -> None:
    assert parse_summary("## Goals\n- fix it") is None
    assert parse_summary("") is None
    assert parse_summary(" " + render_summary(EXAMPLE)) is None


def test_unknown_headings_and_stray_lines_are_skipped() -> None:
    text = "\n".join(
        [SUMMARY_MARKER, "prose", "## Mood", "- cheerful", "## Goals", "- ship it", "stray"]
    )
    assert parse_summary(text) == CompactionSummary(sections={SummarySection.GOALS: ("ship it",)})


def test_empty_sections_are_the_same_as_absent_ones_and_keys_follow_section_order() -> None:
    assert CompactionSummary(sections={SummarySection.GOALS: ()}) == CompactionSummary()
    summary = CompactionSummary(
        sections={SummarySection.NEXT_STEPS: ("b",), SummarySection.GOALS: ("a",)}
    )
    assert list(summary.sections) == [SummarySection.GOALS, SummarySection.NEXT_STEPS]
