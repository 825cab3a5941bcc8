"""Smart mode's ranks for the original lines of Plan/PRD markdown.

The issue's order: headings first, then requirement sentences, then the first sentence of each
paragraph. A judge checks a plan against its requirements, and the headings say where each
one stands. A sentence is ranked on its own, not the line it is on:

* a long line holding a whole paragraph gets a `ShortForm` with just its best sentences (its
  requirement sentences, else its first sentence), so one requirement does not cost the whole
  paragraph; the full line follows at the rank of its least important sentence;
* a hard-wrapped paragraph ranks every line its first sentence (or a requirement sentence)
  spans, so the first line of a paragraph always carries the start of its first sentence.

Then tables' header rows, code fences and front matter (3), other prose (4), code (5). A blank
line ranks with the lines around it (the less important of them): it only spaces them out.

A short form is made of verbatim pieces of its line (the line's indentation and list marker,
then its kept sentences), with ``…`` where something was cut between them, so a reader can find
it in the original.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence

from cleveragents.application.services.artifact_compression.markdown_blocks import (
    ALIGNMENT,
    Block,
    Kind,
    parse,
    prose_content_start,
)
from cleveragents.application.services.artifact_compression.markdown_sentences import (
    sentence_spans,
)
from cleveragents.application.services.artifact_compression.strategy import LinePlan, ShortForm
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms

HEADING = 0
REQUIREMENT = 1
FIRST_SENTENCE = 2  # also a sentence or line that names a task term
STRUCTURE = 3  # a table's header rows, code fences, front matter
PROSE = 4  # every other line of prose, table rows, HTML, link definitions
CODE = 5  # the body of a code block
BLANK = 6  # a blank line with no line around it; else it ranks with them (`_space_out`)

# RFC 2119 keywords in capitals (MAY and OPTIONAL too: in capitals they are the spec's words),
# plus the plain-prose obligations "must" (and so "must not"), "shall" and "should".
_OBLIGATION_WORDS = (
    *("MUST", "SHALL", "SHOULD", "REQUIRED", "RECOMMENDED", "MAY", "OPTIONAL"),
    *("Must", "must", "Shall", "shall", "Should", "should"),
)


def _whole_words(words: Sequence[str]) -> re.Pattern[str]:
    """A pattern of any of `words` as a whole word. The plain ``\\b(?:MUST|...)\\b`` makes
    the regex engine try every position of a text; this one starts each alternative with the
    words' first letter, so that it skips ahead to those letters, and checks the word boundary
    before a letter looking back: several times faster."""
    tails: dict[str, list[str]] = {}
    for word in words:
        tails.setdefault(word[0], []).append(re.escape(word[1:]))
    alternatives = (f"{head}(?<=\\b{head})(?:{'|'.join(rest)})" for head, rest in tails.items())
    return re.compile(f"(?:{'|'.join(alternatives)})\\b")


_OBLIGATION = _whole_words(_OBLIGATION_WORDS)

# A sentence over more lines than this is ranked piece by piece, each line by what it holds: a
# "sentence" without punctuation can run through a whole paragraph.
_MAX_SENTENCE_LINES = 3
# Lines up to this width are hard-wrapped prose: such a line is ranked whole, since a cut saves
# little on it and breaks the reading of the lines around it. Longer lines get short forms.
_WRAPPED_WIDTH = 100
# Characters a short form must save: the packer appends a handle to the cut line, and a cut that
# saves less than the handle costs is not worth making.
_MIN_SAVING = 48
_CUT = "…"
_NO_TERMS = TaskTerms()
# A sentence that is just a link to a heading of the document: a table of contents' entry, which
# repeats a heading that is kept first anyway.
_ANCHOR_LINK = re.compile(r"\[[^\]]*\]\(#[^)\s]*\)")


def has_obligation(text: str) -> bool:
    """A requirement keyword in `text`."""
    return _OBLIGATION.search(text) is not None


_Piece = tuple[int, int, int]
"""The part of one sentence on one line: `line[start:end]`, and its rank."""


def markdown_line_plan(lines: list[str], terms: TaskTerms) -> LinePlan:
    """One rank per line (see the module docstring), and short forms for long prose lines."""
    priorities: list[int] = []
    short_forms: dict[int, ShortForm] = {}
    for block in parse(lines):
        if block.kind is Kind.PROSE:
            _rank_prose(block, len(priorities), terms, priorities, short_forms)
        else:
            priorities.extend(_block_ranks(block, terms))
    _space_out(priorities)
    return LinePlan(priorities, short_forms)


def _space_out(priorities: list[int]) -> None:
    """A run of blank lines takes the rank of the less important of the lines around it: it
    only spaces them out, so it is wanted once both are, and then it costs a token and saves
    the packer a marker. Ranked last instead, it would come after the budget was given out,
    when the markers it saves can no longer buy the lines they cost."""
    above = BLANK
    pending: list[int] = []  # the blank lines since the last other line
    for index, rank in enumerate(priorities):
        if rank == BLANK:
            pending.append(index)
            continue
        for blank in pending:
            priorities[blank] = max(rank, above) if above != BLANK else rank
        pending.clear()
        above = rank
    for blank in pending:
        priorities[blank] = above


def _block_ranks(block: Block, terms: TaskTerms) -> list[int]:
    """Ranks of a block that is not prose; a line naming a task term is raised to its rank."""
    count = len(block.lines)
    if block.kind is Kind.HEADING:
        return [HEADING] * count
    if block.kind is Kind.BLANK:
        return [BLANK] * count
    if block.kind is Kind.TABLE:
        ranks = _table_ranks(block.lines)
    elif block.kind is Kind.FENCED:
        ranks = [STRUCTURE] + [CODE] * (count - 1)
        if block.closed and count > 1:
            ranks[-1] = STRUCTURE
    elif block.kind is Kind.INDENTED:
        ranks = [CODE] * count
    elif block.kind is Kind.FRONT_MATTER:
        ranks = [STRUCTURE] * count
    else:
        ranks = [PROSE] * count
    if terms:
        for position, line in enumerate(block.lines):
            if terms.matches(line):
                ranks[position] = min(ranks[position], FIRST_SENTENCE)
    return ranks


def _table_ranks(rows: Sequence[str]) -> list[int]:
    """The header row and its alignment row say what the columns are; a row stating a
    requirement is one, like a sentence."""
    ranks: list[int] = []
    for position, row in enumerate(rows):
        if has_obligation(row):
            ranks.append(REQUIREMENT)
        elif position == 0 or (position == 1 and ALIGNMENT.match(row)):
            ranks.append(STRUCTURE)
        else:
            ranks.append(PROSE)
    return ranks


def _rank_prose(
    block: Block,
    first_index: int,
    terms: TaskTerms,
    priorities: list[int],
    short_forms: dict[int, ShortForm],
) -> None:
    """Rank each line of a paragraph, list item or quote by the sentences on it."""
    rank = _SentenceRanks(block.text, terms)
    if not rank.varies:
        _rank_by_first_sentence(block, first_index, priorities, short_forms)
        return
    for position, line_pieces in enumerate(_pieces(block, rank)):
        if not line_pieces:  # an empty list item
            priorities.append(PROSE)
            continue
        best = min(piece[2] for piece in line_pieces)
        full = max(piece[2] for piece in line_pieces)
        line = block.lines[position]
        short = None
        if best != full and len(line) > _WRAPPED_WIDTH:
            prefix_end = prose_content_start(block, position)
            short = _short_text(line, prefix_end, line_pieces, best)
        if short is None or len(line) - len(short) < _MIN_SAVING:
            priorities.append(best)
        else:
            short_forms[first_index + position] = ShortForm(short, best)
            priorities.append(full)


def _rank_by_first_sentence(
    block: Block, first_index: int, priorities: list[int], short_forms: dict[int, ShortForm]
) -> None:
    """The ranks (and short form) `_pieces` gives a block with no requirement keyword and no
    task term, found faster: such a block ranks its first sentence FIRST_SENTENCE and all the
    rest PROSE, so only the lines up to the end of that sentence are measured, and the rest is
    not split. Most blocks are such blocks.

    The sentence is found in `block.text`, which joins the lines' contents with spaces as the
    text of `_pieces` does (without the space that text starts with after an empty first
    line: an empty list item)."""
    lines = block.lines
    text = block.text
    ranks = [PROSE] * len(lines)
    spans = sentence_spans(text, refined=True, limit=1)
    if not spans:  # an empty list item and nothing else
        priorities.extend(ranks)
        return
    end = spans[0][1]  # the first sentence is text[:end]
    # Its lines: from `first` (the first with content) to `last`, whose content starts at
    # `cursor` in `text` and ends at `content_end`; counted no further than makes it spread.
    first = 0 if _content_length(block, 0) else 1
    last, cursor = first, 0
    content_end = first_end = _content_length(block, first)
    while content_end < end and last - first < _MAX_SENTENCE_LINES:
        cursor = content_end + 1
        last += 1
        content_end = cursor + _content_length(block, last)
    if last - first >= _MAX_SENTENCE_LINES:  # spread: each line's piece ranked on its own
        ranks[first] = _first_sentence_rank(text[:first_end])
    elif _first_sentence_rank(text[:end]) == FIRST_SENTENCE:
        ranks[first : last + 1] = [FIRST_SENTENCE] * (last - first + 1)
        line = lines[last]
        if end < content_end and len(line) > _WRAPPED_WIDTH:  # the rest starts on it too
            short = line[: prose_content_start(block, last) + end - cursor]
            if len(line) - len(short) >= _MIN_SAVING:
                short_forms[first_index + last] = ShortForm(short, FIRST_SENTENCE)
                ranks[last] = PROSE
    priorities.extend(ranks)


def _content_length(block: Block, position: int) -> int:
    """The length of line `position`'s part of `block.text` (0 for an empty list item)."""
    if len(block.lines) == 1:
        return len(block.text)
    line = block.lines[position]
    return max(len(line.rstrip()) - prose_content_start(block, position), 0)


