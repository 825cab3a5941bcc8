"""The raw count every tier starts from: the artifact's tokens by the real tokenizer, or by the
labelled heuristic after a tokenizer failure (with the warning put before the content), and
the text as the tokenizer encodes it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.application.services.counting.heuristic_counter import (
    HEURISTIC_WARNING,
    HeuristicTokenCounter,
)
from cleveragents.domain.errors import TokenCountingError


@dataclass(frozen=True, slots=True)
class RawCount:
    """The raw text counted: by which counter (the heuristic after a tokenizer failure, with
    the warning that says so as `preamble`), how many tokens, and where they start when asked
    for (one encode gives both)."""

    counter: TokenCounter
    preamble: str
    tokens: int
    starts: Sequence[int] | None

    @property
    def by_heuristic(self) -> bool:
        """Whether the heuristic counted: it never fails, so nothing falls back from it."""
        return isinstance(self.counter, HeuristicTokenCounter)

    def body_budget(self, budget: int) -> int:
        """What `budget` leaves for the content once the heuristic's warning is put before it
        (zero or less: not even the warning fits whole)."""
        return budget - (self.counter.count(self.preamble) if self.preamble else 0)

    def with_preamble(self, content: str, budget: int) -> str:
        """The heuristic's warning before `content`; a budget smaller than the warning itself
        gets as much of the warning as fits (the budget is never exceeded)."""
        if not self.preamble:
            return content
        if self.counter.count(self.preamble) > budget:
            return self.counter.prefix_within(self.preamble, budget)
        return self.preamble + content


def count_raw(counter: TokenCounter, text: str, *, with_starts: bool) -> RawCount:
    """The raw count with the real tokenizer, and where its tokens start when asked for (the
    same encode gives both); after a tokenizer failure, the heuristic's, with the warning."""
    try:
        return _counted(counter, "", text, with_starts)
    except TokenCountingError:
        return heuristic_count(text, with_starts=with_starts)


def heuristic_count(text: str, *, with_starts: bool = False) -> RawCount:
    """The heuristic's count of `text`, with the warning that says so: also the fallback of a
    whole compression when the tokenizer fails on a text after the raw one."""
    return _counted(HeuristicTokenCounter(), HEURISTIC_WARNING, text, with_starts)


def count_streamed(counter: TokenCounter, chunks: Callable[[], Iterable[str]]) -> RawCount:
    """The raw count of an artifact too large to hold, read in `chunks()` (called again for
    the heuristic's count after a tokenizer failure); no token starts."""
    try:
        return RawCount(counter, "", counter.count_stream(chunks()), None)
    except TokenCountingError:
        heuristic = HeuristicTokenCounter()
        return RawCount(heuristic, HEURISTIC_WARNING, heuristic.count_stream(chunks()), None)


def as_tokenized(text: str) -> str:
    """`text` as the tokenizer encodes it. A Python string can hold surrogates, which UTF-8
    cannot: tiktoken then joins each surrogate pair into the character it stands for and turns
    a lone surrogate into U+FFFD before encoding. Byte offsets of tokens (line costs, Tier 3
    cuts) are only right for that text, so the service works on it throughout. `isascii` is
    O(1) in CPython, so ordinary text pays nothing."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


def _counted(counter: TokenCounter, preamble: str, text: str, with_starts: bool) -> RawCount:
    if not with_starts:
        return RawCount(counter, preamble, counter.count(text), None)
    starts = counter.token_starts(text)
    return RawCount(counter, preamble, len(starts), starts)
