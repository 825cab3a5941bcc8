"""Sentences of markdown prose, found without a model: Tier 2 keeps some of them, and smart mode
ranks each on its own."""

from __future__ import annotations

import re
from collections.abc import Iterator

# Sentence ends: terminal punctuation, optional closing quotes/brackets, whitespace, then a
# character that can start a sentence. Backtick runs are matched too, to skip inline code.
# The patterns read `\`+|[.!?]+...` written to start with one character class (then a
# backtick's run, or the punctuation's rest: `(?<!`)`, the first was not a backtick), which
# lets the regex engine skip ahead to the next candidate instead of trying every position.
_END = r"[.!?]*[\"')\]]*[ \t]+(?=[^a-z\s])"  # what follows a sentence's first `.`, `!` or `?`
# The same, and a footnote reference may follow the punctuation (`done.[^note] Next`), and
# closing emphasis may (`**A whole sentence in bold.** Next`).
_REFINED_END = r"[.!?]*(?:\[\^[^\]\s]{1,40}\])?[\"')\]*_]*[ \t]+(?=[^a-z\s])"
_BOUNDARY = re.compile(rf"[`.!?](?:(?<=`)`*|(?<!`){_END})")
_REFINED_BOUNDARY = re.compile(rf"[`.!?](?:(?<=`)`*|(?<!`){_REFINED_END})")
# The same in a text without a backtick, `!` or `?`, where only a `.` can start one: a
# pattern that starts with one character is found faster still than a class.
_PERIOD_BOUNDARY = re.compile(rf"\.{_END}")
_REFINED_PERIOD_BOUNDARY = re.compile(rf"\.{_REFINED_END}")
# The ends alone, without the backtick runs: `_next_end` finds the next one, and then the
# inline code before it, if any, with `str.find`.
_PUNCTUATION_BOUNDARY = re.compile(rf"[.!?]{_END}")
_REFINED_PUNCTUATION_BOUNDARY = re.compile(rf"[.!?]{_REFINED_END}")
_TICKS = re.compile("`+")
_ABBREVIATIONS = frozenset({"e.g", "i.e", "etc", "vs", "cf", "mr", "mrs", "dr", "no", "fig"})


def sentence_spans(
    text: str, *, refined: bool = False, limit: int | None = None, start: int = 0
) -> list[tuple[int, int]]:
    """`(start, end)` of each sentence of `text`, in order, without the whitespace between
    them; never split inside inline code nor after a common abbreviation or an initial.

    `refined` also ends a sentence after a footnote reference (`done.[^note] Next`), before
    closing emphasis (`**Bold.** Next`), and after a one-digit number (`between 5 and 8.
    This`), which the first splitter took for an initial. Tier 2 keeps the first splitter: its
    output is documented and measured. With `limit`, only the first `limit` sentences. With
    `start`, the sentences from there: it must be where one starts (0, or after the end of one
    found here), outside inline code."""
    spans: list[tuple[int, int]] = []
    for end, following in _sentence_ends(text, refined, start):
        spans.append((start, end))
        start = following
        if len(spans) == limit:
            return spans
    if text[start:].strip():
        spans.append((start, len(text)))
    return spans


def first_sentence_end(text: str, *, refined: bool = True) -> int:
    """Where the first sentence of `text` ends (as `sentence_spans` finds it, the refined
    splitter's unless told): the end of the text when it is one sentence."""
    if refined and "[^" in text:
        for end, _ in _sentence_ends(text, refined):
            return end
        return len(text)
    found = _next_end(text, _ends(text, refined), refined, 0)
    return len(text) if found is None else found[0]


def ends_view(text: str) -> str | None:
    """`text` as `next_end` looks for the first splitter's sentence ends in it, or None when it
    holds a run of backticks (then `next_end` takes each run as it comes).

    Each `!` and `?` is written `.`: the period's pattern then finds every end, and the regex
    engine skips ahead to one character faster than to one of three (the ends and their lengths
    are the same; whether a `.` may end an abbreviation is read in `text`)."""
    if "``" in text:
        return None
    if "!" in text:
        text = text.replace("!", ".")
    if "?" in text:
        text = text.replace("?", ".")
    return text


def next_end(text: str, view: str | None, position: int) -> tuple[int, int] | None:
    """Where the sentence of `text` that starts at `position` ends, as the first splitter finds
    it, and where the next one starts; None when it runs to the end of the text. `view` is
    `ends_view(text)`; `position` is 0 or where a sentence found so starts. A loop over these
    finds what `sentence_spans` finds, without a generator and a list of spans between (Tier 2
    looks at thousands of paragraphs, most of a few sentences).

    Without runs of backticks, inline code opens at a backtick and closes at the next
    (unclosed, it runs to the end), and a sentence starts outside code: an end is inside code
    exactly when an odd number of backticks stands between the sentence's start and it (no end
    holds a backtick), which one `str.count` tells."""
    if view is None:
        return _next_end(text, _ends(text, False), False, position)
    match = _PERIOD_BOUNDARY.search(view, position)
    while match is not None:
        at = match.start()
        following = match.end()
        if not text.count("`", position, at) % 2 and (
            text[at] != "." or not (_may_abbreviate(text, at) and _abbreviates(text, at, False))
        ):
            return at + len(match.group().rstrip()), following
        match = _PERIOD_BOUNDARY.search(view, following)
    return None


