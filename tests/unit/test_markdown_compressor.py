"""Unit tests of the markdown compressor, `MarkdownCompressor`, for plans and PRDs: its Tier 2,
and smart mode's ranks for its original lines (headings, requirements, first sentences).

Real data: `tests/data/rfc-2394-async_await-excerpt.md`, the first 130 lines of RFC 2394
(async/await, rust-lang/rfcs, MIT/Apache-2.0). The Rust RFCs of `../shared/corpus/markdown/`:
tests/integration/test_markdown_compressor_corpus.py; generated text: tests/properties."""

from __future__ import annotations

import pytest

from cleveragents.application.services.artifact_compression.kinds.markdown.compressor import (
    MarkdownCompressor,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from cleveragents.domain.artifact import ArtifactKind
from tests.markdown_samples import (
    BLANK,
    CODE,
    EXCERPT,
    FIRST,
    HEADING,
    PROSE,
    REQUIREMENT,
    STRUCTURE,
)

NO_TERMS = TaskTerms()
COMPRESSOR = MarkdownCompressor()


# --- real data --------------------------------------------------------------------------------


def test_a_task_term_keeps_a_sentence_that_is_dropped_otherwise() -> None:
    text = EXCERPT.read_text(encoding="utf-8")
    sentence = "it does not enter body immediately"  # "...enter the body immediately."
    assert sentence not in COMPRESSOR.tier2(text, NO_TERMS)
    assert sentence in COMPRESSOR.tier2(text, TaskTerms.from_task("what runs immediately?"))


def test_real_prose_is_condensed_to_first_sentences_without_filler() -> None:
    out = COMPRESSOR.tier2(EXCERPT.read_text(encoding="utf-8"), NO_TERMS)
    # "The development of asynchronous IO in Rust has gone through multiple phases."
    assert "\nDevelopment of asynchronous IO in Rust has gone through multiple phases.\n" in out
    # A later sentence with a number stays: "Prior to 1.0, we experimented with having a ..."
    assert "\nPrior to 1.0, we experimented with having green-threading runtime" in out
    # A later sentence with nothing to check is dropped.
    assert "The tokio library provided" not in out


# --- the rules on small documents -------------------------------------------------------------


def test_later_sentences_are_kept_for_code_numbers_requirements_and_terms() -> None:
    text = (
        "The parser reads the input. It is quite slow. It uses `mmap`. It takes 3 passes. "
        "The output MUST be sorted. Users really like it. It handles the cache too.\n"
    )
    assert COMPRESSOR.tier2(text, TaskTerms.from_task("cache")) == (
        "Parser reads input.\nIt uses `mmap`.\nIt takes 3 passes.\nOutput MUST be sorted.\n"
        "It handles cache too.\n"
    )


def test_filler_is_removed_outside_code_and_links() -> None:
    text = (
        "In order to build the tree, it is really very simple: call `the a an` "
        "on [the docs](https://example.com/the-a) rather than the guide.\n"
    )
    assert COMPRESSOR.tier2(text, NO_TERMS) == (
        "To build tree, it is simple: call `the a an` on [docs](https://example.com/the-a) "
        "rather than guide.\n"
    )


def test_a_phrase_spelt_with_letters_that_only_match_it_loosely_is_kept() -> None:
    # Case-insensitive matching ties the Turkish dotted and dotless i to `i`.
    text = "Run it \u0130n order to see. Then \u0131n order to build.\n"
    assert COMPRESSOR.tier2(text, NO_TERMS) == "Run it \u0130n order to see.\n"


def test_examples_are_dropped_unless_they_name_a_term() -> None:
    text = "# Title\n\nIntro.\n\nFor example, a cache.\n\n- E.g. the tree.\n\nEnd.\n"
    assert COMPRESSOR.tier2(text, NO_TERMS) == "# Title\n\nIntro.\n\nEnd.\n"
    kept = COMPRESSOR.tier2(text, TaskTerms.from_task("cache"))
    assert kept == "# Title\n\nIntro.\n\nFor example, cache.\n\nEnd.\n"


def test_list_items_keep_their_markers_and_indent_later_sentences() -> None:
    text = "- The first item. It has 2 parts.\n  1. A nested item.\n* Plain. Dropped here.\n"
    assert COMPRESSOR.tier2(text, NO_TERMS) == (
        "- First item.\n  It has 2 parts.\n  1. Nested item.\n* Plain.\n"
    )


def test_setext_headings_front_matter_html_and_link_definitions_are_verbatim() -> None:
    text = (
        "---\ntitle: The plan\n---\n\nThe Title\n=========\n\n<!-- the note -->\n"
        "[the ref]: https://example.com\n\nA paragraph. Another one.\n"
    )
    assert COMPRESSOR.tier2(text, NO_TERMS) == (
        "---\ntitle: The plan\n---\n\nThe Title\n=========\n\n<!-- the note -->\n"
        "[the ref]: https://example.com\n\nParagraph.\n"
    )


def test_an_unclosed_fence_keeps_the_rest_as_code() -> None:
    text = "Intro. More.\n\n~~~\nThe code. More code.\n\n\n# not a heading\n"
    assert COMPRESSOR.tier2(text, NO_TERMS) == "Intro.\n\n" + text.split("\n\n", 1)[1]


def test_blank_lines_collapse_and_the_final_newline_follows_the_input() -> None:
    assert COMPRESSOR.tier2("\n\n# A\n\n\n\nB.\n\n\n", NO_TERMS) == "# A\n\nB.\n"
    assert COMPRESSOR.tier2("# A\n\n\nB.", NO_TERMS) == "# A\n\nB."


def test_pipe_less_tables_and_indented_code_are_verbatim() -> None:
    text = "a | the b\n--|--\n1 | 2\n\nText. Dropped.\n\n    the code. Kept.\n"
    assert COMPRESSOR.tier2(text, NO_TERMS) == (
        "a | the b\n--|--\n1 | 2\n\nText.\n\n    the code. Kept.\n"
    )


# --- smart mode: the ranks of the original lines ----------------------------------------------


def plan_of(text: str, task: str | None = None) -> tuple[list[int], dict[int, tuple[str, int]]]:
    plan = COMPRESSOR.line_plan(text.split("\n"), TaskTerms.from_task(task))
    shorts = {index: (short.text, short.priority) for index, short in plan.short_forms.items()}
    return list(plan.priorities), shorts


LONG = "This sentence has nothing to check and is here to make the line long enough to be cut."


def test_headings_come_first() -> None:
    ranks, shorts = plan_of("# Title\n\nSetext title\n============\n\n## Part\n")
    assert ranks == [HEADING] * 7  # the blank lines between them too
    assert shorts == {}


def test_blank_lines_rank_with_the_less_important_of_the_lines_around_them() -> None:
    assert plan_of("# A\n\nText.\n\n\n# B")[0] == [HEADING, FIRST, FIRST, FIRST, FIRST, HEADING]
    assert plan_of("\n\n# A\n")[0] == [HEADING] * 4  # at either end: the one line beside
    assert plan_of("\n \n")[0] == [BLANK] * 3


def test_a_requirement_in_a_long_line_is_kept_alone_before_its_paragraph() -> None:
    requirement = "The cache MUST be flushed on exit."
    ranks, shorts = plan_of(f"{LONG} {requirement} {LONG}")
    assert ranks == [PROSE]
    assert shorts == {0: (f"… {requirement}", REQUIREMENT)}


def test_several_requirements_of_one_line_are_joined_with_a_cut_between() -> None:
    first = "Writers must not block readers."
    later = "Readers should retry."
    ranks, shorts = plan_of(f"{first} {LONG} {later} {LONG}")
    assert ranks == [PROSE]
    assert shorts == {0: (f"{first} … {later}", REQUIREMENT)}


def test_neighbouring_requirements_stay_one_verbatim_stretch() -> None:
    ranks, shorts = plan_of(f"- {LONG} It SHALL hold. It MAY wait. {LONG}")
    assert ranks == [PROSE]
    assert shorts == {0: ("- … It SHALL hold. It MAY wait.", REQUIREMENT)}


def test_the_first_sentence_of_a_long_line_is_its_short_form() -> None:
    first = "The store keeps one blob per key."
    ranks, shorts = plan_of(f"{first} {LONG} {LONG}\n\n- {first} {LONG}\n")
    assert ranks == [PROSE, PROSE, PROSE, PROSE]
    assert shorts == {0: (first, FIRST), 2: (f"- {first}", FIRST)}


def test_a_line_of_only_requirements_and_its_first_sentence_comes_whole_after_them() -> None:
    # All of it is wanted once first sentences are: the whole line at their rank.
    text = f"{LONG} {LONG.replace('is here', 'must be here')}"
    assert plan_of(text) == ([FIRST], {0: ("… " + LONG.replace("is here", "must be here"), 1)})


def test_a_short_line_is_never_cut() -> None:
    assert plan_of("First one. Then it MUST hold. Other words.") == ([REQUIREMENT], {})
    assert plan_of("First one. Other words follow it here.") == ([FIRST], {})
    assert plan_of("A requirement must hold.") == ([REQUIREMENT], {})


def test_hard_wrapped_paragraphs_rank_the_lines_their_sentences_span() -> None:
    text = (
        "The first sentence of this paragraph\n"
        "goes on over two lines. A second sentence\n"
        "with nothing to check. A third one, which\n"
        "says the writer must flush the log. A fourth\n"
        "sentence closes it.\n"
    )
    ranks, shorts = plan_of(text)
    # The requirement sentence starts on the third line: that line carries it too.
    assert ranks == [FIRST, FIRST, REQUIREMENT, REQUIREMENT, PROSE, PROSE]
    assert shorts == {}


def test_a_sentence_over_many_lines_is_ranked_line_by_line() -> None:
    lines = ["a run of words"] * 6 + ["that must hold"] + ["without any stop"] * 6
    ranks, _ = plan_of("\n".join(lines))
    assert ranks == [FIRST] + [PROSE] * 5 + [REQUIREMENT] + [PROSE] * 6


def test_a_long_requirement_sentence_is_kept_whole() -> None:
    # Ten wrapped lines, one sentence (the period after a one-letter word reads as an
    # initial): every line is the requirement's, not only the one with the keyword.
    lines = ["the cache must be flushed"] + ["before the point Q. If it is not"] * 9
    ranks, _ = plan_of("\n".join(lines) + ".")
    assert ranks == [REQUIREMENT] * 10


def test_a_first_sentence_of_a_few_wrapped_lines_ranks_them_all() -> None:
    lines = ["In the long run we believe we will want dedicated syntax"] * 6 + ["for it."]
    ranks, _ = plan_of("\n".join(lines) + "\nAnother sentence follows here.")
    assert ranks == [FIRST] * 7 + [PROSE]


def test_a_sentence_in_bold_ends_at_its_closing_emphasis() -> None:
    lines = ["**Support nested calls.** Here the plan is the same as before and it", "goes on."]
    ranks, _ = plan_of("\n".join(lines))
    assert ranks == [FIRST, PROSE]


@pytest.mark.parametrize(
    ("sentence", "requirement"),
    [
        ("It MUST hold.", True),
        ("It must not hold.", True),
        ("Must it hold?", True),
        ("It SHOULD NOT hold.", True),
        ("It should hold.", True),
        ("It SHALL hold.", True),
        ("It shall hold.", True),
        ("It is REQUIRED.", True),
        ("It is RECOMMENDED.", True),
        ("It MAY hold.", True),
        ("It is OPTIONAL.", True),
        ("It may hold.", False),
        ("It is required.", True),
        ("It is recommended.", True),
        ("It is optional.", False),
        ("The mustard holds.", False),
    ],
)
def test_requirement_words(sentence: str, requirement: bool) -> None:
    ranks, _ = plan_of(f"First one here. {sentence}")
    assert ranks == [REQUIREMENT if requirement else FIRST]


def test_tables_code_front_matter_and_other_blocks() -> None:
    text = "\n".join(
        [
            "---",
            "title: The plan",
            "---",
            "| key | meaning |",
            "|-----|---------|",
            "| a   | plain   |",
            "| b   | MUST be set |",
            "",
            "```python",
            "x = compute()",
            "```",
            "",
            "    indented code",
            "",
            "[ref]: https://example.com",
            "<!-- a note -->",
            "***",
        ]
    )
    ranks, shorts = plan_of(text)
    assert ranks == [
        *[STRUCTURE] * 3,
        STRUCTURE,
        STRUCTURE,
        PROSE,
        REQUIREMENT,
        STRUCTURE,  # a blank line: the less important of a table row and a fence
        STRUCTURE,
        CODE,
        STRUCTURE,
        CODE,
        CODE,
        CODE,
        PROSE,
        PROSE,
        PROSE,
    ]
    assert shorts == {}


def test_an_unclosed_fence_has_no_closing_line() -> None:
    assert plan_of("```\ncode\nmore")[0] == [STRUCTURE, CODE, CODE]


def test_task_lines_are_raised_to_the_rank_of_first_sentences() -> None:
    text = "# Cache\n\nFirst one. The cache is here.\n\n```\ncache.flush()\nother()\n```\n"
    ranks, _ = plan_of(text, "cache")
    assert ranks == [HEADING, FIRST, FIRST, STRUCTURE, STRUCTURE, FIRST, CODE, STRUCTURE, STRUCTURE]
    task_sentence = "The cache is here."
    ranks, shorts = plan_of(f"{LONG} {task_sentence} {LONG}", "cache")
    assert shorts == {0: (f"{LONG} {task_sentence}", FIRST)}


def test_a_table_of_contents_repeats_the_headings_and_waits() -> None:
    text = "- [Motivation](#motivation)\n  - [What it must do](#what-it-must-do)\n"
    assert plan_of(text)[0] == [PROSE, PROSE, PROSE]
    assert plan_of(text, "motivation")[0] == [FIRST, PROSE, PROSE]


def test_sentences_end_after_a_footnote_and_a_one_digit_number() -> None:
    first = "There must be between 4 and 9 teams, preferably between 5 and 8."
    ranks, shorts = plan_of(f"{first} {LONG}")
    assert shorts == {0: (first, REQUIREMENT)}
    noted = "It is done.[^note]"
    ranks, shorts = plan_of(f"{noted} {LONG} {LONG}")
    assert shorts == {0: (noted, FIRST)}
    assert ranks == [PROSE]


def test_quoted_and_indented_continuation_lines_keep_their_markers() -> None:
    text = f"> {LONG} It must hold.\n> {LONG}\n\n- item\n  {LONG} It must hold.\n"
    ranks, shorts = plan_of(text)
    assert shorts == {
        0: ("> … It must hold.", REQUIREMENT),
        4: ("  … It must hold.", REQUIREMENT),
    }
    # Both long lines hold only a first sentence (in the item, "item This ... cut." is one) and
    # a requirement: whole, they come with the first sentences.
    assert ranks == [FIRST, PROSE, PROSE, FIRST, FIRST, FIRST]


def test_marker_and_kind() -> None:
    assert COMPRESSOR.marker("lines 120-340") == "[… lines 120-340]"
    assert COMPRESSOR.kind is ArtifactKind.MARKDOWN
