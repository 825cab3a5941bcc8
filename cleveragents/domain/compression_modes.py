"""The artifact compressor's modes and the one default every driver uses.

Kept apart from `artifact` (and free of pydantic) so that the CLI can offer the choices and
the default at startup without importing the models.
"""

from __future__ import annotations

from enum import StrEnum


class CompressionMode(StrEnum):
    """`smart`: fills the budget by value (the default, `DEFAULT_COMPRESSION_MODE`);
    `tiered`: three tiers, whole / the kind's compressor / a head cut. `seed`, the tiered mode's
    former name, still reads as `tiered`."""

    TIERED = "tiered"
    SMART = "smart"

    @classmethod
    def _missing_(cls, value: object) -> CompressionMode | None:
        return cls.TIERED if value == "seed" else None


DEFAULT_COMPRESSION_MODE = CompressionMode.SMART
"""The mode every driver uses when none is asked for: smart keeps a log's last error, a source
file's signatures and a JSON document's validity at any size; the tiers are one flag away."""
