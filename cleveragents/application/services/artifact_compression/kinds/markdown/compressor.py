"""Plan/PRD markdown: Tier 2 keeps every heading, table and code block and condenses
the prose ("preserving key nouns and action verbs", "remove redundant examples"); smart mode
ranks the original lines (`line_plan`).

The condensation is deterministic, with no model: a paragraph or list item keeps its first
sentence, and later sentences only when they carry something a judge checks (a task term, inline
code, a number, a requirement keyword); kept sentences lose filler words from a fixed list.
Kept sentences are written one per line; a markdown renderer still joins them into one
paragraph. The blocks come from `blocks`: everything but prose is copied as it is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from itertools import accumulate

from cleveragents.application.ports.token_counter import TextPiece
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import (
    KindCompressor,
    LinePlan,
)
from cleveragents.application.services.artifact_compression.kinds.markdown.blocks import (
    Kind,
    Segment,
    looks_like_block,
    scan,
    split_lines,
)
from cleveragents.application.services.artifact_compression.kinds.markdown.line_plan import (
    markdown_line_plan,
)
from cleveragents.application.services.artifact_compression.kinds.markdown.sentences import (
    ends_view,
    next_end,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from cleveragents.domain.artifact import ArtifactKind


def _holds_any(text: str, parts: tuple[str, ...]) -> bool:
    """Whether `text` holds one of `parts` (a loop: `any()` of a generator, or of a `map`,
    costs half as much again on the short texts of a sentence)."""
    for part in parts:  # noqa: SIM110 -- the loop is the fast form
        if part in text:
            return True
    return False


def _words_after(words: list[str], not_before: str) -> str:
    """An alternation of `words`, each only where no character of the class `not_before`
    precedes it.

    Written `t(?:he(?<!Xthe))|a(?:...)`, grouped by first letter with the test of what comes
    before behind each word, rather than `(?<!X)(?:the|a|...)`: a pattern that starts with one
    of a few letters lets the regex engine skip to them, and the test runs only on a whole
    word. Some 1.6 times as fast as the plain form, which tries the test at every character."""
    by_letter: dict[str, list[str]] = {}
    for word in words:
        by_letter.setdefault(word[0], []).append(rf"{word[1:]}(?<!{not_before}{word})")
    return "|".join(f"{letter}(?:{'|'.join(group)})" for letter, group in by_letter.items())


def _by_first_letter(words: list[str], after: dict[str, str]) -> str:
    """An alternation of `words` grouped by first letter (`t(?:he)|a(?:|n)|...`), each word
    followed by its test in `after`, if any: the regex engine then tries one branch per letter
    rather than one per word."""
    by_letter: dict[str, list[str]] = {}
    for word in words:
        by_letter.setdefault(word[0], []).append(word[1:] + after.get(word, ""))
    return "|".join(f"{letter}(?:{'|'.join(group)})" for letter, group in by_letter.items())


# RFC 2119 keywords in capitals, plus the plain-prose obligations "must" and "shall", as whole
# words (`\b` before a word is "no word character before it").
_REQUIREMENT_WORDS = ["MUST", "SHALL", "SHOULD", "REQUIRED", "RECOMMENDED"]
_REQUIREMENT_WORDS += ["Must", "must", "Shall", "shall"]
_REQUIREMENT = re.compile("(?:" + _words_after(_REQUIREMENT_WORDS, r"\w") + r")\b")
_REQUIREMENT_PARTS = ("ust", "UST", "hall", "HALL", "SHOULD", "REQUIRED", "RECOMMENDED")


def _has_requirement(text: str) -> bool:
    """`_REQUIREMENT` found in `text`; substring tests first, which are several times faster
    than the pattern and rule out most prose."""
    return _holds_any(text, _REQUIREMENT_PARTS) and bool(_REQUIREMENT.search(text))


_NUMBER = re.compile(r"\d")
_ASCII_DIGITS = tuple("0123456789")


def _has_digit(text: str) -> bool:
    """Whether `text` holds a digit (`\\d`: any decimal digit, which in ASCII text is one of
    0-9, found by substring tests three times faster than the pattern)."""
    if text.isascii():
        return _holds_any(text, _ASCII_DIGITS)
    return _NUMBER.search(text) is not None


_NON_BLANK = re.compile(r"\S")
_EXAMPLE = re.compile(r"(?:for example|for instance|e\.g\.|example:)", re.IGNORECASE)

# Spans the filler deletion must never touch: inline code, link targets, autolinks, bare URLs.
# Each starts with a character of its own (a backtick run written "`"`*, not `+), which lets the
# regex engine skip to them.
_PROTECTED = re.compile(r"(``*[^`]*`+|\]\([^)]*\)|<[^<>\s]+>|https?://\S+)")
# The same, where no span runs past a line break: in `_telegraph_all`'s text, a line break
# separates two sentences (a sentence holds none), and each span stays in its sentence.
_PROTECTED_IN_LINE = re.compile(r"(``*[^`\n]*`+|\]\([^)\n]*\)|<[^<>\s]+>|https?://\S+)")
_PHRASE_REPLACEMENTS = {
    "it is important to note that": "",
    "it should be noted that": "",
    "it is worth noting that": "",
    "due to the fact that": "because ",
    "in the event that": "if ",
    "for the purpose of": "for ",
    "in order to": "to ",
    "is able to": "can ",
    "are able to": "can ",
}
# One pattern for every wordy phrase (one pass per span of prose, not one per phrase).
_PHRASES = re.compile(
    r"(?<![\w-])(" + "|".join(re.escape(p) for p in _PHRASE_REPLACEMENTS) + r")(?![\w-])[ \t]*",
    re.IGNORECASE,
)


# Every phrase holds its longest stretch without i, k and s, in letters that case-insensitive
# matching ties to no other character (unlike i, k and s): text that, lowered, holds none of
# them holds no phrase, and skips the pattern.
_PHRASE_PARTS = tuple(max(re.split("[iks]", phrase), key=len) for phrase in _PHRASE_REPLACEMENTS)
# What `_PHRASES` must not find before or after a phrase, in lowered ASCII text: a word
# character (a lower-case letter, a digit, `_`) or `-`. Never the empty string (nothing, at an
# end of the text).
_JOINING = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_-")
_PHRASE_LIST = tuple(_PHRASE_REPLACEMENTS)
_PHRASE_SHORT = tuple(_PHRASE_REPLACEMENTS.values())


# The same phrases in lower case, for a text lowered first: matched case-sensitively, some
# 1.5 times as fast. Only for ASCII text, where lowering keeps every offset and
# case-insensitive matching ties each letter to its two cases only.
def _shorten_phrases(text: str) -> str:
    """`_PHRASES.sub(_replace_phrase, text)`. On ASCII text, where lowering keeps every offset
    and case-insensitive matching ties each letter to its two cases only, each phrase is found
    in the lowered text with `str.find` (a pass of the pattern over a whole document costs
    several times more) and the matches are taken as the pattern takes them: the leftmost
    first, at one place the first phrase of the list, none overlapping the one before."""
    if not text.isascii():
        return _PHRASES.sub(_replace_phrase, text)
    lowered = text.lower()
    # Each phrase found as one int, its start times 16 plus its place in the list: sorted as
    # (start, place), and none of the thousands of tuples the collector would walk.
    found: list[int] = []
    for number, phrase in enumerate(_PHRASE_LIST):
        at = lowered.find(phrase)
        while at >= 0:
            # The characters around the phrase (empty at an end), tested inline: thousands of
            # phrases in a long text.
            end = at + len(phrase)
            if lowered[at - 1 : at] not in _JOINING and lowered[end : end + 1] not in _JOINING:
                found.append(at << 4 | number)
            at = lowered.find(phrase, at + 1)
    if not found:
        return text
    found.sort()
    kept: list[str] = []
    position = 0
    size = len(text)
    for key in found:
        at = key >> 4
        if at < position:
            continue  # inside the phrase before, or at its place after a phrase before it
        number = key & 15
        kept.append(text[position:at])
        kept.append(_PHRASE_SHORT[number])
        position = at + len(_PHRASE_LIST[number])
        while position < size and text[position] in " \t":
            position += 1
    kept.append(text[position:])
    return "".join(kept)


def _replace_phrase(match: re.Match[str]) -> str:
    """The short form of a wordy phrase. Case-insensitive matching also takes letters that
    lower-case to another word (the Turkish dotted and dotless i, U+0130 and U+0131, match
    `i`): such text is kept as it is."""
    key = " ".join(match.group(1).lower().split())
    return _PHRASE_REPLACEMENTS.get(key, match.group(0))


# Articles and hedges, lower case after a blank, `(` or `[` (or at the start), or capitalised at
# the start of a sentence; "rather" stays in "rather than", whose meaning depends on it.
_FILLER_WORDS = "the|a|an|really|very|just|basically|actually|simply|quite|somewhat|rather"
_FILLER = re.compile(
    "(?:"
    + _words_after(_FILLER_WORDS.split("|"), r"[^\s(\[]")
    + r")(?<!rather(?=[ \t]+than\b))[ \t]+"
)
_FILLER_START = re.compile(rf"^(?:{_FILLER_WORDS.title()})(?<!Rather(?=[ \t]+than\b))[ \t]+")
# `_FILLER_START` after an `lstrip`, after each line break of a text of sentences joined by line
# breaks (`_telegraph_all`): the blanks it skips are neither a line break nor a span. Blanks
# left at the start of a sentence are stripped with its end; a pattern that starts with the
# line break lets the engine skip ahead to it.
_FILLER_AFTER_BREAK = re.compile(
    rf"\n[^\S\n{chr(0x1F)}]*(?:{_FILLER_WORDS.title()})(?<!Rather(?=[ \t]+than\b))[ \t]+"
)
_SPACE_BEFORE_PUNCT = re.compile(r"[ \t]+(?=[,;:.!?)])")
_SPACES = re.compile(r"[ \t]{2,}")
_SPACE_RUN = re.compile(r"  +")  # `_SPACES` in text without a tab
# `_SPACE_BEFORE_PUNCT` in text whose blanks are single spaces: a pattern that starts with the
# space lets the engine skip ahead to it (one pass, some three times as fast as a
# `str.replace` per mark, each of which copies the whole text).
_SPACE_BEFORE_MARK = re.compile(r" (?=[,;:.!?)])")
_LINK_PARTS = ("](", "<", "http")  # what every `_PROTECTED` span but code holds
_PROTECTED_PARTS = ("`", *_LINK_PARTS)


# While the filler between the protected spans of a sentence is deleted, each span is this one
# character: a blank, which the patterns take for a break between words as they take the ends of
# the text, and neither a space, a tab nor a word character, which they could match or delete.
# One pass over the sentence so does what one pass over each piece of prose between spans did.
_SPAN = "\x1f"


def _telegraph(sentence: str) -> str:
    """Delete filler words and phrases outside code and links; keep a capital at the start."""
    # Each pattern runs only on text that holds what it needs (substring tests are several
    # times faster than a pattern that finds nothing). What a piece of the sentence can hold,
    # the sentence holds: its phrase test is made once.
    phrases = _holds_any(sentence.lower(), _PHRASE_PARTS)
    if not _holds_any(sentence, _PROTECTED_PARTS):
        prose = _shorten_phrases(sentence) if phrases else sentence
        result = _delete_filler(_FILLER_START.sub("", prose.lstrip()))
    else:
        parts = _split_protected(sentence)  # prose, a span, prose, ...
        pieces = parts[0::2]
        if phrases:
            pieces = [_shorten_phrases(piece) for piece in pieces]
        pieces[0] = _FILLER_START.sub("", pieces[0].lstrip())
        if _SPAN in sentence:  # it would be taken for a span: each piece on its own
            parts[0::2] = [_delete_filler(piece) for piece in pieces]
        else:
            parts[0::2] = _delete_filler(_SPAN.join(pieces)).split(_SPAN)
        result = "".join(parts)
    result = result.strip()
    if sentence[:1].isupper() and result[:1].islower():
        result = result[0].upper() + result[1:]
    return result


def _telegraph_all(sentences: list[str]) -> list[str]:
    """`_telegraph` of each sentence, each pattern run once over them all: the sentences joined
    by line breaks, which the patterns take for the ends of a text (none matches across one,
    and a sentence holds none). A document's thousands of sentences so cost a few passes, not
    a dozen Python steps each. A sentence holding a line break or the span character is
    telegraphed on its own."""
    if not sentences:
        return []
    joined = "\n".join(sentences)
    # A sentence holds a line break when the joined text holds more than those between them.
    if _SPAN in joined or joined.count("\n") != len(sentences) - 1:
        return [_telegraph(sentence) for sentence in sentences]
    parts = _PROTECTED_IN_LINE.split(joined)  # prose, a span, prose, ...
    prose = _SPAN.join(parts[0::2])
    prose = _shorten_phrases(prose)
    prose = _FILLER_AFTER_BREAK.sub("\n", "\n" + prose)[1:]
    parts[0::2] = _tidy_blanks(_delete_filler_words(prose)).split(_SPAN)
    results = map(str.strip, "".join(parts).split("\n"))
    return [
        result[0].upper() + result[1:]
        if result[:1].islower() and sentence[:1].isupper()
        else result
        for result, sentence in zip(results, sentences, strict=True)
    ]


def _split_protected(sentence: str) -> list[str]:
    """`_PROTECTED.split(sentence)`. When the only spans are code between single backticks
    (the most common), a split at each backtick makes the same pieces three times faster: the
    pattern pairs the backticks in order, and an odd one left over is prose."""
    if "``" in sentence or _holds_any(sentence, _LINK_PARTS):
        return _PROTECTED.split(sentence)
    parts = sentence.split("`")
    if len(parts) % 2 == 0:  # an odd backtick out: it stays in the prose after it
        parts[-2:] = [parts[-2] + "`" + parts[-1]]
    parts[1::2] = [f"`{code}`" for code in parts[1::2]]
    return parts


def _delete_filler(prose: str) -> str:
    """Filler words deleted from `prose`, then the blanks they leave (`_tidy_blanks`)."""
    return _tidy_blanks(_FILLER.sub("", prose))


# `_FILLER`'s words, each followed by blanks, one after another: what follows one character
# that may come before a filler word. The first word is outside the repetition, and the words
# are grouped by first letter: most characters before a word are followed by none, and so are
# given up at the first letter, before the repetition is set up (some 1.4 times as fast as
# `(?:(?:the|a|...)(?<!rather(?=...))[ \t]+)+`). After "rather", whose test ends the word,
# `(?<!rather(?=X))` is `(?!X)`.
_FILLER_WORD = _by_first_letter(_FILLER_WORDS.split("|"), {"rather": r"(?![ \t]+than\b)"})
_FILLER_CHAIN = rf"(?:{_FILLER_WORD})[ \t]+(?:(?:{_FILLER_WORD})[ \t]+)*"
_FILLER_AFTER = {mark: re.compile(re.escape(mark) + _FILLER_CHAIN) for mark in "\n\x1f(["}
_FILLER_AFTER_SPACE = re.compile(" " + _FILLER_CHAIN)
# ASCII whitespace but the space, \n and \x1f
_OTHER_BLANKS = ("\t", "\x0b", "\x0c", "\r", "\x1c", "\x1d", "\x1e")


def _delete_filler_words(prose: str) -> str:
    """`_FILLER.sub("", prose)` for a long text: a pattern per character that may come before
    a filler word (the start taken as a line break), each starting with that character, which
    the regex engine skips ahead to; the spaces' last. Some 1.4 times as fast as `_FILLER`,
    which tries its words at every letter that starts one.

    The same deletions: `_FILLER` deletes each filler word that such a character precedes and
    blanks follow, each on its own; here a match takes the character and every such word
    after it, and gives the character back. A pass changes nothing that a later one looks
    at: what it deletes starts after the character, which stays, and ends before a character
    that is not blank, so no word comes to follow another character, and "rather" still finds
    (or not) "than" after its blanks. Only "rather" + blanks + a word the spaces' pass would
    delete + "than" could change, which is why that pass comes last. Text holding a tab (a
    blank before a word too, which would break that) or other whitespace goes to `_FILLER`."""
    if not prose.isascii() or _holds_any(prose, _OTHER_BLANKS):
        return _FILLER.sub("", prose)
    prose = "\n" + prose
    for mark, pattern in _FILLER_AFTER.items():
        if mark in prose:
            prose = pattern.sub(mark, prose)
    return _FILLER_AFTER_SPACE.sub(" ", prose)[1:]


def _tidy_blanks(prose: str) -> str:
    """The blanks filler words leave before punctuation and in runs, deleted. Without a tab,
    the blanks are spaces, found by patterns that start with one (the engine skips ahead to
    it) and run only where a substring test says they can match."""
    if "\t" in prose:
        return _SPACES.sub(" ", _SPACE_BEFORE_PUNCT.sub("", prose))
    # Without a tab: runs of spaces made one first, then each space before punctuation
    # deleted (the same result as deleting each run before punctuation first: each run is
    # one space by then).
    if "  " in prose:
        prose = _SPACE_RUN.sub(" ", prose)
    return _SPACE_BEFORE_MARK.sub("", prose)


def _keep_sentence(sentence: str, terms: TaskTerms) -> bool:
    """Whether a sentence after the first is kept. Each test looks for something in the text,
    so it holds for several sentences together when it holds for one of them.

    `"`" in sentence or _has_digit(sentence) or terms.matches(sentence) or
    _has_requirement(sentence)`, the cheapest tests first, written out: thousands of
    sentences, each spared a few calls."""
    if "`" in sentence:
        return True
    if sentence.isascii():
        for digit in _ASCII_DIGITS:
            if digit in sentence:
                return True
    elif _NUMBER.search(sentence) is not None:
        return True
    if terms.terms and terms.matches(sentence):
        return True
    for part in _REQUIREMENT_PARTS:
        if part in sentence:
            return _REQUIREMENT.search(sentence) is not None
    return False


