"""The diff line plan's scan of the whole text gives what reading each line gives.

Smart mode finds a diff's notable lines (declarations, error words, task terms, block comment
starts, ``\\ No newline``) in the joined text at once and ranks the lines between them by
their markers alone (`kinds/diff/hunk_scan.py`, `line_plan.py`). These tests hold that shortcut
to the plain reading: each declaration pattern made line-bound finds the lines the pattern
matches one by one, a word search in the joined text finds the lines that hold the word, and
the ranks of generated diffs are those of a line-by-line ranking with `line_role`. Tier 2's
pieces copy the diff where they say they do, and count as the text they join to.
"""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter
from cleveragents.application.services.artifact_compression.kinds.diff.compressor import (
    DiffCompressor,
)
from cleveragents.application.services.artifact_compression.kinds.diff.hunk_scan import (
    JoinedLines,
    line_bound,
)
from cleveragents.application.services.artifact_compression.kinds.diff.line_plan import (
    DiffLineRanker,
)
from cleveragents.application.services.artifact_compression.kinds.diff.parsing import (
    FILE_STARTS,
    DiffLineKind,
    _body_end,
    diff_segments,
    scan_diff,
)
from cleveragents.application.services.artifact_compression.kinds.diff.roles import (
    Comments,
    Role,
    line_role,
)
from cleveragents.application.services.artifact_compression.kinds.diff.signatures import (
    DECLARATIONS,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from cleveragents.domain.languages import IMPLEMENTATION_OMITTED, line_comment

CODE_BITS = st.sampled_from(
    [
        *("def ", "class ", "async ", "function ", "fn ", "func ", "type ", "struct ", "impl "),
        *("public ", "static ", "void ", "const ", "let ", "local ", "module ", "create table "),
        *("if ", "return ", "new ", "pub(crate) ", 'extern "C" ', "#[", "@", "@x.y"),
        *("x", "Foo", "_a1", "$", "<T>", "(", ")", "()", "{", "}", "=>", "=", ":", ";", ",", "*"),
        *(" ", "  ", "\t", "\x0b", "\r", "\u2028", "\u00a0", "'", '"', "/*", "*/", "//", "#"),
        *("raise ", "throw ", "Error(", "İ", "FAİL", "err", "parse_args"),
    ]
)
CODE = st.lists(CODE_BITS, max_size=10).map("".join)
MARKER = st.sampled_from([" ", "+", "-"])


@settings(max_examples=300)
@given(st.lists(st.tuples(MARKER, CODE), min_size=1, max_size=12))
@example([("+", "def f():"), (" ", "  x = 1"), ("-", "")])
@example([("+", "int main(void) {"), (" ", "}"), ("+", "fn f() {")])
def test_a_line_bound_declaration_pattern_finds_the_lines_the_pattern_matches(
    marked: list[tuple[str, str]],
) -> None:
    lines = [marker + code for marker, code in marked]
    joined = JoinedLines(lines)
    for family, pattern in DECLARATIONS.items():
        expected = [index for index, (_, code) in enumerate(marked) if pattern.match(code)]
        found = joined.matching(line_bound(pattern))
        assert found == expected, family
        if len(lines) > 2:  # a stretch of the lines, its places counted on from the first
            start = joined.place(1)
            end = joined.place(len(lines) - 1, start)
            assert joined.matching(line_bound(pattern), start, end) == [
                index for index in expected if 1 <= index < len(lines) - 1
            ]


@settings(max_examples=300)
@given(
    st.lists(st.tuples(MARKER, CODE), max_size=12),
    st.lists(st.sampled_from(["err", "fail", "parse_args", "/*", "x"]), min_size=1, max_size=3),
)
def test_the_lines_holding_a_word_are_found_in_the_joined_text(
    marked: list[tuple[str, str]], words: list[str]
) -> None:
    lines = [marker + code for marker, code in marked]
    expected = {
        index for index, line in enumerate(lines) if any(word in line.lower() for word in words)
    }
    assert JoinedLines(lines).holding(tuple(words)) == expected
    assert JoinedLines(lines).starting("+") == [
        index for index, line in enumerate(lines) if line.startswith("+")
    ]


# --- whole diffs, against a line-by-line ranking ----------------------------------------------

BODY_CODE = st.sampled_from(
    [
        "def run(self):",
        "class Store:",
        "@cached",
        "function load() {",
        "public void save(int x) {",
        "fn main() {",
        "func (s *S) Run() error {",
        "local function f()",
        "CREATE TABLE t (",
        "x = compute(y)",
        "return x",
        "}",
        "",
        "   ",
        "/* a block",
        "/** javadoc",
        " * middle",
        " */",
        "*/ x = 1",
        "// line comment",
        "# comment",
        "-- comment",
        "raise ValueError('bad')",
        'throw new Error("failed")',
        "log.error(msg)",
        "parse_args(argv)",
        "İstanbul",
        f"# {IMPLEMENTATION_OMITTED}",
        f"// {IMPLEMENTATION_OMITTED}",
    ]
)
BODY = st.lists(
    st.one_of(
        st.tuples(st.sampled_from([" ", "+", "-"]), BODY_CODE).map("".join),
        st.just("\\ No newline at end of file"),
        st.just(""),
    ),
    min_size=1,
    max_size=14,
)
PATH = st.sampled_from(
    ["a.py", "b.js", "c.java", "d.go", "e.rs", "f.c", "g.sh", "h.sql", "i.lua", "j.rb", "k.md"]
)


@st.composite
def diffs(draw: st.DrawFn) -> str:
    """A diff of a few files, each with a few hunks whose counts mostly match their bodies;
    some files deleted, some hunks combined (``@@@``)."""
    out: list[str] = []
    for _ in range(draw(st.integers(1, 3))):
        path = draw(PATH)
        out.append(f"diff --git a/{path} b/{path}")
        deleted = draw(st.booleans())
        if deleted:
            out.append("deleted file mode 100644")
        out += [f"--- a/{path}", "+++ /dev/null" if deleted else f"+++ b/{path}"]
        for _ in range(draw(st.integers(1, 3))):
            body = draw(BODY)
            if draw(st.integers(0, 5)) == 0:
                out.append("@@@ -1,4 -1,4 +1,4 @@@")
                out += [line[:1] + line for line in body]
                continue
            old = sum(1 for line in body if line[:1] in (" ", "-", ""))
            new = sum(1 for line in body if line[:1] in (" ", "+", ""))
            out.append(f"@@ -1,{old + draw(st.integers(0, 1))} +1,{new} @@")
            out += body
    return "\n".join(out)


def line_by_line(lines: list[str], terms: TaskTerms) -> list[int]:
    """The ranks the line plan gives, each body line read on its own with `line_role` (the
    module docstring of `line_plan`); the other lines ranked by the ranker."""
    ranker = DiffLineRanker(terms)
    ranks: list[int] = []
    previous = DiffLineKind.OTHER
    for kind, language, start, end in diff_segments(lines):
        if kind is not DiffLineKind.BODY:
            line = lines[start]
            starts_file = kind is DiffLineKind.FILE_HEADER and (
                previous is not DiffLineKind.FILE_HEADER or line.startswith(FILE_STARTS)
            )
            ranks.append(ranker.rank(line, kind, starts_file))
            previous = kind
            continue
        previous = kind
        for line in lines[start:end]:
            role = line_role(line, language, ranker.comments, ranker.columns)
            markers, code = line[: ranker.columns], line[ranker.columns :]
            if role is Role.NO_NEWLINE:
                ranks.append(ranker.previous)
                continue
            if role is Role.BLANK:
                rank = 5
            elif "+" in markers or "-" in markers:
                if role is Role.DECLARATION:
                    rank = 1
                elif role is Role.ERROR or terms.matches(code):
                    rank = 2
                else:
                    ranker.changes += 1
                    rank = 3 if ranker.changes <= 3 else 4
            else:
                rank = 4 if role is Role.DECLARATION or terms.matches(code) else 5
            ranker.previous = min(rank + 1, 6) if ranker.deleted else rank
            ranks.append(ranker.previous)
    return ranks


@settings(max_examples=300, deadline=None)
@given(diffs(), st.sampled_from([None, "fix parse_args", "the store"]))
def test_the_ranks_of_a_diff_are_those_of_reading_each_line(text: str, task: str | None) -> None:
    lines = text.split("\n")
    terms = TaskTerms.from_task(task)
    plan = DiffCompressor().line_plan(lines, terms)
    assert plan.priorities == line_by_line(lines, terms)


@settings(max_examples=150, deadline=None)
@given(diffs(), st.booleans(), st.booleans(), st.sampled_from([None, "fix parse_args"]))
def test_tier2_in_pieces_copies_the_diff_and_counts_as_its_text(
    text: str, crlf: bool, final_newline: bool, task: str | None
) -> None:
    if crlf:
        text = text.replace("\n", "\r\n")
    text += "\n" if final_newline else ""
    terms = TaskTerms.from_task(task)
    compressor = DiffCompressor()
    pieces = compressor.tier2_pieces(text, terms)
    joined = "".join(piece.text for piece in pieces)
    assert joined == compressor.tier2(text, terms)
    raw = text.encode("utf-8")
    for piece in pieces:
        if piece.origin is not None:
            copied = piece.text.encode("utf-8")
            assert raw[piece.origin : piece.origin + len(copied)] == copied
    counter = TiktokenCounter()
    assert counter.count_pieces(pieces, counter.token_starts(text)) == counter.count(joined)


def tier2_line_by_line(text: str, terms: TaskTerms) -> str:
    """Tier 2 as the module docstring of `compressor` says it, each body line read on its own
    with `line_role` (a run of body lines becomes a placeholder when that is shorter)."""
    lines = text.split("\n")
    final_newline = text.endswith("\n")
    if final_newline:
        lines.pop()
    out: list[str] = []
    run: list[str] = []
    language_of_run: list[str | None] = [None]
    comments = Comments()

    def flush() -> None:
        if not run:
            return
        markers = {line[:1] for line in run}
        marker = markers.pop() if len(markers) == 1 and markers <= {"+", "-"} else " "
        code = run[0][1:]
        indent = code[: len(code) - len(code.lstrip(" \t"))]
        eol = "\r" if run[0].endswith("\r") else ""
        comment = line_comment(language_of_run[0])
        placeholder = f"{marker}{indent}{comment} {IMPLEMENTATION_OMITTED}{eol}"
        out.extend([placeholder] if len(placeholder) < len("\n".join(run)) else run)
        run.clear()

    for line, (kind, language) in zip(lines, scan_diff(lines), strict=True):
        if kind is not DiffLineKind.BODY:
            if kind is not DiffLineKind.OTHER:
                comments.reset()
            flush()
            out.append(line)
            continue
        role = line_role(line, language, comments)
        mentioned = role is not Role.PLACEHOLDER and terms.matches(line[1:])
        if role is Role.BLANK or (role is Role.COMMENT and not mentioned):
            continue
        if role in (Role.NO_NEWLINE, Role.DECLARATION, Role.ERROR) or mentioned:
            flush()
            out.append(line)
        else:
            run.append(line)
            language_of_run[0] = language
    flush()
    return "\n".join(out) + ("\n" if final_newline else "")


@settings(max_examples=300, deadline=None)
@given(diffs(), st.sampled_from([None, "fix parse_args", "the store"]))
def test_tier2_is_what_reading_each_line_gives(text: str, task: str | None) -> None:
    terms = TaskTerms.from_task(task)
    assert DiffCompressor().tier2(text, terms) == tier2_line_by_line(text, terms)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.sampled_from(["+a", "-b", " c", "", "\\ No newline"]), min_size=1, max_size=12),
    st.integers(1, 40),
    st.integers(0, 400),
    st.integers(0, 400),
    st.one_of(st.none(), st.tuples(st.integers(0, 300), st.sampled_from(["@@ x", "d"]))),
)
def test_a_long_counted_hunk_ends_where_a_walk_line_by_line_ends_it(
    body: list[str], repeats: int, old: int, new: int, other: tuple[int, str] | None
) -> None:
    """Over stretches of lines read at once (`_uncounted_stretch`, at most `_STRETCH` lines
    each), with at most one line that is no body line among them."""
    lines = [" first", *body * repeats]
    if other is not None:
        lines.insert(1 + other[0] % len(lines), other[1])
    index, old_left, new_left = 0, old, new
    while True:  # the walk: each line takes from the counts of the sides it is on
        marker = lines[index][:1]
        if marker != "\\":
            old_left -= marker != "+"
            new_left -= marker != "-"
        index += 1
        if index == len(lines) or (old_left <= 0 and new_left <= 0):
            break
        if lines[index][:1] not in (" ", "+", "-", "\\", ""):
            break
    assert _body_end(lines, 0, old, new, True) == (index, old_left, new_left)
