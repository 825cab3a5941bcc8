"""Text helpers of the recovery measurement: what a resumed agent reads as one string, and the
key terms by which a prose fact (a request, a decision, the next step) is recognised when a
summary paraphrased it.

Key terms of a text, in short: backticked code, identifiers and paths (anything with ``_``,
``/``, ``.``, ``:``, ``-``, ``#``, ``@``, a digit beside letters, or an inner capital), numbers
of two digits or more, and words of at least four letters that are not stop words. At most
`MAX_TERMS` are kept: the rarest in the transcript the fact comes from (a term the whole
transcript repeats says little about one fact). Words match any inflection (``persisted``
matches ``persists``, ``persistence``), code matches as written, both ignoring case.

A fact is recovered by its terms when at least `TERM_SHARE` of them occur within one window of
`TERM_WINDOW` characters, so that scattered common words do not add up to a fact.
"""

from __future__ import annotations

import bisect
import json
import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from cleveragents.application.services.compaction.recall.model import Fact, FactCategory
from cleveragents.domain.transcript import Message, TextBlock, ToolCall, ToolResult

MAX_TERMS = 8
"""The most key terms a fact is recognised by."""

MIN_TERMS = 3
"""A text with fewer key terms than this is recognised only verbatim: two words are too little
to tell a paraphrase from a coincidence."""

TERM_SHARE = 0.6
"""The share of a fact's key terms that must occur together (and never fewer than
`MIN_TERMS`: two common words side by side are a coincidence as often as a paraphrase)."""

TERM_WINDOW = 400
"""The span (in characters) within which those terms must occur."""

_LABEL_WIDTH = 120

_BACKTICKED = re.compile(r"`([^`\n]{1,60})`")
_TOKEN = re.compile(r"[A-Za-z0-9_](?:[A-Za-z0-9_./:#@+-]*[A-Za-z0-9_])?")
_CODE_MARK = re.compile(r"[_./:#@+-]|[a-z][A-Z]|[A-Za-z]\d|\d[A-Za-z]")
_SUFFIXES = ("ations", "ation", "ings", "ing", "ied", "ies", "ed", "es", "s", "ly")
_MIN_STEM = 4
_MIN_WORD = 4

# Frequent English words that name nothing in particular, and the filler of requests and
# agent prose ("please", "let's", "going"). Tokens hold no apostrophes: "let's" is "let", "s".
_STOP_TEXT = """
about above after again against also although always another anything around away back
because been before behind being below between both cannot could does doing done down during
each either else enough even ever every everything first from further getting gets give given
goes going gone good great hers herself himself however into itself just keep know last later
least less like likely made make makes making many maybe might mine more most much must myself
need needs never next none nothing okay once only onto other others otherwise ours ourselves
over please probably quite rather really right same seems should since some something still
such sure take than that their theirs them themselves then there these they thing things this
those though through thus together toward towards under unless until upon used using very want
wants were what whatever when where whether which while whom whose will with within without
would your yours yourself yourselves already able actually instead lets look looks thanks
thank sorry fine e.g i.e etc
the and for not but you are was can its all any one our out use yes has had how may now off
see who why did get got let put say too his her him she
"""
STOP_WORDS = frozenset(_STOP_TEXT.split())


def normalise(text: str) -> str:
    """Runs of whitespace as one space, no leading or trailing whitespace."""
    return " ".join(text.split())


def shorten(text: str) -> str:
    """`text` cut to a label's width."""
    return text if len(text) <= _LABEL_WIDTH else text[: _LABEL_WIDTH - 1] + "…"


def prose_fact(
    category: FactCategory,
    label: str,
    text: str,
    frequencies: Counter[str],
    *,
    terms: tuple[str, ...] | None = None,
    spellings: tuple[str, ...] = (),
) -> Fact:
    """A fact recognised by its text as written (or as one of the equivalent `spellings`) or
    by its key terms (when it has at least `MIN_TERMS`; `terms` overrides the ones
    `key_terms` would pick)."""
    chosen = key_terms(text, frequencies) if terms is None else terms
    needles = tuple(dict.fromkeys(normalise(needle) for needle in (text, *spellings)))
    return Fact(category, label, needles, terms=chosen if len(chosen) >= MIN_TERMS else ())


def searchable_text(compacted: Sequence[Message] | str) -> str:
    """What a resumed agent reads, as one whitespace-normalised string: text blocks, tool
    calls (name and arguments), tool results (an error result marked ``[error]``). Thinking
    is left out (providers drop it from later turns), as are images and other blocks.

    Arguments are written as ``key: value`` with string values raw rather than JSON-encoded,
    so a command with quotes or newlines still matches its needle.
    """
    if isinstance(compacted, str):
        return normalise(compacted)
    parts: list[str] = []
    for message in compacted:
        for block in message.content:
            if isinstance(block, TextBlock):
                parts.append(block.text)
            elif isinstance(block, ToolCall):
                parts.append(f"{block.name} {_render(block.input)}")
            elif isinstance(block, ToolResult):
                parts.append(f"[{'error' if block.is_error else 'result'}] {block.content}")
    return normalise("\n".join(parts))


