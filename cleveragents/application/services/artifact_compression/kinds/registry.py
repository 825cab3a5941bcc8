"""Which compressor compresses which kind of artifact."""

from __future__ import annotations

from cleveragents.application.ports.source_skeleton import SourceSkeletonizer
from cleveragents.application.services.artifact_compression.detection import Detected
from cleveragents.application.services.artifact_compression.kinds.diff.compressor import (
    DiffCompressor,
)
from cleveragents.application.services.artifact_compression.kinds.json.compressor import (
    JsonCompressor,
)
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import (
    KindCompressor,
)
from cleveragents.application.services.artifact_compression.kinds.logs.compressor import (
    LogCompressor,
)
from cleveragents.application.services.artifact_compression.kinds.markdown.compressor import (
    MarkdownCompressor,
)
from cleveragents.application.services.artifact_compression.kinds.plain_text import (
    PlainTextCompressor,
)
from cleveragents.application.services.artifact_compression.kinds.source import SourceCompressor
from cleveragents.domain.artifact import ArtifactKind


def compressor_for(detected: Detected, skeletonizer: SourceSkeletonizer) -> KindCompressor:
    """The compressor of a detected kind. To add a kind: a module or package beside this one
    implementing `KindCompressor`, a line here, and its suffix or sniffing rule in `detection`."""
    if detected.kind is ArtifactKind.DIFF:
        return DiffCompressor()
    if detected.kind is ArtifactKind.JSON:
        return JsonCompressor()
    if detected.kind is ArtifactKind.LOG:
        return LogCompressor()
    if detected.kind is ArtifactKind.MARKDOWN:
        return MarkdownCompressor()
    if detected.kind is ArtifactKind.SOURCE and detected.language is not None:
        return SourceCompressor(skeletonizer, detected.language)
    return PlainTextCompressor()
