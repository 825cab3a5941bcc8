"""The source kind: a file whose extension names a language (`domain.languages`). Never told
from content: the skeleton needs the language, which only the name gives."""

from __future__ import annotations

from cleveragents.application.ports.source_skeleton import SourceSkeletonizer
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import (
    KindCompressor,
)
from cleveragents.application.services.artifact_compression.kinds.kind_declaration import (
    Detected,
    KindDeclaration,
)
from cleveragents.application.services.artifact_compression.kinds.plain_text import (
    PlainTextCompressor,
)
from cleveragents.application.services.artifact_compression.kinds.source import SourceCompressor


def _source_compressor(detected: Detected, skeletonizer: SourceSkeletonizer) -> KindCompressor:
    if detected.language is None:  # no language, no skeleton: compressed as text
        return PlainTextCompressor()
    return SourceCompressor(skeletonizer, detected.language)


SOURCE_KIND = KindDeclaration(SourceCompressor, build=_source_compressor)
