"""The markdown line plan's fast forms against the plain forms they replaced: each must rank the
lines of any text as the plain one does.

The plain forms are kept here as they were written before: a block's keywords found in its own
lower-cased text, each sentence ranked by an object that searches its keywords again, every
line's pieces listed before any is ranked, a line's content found again by the list-marker
patterns. And the block scan's screens: what lets a line skip the tests of code and structure,
or of what ends a paragraph, must be what those tests would say.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence

from hypothesis import example, given, settings
from hypothesis import strategies as st

from benchmarks.generated_markdown import generated_markdown
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import ShortForm
from cleveragents.application.services.artifact_compression.kinds.markdown import blocks
from cleveragents.application.services.artifact_compression.kinds.markdown import line_plan as plan
from cleveragents.application.services.artifact_compression.kinds.markdown.sentences import (
    sentence_spans,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms

PLAIN_OBLIGATION = re.compile(
    r"\b(?:MUST|SHALL|SHOULD|REQUIRED|RECOMMENDED|MAY|OPTIONAL)\b"
    r"|\b(?:[Mm]ust|[Ss]hall|[Ss]hould|[Rr]equired|[Rr]ecommended)\b"
)

WORDS = st.sampled_from(
    [
        "MUST", "must", "Must", "mUST", "SHALL", "shall", "Should", "should", "REQUIRED",
        "required", "Recommended", "MAY", "may", "OPTIONAL", "optional", "mustard", "unmust",
        "The", "budget", "x", "5", "e.g.", "Dr.", "[a](#b)", "[a](#b).", "`code.`", "`", "İ",
        "K", "Σ", "é", ".", "!", "?", "...", "[^1]", "**b.**", "(", " ", "  ", "\t", "-", "_",
    ]
)  # fmt: skip
TEXT = st.lists(WORDS, max_size=40).map(" ".join)
LINE = st.one_of(
    st.sampled_from(
        ["", " ", "- ", "-", "> ", ">", "1. ", "1)", "    code", "\tcode", "# Head", "```", "~~~",
         "| a | b |", "|---|---|", "a | b", "---", "***", "* * *", "===", "<div>", "<!-- c",
         "-->", "[r]: /u", "Title", "  lazy text", "٣. item", "² x", "\x0c", "\r"]
    ),
    st.tuples(st.sampled_from(["", "- ", "> ", "  ", "* ", "1. ", "    - ", ">"]), TEXT).map(
        "".join
    ),
    st.text(alphabet="Ab .!?`[]()#>-*+|\t=~<:_1\r", max_size=60),
    # Long lines, which get short forms; some about as wide as the widest ranked whole.
    st.tuples(st.sampled_from(["", "- ", "> "]), TEXT, st.integers(60, 400)).map(
        lambda line: (line[0] + (line[1] + " ") * 40)[: line[2]]
    ),
)  # fmt: skip
MARKDOWN_LINES = st.lists(LINE, max_size=30)
TERMS = st.sampled_from(
    [TaskTerms(), TaskTerms.from_task("keep the budget"), TaskTerms.from_task("MUST code")]
)


# --- the plain forms --------------------------------------------------------------------------


def plain_content_start(lines: Sequence[str], start: int, index: int) -> int:
    """Where the text of line `index` of the prose block at `start` begins: after its
    indentation, list marker or `>`, found again by the patterns that found them."""
    line = lines[index]
    marker: re.Match[str] | None = None
    if index == start:
        marker = blocks._QUOTE.match(line) or blocks._LIST_ITEM.match(line)
    elif blocks._QUOTE.match(lines[start]):
        marker = blocks._QUOTE.match(line)
    begin = marker.end() if marker else 0
    return begin + len(line[begin:]) - len(line[begin:].lstrip())


class PlainSentenceRanks:
    """The rank of each sentence or piece of `text`, its keywords searched for each."""

    def __init__(self, text: str, keywords: list[int], terms: TaskTerms) -> None:
        self.text, self.keywords, self.terms = text, keywords, terms

    def __call__(self, start: int, end: int, first: bool) -> int:
        text = self.text
        mentioned = bool(self.terms.terms) and self.terms.matches(text[start:end])
        if text[start] == "[" and plan._ANCHOR_LINK.fullmatch(text, start, end) and not mentioned:
            return plan.PROSE
        keyword = bisect_left(self.keywords, start)
        if keyword < len(self.keywords) and self.keywords[keyword] < end:
            return plan.REQUIREMENT
        return plan.FIRST_SENTENCE if first or mentioned else plan.PROSE


def plain_pieces(
    text: str, parts: Sequence[str], rank: PlainSentenceRanks
) -> tuple[list[list[tuple[int, int, int]]], list[int]]:
    """Every line's pieces of sentences, ranked, and where each line's part starts in `text`."""
    spans = sentence_spans(text, refined=True)
    if spans and text[:1].isspace():
        start, end = spans[0]
        start = end - len(text[start:end].lstrip())
        spans = [(start, end), *spans[1:]] if start < end else spans[1:]
    offsets: list[int] = []
    cursor = 0
    for part in parts:
        offsets.append(cursor)
        cursor += len(part) + 1
    pieces: list[list[tuple[int, int, int]]] = [[] for _ in parts]
    for number, (sentence_start, sentence_end) in enumerate(spans):
        first = bisect_right(offsets, sentence_start) - 1
        last = bisect_right(offsets, sentence_end - 1) - 1
        sentence_rank = rank(sentence_start, sentence_end, number == 0)
        limit = (
            plan._MAX_REQUIREMENT_LINES
            if sentence_rank == plan.REQUIREMENT
            else plan._MAX_SENTENCE_LINES
        )
        spread = last - first + 1 > limit
        for position in range(first, last + 1):
            low = max(sentence_start, offsets[position])
            high = min(sentence_end, offsets[position] + len(parts[position]))
            if low < high:
                piece_rank = sentence_rank
                if spread:
                    piece_rank = rank(low, high, number == 0 and position == first)
                pieces[position].append((low, high, piece_rank))
    return pieces, offsets


def plain_rank_by_sentences(
    lines: list[str],
    start: int,
    text: str,
    parts: Sequence[str],
    keywords: list[int],
    terms: TaskTerms,
) -> tuple[list[int], dict[int, ShortForm]]:
    priorities: list[int] = []
    short_forms: dict[int, ShortForm] = {}
    joined = " ".join(parts)
    lead = len(joined) - len(text)
    rank = PlainSentenceRanks(joined, [keyword + lead for keyword in keywords], terms)
    pieces, offsets = plain_pieces(joined, parts, rank)
    for position, line_pieces in enumerate(pieces):
        if len(line_pieces) < 2:
            priorities.append(line_pieces[0][2] if line_pieces else plan.PROSE)
            continue
        ranks = [piece[2] for piece in line_pieces]
        best, full = min(ranks), max(ranks)
        index = start + position
        line = lines[index]
        short = None
        if best != full and len(line) > plan._WRAPPED_WIDTH:
            prefix_end = plain_content_start(lines, start, index)
            spans = [(low, high) for low, high, _ in line_pieces]
            shift = prefix_end - offsets[position]
            short = plan._short_text(line, prefix_end, shift, spans, ranks, best)
        if short is None or len(line) - len(short) < plan._MIN_SAVING:
            priorities.append(best)
        else:
            short_forms[index] = ShortForm(short, best)
            priorities.append(full)
    return priorities, short_forms


# --- the properties ---------------------------------------------------------------------------


@settings(max_examples=300)
@given(st.lists(TEXT, max_size=12))
@example(["MUST", "must", "x MUST", "MAY may"])
@example(["İ MUST", "must"])  # lower case lengthens the text: each text searched on its own
def test_the_keywords_of_all_blocks_at_once_are_those_of_each(texts: list[str]) -> None:
    expected = {}
    for index, text in enumerate(texts):
        found = [match.start() for match in PLAIN_OBLIGATION.finditer(text)]
        if found:
            expected[index] = found
    assert plan._keywords_by_text(texts) == expected


@settings(max_examples=300)
@given(MARKDOWN_LINES, TERMS)
@example(["- " + "The budget MUST hold. Then the rest goes on. " * 4], TaskTerms())
@example(["-", "  The budget MUST hold. " * 3 + "And more. " * 6, "next line"], TaskTerms())
def test_blocks_rank_by_their_sentences_as_the_plain_form_ranks_them(
    lines: list[str], terms: TaskTerms
) -> None:
    assert_blocks_rank_as_the_plain_form_ranks_them(lines, terms)


@settings(max_examples=40, deadline=None)
@given(st.integers(200, 20_000), TERMS)
def test_generated_plans_rank_blocks_as_the_plain_form_does(size: int, terms: TaskTerms) -> None:
    assert_blocks_rank_as_the_plain_form_ranks_them(
        blocks.split_lines(generated_markdown(size)), terms
    )


def assert_blocks_rank_as_the_plain_form_ranks_them(lines: list[str], terms: TaskTerms) -> None:
    for kind, start, _, _, _, text, parts in blocks.scan(lines):
        if kind is not blocks.Kind.PROSE or not text:
            continue
        keywords = [match.start() for match in PLAIN_OBLIGATION.finditer(text)]
        priorities: list[int] = []
        short_forms: dict[int, ShortForm] = {}
        plan._rank_by_sentences(lines, start, text, parts, keywords, terms, priorities, short_forms)
        expected = plain_rank_by_sentences(lines, start, text, parts, keywords, terms)
        assert (priorities, short_forms) == expected


@settings(max_examples=500)
@given(LINE, st.booleans())
@example("- item", True)
@example("---", False)
@example("- - -", False)
@example("    - item", True)
def test_a_line_sent_straight_to_prose_is_neither_code_nor_structure(
    line: str, indented_ok: bool
) -> None:
    stripped = line.lstrip()
    if not stripped or line[0].isalpha():
        return
    head = stripped[0]
    screened = (
        head in blocks._STRUCTURE_HEADS
        or "|" in line
        or (indented_ok and line.startswith(blocks._INDENTS))
        or (head in "-*_" and not line.strip("-*_ \t"))
    )
    if not screened:
        lines = [line, "|---|---|"]
        assert blocks._code(lines, 0, head, indented_ok) is None
        assert blocks._structure(lines, 0, head) is None


@settings(max_examples=500)
@given(LINE)
@example("  lazy text")
@example("\tword | cell")
def test_text_that_starts_with_a_letter_goes_on_with_any_paragraph(line: str) -> None:
    stripped = line.lstrip()
    if stripped[:1].isalpha() and "|" not in line:
        lines = [line, "|---|---|"]
        assert not blocks._interrupts(lines, 0, stripped[0])
        assert not blocks._LINK_DEF.match(line)
        assert not blocks._SETEXT.match(line)
        assert not blocks._QUOTE.match(line)


@settings(max_examples=500)
@given(LINE)
@example("- item")
@example("12) item")
@example("-")
@example("   * [x] done")
def test_a_list_marker_handed_on_opens_the_item_as_found_again(line: str) -> None:
    item = blocks._LIST_ITEM.match(line)
    if item is not None and not line.lstrip().startswith(">"):
        quote, marker, _, _ = blocks._opening(line)
        assert quote is None
        assert marker is not None
        assert marker.span() == item.span()
        for after in ("text", line, "", "> quote"):
            found, following = blocks._prose([line, after], 0)
            handed, handed_following = blocks._prose([line, after], 0, item)
            assert handed == found
            assert (following is None) == (handed_following is None)
