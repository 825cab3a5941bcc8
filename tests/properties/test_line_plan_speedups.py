"""The fast paths of the markdown and diff line plans give what their plain definitions give.

Each shortcut that makes `line_plan` fast (a pattern rewritten so the regex engine can skip
ahead, a screen before a pattern, a block ranked by its first sentence only, a hunk's error
words found at once) is checked here against the slow, obvious form it replaces, on generated
text. (The rewrite was also checked against the previous implementation on the shared corpus,
1 MB and 10 MB inputs and thousands of random texts; these tests keep the shortcuts honest.)
"""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from cleveragents.application.services.artifact_compression.kinds.diff import (
    line_plan as diff_line_plan,
)
from cleveragents.application.services.artifact_compression.kinds.diff import (
    parsing as diff_parsing,
)
from cleveragents.application.services.artifact_compression.kinds.diff import roles as diff_roles
from cleveragents.application.services.artifact_compression.kinds.diff import (
    signatures as diff_signatures,
)
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import ShortForm
from cleveragents.application.services.artifact_compression.kinds.markdown import line_plan as plan
from cleveragents.application.services.artifact_compression.kinds.markdown import sentences
from cleveragents.application.services.artifact_compression.kinds.markdown.blocks import (
    Kind,
    parse,
    scan,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms

# --- markdown -------------------------------------------------------------------------------

# The sentence ends as first written: a backtick run, or punctuation and what may follow it.
PLAIN_BOUNDARY = re.compile(r"`+|[.!?]+[\"')\]]*[ \t]+(?=[^a-z\s])")
PLAIN_REFINED_BOUNDARY = re.compile(r"`+|[.!?]+(?:\[\^[^\]\s]{1,40}\])?[\"')\]]*[ \t]+(?=[^a-z\s])")
PLAIN_OBLIGATION = re.compile(
    r"\b(?:MUST|SHALL|SHOULD|REQUIRED|RECOMMENDED|MAY|OPTIONAL)\b"
    r"|\b(?:[Mm]ust|[Ss]hall|[Ss]hould|[Rr]equired|[Rr]ecommended)\b"
)

SENTENCE_BITS = st.sampled_from(
    [
        "Word",
        "word",
        "e.g",
        "Dr",
        "5",
        "x",
        " ",
        "  ",
        "\t",
        ".",
        ". ",
        "! ",
        "? ",
        "...",
        ".)",
        '." ',
        ".[^1] ",
        "[^n]",
        "`",
        "``",
        "`code`",
        "(",
        "[",
        "'",
        "İ",
        "é",
        "Next",
        "a.",
    ]
)
SENTENCE_TEXT = st.lists(SENTENCE_BITS, max_size=30).map("".join)
KEYWORD_TEXT = st.lists(
    st.sampled_from(
        [
            "MUST",
            "must",
            "Must",
            "mUST",
            "SHALL",
            "shall",
            "Should",
            "should",
            "REQUIRED",
            "required",
            "RECOMMENDED",
            "MAY",
            "may",
            "OPTIONAL",
            "mustard",
            " ",
            "-",
            "_",
            "1",
            ".",
            "İ",
            "K",
            "x",
        ]
    ),
    max_size=20,
).map("".join)
LINE = st.one_of(
    st.sampled_from(["", "  ", "- ", "> ", "1. ", "    code", "# Head", "```", "| a | b |"]),
    st.tuples(st.sampled_from(["", "- ", "> ", "  ", "* "]), SENTENCE_TEXT).map("".join),
    st.text(alphabet="Ab .!?`[]()#>-*|\t", max_size=120),
    SENTENCE_TEXT.map(lambda text: text * 8),  # long lines, which get short forms
)
MARKDOWN_LINES = st.lists(LINE, max_size=25)


@settings(max_examples=400)
@given(SENTENCE_TEXT)
def test_the_period_patterns_find_what_the_plain_ones_find(text: str) -> None:
    cases = (
        (sentences._BOUNDARY, PLAIN_BOUNDARY),
        (sentences._REFINED_BOUNDARY, PLAIN_REFINED_BOUNDARY),
    )
    for fast, slow in cases:
        assert [m.span() for m in fast.finditer(text)] == [m.span() for m in slow.finditer(text)]
    if not any(mark in text for mark in "`!?"):
        periods = (
            (sentences._PERIOD_BOUNDARY, PLAIN_BOUNDARY),
            (sentences._REFINED_PERIOD_BOUNDARY, PLAIN_REFINED_BOUNDARY),
        )
        for fast, slow in periods:
            found = [m.span() for m in fast.finditer(text)]
            assert found == [m.span() for m in slow.finditer(text)]


def plain_spans(text: str, refined: bool) -> list[tuple[int, int]]:
    """The splitter as first written: each boundary's word checked for an abbreviation."""
    spans: list[tuple[int, int]] = []
    start = open_ticks = 0
    for match in (PLAIN_REFINED_BOUNDARY if refined else PLAIN_BOUNDARY).finditer(text):
        token = match.group(0)
        if token.startswith("`"):
            if open_ticks == 0:
                open_ticks = len(token)
            elif len(token) == open_ticks:
                open_ticks = 0
            continue
        if open_ticks:
            continue
        if token.startswith("."):
            word = text[text.rfind(" ", 0, match.start()) + 1 : match.start()].lstrip("(\"'[")
            initial = len(word) == 1 and not (refined and word.isdigit())
            if initial or word.lower() in sentences._ABBREVIATIONS:
                continue
        spans.append((start, match.start() + len(token.rstrip())))
        start = match.end()
    if text[start:].strip():
        spans.append((start, len(text)))
    return spans


@settings(max_examples=300)
@given(SENTENCE_TEXT)
@example("See ((e.g. Next. And [Dr. No. Then 5. Six ('A. B")
def test_sentences_are_split_where_the_plain_splitter_splits_them(text: str) -> None:
    for refined in (False, True):
        assert sentences.sentence_spans(text, refined=refined) == plain_spans(text, refined)


@settings(max_examples=300)
@given(SENTENCE_TEXT)
def test_the_first_sentence_ends_where_the_splitter_ends_it(text: str) -> None:
    spans = sentences.sentence_spans(text, refined=True)
    if spans:
        assert sentences.first_sentence_end(text) == spans[0][1]


@settings(max_examples=400)
@given(st.one_of(KEYWORD_TEXT, SENTENCE_TEXT))
def test_keywords_are_found_where_the_pattern_finds_them(text: str) -> None:
    expected = [match.start() for match in PLAIN_OBLIGATION.finditer(text)]
    assert [match.start() for match in plan._OBLIGATION.finditer(text)] == expected
    assert plan._keywords(text) == expected


@settings(max_examples=200)
@given(MARKDOWN_LINES)
def test_parse_gives_every_line_to_one_block_and_scan_skips_only_blank_lines(
    lines: list[str],
) -> None:
    blocks = list(parse(lines))
    assert [line for block in blocks for line in block.lines] == lines
    covered = {index for _, start, end, *_ in scan(lines) for index in range(start, end)}
    assert all(index in covered or not line.strip() for index, line in enumerate(lines))


@settings(max_examples=200)
@given(MARKDOWN_LINES)
def test_a_block_without_keywords_ranks_by_its_first_sentence_as_by_all_its_sentences(
    lines: list[str],
) -> None:
    for kind, start, _, _, _, text, parts in scan(lines):
        if kind is not Kind.PROSE or plan._keywords(text):
            continue
        fast: list[int] = []
        fast_forms: dict[int, ShortForm] = {}
        plan._rank_by_first_sentence(lines, start, text, parts, fast, fast_forms)
        slow: list[int] = []
        slow_forms: dict[int, ShortForm] = {}
        plan._rank_by_sentences(lines, start, text, parts, [], plan._NO_TERMS, slow, slow_forms)
        assert (fast, fast_forms) == (slow, slow_forms)


# --- diff -----------------------------------------------------------------------------------

# The error pattern as first written: `\b` before each word, `\w*?` before Error and Exception.
PLAIN_ERROR = re.compile(
    r"\b(?:raise|raises|throw|throws|panic!?|abort|assert\w*+)\b"
    r"|\b(?:Err|\w*?(?:Error|Exception))\s*+[(!{]"
    r"|\berrors\.New\b|\bfmt\.Errorf\b"
    r"|\.(?:error|exception|critical|fatal|fail|warn|warning)\s*+\("
    r"|[\"'][^\"'\n]*?(?i:error|fail)"
)
CODE = st.lists(
    st.sampled_from(
        [
            "raise",
            "raises",
            "throw",
            "panic!",
            "abort",
            "asserted",
            "Err",
            "Error",
            "Exception",
            "Value",
            "errors.New",
            "fmt.Errorf",
            ".error",
            ".fail",
            "(",
            "{",
            "!",
            " ",
            "\t",
            "x",
            "_",
            "1",
            "'",
            '"',
            "ERROR",
            "fail",
            "def ",
            "class ",
            "@",
            "#",
            "async ",
            "İ",
            "…",
            "... (implementation omitted for brevity)",
        ]
    ),
    max_size=12,
).map("".join)
BODY_LINE = st.tuples(st.sampled_from(["+", "-", " ", "", "\\", "++", "+-", " -"]), CODE).map(
    "".join
)


@settings(max_examples=500)
@given(CODE)
def test_the_error_pattern_finds_the_lines_the_plain_one_finds(code: str) -> None:
    assert bool(diff_signatures.ERROR_LINE.search(code)) == bool(PLAIN_ERROR.search(code))


@settings(max_examples=200)
@given(st.lists(BODY_LINE.filter(lambda line: line[:1] in diff_parsing._BODY_MARKERS), max_size=20))
def test_the_error_words_of_a_diff_are_those_of_each_line(lines: list[str]) -> None:
    expected = {
        index
        for index, line in enumerate(lines)
        if diff_signatures.ERROR_HINT.search(line[1:].lower())
    }
    assert diff_line_plan._Notable.of(lines, TaskTerms(), []).hinted == expected


@settings(max_examples=300)
@given(CODE, st.sampled_from(sorted(diff_roles.READERS, key=str)))
def test_a_line_told_plain_by_its_ends_is_plain_to_the_reader(
    code: str, family: str | None
) -> None:
    reader = diff_roles.READERS[family]
    stripped = code.strip()
    hinted = diff_signatures.ERROR_HINT.search(code.lower()) is not None
    heads = reader.special_heads
    if not stripped or heads is None or hinted:
        return
    if stripped[0] not in heads and stripped[-1] != diff_roles.OMITTED_END:
        role = reader.role(code, stripped, "+", diff_roles.Comments(), hinted)
        assert role in (
            diff_roles.Role.PLAIN,
            diff_roles.Role.COMMENT,
            diff_roles.Role.PLACEHOLDER,
        )


@settings(max_examples=300)
@given(st.tuples(st.sampled_from(["", " ", "\t", "  "]), CODE).map("".join))
@example("    def f(x):")
@example("async def g():")
def test_a_declaration_starts_as_its_family_says(code: str) -> None:
    for family, starts in diff_signatures.DECLARATION_STARTS.items():
        if diff_signatures.DECLARATIONS[family].match(code):
            assert code.strip().startswith(starts)


@settings(max_examples=300)
@given(
    st.lists(st.sampled_from(["+a", "-b", " c", "", "\\ No newline", "@@ x", "d"]), max_size=30),
    st.integers(0, 12),
    st.integers(0, 12),
)
def test_a_counted_hunk_ends_where_a_walk_line_by_line_ends_it(
    body: list[str], old: int, new: int
) -> None:
    lines = [" first", *body]

    def walk() -> tuple[int, int, int]:
        index, old_left, new_left = 0, old, new
        while True:
            marker = lines[index][:1]
            if marker != "\\":
                old_left -= marker != "+"
                new_left -= marker != "-"
            index += 1
            if index == len(lines) or (old_left <= 0 and new_left <= 0):
                return index, old_left, new_left
            if lines[index][:1] not in (" ", "+", "-", "\\", ""):
                return index, old_left, new_left

    assert diff_parsing._body_end(lines, 0, old, new, True) == walk()
