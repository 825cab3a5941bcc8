"""Artifacts too large to hold: what is read of them, a head for Tier 3 or the candidate lines
of a log for smart mode, and how it is cut or packed."""

from __future__ import annotations

from contextlib import closing

from cleveragents.application.ports.secret_scanner import SecretScanner
from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.application.services.artifact_compression.artifact_reading import ReadableArtifact
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import (
    Handles,
    KindCompressor,
)
from cleveragents.application.services.artifact_compression.kinds.logs.streaming import (
    collect_log_candidates,
)
from cleveragents.application.services.artifact_compression.packing.packer import pack_lines
from cleveragents.application.services.artifact_compression.redaction import (
    redact_artifact,
    without_key_bodies,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from cleveragents.application.services.artifact_compression.truncation import (
    HEURISTIC_CHARS_PER_TOKEN,
    truncate_to_budget,
)

HEAD_LINE_LIMIT = 1 << 16
"""How far a streamed head may run past its cut to end its last line."""


def _packed_log(
    artifact: ReadableArtifact,
    task: str | None,
    budget: int,
    raw_tokens: int,
    counter: TokenCounter,
    compressor: KindCompressor,
    handles: Handles | None,
    scanner: SecretScanner,
) -> str:
    """Smart mode for a log too large to hold: its candidate lines, collected in one pass
    with bounded buffers, redacted, then packed by rank."""
    candidates = collect_log_candidates(
        without_key_bodies(artifact.iter_lines()), TaskTerms.from_task(task), budget
    )
    lines = [line._replace(text=redact_artifact(line.text, scanner)) for line in candidates.lines]
    packed = pack_lines(
        lines,
        candidates.total_lines,
        budget,
        raw_tokens,
        counter,
        compressor.marker,
        handles,
        short_forms=candidates.short_forms,
        run_ends=candidates.run_ends,
        heads_only=candidates.heads_only,
    )
    return packed.content


def _redacted_head(
    artifact: ReadableArtifact,
    budget: int,
    raw_tokens: int,
    counter: TokenCounter,
    scanner: SecretScanner,
) -> str:
    """Tier 3 for an artifact too large to hold: its head, redacted, cut to the budget."""
    # The head runs on to the end of its last line before it is redacted: a
    # credential cut in two by the head's end would no longer be recognised.
    head = _head(artifact, budget * HEURISTIC_CHARS_PER_TOKEN, whole_lines=True)
    head = redact_artifact(head, scanner)
    return truncate_to_budget(head, budget, raw_tokens, counter).content


def _head(artifact: ReadableArtifact, characters: int, *, whole_lines: bool = False) -> str:
    """The first `characters` of the artifact; with `whole_lines`, on to the end of the last
    line begun (up to `HEAD_LINE_LIMIT` more)."""
    parts: list[str] = []
    held = 0
    limit = characters + (HEAD_LINE_LIMIT if whole_lines else 0)
    with closing(artifact.iter_text(min(max(characters, 1), 1 << 20))) as chunks:
        for chunk in chunks:
            parts.append(chunk)
            held += len(chunk)
            if held >= limit or (held >= characters and not whole_lines):
                break
            if held >= characters and "".join(parts).find("\n", characters) >= 0:
                break
    head = "".join(parts)
    if not whole_lines:
        return head[:characters]
    end = head.find("\n", characters)
    return head[: end + 1] if end >= 0 else head[:limit]
