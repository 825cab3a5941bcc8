"""The JSON kind: one JSON document (``.json``, or text that opens like one)."""

from __future__ import annotations

import re

from cleveragents.application.services.artifact_compression.kinds.json.compressor import (
    JsonCompressor,
)
from cleveragents.application.services.artifact_compression.kinds.kind_declaration import (
    KindDeclaration,
    Sniffed,
)

# An object opening on a key or closing, or an array opening on a value: not "[Sun Dec 04 ...]".
_JSON_START = re.compile(r'\s*(\{\s*("|\}|$)|\[\s*(["{\[\]\-\d]|true|false|null|$))')


def looks_like_json(sniffed: Sniffed) -> bool:
    """Text that opens as a JSON object or array does."""
    return _JSON_START.match(sniffed.head) is not None


JSON_KIND = KindDeclaration(JsonCompressor, recognises=looks_like_json)