def _first_sentence_rank(sentence: str) -> int:
    """`_SentenceRanks`' rank of a first sentence (or of its first line's piece) in a block
    with no requirement keyword and no task term."""
    if sentence.startswith("[") and _ANCHOR_LINK.fullmatch(sentence):
        return PROSE
    return FIRST_SENTENCE


def _pieces(block: Block, rank: _SentenceRanks) -> list[list[_Piece]]:
    """Each line's pieces of sentences, ranked. The sentences are those of the block's lines
    joined with spaces (a sentence may go on over a line break), each piece in its line's own
    offsets. (Pieces are plain tuples: there are several per line of prose.)"""
    starts = [prose_content_start(block, position) for position in range(len(block.lines))]
    contents = [line[start:].rstrip() for line, start in zip(block.lines, starts, strict=True)]
    text = " ".join(contents)
    spans = _spans(_sentences(text, rank.varies), text)
    if len(contents) == 1:  # most paragraphs of a document written a paragraph per line
        base = starts[0]
        return [[(base + s, base + e, rank(text[s:e], n == 0)) for n, (s, e) in spans]]
    offsets: list[int] = []
    cursor = 0
    for content in contents:
        offsets.append(cursor)
        cursor += len(content) + 1
    pieces: list[list[_Piece]] = [[] for _ in contents]
    for number, (start, end) in spans:
        first = bisect_right(offsets, start) - 1
        last = bisect_right(offsets, end - 1) - 1
        sentence_rank = rank(text[start:end], number == 0)
        if first == last:
            shift = starts[first] - offsets[first]
            pieces[first].append((start + shift, end + shift, sentence_rank))
            continue
        spread = last - first + 1 > _MAX_SENTENCE_LINES
        for position in range(first, last + 1):
            low = max(start, offsets[position])
            high = min(end, offsets[position] + len(contents[position]))
            if low >= high:
                continue
            piece_rank = sentence_rank
            if spread:
                piece_rank = rank(text[low:high], number == 0 and position == first)
            shift = starts[position] - offsets[position]
            pieces[position].append((low + shift, high + shift, piece_rank))
    return pieces