def _continuation(prefix: str) -> str:
    """What starts the line of a later sentence: a quote's `>`, or a blank as wide as the
    list marker and indentation."""
    return prefix if prefix.lstrip().startswith(">") else _NON_BLANK.sub(" ", prefix)


def _condense(prefix: str, text: str, terms: TaskTerms) -> list[str]:
    """The prose `text` as its kept, telegraphic sentences, one per line; `prefix` starts the
    first line."""
    sentences = _chosen_sentences(text, terms)
    return _condensed_lines(prefix, sentences, _telegraph_all(sentences)) if sentences else []


def _chosen_sentences(text: str, terms: TaskTerms) -> list[str]:
    """The sentences of the prose `text` that Tier 2 keeps, as they are: the first, then each
    later one that carries something (`_keep_sentence`); none for an example."""
    kept: list[str] = []
    _choose(text, terms, kept)
    return kept


def _choose(text: str, terms: TaskTerms, kept: list[str]) -> int:
    """`_chosen_sentences(text, terms)` added to `kept`, and how many they are: a document's
    tens of thousands of paragraphs fill one list, not a list each (which the garbage
    collector would walk again and again)."""
    # An example starts with e or f, in either case (no other character matches them).
    if text[0] in "eEfF" and _EXAMPLE.match(text) and not terms.matches(text):
        return 0  # the design's "remove redundant examples"
    # No `.`, `!` or `?` but a `.` that ends the text: one sentence (a sentence ends at one
    # with blanks after it), known without looking for the ends (a third of the paragraphs).
    period = text.find(".")
    if (period < 0 or period == len(text) - 1) and "!" not in text and "?" not in text:
        kept.append(text)
        return 1
    view = ends_view(text)
    found = next_end(text, view, 0)
    if found is None:  # one sentence
        kept.append(text)
        return 1
    first_end, position = found
    kept.append(text[:first_end])
    # When the later sentences together hold nothing that keeps one (most paragraphs), they
    # are not split: the first sentence is all that is kept.
    if not _keep_sentence(text[first_end:], terms):
        return 1
    # The later sentences, each found from where the one before ends (`sentence_spans`'
    # loop, inline).
    before = len(kept)
    while (found := next_end(text, view, position)) is not None:
        sentence = text[position : found[0]]
        if _keep_sentence(sentence, terms):
            kept.append(sentence)
        position = found[1]
    sentence = text[position:]
    if sentence.strip() and _keep_sentence(sentence, terms):
        kept.append(sentence)
    return len(kept) - before + 1


