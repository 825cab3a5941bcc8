"""The tiers, in the order they are tried, on an artifact held in memory.

Tier 1: the artifact whole, when it fits. Then, in `tiered` mode, Tier 2: the kind's own
compressor, when the artifact is at most 1.5 times the budget and the result is well-formed
and fits; else Tier 3: a head cut with a ``[TRUNCATED: ...]`` marker (`truncation`). In
`smart` mode the kind's fit or its lines packed by rank (`smart_mode`) take Tier 2's and Tier
3's place; a text too short to pack is cut like Tier 3. When the heuristic counted (the
tokenizer failed), its warning comes first and the tiers share what it leaves of the budget.
"""

from __future__ import annotations

from cleveragents.application.services.artifact_compression.compression_run import (
    CompressedBody,
    CompressionRun,
)
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import (
    MalformedCompressionError,
)
from cleveragents.application.services.artifact_compression.raw_counts import RawCount
from cleveragents.application.services.artifact_compression.smart_mode import smart
from cleveragents.application.services.artifact_compression.truncation import truncate_to_budget


def compress_within(run: CompressionRun, budget: int, counted: RawCount) -> CompressedBody:
    """The first tier that gives content within `budget` tokens, counted exactly."""
    body_budget = counted.body_budget(budget)
    if body_budget <= 0:
        body = CompressedBody("", True, 0)
    elif counted.tokens <= body_budget:
        body = CompressedBody(run.text, False, counted.tokens)  # Tier 1: the whole artifact
    elif run.smart:
        body = smart(run, body_budget, counted) or _tier3(run.text, body_budget, counted)
    else:
        body = _tier2(run, body_budget, counted) or _tier3(run.text, body_budget, counted)
    if not counted.preamble:
        return body
    content = counted.with_preamble(body.content, budget)
    return CompressedBody(content, body.truncated, counted.counter.count(content))


def _tier2(run: CompressionRun, budget: int, counted: RawCount) -> CompressedBody | None:
    """Tier 2, when the artifact is at most 1.5 times the budget (in integers: no rounding at
    the edge) and the type's result is well-formed and fits."""
    if counted.tokens * 2 > budget * 3:
        return None
    try:
        pieces = run.compressor.tier2_pieces(run.text, run.terms)
    except MalformedCompressionError:
        return None
    compressed = "".join(piece.text for piece in pieces)
    scanned = False
    if run.compressor.rewrites_text:  # re-serialised: an escaped credential is decoded
        clean = run.redact(compressed)
        scanned, compressed = clean == compressed, clean
        tokens = counted.counter.count(compressed)
    elif counted.starts is not None and any(piece.origin is not None for piece in pieces):
        # What the kind copied is counted from the raw text's token starts.
        tokens = counted.counter.count_pieces(pieces, counted.starts)
    else:
        tokens = counted.counter.count(compressed)
    return CompressedBody(compressed, False, tokens, scanned=scanned) if tokens <= budget else None


def _tier3(text: str, budget: int, counted: RawCount) -> CompressedBody:
    cut = truncate_to_budget(text, budget, counted.tokens, counted.counter, counted.starts)
    return CompressedBody(cut.content, True, cut.tokens)
