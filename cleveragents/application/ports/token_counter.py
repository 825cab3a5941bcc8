"""The token-counting port."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable


class TokenCounter(ABC):
    """Counts tokens exactly as a model's tokenizer does.

    Adapters raise `UnknownEncodingError` for an encoding they do not have and
    `TokenCountingError` when they cannot count; callers that the design allows to fall back use
    `cleveragents.domain.tokens.heuristic_token_estimate` and say that they did.
    """

    @property
    @abstractmethod
    def encoding_name(self) -> str:
        """The tokenizer's encoding, e.g. ``cl100k_base``."""

    @abstractmethod
    def count(self, text: str) -> int:
        """The exact number of tokens in `text` (special-token text counts as plain text)."""

    @abstractmethod
    def count_stream(self, chunks: Iterable[str]) -> int:
        """The exact count of the concatenated `chunks`, holding only a bounded window of text
        (for artifacts too large to hold in memory)."""

    @abstractmethod
    def prefix_within(self, text: str, max_tokens: int) -> str:
        """A prefix of `text` (cut at a token boundary) whose own count is <= `max_tokens`."""

    @abstractmethod
    def token_starts(self, text: str) -> list[int]:
        """The UTF-8 byte offset in `text` where each of its tokens starts (one encode: lets a
        caller estimate the count of any prefix without encoding it again)."""

    def token_starts_later(self, text: str) -> Callable[[], list[int]]:
        """`token_starts(text)`, begun now and returned by calling the result, so the caller
        can do other work meanwhile (an adapter whose tokenizer runs outside the
        interpreter lock encodes on other threads). Errors are raised by the call. This
        default counts at once."""
        try:
            starts = self.token_starts(text)
        except Exception as error:  # raised where the result is asked for, as promised
            failure = error

            def fail() -> list[int]:
                raise failure

            return fail
        return lambda: starts