def _reads_as_block(sentence: str) -> bool:
    """`looks_like_block(sentence)`, its commonest answers first: a sentence without a `|` (no
    table) that starts with a letter, or with inline code (a backtick, but not three: a fence),
    starts no block (every other block starts with a blank, a digit or other punctuation),
    which spares most sentences the call and its tests."""
    head = sentence[:1]
    if "|" not in sentence and (head.isalpha() or (head == "`" and sentence[1:3] != "``")):
        return False
    return looks_like_block(sentence)


def _condensed_lines(prefix: str, sentences: list[str], shorts: Sequence[str]) -> list[str]:
    """The lines of a paragraph's kept `sentences`, given their telegraphic `shorts`: one per
    line, `prefix` before the first, the list marker's width (or `>`) before the others."""
    first = shorts[0]
    if _reads_as_block(first):
        first = sentences[0]  # e.g. "The # sign" must not turn into a heading
    lines = [prefix + first]
    continuation = _continuation(prefix) if prefix and len(shorts) > 1 else ""
    for short in shorts[1:]:
        if not short:
            continue
        if _reads_as_block(short):
            lines[-1] += " " + short  # on a line of its own it would start another block
        else:
            lines.append(continuation + short)
    return lines


def _compress(text: str, terms: TaskTerms) -> list[TextPiece]:
    """Render every block; blank lines only between kept blocks, one at most. The blocks are
    `scan`'s segments, not `parse`'s blocks, which would cost a tuple of lines each.

    The sentences every paragraph keeps are chosen first, and telegraphed all at once
    (`_telegraph_all`), before the blocks are written.

    The result comes in pieces whose join is the text: each stretch copied unchanged from
    `text` (code, tables, headings, prose that lost nothing, and the line breaks between them
    where the original has the same) is one piece that says where it was copied from, so the
    pipeline counts its tokens from the raw text's instead of encoding it again."""
    lines = split_lines(text)
    segments = scan(lines)
    kept: list[str] = []  # the sentences every paragraph keeps, in order
    prose = Kind.PROSE  # a local: a member read off its enum is a descriptor call (0.3 us)
    counts = [  # how many of them each segment keeps; -1: it is no prose
        _choose(segment[5], terms, kept) if segment[0] is prose and segment[5] else -1
        for segment in segments
    ]
    shorts = _telegraph_all(kept)
    offsets = _line_offsets(text, lines)
    newline_at_end = text.endswith("\n")
    return _written(lines, offsets, segments, counts, kept, shorts, newline_at_end=newline_at_end)


