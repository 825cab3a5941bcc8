"""Which strategy compresses which kind of artifact."""

from __future__ import annotations

from cleveragents.application.ports.source_skeleton import SourceSkeletonizer
from cleveragents.application.services.artifact_compression.detection import Detected
from cleveragents.application.services.artifact_compression.diff import DiffStrategy
from cleveragents.application.services.artifact_compression.json_document import JsonStrategy
from cleveragents.application.services.artifact_compression.logs import LogStrategy
from cleveragents.application.services.artifact_compression.markdown import MarkdownStrategy
from cleveragents.application.services.artifact_compression.plain_text import PlainTextStrategy
from cleveragents.application.services.artifact_compression.source import SourceStrategy
from cleveragents.application.services.artifact_compression.strategy import ArtifactStrategy
from cleveragents.domain.artifact import ArtifactKind


def strategy_for(detected: Detected, skeletonizer: SourceSkeletonizer) -> ArtifactStrategy:
    """The strategy of a detected kind. To add a kind: a module beside this one implementing
    `ArtifactStrategy`, a line here, and its suffix or sniffing rule in `detection`."""
    if detected.kind is ArtifactKind.DIFF:
        return DiffStrategy()
    if detected.kind is ArtifactKind.JSON:
        return JsonStrategy()
    if detected.kind is ArtifactKind.LOG:
        return LogStrategy()
    if detected.kind is ArtifactKind.MARKDOWN:
        return MarkdownStrategy()
    if detected.kind is ArtifactKind.SOURCE and detected.language is not None:
        return SourceStrategy(skeletonizer, detected.language)
    return PlainTextStrategy()
