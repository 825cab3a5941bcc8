"""The names the API accepts for formats, kinds and modes: the domain vocabulary's, checked at
run time.

A `Literal` cannot be built from the vocabulary for a type checker, so the `...Name` aliases
are `str`: any of the enum's values is accepted, as its member is, and anything else is an
`InvalidInputError` that lists them.
"""

from __future__ import annotations

from typing import TypeAlias

from cleveragents.domain import vocabulary
from cleveragents.domain.vocabulary import (
    ArtifactKind,
    CompressionMode,
    SecretHandling,
    TranscriptFormat,
    member,
)

TranscriptFormatName: TypeAlias = str
"""A `TranscriptFormat` value: ``anthropic``, ``openai``, ``openai-responses`` or
``claude-code``."""
ArtifactKindName: TypeAlias = str
"""An `ArtifactKind` value (``diff``, ``json``, ``log``, ...), or a registered kind's name."""
CompressionModeName: TypeAlias = str
"""A `CompressionMode` value: ``smart`` or ``tiered``."""
SecretHandlingName: TypeAlias = str
"""A `SecretHandling` value: ``block`` or ``redact``."""


def transcript_format(value: TranscriptFormat | str | None) -> TranscriptFormat | None:
    return None if value is None else member(TranscriptFormat, value, "transcript format")


def artifact_kind(value: ArtifactKind | str | None) -> ArtifactKind | None:
    return None if value is None else vocabulary.artifact_kind(value)


def compression_mode(value: CompressionMode | str) -> CompressionMode:
    return member(CompressionMode, value, "compression mode")


def secret_handling(value: SecretHandling | str) -> SecretHandling:
    return member(SecretHandling, value, "secret handling")
