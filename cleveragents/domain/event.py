"""Recorded events: what happened (a compaction, a failed compaction), for audit and metrics."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict

CONTEXT_COMPACTED = "context_compacted"
CONTEXT_COMPACTION_FAILED = "context_compaction_failed"
STABLE_PREFIX_BUILT = "stable_prefix_built"
"""Payload: the prefix's sha256, each section's, and the project (or plan) it was built for."""


class RecordedEvent(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    kind: str
    payload: dict[str, Any]
    created_at: datetime
