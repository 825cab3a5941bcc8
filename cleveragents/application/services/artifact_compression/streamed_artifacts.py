"""The tiers for an artifact too large to hold (above the service's `LARGE_ARTIFACT_BYTES`).

It is counted in chunks (`raw_counts.count_streamed`); when it is more than 1.5 times the
budget, only what the output needs is read. In smart mode a kind that `streams` (logs) gives
its candidate lines in one pass with bounded buffers, which are redacted and packed by rank;
any other artifact is cut like Tier 3 from its head, redacted first.
"""

from __future__ import annotations

from collections.abc import Callable

from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.application.services.artifact_compression.artifact_reading import ReadableArtifact
from cleveragents.application.services.artifact_compression.compression_run import CompressedBody
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import (
    Handles,
    KindCompressor,
)
from cleveragents.application.services.artifact_compression.packing.packer import pack_lines
from cleveragents.application.services.artifact_compression.raw_counts import RawCount
from cleveragents.application.services.artifact_compression.redaction import without_key_bodies
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from cleveragents.application.services.artifact_compression.truncation import (
    HEURISTIC_CHARS_PER_TOKEN,
    truncate_to_budget,
)


def fits_held(counted: RawCount, budget: int) -> bool:
    """Whether the output may be the whole artifact or the kind's Tier 2 (at most 1.5 times
    the budget): then it is read whole and takes the tiers of a held artifact."""
    return counted.tokens * 2 <= budget * 3


def compress_streamed(
    artifact: ReadableArtifact,
    compressor: KindCompressor,
    terms: TaskTerms,
    budget: int,
    counted: RawCount,
    *,
    smart: bool,
    handles: Handles | None,
    redact: Callable[[str], str],
) -> CompressedBody:
    """An artifact more than 1.5 times the budget and too large to hold, within `budget`."""
    counter = counted.counter
    body_budget = counted.body_budget(budget)
    if body_budget <= 0:
        content = ""
    elif smart and compressor.streams:
        content = _packed_stream(
            artifact, compressor, terms, body_budget, counted.tokens, counter, handles, redact
        )
    else:
        content = _redacted_head(artifact, body_budget, counted.tokens, counter, redact)
    content = counted.with_preamble(content, budget)
    return CompressedBody(content, True, counter.count(content))


def _packed_stream(
    artifact: ReadableArtifact,
    compressor: KindCompressor,
    terms: TaskTerms,
    budget: int,
    raw_tokens: int,
    counter: TokenCounter,
    handles: Handles | None,
    redact: Callable[[str], str],
) -> str:
    """Smart mode for a kind that streams: its candidate lines, collected in one pass with
    bounded buffers, redacted, then packed by rank."""
    candidates = compressor.stream_candidates(
        without_key_bodies(artifact.iter_lines()), terms, budget
    )
    lines = [line._replace(text=redact(line.text)) for line in candidates.lines]
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
    redact: Callable[[str], str],
) -> str:
    """Tier 3 for an artifact too large to hold: its head, redacted, cut to the budget."""
    # The head runs on to the end of its last line before it is redacted: a
    # credential cut in two by the head's end would no longer be recognised.
    head = artifact.head(budget * HEURISTIC_CHARS_PER_TOKEN, whole_lines=True)
    return truncate_to_budget(redact(head), budget, raw_tokens, counter).content
