"""Unit tests of the Plan/PRD markdown strategy (SPEC C4; seed Tier 2 "Plan/PRD markdown" row).

Real data: Rust RFCs (rust-lang/rfcs, MIT/Apache-2.0) in `../shared/corpus/markdown/`, and
`tests/data/rfc-2394-async_await-excerpt.md`, the first 130 lines of RFC 2394 (async/await).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cleveragents.application.services.artifact_compression.markdown import MarkdownStrategy
from cleveragents.application.services.artifact_compression.strategy import Priority
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from cleveragents.domain.artifact import ArtifactKind

# The same places as tests/conftest.py names; not imported from there, so that these unit tests
# do not load the application container.
REPO_ROOT = Path(__file__).resolve().parents[2]
CORPUS = REPO_ROOT.parent / "shared" / "corpus"
EXCERPT = REPO_ROOT / "tests" / "data" / "rfc-2394-async_await-excerpt.md"
MARKDOWN_FILES = [*sorted((CORPUS / "markdown").glob("*.md")), EXCERPT]

NO_TERMS = TaskTerms()
STRATEGY = MarkdownStrategy()
FENCE = re.compile(r"\s*(`{3,}|~{3,})")


def structure(text: str) -> tuple[list[str], list[str], list[tuple[str, ...]]]:
    """Headings (ATX), table lines and fenced code blocks, found independently of the parser
    under test with the simplest rules that hold for the RFCs."""
    headings: list[str] = []
    tables: list[str] = []
    blocks: list[tuple[str, ...]] = []
    current: list[str] | None = None
    fence = ""
    for line in text.split("\n"):
        if current is not None:
            current.append(line)
            if line.strip().startswith(fence) and not line.strip().strip(fence[0]):
                blocks.append(tuple(current))
                current = None
        elif match := FENCE.match(line):
            current, fence = [line], match.group(1)
        elif line.startswith("#"):
            headings.append(line)
        elif line.startswith("|"):
            tables.append(line)
    if current is not None:
        blocks.append(tuple(current))
    return headings, tables, blocks


# --- real data --------------------------------------------------------------------------------


@pytest.mark.parametrize("path", MARKDOWN_FILES, ids=lambda path: path.name)
def test_tier2_keeps_headings_tables_and_code_verbatim(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    out = STRATEGY.tier2(text, NO_TERMS)
    headings, tables, blocks = structure(text)
    assert headings, "the RFCs have headings"
    assert structure(out) == (headings, tables, blocks)  # all of them, verbatim, in order
    assert len(out) < len(text)
    assert out == STRATEGY.tier2(text, NO_TERMS)


@pytest.mark.parametrize("path", MARKDOWN_FILES, ids=lambda path: path.name)
def test_shrink_levels_keep_headings_and_never_grow(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    tier2 = STRATEGY.tier2(text, NO_TERMS)
    level1 = STRATEGY.shrink(text, NO_TERMS, 1)
    level2 = STRATEGY.shrink(text, NO_TERMS, 2)
    assert level1 is not None
    assert level2 is not None
    assert len(tier2) >= len(level1) >= len(level2)
    assert structure(level1)[0] == structure(level2)[0] == structure(text)[0]
    assert STRATEGY.shrink(text, NO_TERMS, 3) is None


def test_a_task_term_keeps_a_sentence_that_is_dropped_otherwise() -> None:
    text = EXCERPT.read_text(encoding="utf-8")
    sentence = "it does not enter body immediately"  # "...enter the body immediately."
    assert sentence not in STRATEGY.tier2(text, NO_TERMS)
    assert sentence in STRATEGY.tier2(text, TaskTerms.from_task("what runs immediately?"))


def test_real_prose_is_condensed_to_first_sentences_without_filler() -> None:
    out = STRATEGY.tier2(EXCERPT.read_text(encoding="utf-8"), NO_TERMS)
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
    assert STRATEGY.tier2(text, TaskTerms.from_task("cache")) == (
        "Parser reads input.\nIt uses `mmap`.\nIt takes 3 passes.\nOutput MUST be sorted.\n"
        "It handles cache too.\n"
    )


def test_filler_is_removed_outside_code_and_links() -> None:
    text = (
        "In order to build the tree, it is really very simple: call `the a an` "
        "on [the docs](https://example.com/the-a) rather than the guide.\n"
    )
    assert STRATEGY.tier2(text, NO_TERMS) == (
        "To build tree, it is simple: call `the a an` on [docs](https://example.com/the-a) "
        "rather than guide.\n"
    )


def test_examples_are_dropped_unless_they_name_a_term() -> None:
    text = "# Title\n\nIntro.\n\nFor example, a cache.\n\n- E.g. the tree.\n\nEnd.\n"
    assert STRATEGY.tier2(text, NO_TERMS) == "# Title\n\nIntro.\n\nEnd.\n"
    kept = STRATEGY.tier2(text, TaskTerms.from_task("cache"))
    assert kept == "# Title\n\nIntro.\n\nFor example, cache.\n\nEnd.\n"


def test_list_items_keep_their_markers_and_indent_later_sentences() -> None:
    text = "- The first item. It has 2 parts.\n  1. A nested item.\n* Plain. Dropped here.\n"
    assert STRATEGY.tier2(text, NO_TERMS) == (
        "- First item.\n  It has 2 parts.\n  1. Nested item.\n* Plain.\n"
    )


def test_setext_headings_front_matter_html_and_link_definitions_are_verbatim() -> None:
    text = (
        "---\ntitle: The plan\n---\n\nThe Title\n=========\n\n<!-- the note -->\n"
        "[the ref]: https://example.com\n\nA paragraph. Another one.\n"
    )
    assert STRATEGY.tier2(text, NO_TERMS) == (
        "---\ntitle: The plan\n---\n\nThe Title\n=========\n\n<!-- the note -->\n"
        "[the ref]: https://example.com\n\nParagraph.\n"
    )


def test_an_unclosed_fence_keeps_the_rest_as_code() -> None:
    text = "Intro. More.\n\n~~~\nThe code. More code.\n\n\n# not a heading\n"
    assert STRATEGY.tier2(text, NO_TERMS) == "Intro.\n\n" + text.split("\n\n", 1)[1]


def test_blank_lines_collapse_and_the_final_newline_follows_the_input() -> None:
    assert STRATEGY.tier2("\n\n# A\n\n\n\nB.\n\n\n", NO_TERMS) == "# A\n\nB.\n"
    assert STRATEGY.tier2("# A\n\n\nB.", NO_TERMS) == "# A\n\nB."


def test_pipe_less_tables_and_indented_code_are_verbatim() -> None:
    text = "a | the b\n--|--\n1 | 2\n\nText. Dropped.\n\n    the code. Kept.\n"
    assert STRATEGY.tier2(text, NO_TERMS) == (
        "a | the b\n--|--\n1 | 2\n\nText.\n\n    the code. Kept.\n"
    )


def test_shrink_level_one_cuts_long_code_and_later_sentences() -> None:
    code = [f"line {index}" for index in range(20)]
    text = "\n".join(["Intro. It has `code`. It MUST stay.", "", "```", *code, "```", ""])
    assert STRATEGY.shrink(text, NO_TERMS, 1) == "\n".join(
        ["Intro.", "It MUST stay.", "", "```", *code[:10], "... (10 code lines omitted)", "```", ""]
    )


def test_shrink_level_two_cuts_the_first_sentence_to_twenty_words() -> None:
    words = " ".join(f"w{index}" for index in range(30))
    text = f"{words}. It MUST go. The cache stays.\n"
    out = STRATEGY.shrink(text, TaskTerms.from_task("cache"), 2)
    assert out == " ".join(f"w{index}" for index in range(20)) + "…\nCache stays.\n"
    with pytest.raises(ValueError, match="starts at 1"):
        STRATEGY.shrink(text, NO_TERMS, 0)


def test_priorities_and_gap_marker() -> None:
    lines = [
        "# Title",
        "",
        "First line of a paragraph.",
        "It MUST hold.",
        "The cache is here.",
        "Other text.",
        "| a | b |",
        "```",
        "code",
        "```",
    ]
    assert STRATEGY.priorities(lines, TaskTerms.from_task("cache")) == [
        Priority.ESSENTIAL,
        Priority.CONTEXT,
        Priority.USEFUL,
        Priority.CRITICAL,
        Priority.IMPORTANT,
        Priority.CONTEXT,
        Priority.USEFUL,
        Priority.USEFUL,
        Priority.CONTEXT,
        Priority.USEFUL,
    ]
    assert STRATEGY.gap_marker(3) == "[... 3 lines omitted ...]"
    assert STRATEGY.kind is ArtifactKind.MARKDOWN


# --- properties -------------------------------------------------------------------------------

MARKDOWNISH = st.text(alphabet="#`~|->*1.= \t\nAaTe:<![]()", max_size=300)


@given(st.one_of(st.text(), MARKDOWNISH))
def test_any_text_compresses_and_keeps_the_final_newline(text: str) -> None:
    terms = TaskTerms.from_task("tea")
    tier2 = STRATEGY.tier2(text, terms)
    for out in (tier2, STRATEGY.shrink(text, terms, 1), STRATEGY.shrink(text, terms, 2)):
        assert out is not None
        assert out.endswith("\n") == text.endswith("\n")
    lines = tier2.split("\n")
    assert len(STRATEGY.priorities(lines, terms)) == len(lines)


@pytest.mark.parametrize("path", MARKDOWN_FILES, ids=lambda path: path.name)
def test_a_renderings_priorities_are_those_of_parsing_it_again(path: Path) -> None:
    # Smart mode ranks the lines of a rendering from the blocks the rendering came from; a
    # strategy that did not render the text parses it. Both must rank every line the same.
    text = path.read_text(encoding="utf-8")
    terms = TaskTerms.from_task("async lifetime")
    for level in (0, 1, 2):
        renderer = MarkdownStrategy()
        out = renderer.tier2(text, terms) if level == 0 else renderer.shrink(text, terms, level)
        assert out is not None
        lines = out.splitlines()
        assert renderer.priorities(lines, terms) == MarkdownStrategy().priorities(lines, terms)


_CODE_LINE = st.text(alphabet="x ;{}", max_size=4)
_BLOCK = st.one_of(
    st.just("# Title\n"),
    st.lists(_CODE_LINE, min_size=14, max_size=30).map(
        lambda body: "```\n" + "\n".join(body) + "\n```\n"
    ),
    st.lists(_CODE_LINE.map(lambda line: "    " + line), min_size=14, max_size=30).map(
        lambda body: "\n".join(body) + "\n"
    ),
    st.text(alphabet="Ab .,`1MUST the a", max_size=120).map(lambda prose: prose + "\n"),
)


@given(st.lists(_BLOCK, max_size=8).map("\n".join), st.sampled_from([None, "must tea"]))
def test_a_stronger_level_is_never_longer(text: str, task: str | None) -> None:
    """Smart mode relies on it (`strongest_level`): when the strongest form is over budget no
    gentler one can fit, and a Tier 2 within budget means the strongest is. A code block of
    short lines once grew when cut, its marker longer than the lines it replaced."""
    terms = TaskTerms.from_task(task)
    tier2 = STRATEGY.tier2(text, terms)
    level1 = STRATEGY.shrink(text, terms, 1)
    level2 = STRATEGY.shrink(text, terms, 2)
    assert level1 is not None
    assert level2 is not None
    assert len(tier2) >= len(level1) >= len(level2)


def test_a_code_block_of_short_lines_is_not_cut_into_a_longer_one() -> None:
    text = "```\n" + "x\n" * 16 + "```\n"
    assert STRATEGY.shrink(text, NO_TERMS, 1) == text
    long_lines = "```\n" + "".join(f"value_{i} = compute({i})\n" for i in range(16)) + "```\n"
    assert "(6 code lines omitted)" in (STRATEGY.shrink(long_lines, NO_TERMS, 1) or "")
