"""The markdown kind: ``.md``, ``.markdown``, ``.mdx``, or text with a ``#`` heading."""

from __future__ import annotations

import re

from cleveragents.application.services.artifact_compression.kinds.kind_declaration import (
    KindDeclaration,
    Sniffed,
)
from cleveragents.application.services.artifact_compression.kinds.markdown.compressor import (
    MarkdownCompressor,
)

_HEADING = re.compile(r"^#{1,6} \S")


def looks_like_markdown(sniffed: Sniffed) -> bool:
    """A markdown heading among the first lines."""
    return any(_HEADING.match(line) for line in sniffed.lines)


MARKDOWN_KIND = KindDeclaration(MarkdownCompressor, recognises=looks_like_markdown)