def _written(  # noqa: PLR0912 -- one loop, its state in local variables: the fast form
    lines: list[str],
    offsets: list[int],
    segments: list[Segment],
    counts: list[int],
    kept: list[str],
    shorts: list[str],
    *,
    newline_at_end: bool,
) -> list[TextPiece]:
    """Tier 2's output as pieces: copied runs of lines and new text, a line break between two
    blocks and a blank line where one is pending. Each segment keeps `counts` of the `kept`
    sentences, whose telegraphic forms are `shorts` (-1: it is no prose, and copied).

    A copy that follows a copy with exactly the original's line breaks between them extends
    it (the count of a copy comes from the raw text's token starts only between its own line
    breaks, so the longer the better); new text between two copies is one piece (it is encoded
    as one run anyway). One loop with the state in local variables: tens of thousands of
    paragraphs, each a few method calls less."""
    pieces: list[TextPiece] = []
    written: list[str] = []  # the new text since the last copy
    copy_start = copy_end = -1  # the lines of the copy being extended (none: -1)
    pending_blank = False
    position = 0  # where the last segment ended: lines before the next one are blank
    taken = 0  # the sentences of the paragraphs before
    for (_, start, end, _, prefix, _, _), count in zip(segments, counts, strict=True):
        blank = pending_blank or start > position
        position = end
        pending_blank = False
        new = None
        if count == 1:  # most paragraphs: `_paragraph` of one sentence, inline
            new = shorts[taken]
            head = new[:1]  # `_reads_as_block(new)`, its first test inline
            if not (head.isalpha() and "|" not in new) and _reads_as_block(new):
                new = kept[taken]  # e.g. "The # sign" must not turn into a heading
            new = prefix + new
            if end - start == 1 and new == lines[start]:
                new = None  # nothing was cut: a copy after all
            taken += 1
        elif count >= 0:
            if not count:
                pending_blank = blank
                continue
            new = _paragraph(prefix, kept, shorts, taken, count, lines, start, end)
            taken += count
        # A copy extends the copy before when the original holds exactly the line breaks
        # written between them: one, or two around an empty line (a blank line of spaces is
        # written without its spaces).
        if (
            new is None
            and copy_start >= 0
            and (start == copy_end + 1 and not lines[copy_end] if blank else start == copy_end)
        ):
            copy_end = end
            continue
        if copy_start >= 0:
            pieces.append(_copied(lines, copy_start, copy_end, offsets))
            copy_start = -1
        if pieces or written:
            written.append("\n\n" if blank else "\n")
        if new is not None:
            written.append(new)
            continue
        if written:
            pieces.append(TextPiece("".join(written)))
            written = []
        copy_start, copy_end = start, end
    if copy_start >= 0:
        pieces.append(_copied(lines, copy_start, copy_end, offsets))
    if newline_at_end:
        written.append("\n")
    if written:
        pieces.append(TextPiece("".join(written)))
    return pieces


