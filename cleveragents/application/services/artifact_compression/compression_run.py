"""What the tiers share: one compression's input (`CompressionRun`) and what a tier gives back
(`CompressedBody`). The raw count they start from is `raw_counts.RawCount`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cleveragents.application.services.artifact_compression.kinds.kind_compressor import (
    Handles,
    KindCompressor,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms


@dataclass(frozen=True, slots=True)
class CompressionRun:
    """One compression's input: the text (credentials redacted), its kind's compressor, the
    task, the markers' handles and the mode."""

    text: str
    compressor: KindCompressor
    terms: TaskTerms
    handles: Handles
    smart: bool
    redact: Callable[[str], str]
    """Credentials out of a text a kind rewrote (`KindCompressor.rewrites_text`)."""


@dataclass(frozen=True, slots=True)
class CompressedBody:
    """A tier's content, whether it omits anything, and its real count."""

    content: str
    truncated: bool
    tokens: int
    scanned: bool = False
    """Whether `content` is exactly a text the scanner found no credential in: scanning it
    again finds none either (a rewritten document, Tier 2 or a smart fit, is scanned as it
    is made)."""
