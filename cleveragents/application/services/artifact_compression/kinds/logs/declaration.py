"""The log kind: ``.log`` files and line-oriented records (``.jsonl``, ``.ndjson``), or text
named like a log or whose lines mostly carry a level or a timestamp."""

from __future__ import annotations

import re

from cleveragents.application.services.artifact_compression.kinds.kind_declaration import (
    KindDeclaration,
    Sniffed,
)
from cleveragents.application.services.artifact_compression.kinds.logs.compressor import (
    LogCompressor,
)

_LOG_LINE = re.compile(
    r"\b(FATAL|CRITICAL|ERROR|WARN|WARNING|INFO|DEBUG|TRACE|NOTICE)\b"
    r"|\[(error|warn|notice|info|debug)\]"
    r"|^\d{2,4}[-/]\d{2}[-/]\d{2}[ T]\d{2}:\d{2}"
    r"|^\d{6} \d{6} "
    r"|^[A-Z][a-z]{2} +\d{1,2} \d{2}:\d{2}:\d{2} "
)


def looks_like_log(sniffed: Sniffed) -> bool:
    """A name that says log (``outcomes.log.1``, ``build-logs``), or at least half the first
    lines with a level or a timestamp."""
    if sniffed.name_words & {"log", "logs"}:
        return True
    return sum(1 for line in sniffed.lines if _LOG_LINE.search(line)) * 2 >= len(sniffed.lines)


LOG_KIND = KindDeclaration(LogCompressor, recognises=looks_like_log)
