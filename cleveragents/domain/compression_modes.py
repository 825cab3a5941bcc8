"""The artifact compressor's modes and the one default every driver uses (defined in
`vocabulary`, with the other names users choose from; kept importable from here)."""

from __future__ import annotations

from cleveragents.domain.vocabulary import DEFAULT_COMPRESSION_MODE, CompressionMode

__all__ = ["DEFAULT_COMPRESSION_MODE", "CompressionMode"]
