"""The ranks of a block's sentences found at once are the ranks each sentence is given alone.

Without a task term, `line_plan._sentence_ranks` places each requirement keyword in the sentence
that ends first after it and looks for links to headings only in sentences that open with `[`;
`line_plan._rank` asks each sentence in turn. They must agree on any text, whether the text is
a block's own or its lines' parts joined after an empty first line (a leading space, the
keywords shifted by it).
"""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from cleveragents.application.services.artifact_compression.kinds.markdown import line_plan as plan
from cleveragents.application.services.artifact_compression.kinds.markdown.sentences import (
    sentence_spans,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms

NO_TERMS = TaskTerms()

BITS = st.sampled_from(
    [
        "Word",
        "word",
        "MUST",
        "must",
        "Mustard",
        "SHOULD",
        "shall",
        "required",
        "MAY",
        "may",
        "OPTIONAL",
        "e.g",
        "5",
        "x",
        " ",
        "  ",
        ".",
        ". ",
        "! ",
        "? ",
        "`",
        "``",
        "[",
        "]",
        "(#",
        ")",
        "[Go](#go)",
        "[MUST](#must)",
        "[^1]",
        "**",
        "é",
        "\t",
    ]
)
TEXT = st.lists(BITS, max_size=40).map("".join).map(str.strip)


def _each_alone(text: str, spans: list[tuple[int, int]], keywords: list[int]) -> list[int]:
    return [
        plan._rank(text, start, end, number == 0, keywords, NO_TERMS)
        for number, (start, end) in enumerate(spans)
    ]


@settings(max_examples=1500)
@given(TEXT)
@example("[Go](#go). It MUST hold. [MUST](#must). Done.")
@example("[MUST be](#x) here.")
@example("A. B MUST. C")
@example("")
def test_the_ranks_found_at_once_are_each_sentences_own(text: str) -> None:
    spans = sentence_spans(text, refined=True)
    keywords = plan._keywords(text)
    assert plan._sentence_ranks(text, spans, keywords, NO_TERMS) == _each_alone(
        text, spans, keywords
    )


@settings(max_examples=500)
@given(TEXT)
@example("[Go](#go) MUST. Next.")
def test_after_an_empty_first_line_too(text: str) -> None:
    joined = " " + text
    spans = plan._block_spans(joined)
    keywords = [keyword + 1 for keyword in plan._keywords(text)]
    assert plan._sentence_ranks(joined, spans, keywords, NO_TERMS) == _each_alone(
        joined, spans, keywords
    )


def test_a_keyword_raises_its_sentence_and_no_other() -> None:
    text = "First one here. Then it MUST hold. Last one."
    spans = sentence_spans(text, refined=True)
    ranks = plan._sentence_ranks(text, spans, plan._keywords(text), NO_TERMS)
    assert ranks == [plan.FIRST_SENTENCE, plan.REQUIREMENT, plan.PROSE]
