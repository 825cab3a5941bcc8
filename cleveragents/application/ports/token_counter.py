"""The token-counting port."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class TextPiece:
    """A piece of a text to count: its `text`, and, when it was copied unchanged from a text
    already encoded, the UTF-8 byte offset it was copied from (`origin`)."""

    text: str
    origin: int | None = None


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
    def prefix_within(self, text: str, max_tokens: int, starts: Sequence[int] | None = None) -> str:
        """A prefix of `text` (cut at a token boundary) whose own count is <= `max_tokens`.
        `starts`, when given, are the `token_starts` of `text` or of a text it begins: an
        adapter that knows where no token can cross a cut may cut there without encoding."""

    @abstractmethod
    def token_starts(self, text: str) -> Sequence[int]:
        """The UTF-8 byte offset in `text` where each of its tokens starts (one encode: its
        length is the count, and it lets a caller estimate the count of any prefix without
        encoding it again)."""

    def count_pieces(self, pieces: Sequence[TextPiece], source_starts: Sequence[int]) -> int:
        """The exact count of the pieces joined. A piece with an `origin` was copied from a text
        whose `token_starts` are `source_starts`, at that byte offset: an adapter that knows
        where no token can cross a cut counts the inside of such a piece from the starts, and
        encodes only the rest. This default encodes the joined text."""
        return self.count("".join(piece.text for piece in pieces))

    def remembering(self) -> AbstractContextManager[object]:
        """A block whose counts may remember what they encoded, for the later counts in it: the
        texts one compression counts (the raw text, candidates rendered from it, samples of
        them) share most of their words. Nothing is remembered past the block, and every count
        stays exact. This default remembers nothing."""
        return nullcontext()