def _sentences(text: str, each: bool) -> list[tuple[int, int]]:
    """The spans of the sentences of `text`; unless `each`, of the first and of all the rest as
    one: when only the first sentence stands out, the rest need not be split."""
    if each:
        return sentence_spans(text, refined=True)
    spans = sentence_spans(text, refined=True, limit=1)
    if spans and spans[-1][1] < len(text):
        rest = len(text) - len(text[spans[-1][1] :].lstrip())
        spans.append((rest, len(text)))
    return spans


def _spans(spans: list[tuple[int, int]], text: str) -> list[tuple[int, tuple[int, int]]]:
    """The sentence spans, numbered, without leading whitespace (which only an empty first line,
    an empty list item, leaves in the joined text)."""
    if spans and text[:1].isspace():
        start, end = spans[0]
        start = end - len(text[start:end].lstrip())
        spans = [(start, end), *spans[1:]] if start < end else spans[1:]
    return list(enumerate(spans))


class _SentenceRanks:
    """The rank of each sentence of one block. The block's text is screened once: most blocks
    hold no requirement keyword and name no task term, and then no sentence of theirs does."""

    def __init__(self, text: str, terms: TaskTerms) -> None:
        self._obligations = has_obligation(text)
        self._terms = terms if terms.matches(text) else _NO_TERMS
        self.varies = self._obligations or bool(self._terms)
        """Whether sentences after the first may rank differently from each other."""

    def __call__(self, sentence: str, first: bool) -> int:
        mentioned = bool(self._terms) and self._terms.matches(sentence)
        if sentence.startswith("[") and _ANCHOR_LINK.fullmatch(sentence) and not mentioned:
            return PROSE
        if self._obligations and has_obligation(sentence):
            return REQUIREMENT
        if first or mentioned:
            return FIRST_SENTENCE
        return PROSE


def _short_text(line: str, prefix_end: int, pieces: Sequence[_Piece], rank: int) -> str:
    """The line's indentation and marker, then its pieces of `rank`: neighbouring pieces as the
    one verbatim stretch they are, ``…`` where something lies cut before or between them."""
    stretches: list[tuple[int, int]] = []
    cut_before_first = False
    cut_before_next = False
    for start, end, piece_rank in pieces:
        if piece_rank != rank:
            cut_before_next = True
        elif stretches and not cut_before_next:
            stretches[-1] = (stretches[-1][0], end)
        else:
            if not stretches:
                cut_before_first = cut_before_next
            stretches.append((start, end))
            cut_before_next = False
    head = f"{_CUT} " if cut_before_first else ""
    kept = f" {_CUT} ".join(line[start:end] for start, end in stretches)
    return line[:prefix_end] + head + kept
