"""The text kind: whatever no other kind names or recognises."""

from __future__ import annotations

from cleveragents.application.services.artifact_compression.kinds.kind_declaration import (
    KindDeclaration,
)
from cleveragents.application.services.artifact_compression.kinds.plain_text import (
    PlainTextCompressor,
)

TEXT_KIND = KindDeclaration(PlainTextCompressor)