def _sentence_ends(text: str, refined: bool, start: int = 0) -> Iterator[tuple[int, int]]:
    """Where each sentence of `text` after `start` but the last ends, and where the next one
    starts.

    Inline code opens at a run of backticks and closes at the next run of the same length;
    unclosed, it runs to the end. Nothing inside it ends a sentence, and no match of the
    pattern inside it can hold a backtick (a footnote reference can: then each match is
    looked at), so the closing run is found with `str.find`, past the code in one step."""
    if refined and "[^" in text:
        yield from _sentence_ends_stepwise(text, _boundaries(text, refined), refined, start)
        return
    ends = _ends(text, refined)
    while (found := _next_end(text, ends, refined, start)) is not None:
        yield found
        start = found[1]


def _next_end(
    text: str, ends: re.Pattern[str], refined: bool, position: int
) -> tuple[int, int] | None:
    """The first `(end, next start)` of `_sentence_ends` from `position` (outside inline
    code; no footnote reference in a refined text), or None.

    The next match of `ends` is found first, then the inline code that opens before it, if
    any, with `str.find`: a match inside the code is passed over, one after it still holds
    (none was found between). A paragraph whose only sentence holds code (most list items) so
    costs one search, however much code it holds."""
    match = ends.search(text, position)
    while match is not None:
        at = match.start()
        tick = text.find("`", position, at)
        if tick >= 0:  # code opens before the end found: to where it closes
            run = tick + 1
            if text[run : run + 1] == "`":  # a longer run: found by a pattern, however long
                found = _TICKS.match(text, tick)
                run = tick if found is None else found.end()
            position = _closing_run(text, run, run - tick)
            if position < 0:
                return None  # unclosed: code to the end
            if position > at:
                match = ends.search(text, position)
            continue
        token = match.group()
        position = match.end()
        if token[0] == "." and _may_abbreviate(text, at) and _abbreviates(text, at, refined):
            match = ends.search(text, position)
            continue
        return at + len(token.rstrip()), position
    return None


def _closing_run(text: str, position: int, length: int) -> int:
    """Where the first run of exactly `length` backticks at or after `position` ends (every
    run found from its first backtick: `position` follows a whole run), or -1."""
    ticks = "`" * length
    at = text.find(ticks, position)
    while at >= 0:
        end = at + length
        if text[end : end + 1] != "`":
            return end
        while text[end : end + 1] == "`":
            end += 1  # a longer run: past it whole
        at = text.find(ticks, end)
    return -1


def _abbreviates(text: str, at: int, refined: bool) -> bool:
    """Whether the word before the `.` at `at` is an initial or a common abbreviation."""
    word = text[text.rfind(" ", 0, at) + 1 : at].lstrip("(\"'[")
    initial = len(word) == 1 and not (refined and word.isdigit())
    return initial or word.lower() in _ABBREVIATIONS


def _sentence_ends_stepwise(
    text: str, boundaries: re.Pattern[str], refined: bool, start: int
) -> Iterator[tuple[int, int]]:
    """`_sentence_ends`, each backtick run and each match inside inline code looked at."""
    open_ticks = 0
    for match in boundaries.finditer(text, start):
        token = match.group()
        if token[0] == "`":
            if open_ticks == 0:
                open_ticks = len(token)
            elif len(token) == open_ticks:
                open_ticks = 0
            continue
        if open_ticks:
            continue
        at = match.start()
        if token[0] == "." and _may_abbreviate(text, at) and _abbreviates(text, at, refined):
            continue
        yield at + len(token.rstrip()), match.end()


def _may_abbreviate(text: str, at: int) -> bool:
    """Whether the word before the `.` at `at` may be an initial or an abbreviation, which are
    at most 3 characters long (after the brackets and quotes that may open them): not when
    the 4 characters before the `.` hold no space and the first of them opens nothing."""
    before = text[at - 4 : at] if at >= 4 else ""
    return not before or " " in before or before[0] in "(\"'["


def _ends(text: str, refined: bool) -> re.Pattern[str]:
    """The pattern of sentence ends for `text`."""
    if "!" in text or "?" in text:
        return _REFINED_PUNCTUATION_BOUNDARY if refined else _PUNCTUATION_BOUNDARY
    return _REFINED_PERIOD_BOUNDARY if refined else _PERIOD_BOUNDARY


def _boundaries(text: str, refined: bool) -> re.Pattern[str]:
    """The pattern of sentence ends and backtick runs for `text`."""
    if "`" in text or "!" in text or "?" in text:
        return _REFINED_BOUNDARY if refined else _BOUNDARY
    return _REFINED_PERIOD_BOUNDARY if refined else _PERIOD_BOUNDARY


def split_sentences(text: str) -> list[str]:
    """The sentences of `text` (see `sentence_spans`)."""
    return [text[start:end] for start, end in sentence_spans(text)]
