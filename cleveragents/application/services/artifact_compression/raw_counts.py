"""How the artifact service counts: the raw count (the heuristic's, with its warning, after a
tokenizer failure), the warning put before the content, and the text as the tokenizer encodes
it."""

from __future__ import annotations

from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.application.services.artifact_compression.compression_run import _Counted
from cleveragents.application.services.counting.heuristic_counter import (
    HEURISTIC_WARNING,
    HeuristicTokenCounter,
)
from cleveragents.domain.errors import TokenCountingError


def _count(counter: TokenCounter, text: str, *, with_starts: bool) -> _Counted:
    """The raw count with the real tokenizer, and where its tokens start when asked for (the
    same encode gives both); after a tokenizer failure, the heuristic's, with the warning."""
    try:
        return _counted(counter, "", text, with_starts)
    except TokenCountingError:
        return _counted(HeuristicTokenCounter(), HEURISTIC_WARNING, text, with_starts)


def _counted(counter: TokenCounter, preamble: str, text: str, with_starts: bool) -> _Counted:
    if not with_starts:
        return _Counted(counter, preamble, counter.count(text), None)
    starts = counter.token_starts(text)
    return _Counted(counter, preamble, len(starts), starts)


def _with_preamble(preamble: str, content: str, budget: int, counter: TokenCounter) -> str:
    """The heuristic warning before the content; a budget smaller than the warning itself gets
    as much of the warning as fits (the budget is never exceeded)."""
    if not preamble:
        return content
    if counter.count(preamble) > budget:
        return counter.prefix_within(preamble, budget)
    return preamble + content


def _as_tokenized(text: str) -> str:
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
