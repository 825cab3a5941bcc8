"""The names the API accepts for formats, kinds and modes, beside their enums."""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Literal, TypeVar

from cleveragents.domain.errors import InvalidInputError

if TYPE_CHECKING:
    from cleveragents.domain.artifact import ArtifactKind, CompressionMode
    from cleveragents.domain.transcript import TranscriptFormat

TranscriptFormatName = Literal["anthropic", "openai", "claude-code"]
ArtifactKindName = Literal["diff", "json", "log", "markdown", "source", "text"]
CompressionModeName = Literal["tiered", "smart"]

_Enum = TypeVar("_Enum", bound=StrEnum)


def transcript_format(value: TranscriptFormat | str | None) -> TranscriptFormat | None:
    from cleveragents.domain.transcript import TranscriptFormat

    return None if value is None else _member(TranscriptFormat, value, "transcript format")


def artifact_kind(value: ArtifactKind | str | None) -> ArtifactKind | None:
    from cleveragents.domain.artifact import ArtifactKind

    return None if value is None else _member(ArtifactKind, value, "artifact kind")


def compression_mode(value: CompressionMode | str) -> CompressionMode:
    from cleveragents.domain.artifact import CompressionMode

    return _member(CompressionMode, value, "compression mode")


def _member(enum: type[_Enum], value: str, what: str) -> _Enum:
    try:
        return enum(value)
    except ValueError:
        known = ", ".join(repr(member.value) for member in enum)
        raise InvalidInputError(f"unknown {what} {value!r}; one of {known}") from None
