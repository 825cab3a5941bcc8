"""What each step of the tour did, as typed records: the figures a driver prints or serialises.

Every step has its number, a name, and the tokens before and after it (counted with the real
tokenizer); the rest is the step's own evidence. `as_dict` is the JSON form, so the human and
the JSON outputs are made from the same record.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class TourStep:
    number: int
    name: str
    tokens_before: int
    tokens_after: int

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass(frozen=True, slots=True)
class RankedFragment:
    """A parent's fragment in the compressor's rank order, and whether the child got it."""

    fragment_id: str
    relevance: float
    tokens: int
    kept: bool


@dataclass(frozen=True, slots=True)
class SkeletonStep(TourStep):
    """A child plan spawned with a skeleton of its parent's context."""

    parent_id: str
    child_id: str
    ratio: float
    budget: int
    fragments: tuple[RankedFragment, ...]
    source_decision_ids: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class LogStep(TourStep):
    """A log compressed to a budget by smart mode, against what a head cut would keep."""

    artifact_name: str
    budget: int
    last_error_line: str
    last_error_kept: bool
    head_cut_keeps_last_error: bool  # the tiered mode's head cut, on the same log and budget


@dataclass(frozen=True, slots=True)
class BlockedImport:
    """Tool output refused because it holds a credential: only an audit row remains."""

    workspace_path: str
    audit_row: str
    kinds: tuple[str, ...]
    lines: tuple[int, ...]
    notice: str
    tokens: int  # of the output, none of which reaches the model


@dataclass(frozen=True, slots=True)
class StoredImport:
    """Clean tool output stored whole; the model is given its bounded preview and the handle."""

    artifact_id: str
    workspace_path: str
    media_type: str
    byte_count: int
    sha256: str
    head_bytes: int
    tail_bytes: int
    omitted_bytes: int
    omitted_offset: int
    tokens: int  # of the whole output
    preview_tokens: int  # of the preview's head and tail


@dataclass(frozen=True, slots=True)
class ImportStep(TourStep):
    """Two tool outputs imported: one blocked, one stored with its preview."""

    blocked: BlockedImport
    stored: StoredImport


@dataclass(frozen=True, slots=True)
class CategoryRecovery:
    """Facts of one category that the full session holds, and how many the compaction kept."""

    category: str
    recovered: int
    total: int


@dataclass(frozen=True, slots=True)
class CompactionStep(TourStep):
    """A Claude Code session compacted under the project's window, and what it recovered."""

    status: str
    messages: int
    threshold: int
    folded_messages: int
    kept_messages: int
    summary_tokens: int
    summary_sha256: str | None
    latest_request: str | None
    recovery: tuple[CategoryRecovery, ...]  # the categories the session has facts of


@dataclass(frozen=True, slots=True)
class MetricsStep(TourStep):
    """The project's metrics after the tour; its tokens are the tour's, summed over the steps."""

    requests: int
    input_tokens: int | None
    cache_read_tokens: int | None
    cache_write_tokens: int | None
    output_tokens: int | None
    cost_usd: str | None  # exact decimal; None when the catalog cannot price it
    cost_unavailable: str | None
    compactions: int
    artifacts_stored: int
    artifact_bytes_stored: int
    artifacts_blocked: int
