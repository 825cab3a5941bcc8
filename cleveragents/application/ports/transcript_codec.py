"""The transcript-format port: reads and writes the conversation formats people have."""

from __future__ import annotations

from abc import ABC, abstractmethod

from cleveragents.domain.transcript import Transcript, TranscriptFormat


class TranscriptCodec(ABC):
    """Anthropic Messages JSON, OpenAI Chat Completions JSON, Claude Code session JSONL."""

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
