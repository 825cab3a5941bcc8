"""The transcript-format port: reads and writes the conversation formats people have."""

from __future__ import annotations

from abc import ABC, abstractmethod

from cleveragents.domain.transcript import Transcript, TranscriptFormat


class TranscriptCodec(ABC):
    """Anthropic Messages JSON, OpenAI Chat Completions JSON, Claude Code session JSONL.

    Each format is read from and written to text (a file's content) or, for a caller that
    already holds it parsed, its native Python form: the JSON document as dicts and lists
    (Anthropic and OpenAI: a list of messages, or a request object with ``messages``; Claude
    Code: the list of its records, one dict a line).
    """

    @abstractmethod
    def detect(self, text: str) -> TranscriptFormat:
        """The format of `text`; `InvalidInputError` when it is none of them."""

    @abstractmethod
    def read(self, text: str, transcript_format: TranscriptFormat | None = None) -> Transcript:
        """Parse `text` (format detected when None). Malformed input raises `InvalidInputError`
        with one line saying where and what is wrong."""

    @abstractmethod
    def write(self, transcript: Transcript, transcript_format: TranscriptFormat) -> str:
        """`transcript` in `transcript_format`; reading it back gives an equal transcript."""

    @abstractmethod
    def write_bytes(self, transcript: Transcript, transcript_format: TranscriptFormat) -> bytes:
        """`write`'s text as UTF-8, ready for a file: a lone surrogate (which a JSON string may
        hold, ``"\\ud800"``, and UTF-8 cannot) is written as the escape it was read from."""

    @abstractmethod
    def provider(self, transcript_format: TranscriptFormat) -> str:
        """The API whose usage payloads the messages of `transcript_format` carry
        (``anthropic``, ``openai``): how their usage is normalized."""

    @abstractmethod
    def detect_native(self, document: object) -> TranscriptFormat:
        """The format of a parsed document; `InvalidInputError` when it is none of them."""

    @abstractmethod
    def read_native(
        self, document: object, transcript_format: TranscriptFormat | None = None
    ) -> Transcript:
        """Read a parsed document (format detected when None) under the rules of `read`: only
        JSON values (dicts with string keys, lists or tuples, strings, finite numbers, booleans,
        None), else `InvalidInputError` naming where. The transcript shares no object with
        `document`: changing one never changes the other."""

    @abstractmethod
    def write_native(self, transcript: Transcript, transcript_format: TranscriptFormat) -> object:
        """`transcript` as the parsed document of `transcript_format` (what `read_native`
        reads back into an equal transcript): a dict or a list."""
