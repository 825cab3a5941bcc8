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
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from itertools import accumulate

from cleveragents.application.services.artifact_compression.kinds.kind_compressor import (
    LinePlan,
    ShortForm,
)
from cleveragents.application.services.artifact_compression.kinds.markdown.blocks import (
    ALIGNMENT,
    Kind,
    Segment,
    scan,
)
from cleveragents.application.services.artifact_compression.kinds.markdown.sentences import (
    first_sentence_end,
    sentence_spans,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms

HEADING = 0
REQUIREMENT = 1
FIRST_SENTENCE = 2  # also a sentence or line that names a task term
STRUCTURE = 3  # a table's header rows, code fences, front matter
PROSE = 4  # every other line of prose, table rows, HTML, link definitions
CODE = 5  # the body of a code block
BLANK = 6  # a blank line with no line around it; else it ranks with them (`_space_out`)

# RFC 2119 keywords in capitals (MAY and OPTIONAL too: in capitals they are the spec's words),
# plus the plain-prose obligations: plans and RFCs mostly write them in lower case ("must" and
# so "must not", "is required to", "is recommended"). A lower-case "may" or "optional" is no
# obligation.
_OBLIGATION_WORDS = (
    *("MUST", "SHALL", "SHOULD", "REQUIRED", "RECOMMENDED", "MAY", "OPTIONAL"),
    *("Must", "must", "Shall", "shall", "Should", "should"),
    *("Required", "required", "Recommended", "recommended"),
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
# What `_keywords_by_text` looks for: each word in lower case in the lower-cased text, but a
# word that is a keyword only in capitals (MAY, OPTIONAL) in capitals in the text itself: in
# lower case it is a common word ("may"), each a place to test for nothing.
_SEARCHED_WORDS = tuple(
    (lower, False)
    if any(not word.isupper() for word in _OBLIGATION_WORDS if word.lower() == lower)
    else (lower.upper(), True)
    for lower in dict.fromkeys(word.lower() for word in _OBLIGATION_WORDS)
)

# A sentence over more lines than this is ranked piece by piece, each line by what it holds: a
# "sentence" without punctuation (or with a period the splitter takes for an initial, as in
# "we reach Q. If") can run through a whole paragraph. A requirement is kept whole further: a
# judge checks it word for word.
_MAX_SENTENCE_LINES = 8  # some 600 characters, wrapped at 80
_MAX_REQUIREMENT_LINES = 12
# Lines up to this width are hard-wrapped prose: such a line is ranked whole, since a cut saves
# little on it and breaks the reading of the lines around it. Longer lines get short forms.
_WRAPPED_WIDTH = 100
# Characters a short form must save: the packer appends a handle to the cut line, and a cut that
# saves less than the handle costs is not worth making.
_MIN_SAVING = 48
_CUT = "…"
_NO_TERMS = TaskTerms()
_ONE = 1  # `_ONE.__add__`: one more, as a function (`map` calls it without a Python step)
# A sentence that is just a link to a heading of the document: a table of contents' entry, which
# repeats a heading that is kept first anyway.
_ANCHOR_LINK = re.compile(r"\[[^\]]*\]\(#[^)\s]*\)")
# The kinds of blocks under names of their own: a member read off its enum (`Kind.PROSE`) costs
# a descriptor call (some 0.3 µs in Python 3.11), and the plan tells each block's kind.
_PROSE, _HEADING, _TABLE = Kind.PROSE, Kind.HEADING, Kind.TABLE
_FENCED, _INDENTED, _FRONT_MATTER = Kind.FENCED, Kind.INDENTED, Kind.FRONT_MATTER


def _keywords(text: str) -> list[int]:
    """Where each requirement keyword of `text` starts, in order."""
    return _keywords_by_text([text]).get(0, [])


def _keywords_by_text(texts: list[str]) -> dict[int, list[int]]:
    """`_keywords` of each of `texts` that holds one, by its index, all found in one search
    of the texts joined.

    Each keyword is in the lower-cased text as one of a few words (or in the text as MAY or
    OPTIONAL), found with `str.find` (several times faster than the pattern, which has to test
    every letter it could start with); the pattern then tells, at each place found, whether
    the original is a keyword there (`must` is, `mustard` is not). Joined, the texts are
    lower-cased once and each word is looked for once, not once in each of thousands of
    blocks. A line break joins them: no keyword holds one, and to the pattern it ends a word
    as the end of a text does. When lower case changes the length of the text, which shifts
    the offsets, the pattern searches each text instead."""
    joined = "\n".join(texts)
    lowered = joined.lower()
    by_text: dict[int, list[int]] = {}
    if len(lowered) != len(joined):
        for index, text in enumerate(texts):
            found = [match.start() for match in _OBLIGATION.finditer(text)]
            if found:
                by_text[index] = found
        return by_text
    found = []
    for word, in_capitals in _SEARCHED_WORDS:
        searched = joined if in_capitals else lowered
        at = searched.find(word)
        while at >= 0:
            if _OBLIGATION.match(joined, at):
                found.append(at)
            at = searched.find(word, at + 1)
    found.sort()
    # Where each text starts in `joined`: after the others and a line break after each.
    starts = list(accumulate(map(_ONE.__add__, map(len, texts)), initial=0))
    for at in found:
        index = bisect_right(starts, at) - 1
        by_text.setdefault(index, []).append(at - starts[index])
    return by_text


def _keywords_by_line(lines: list[str], segments: list[Segment]) -> dict[int, list[int]]:
    """`_keywords` of the text of each prose block, by the block's first line, and of each row
    of a table, by its line: those that hold one."""
    prose = [segment for segment in segments if segment[0] is _PROSE]
    rows = [
        index
        for segment in segments
        if segment[0] is _TABLE
        for index in range(segment[1], segment[2])
    ]
    keys = [segment[1] for segment in prose] + rows  # the line of each text
    texts = [segment[5] for segment in prose] + [lines[index] for index in rows]
    return {keys[index]: found for index, found in _keywords_by_text(texts).items()}


def _naming_by_text(texts: list[str], terms: TaskTerms) -> set[int]:
    """The indices of the `texts` that name a task term (`terms.matches`), found in one
    search of the texts joined, as `_keywords_by_text` finds keywords: each term looked for
    once in the lower-cased whole (not each text lower-cased and searched for every term),
    and a text that names one passed at once. A line break joins them: no text holds one, and
    lower case treats it as the end of a text (a final sigma's form is decided by the letters
    before a line break, as before the end). When lower case changes the length of the text,
    each text is asked instead."""
    joined = "\n".join(texts)
    lowered = joined.lower()
    if not texts or len(lowered) != len(joined):
        return {index for index, text in enumerate(texts) if terms.matches(text)}
    # Where each text starts in `joined`, and one more: where a text after the last would.
    starts = list(accumulate(map(_ONE.__add__, map(len, texts)), initial=0))
    named: set[int] = set()
    for term in terms.terms:
        at = lowered.find(term)
        while at >= 0:
            index = bisect_right(starts, at) - 1
            if at + len(term) < starts[index + 1]:  # within the text, not over a line break
                named.add(index)
                at = lowered.find(term, starts[index + 1])  # the next text
            else:
                at = lowered.find(term, at + 1)
    return named


def _naming_by_line(lines: list[str], segments: list[Segment], terms: TaskTerms) -> set[int]:
    """The first line of each prose block whose text names a task term, and each line of the
    other blocks that names one."""
    if not terms.terms:
        return set()
    keys = [segment[1] for segment in segments if segment[0] is _PROSE]
    texts = [segment[5] for segment in segments if segment[0] is _PROSE]
    for segment in segments:
        if segment[0] is not _PROSE:
            keys.extend(range(segment[1], segment[2]))
            texts.extend(lines[segment[1] : segment[2]])
    return {keys[index] for index in _naming_by_text(texts, terms)}


def markdown_line_plan(lines: list[str], terms: TaskTerms) -> LinePlan:
    """One rank per line (see the module docstring), and short forms for long prose lines."""
    priorities: list[int] = []
    short_forms: dict[int, ShortForm] = {}
    # The blocks are all found before any is ranked: the keywords of all their texts are
    # found at once.
    segments = scan(lines)
    keywords = _keywords_by_line(lines, segments)
    naming = _naming_by_line(lines, segments, terms)  # and the task terms, all at once too
    for kind, start, end, closed, _, text, parts in segments:
        at = len(priorities)  # the blank lines before the block, `lines[at:start]`
        if kind is not _PROSE:
            priorities.extend(_block_ranks(kind, lines, start, end, closed, keywords, naming))
        else:
            # The text is screened once: most blocks hold no requirement keyword and name no
            # task term, and then no sentence of theirs does, and only the first stands out.
            mentioned = start in naming
            found = keywords.get(start)
            if found or mentioned:
                block_terms = terms if mentioned else _NO_TERMS
                _rank_by_sentences(
                    lines, start, text, parts, found or [], block_terms, priorities, short_forms
                )
            elif len(parts) == 1:  # `_rank_by_first_sentence`, one call less: most blocks
                priorities.append(_first_sentence_line_rank(lines[start], start, text, short_forms))
            else:
                _rank_by_first_sentence(lines, start, text, parts, priorities, short_forms)
        if at < start:  # `_space_out`, with a block on each side or the start of the text
            below = priorities[at]
            rank = max(priorities[at - 1], below) if at else below
            priorities[at:at] = [rank] * (start - at)
    if len(priorities) < len(lines):
        _space_out(priorities, len(priorities), len(lines) - len(priorities))
    return LinePlan(priorities, short_forms)


def _space_out(priorities: list[int], at: int, count: int) -> None:
    """Insert at `at` the ranks of the run of `count` blank lines there: the rank of the less
    important of the lines around it. A blank line only spaces them out, so it is wanted once
    both are, and then it costs a token and saves the packer a marker. Ranked last instead,
    it would come after the budget was given out, when the markers it saves can no longer buy
    the lines they cost. At the start or the end of the text, the run takes the rank of the
    one line beside it."""
    above = priorities[at - 1] if at else BLANK
    below = priorities[at] if at < len(priorities) else BLANK
    rank = below if above == BLANK else above if below == BLANK else max(below, above)
    priorities[at:at] = [rank] * count


def _block_ranks(
    kind: Kind,
    lines: list[str],
    start: int,
    end: int,
    closed: bool,
    stated: dict[int, list[int]],
    naming: set[int],
) -> list[int]:
    """Ranks of the lines `lines[start:end]` of a block that is not prose; a line naming a task
    term (one of the `naming` lines) is raised to its rank. `stated`: the lines of tables that
    hold a requirement keyword (and more)."""
    count = end - start
    if kind is _HEADING:
        return [HEADING] * count
    if kind is _TABLE:
        ranks = _table_ranks(lines, start, end, stated)
    elif kind is _FENCED:
        ranks = [STRUCTURE] + [CODE] * (count - 1)
        if closed and count > 1:
            ranks[-1] = STRUCTURE
    elif kind is _INDENTED:
        ranks = [CODE] * count
    elif kind is _FRONT_MATTER:
        ranks = [STRUCTURE] * count
    else:
        ranks = [PROSE] * count
    if naming:
        for index in range(start, end):
            if index in naming:
                ranks[index - start] = min(ranks[index - start], FIRST_SENTENCE)
    return ranks


def _table_ranks(lines: list[str], start: int, end: int, stated: dict[int, list[int]]) -> list[int]:
    """The header row and its alignment row say what the columns are; a row stating a
    requirement (one of the `stated` lines) is one, like a sentence."""
    ranks = [STRUCTURE] + [PROSE] * (end - start - 1)
    if end - start > 1 and ALIGNMENT.match(lines[start + 1]):
        ranks[1] = STRUCTURE
    for index in range(start, end):
        if index in stated:
            ranks[index - start] = REQUIREMENT
    return ranks


def _rank_by_first_sentence(
    lines: list[str],
    start: int,
    text: str,
    parts: Sequence[str],
    priorities: list[int],
    short_forms: dict[int, ShortForm],
) -> None:
    """The ranks (and short form) `_rank_by_sentences` gives a block with no requirement
    keyword and no task term, found faster: such a block ranks its first sentence
    FIRST_SENTENCE and all the rest PROSE, so only the lines up to the end of that sentence are
    measured, and the rest is not split. Most blocks are such blocks."""
    if len(parts) == 1:
        priorities.append(_first_sentence_line_rank(lines[start], start, text, short_forms))
        return
    ranks = [PROSE] * len(parts)
    if not text:  # an empty list item and nothing else
        priorities.extend(ranks)
        return
    sentence_end = first_sentence_end(text)  # the sentence is text[:sentence_end]
    # Its lines: from `first` (the first with content: `text` joins the others) to `last`,
    # whose part starts at `cursor` in `text` and ends at `part_end`; counted no further than
    # makes it spread.
    first = 0 if parts[0] else 1
    last, cursor = first, 0
    part_end = first_end = len(parts[first])
    while part_end < sentence_end and last - first < _MAX_SENTENCE_LINES:
        cursor = part_end + 1
        last += 1
        part_end = cursor + len(parts[last])
    if last - first >= _MAX_SENTENCE_LINES:  # spread: each line's piece ranked on its own
        ranks[first] = _first_sentence_rank(text, first_end)
    elif _first_sentence_rank(text, sentence_end) == FIRST_SENTENCE:
        ranks[first : last + 1] = [FIRST_SENTENCE] * (last - first + 1)
        line = lines[start + last]
        if sentence_end < part_end and len(line) > _WRAPPED_WIDTH:  # the rest starts on it
            # The part is the line's content: it ends where the line's trailing blanks start.
            prefix_end = len(line.rstrip()) - len(parts[last])
            short = line[: prefix_end + sentence_end - cursor]
            if len(line) - len(short) >= _MIN_SAVING:
                short_forms[start + last] = ShortForm(short, FIRST_SENTENCE)
                ranks[last] = PROSE
    priorities.extend(ranks)


def _first_sentence_line_rank(
    line: str, index: int, text: str, short_forms: dict[int, ShortForm]
) -> int:
    """`_rank_by_first_sentence` of a block of one line, `line` (at `index`), whose text is
    its one part."""
    if len(line) <= _WRAPPED_WIDTH and not text.startswith("["):
        # A short line ranks whole, by its first sentence (which is no link to a heading:
        # it does not start with `[`); where that sentence ends does not matter.
        return FIRST_SENTENCE if text else PROSE
    if not text:  # an empty list item
        return PROSE
    sentence_end = first_sentence_end(text)  # the sentence is text[:sentence_end]
    if _first_sentence_rank(text, sentence_end) != FIRST_SENTENCE:
        return PROSE
    if sentence_end < len(text) and len(line) > _WRAPPED_WIDTH:  # the rest starts on it
        # The text is the line's content: it ends where the line's trailing blanks start.
        short = line[: len(line.rstrip()) - len(text) + sentence_end]
        if len(line) - len(short) >= _MIN_SAVING:
            short_forms[index] = ShortForm(short, FIRST_SENTENCE)
            return PROSE
    return FIRST_SENTENCE


def _first_sentence_rank(text: str, end: int) -> int:
    """`_rank` of a first sentence `text[:end]` (or of its first line's piece)
    in a block with no requirement keyword and no task term."""
    if text[0] == "[" and _ANCHOR_LINK.fullmatch(text, 0, end):
        return PROSE
    return FIRST_SENTENCE


def _rank_by_sentences(
    lines: list[str],
    start: int,
    text: str,
    parts: Sequence[str],
    keywords: list[int],
    terms: TaskTerms,
    priorities: list[int],
    short_forms: dict[int, ShortForm],
) -> None:
    """Rank each line of a block by its pieces of sentences: the best they hold, or the best
    in a short form and the whole line at the worst when the line is long. `keywords`: where
    the requirement keywords of `text` start; `terms`: empty unless the text names one."""
    if len(parts) == 1:  # most blocks: a paragraph or item on one line, its text the line's
        spans = sentence_spans(text, refined=True)
        ranks = _sentence_ranks(text, spans, keywords, terms)
        priorities.append(_line_rank(lines, start, text, 0, spans, ranks, short_forms))
        return
    # The parts joined with a space between each two, which puts one at the start after an
    # empty first line (`text` has none, and is the rest): the offsets of the pieces are in
    # this text.
    joined = text
    if not parts[0]:
        joined = " " + text
        keywords = [keyword + 1 for keyword in keywords]
    # Where each line's part starts in `joined`, and one more: where a part after the last
    # would start, past the end.
    offsets = list(accumulate(map(_ONE.__add__, map(len, parts)), initial=0))
    spans = _block_spans(joined)
    if max(map(len, lines[start : start + len(parts)])) <= _WRAPPED_WIDTH:
        # Hard-wrapped prose: no line long enough for a short form.
        priorities.extend(_wrapped_ranks(joined, spans, offsets, keywords, terms))
        return
    # Each line ranks as the best of its pieces (PROSE without any: every rank is as good);
    # only a long line, which may get a short form, needs its pieces themselves.
    ranks = [PROSE] * len(parts)
    long_lines: dict[int, tuple[list[tuple[int, int]], list[int]]] = {
        position: ([], [])
        for position in range(len(parts))
        if len(lines[start + position]) > _WRAPPED_WIDTH
    }
    for position, low, high, piece_rank in _pieces(joined, spans, offsets, keywords, terms):
        ranks[position] = min(ranks[position], piece_rank)
        if position in long_lines:
            long_lines[position][0].append((low, high))
            long_lines[position][1].append(piece_rank)
    for position, (line_spans, piece_ranks) in long_lines.items():
        ranks[position] = _line_rank(
            lines,
            start + position,
            parts[position],
            offsets[position],
            line_spans,
            piece_ranks,
            short_forms,
        )
    priorities.extend(ranks)


def _line_rank(
    lines: list[str],
    index: int,
    part: str,
    offset: int,
    spans: list[tuple[int, int]],
    ranks: list[int],
    short_forms: dict[int, ShortForm],
) -> int:
    """The rank of line `index` of a prose block by the `ranks` of its pieces of sentences
    (`spans`, at `offset` from the line's `part` in the block's joined text): the best, or the
    worst and a short form of the best when the line is long."""
    if len(ranks) < 2:  # no sentence to cut (or an empty list item)
        return ranks[0] if ranks else PROSE
    best = min(ranks)
    full = max(ranks)
    line = lines[index]
    if best != full and len(line) > _WRAPPED_WIDTH:
        # The part is the line's content: it ends where the line's trailing blanks start.
        prefix_end = len(line.rstrip()) - len(part)
        short = _short_text(line, prefix_end, prefix_end - offset, spans, ranks, best)
        if len(line) - len(short) >= _MIN_SAVING:
            short_forms[index] = ShortForm(short, best)
            return full
    return best


def _block_spans(text: str) -> list[tuple[int, int]]:
    """The sentences of a block's joined `text`, without the space an empty first line (an
    empty list item) leaves at its start."""
    spans = sentence_spans(text, refined=True)
    if spans and text[:1].isspace():
        start, end = spans[0]
        start = end - len(text[start:end].lstrip())
        spans[:1] = [(start, end)] if start < end else []
    return spans


def _wrapped_ranks(
    text: str,
    spans: list[tuple[int, int]],
    offsets: list[int],
    keywords: list[int],
    terms: TaskTerms,
) -> list[int]:
    """Each line's rank in a block of lines too short for short forms: the best of its pieces'
    (PROSE without any: every rank is as good), as `_pieces` would give them.

    A sentence over a few lines ranks all of them (each line holds a piece of it: a sentence
    starts and ends in a part, and the parts between are whole); only a spread one is ranked
    piece by piece."""
    ranks = [PROSE] * (len(offsets) - 1)
    first = 0  # the line a sentence starts on: the sentences are in order
    sentence_ranks = _sentence_ranks(text, spans, keywords, terms)
    for number, (start, end) in enumerate(spans):
        first, last = _lines_spanned(offsets, first, start, end)
        rank = sentence_ranks[number]
        if last - first < _lines_ranked_whole(rank):
            for position in range(first, last + 1):
                ranks[position] = min(ranks[position], rank)
            continue
        for position in range(first, last + 1):
            low = max(start, offsets[position])
            high = min(end, offsets[position + 1] - 1)
            first_piece = number == 0 and position == first
            piece_rank = _rank(text, low, high, first_piece, keywords, terms)
            ranks[position] = min(ranks[position], piece_rank)
    return ranks


def _pieces(
    text: str,
    spans: list[tuple[int, int]],
    offsets: list[int],
    keywords: list[int],
    terms: TaskTerms,
) -> Iterator[tuple[int, int, int, int]]:
    """The pieces of the sentences (`spans`) of `text` on each line, in order: the line's
    position in the block, the piece's start and end in `text`, and its rank. `text`: the
    lines' parts joined by spaces, each at its offset (a sentence may go on over a line
    break)."""
    first = 0  # the line a sentence starts on: the sentences are in order
    sentence_ranks = _sentence_ranks(text, spans, keywords, terms)
    for number, (sentence_start, sentence_end) in enumerate(spans):
        first, last = _lines_spanned(offsets, first, sentence_start, sentence_end)
        sentence_rank = sentence_ranks[number]
        if first == last:
            yield first, sentence_start, sentence_end, sentence_rank
            continue
        spread = last - first + 1 > _lines_ranked_whole(sentence_rank)
        for position in range(first, last + 1):
            low = max(sentence_start, offsets[position])
            high = min(sentence_end, offsets[position + 1] - 1)
            if low >= high:
                continue
            piece_rank = sentence_rank
            if spread:
                first_piece = number == 0 and position == first
                piece_rank = _rank(text, low, high, first_piece, keywords, terms)
            yield position, low, high, piece_rank


def _lines_spanned(offsets: list[int], first: int, start: int, end: int) -> tuple[int, int]:
    """The first and last line of a block that the sentence `start`..`end` of its joined text
    is on, searched from line `first` (the sentences come in order)."""
    while offsets[first + 1] <= start:
        first += 1
    last = first
    while offsets[last + 1] < end:
        last += 1
    return first, last


def _lines_ranked_whole(rank: int) -> int:
    """How many lines a sentence of `rank` may spread over and still rank each of them as a
    whole; a sentence over more is ranked piece by piece."""
    return _MAX_REQUIREMENT_LINES if rank == REQUIREMENT else _MAX_SENTENCE_LINES


def _sentence_ranks(
    text: str, spans: list[tuple[int, int]], keywords: list[int], terms: TaskTerms
) -> list[int]:
    """`_rank` of each sentence (`spans`, in order: the first is the first sentence) of
    `text`.

    Without a task term, found by what sets a rank apart (a keyword, an opening `[`) rather
    than by asking each sentence: each keyword is in the sentence that ends first after it,
    and only a sentence that opens with `[` can be a link to a heading."""
    if terms.terms:
        return [_rank(text, s, e, n == 0, keywords, terms) for n, (s, e) in enumerate(spans)]
    ranks = [PROSE] * len(spans)
    if not spans:
        return ranks
    ranks[0] = FIRST_SENTENCE
    if keywords:
        ends = [end for _, end in spans]
        for keyword in keywords:
            number = bisect_right(ends, keyword)
            if number < len(spans) and spans[number][0] <= keyword:
                ranks[number] = REQUIREMENT
    if "[" in text:
        for number, (start, end) in enumerate(spans):
            if text[start] == "[" and _ANCHOR_LINK.fullmatch(text, start, end):
                ranks[number] = PROSE
    return ranks


def _rank(
    text: str, start: int, end: int, first: bool, keywords: list[int], terms: TaskTerms
) -> int:
    """The rank of the sentence (or piece of one) `text[start:end]`; `first`: the first
    sentence, or its first piece. `keywords`: where the requirement keywords of `text` start;
    `terms`: empty unless the text names one.

    A sentence or a piece of one is bounded by spaces or the ends of the text, and a keyword is
    a whole word, so the keyword is in it exactly when one of the text's starts in it: the text
    is searched once, not each sentence again."""
    mentioned = bool(terms.terms) and terms.matches(text[start:end])
    if text[start] == "[" and not mentioned and _ANCHOR_LINK.fullmatch(text, start, end):
        return PROSE
    keyword = bisect_left(keywords, start)
    if keyword < len(keywords) and keywords[keyword] < end:
        return REQUIREMENT
    if first or mentioned:
        return FIRST_SENTENCE
    return PROSE


def _short_text(
    line: str,
    prefix_end: int,
    shift: int,
    spans: Sequence[tuple[int, int]],
    ranks: Sequence[int],
    rank: int,
) -> str:
    """The line's indentation and marker, then its pieces (`spans`, at `shift` from their
    offsets in the line) of `rank`: neighbouring pieces as the one verbatim stretch they are,
    ``…`` where something lies cut before or between them."""
    stretches: list[tuple[int, int]] = []
    cut_before_first = False
    cut_before_next = False
    for (start, end), piece_rank in zip(spans, ranks, strict=True):
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
    kept = f" {_CUT} ".join([line[start + shift : end + shift] for start, end in stretches])
    return line[:prefix_end] + head + kept