def _paragraph(
    prefix: str,
    kept: list[str],
    shorts: list[str],
    taken: int,
    count: int,
    lines: list[str],
    start: int,
    end: int,
) -> str | None:
    """The text of a paragraph (lines `start` to `end`) that keeps `count` sentences of `kept`
    from `taken` on, telegraphed in `shorts`, or None when it is the original's lines (nothing
    was cut: a copy after all)."""
    if count == 1:  # `_condensed_lines` of one sentence
        first = shorts[taken]
        head = first[:1]  # `_reads_as_block(first)`, its first test inline: most sentences
        if not (head.isalpha() and "|" not in first) and _reads_as_block(first):
            first = kept[taken]  # e.g. "The # sign" must not turn into a heading
        line = prefix + first
        return None if end - start == 1 and line == lines[start] else line
    until = taken + count
    rendered = _condensed_lines(prefix, kept[taken:until], shorts[taken:until])
    return None if rendered == lines[start:end] else "\n".join(rendered)


def _copied(lines: list[str], start: int, end: int, offsets: list[int]) -> TextPiece:
    """Lines `start` to `end` of the original, as a copied piece."""
    return TextPiece("\n".join(lines[start:end]), offsets[start])


def _line_offsets(text: str, lines: list[str]) -> list[int]:
    """Where each line starts in `text`, in UTF-8 bytes (the unit of the token starts)."""
    if text.isascii():
        lengths: Iterable[int] = map(len, lines)
    else:
        lengths = (len(line.encode("utf-8", errors="surrogatepass")) for line in lines)
    return list(accumulate((length + 1 for length in lengths), initial=0))


class MarkdownCompressor(KindCompressor):
    """The design's Plan/PRD markdown compressor: structure verbatim, prose condensed. Smart mode
    keeps headings first, then requirement sentences, then first sentences."""

    kind = ArtifactKind.MARKDOWN
    streams = False
    rewrites_text = False

    def tier2(self, text: str, terms: TaskTerms) -> str:
        return "".join(piece.text for piece in _compress(text, terms))

    def tier2_pieces(self, text: str, terms: TaskTerms) -> list[TextPiece]:
        return _compress(text, terms)

    def line_plan(self, lines: list[str], terms: TaskTerms) -> LinePlan:
        return markdown_line_plan(lines, terms)