def term_frequencies(text: str) -> Counter[str]:
    """How often each term occurs in `text` (the transcript a fact comes from): words by
    stem, code by its lowercased spelling. The rarity that `key_terms` ranks by."""
    counts: Counter[str] = Counter()
    for token in _TOKEN.findall(text):
        term = _classify(token)
        if term is not None:
            counts[term] += 1
    return counts


def key_terms(
    text: str,
    frequencies: Counter[str] | None = None,
    *,
    limit: int = MAX_TERMS,
    min_word: int = _MIN_WORD,
    exclude: Iterable[str] = (),
) -> tuple[str, ...]:
    """The distinctive terms of `text` (lowercased, words as stems), at most `limit`: the
    rarest by `frequencies` (ties by order), given back in the order they occur."""
    seen = set(exclude)
    found: list[str] = []
    for span in _BACKTICKED.findall(text):
        term = span.strip().lower()
        if len(term) >= 2 and term not in seen and not _is_stop(term):
            seen.add(term)
            found.append(term)
    for token in _TOKEN.findall(_BACKTICKED.sub(" ", text)):
        term = _classify(token, min_word=min_word)
        if term is not None and term not in seen:
            seen.add(term)
            found.append(term)
    counts = frequencies or Counter()
    ranked = sorted(range(len(found)), key=lambda index: (counts[found[index]], index))
    return tuple(found[index] for index in sorted(ranked[:limit]))


def terms_recovered(terms: Sequence[str], haystack: str) -> bool:
    """Whether at least `TERM_SHARE` of `terms`, and at least `MIN_TERMS` of them, occur
    within one `TERM_WINDOW` of `haystack` (never, for fewer than `MIN_TERMS` terms)."""
    if len(terms) < MIN_TERMS:
        return False
    needed = max(MIN_TERMS, math.ceil(TERM_SHARE * len(terms) - 1e-9))
    index = _index(haystack)
    events: list[tuple[int, int]] = []
    for number, term in enumerate(terms):
        positions = index.positions(term)
        events.extend((position, number) for position in positions)
    if len({number for _, number in events}) < needed:
        return False
    events.sort()
    inside: Counter[int] = Counter()
    left = 0
    for position, number in events:
        inside[number] += 1
        while events[left][0] < position - TERM_WINDOW:
            gone = events[left][1]
            inside[gone] -= 1
            if not inside[gone]:
                del inside[gone]
            left += 1
        if len(inside) >= needed:
            return True
    return False


class _Index:
    """Where the words and the text of one haystack are, for looking terms up quickly."""

    def __init__(self, haystack: str) -> None:
        self.lowered = haystack.lower()
        by_word: dict[str, list[int]] = {}
        for match in re.finditer(r"[a-z0-9]+", self.lowered):
            by_word.setdefault(match.group(), []).append(match.start())
        self.by_word = by_word
        self.vocabulary = sorted(by_word)

    def positions(self, term: str, limit: int = 5_000) -> list[int]:
        if term.isdigit():
            return self.by_word.get(term, [])[:limit]
        if term.isalpha():
            found: list[int] = []
            start = bisect.bisect_left(self.vocabulary, term)
            for word in self.vocabulary[start:]:
                if not word.startswith(term):
                    break
                found.extend(self.by_word[word])
            return sorted(found)[:limit]
        found = []
        start = self.lowered.find(term)
        while start >= 0 and len(found) < limit:
            found.append(start)
            start = self.lowered.find(term, start + 1)
        return found


@lru_cache(maxsize=2)
def _index(haystack: str) -> _Index:
    return _Index(haystack)


def _classify(token: str, *, min_word: int = _MIN_WORD) -> str | None:
    """The term a token stands for (a word's stem, code lowercased), or None."""
    token = token.strip("./:#@+-_")
    if not token:
        return None
    if token.isdigit():
        return token if len(token) >= 2 else None
    lowered = token.lower()
    if lowered in STOP_WORDS:
        return None
    if _CODE_MARK.search(token):
        return lowered
    return stem(lowered) if len(lowered) >= min_word else None


def stem(word: str) -> str:
    """`word` without a common inflection suffix, kept at least four letters long."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= _MIN_STEM:
            return word[: -len(suffix)]
    return word


def _is_stop(term: str) -> bool:
    return term in STOP_WORDS


def _render(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return " ".join(f"{key}: {_render(item)}" for key, item in value.items())
    if isinstance(value, list):
        return " ".join(_render(item) for item in value)
    return json.dumps(value)
