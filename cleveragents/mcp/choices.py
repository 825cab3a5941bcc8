"""The choices the tools' schemas offer, built from the domain's vocabulary: a kind, a
transcript format, an encoding is offered by name exactly as the CLI and the Python API accept
it. Built when the tools are defined, so a kind registered before the server is built (a
plugin's) is offered too."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from cleveragents.domain.vocabulary import (
    FORMAT_CHOICES,
    PLAIN_TEXT,
    Encoding,
    artifact_kind_choices,
)

if TYPE_CHECKING:
    from cleveragents.domain.vocabulary import ArtifactKind

    KindChoice = ArtifactKind
    FormatChoice = str
    GateFormatChoice = str
    EncodingChoice = str
else:
    KindChoice = artifact_kind_choices()
    FormatChoice = Literal[FORMAT_CHOICES]  # auto, then each format
    GateFormatChoice = Literal[(*FORMAT_CHOICES, PLAIN_TEXT)]  # and plain text
    EncodingChoice = Literal[tuple(encoding.value for encoding in Encoding)]
