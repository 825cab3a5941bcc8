"""The token-counting port."""

from __future__ import annotations

from abc import ABC, abstractmethod


class TokenCounter(ABC):
    """Counts tokens exactly as a model's tokenizer does.

    Adapters raise `UnknownEncodingError` for an encoding they do not have and
    `TokenCountingError` when they cannot count; callers that the seeds allow to fall back use
    `cleveragents.domain.tokens.heuristic_token_estimate` and say that they did.
    """

    @property
    @abstractmethod
    def encoding_name(self) -> str:
        """The tokenizer's encoding, e.g. ``cl100k_base``."""

    @abstractmethod
    def count(self, text: str) -> int:
        """The exact number of tokens in `text` (special-token text counts as plain text)."""
