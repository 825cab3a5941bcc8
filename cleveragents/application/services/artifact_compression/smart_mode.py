"""Smart mode's machinery: the type's own fit with what its rendering revealed redacted, the
lines ranked, and the lines packed by rank."""

from __future__ import annotations

from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.application.services.artifact_compression.compression_run import (
    _Body,
    _Counted,
    _Ranked,
    _Run,
)
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import (
    FittedText,
    KindCompressor,
)
from cleveragents.application.services.artifact_compression.packing.packer import pack
from cleveragents.application.services.artifact_compression.packing.request import (
    PackRequest,
    line_costs_from_starts,
    line_offsets,
    repeat_runs,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms

PACKABLE_MIN_LINES = 3
"""Fewer lines than this are cut like Tier 3: there is nothing to choose between."""
REFIT_MARGIN = 8
"""Tokens a fit is given back below the budget when its redacted rendering overflowed."""


def _ranked_lines(text: str, compressor: KindCompressor, terms: TaskTerms) -> _Ranked | None:
    """The lines smart mode packs, ranked; None for texts too short to pack."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the final newline ends the last line; it starts no other
    if len(lines) < PACKABLE_MIN_LINES:
        return None
    return _Ranked(lines, compressor.line_plan([line.removesuffix("\r") for line in lines], terms))


def _fit_redacted(run: _Run, budget: int, counter: TokenCounter) -> FittedText | None:
    """The type's own fit, with the credentials its rendering revealed redacted: a JSON
    string written with escapes (``AKIA\\u0051...``) is decoded when the document is
    rendered again, and only then recognisable. When the placeholders make it longer than
    the budget, it is fitted again to a smaller one."""
    room = budget
    for _ in range(3):
        fitted = run.compressor.fit(run.text, run.terms, room, counter, run.handles)
        if fitted is None:
            return None
        clean = run.redact(fitted.text)
        if clean == fitted.text:
            return fitted
        tokens = counter.count(clean)
        if tokens <= budget:
            return FittedText(clean, tokens)
        room -= tokens - budget + REFIT_MARGIN
        if room < 1:
            return None
    return None


def _packed_by_rank(run: _Run, ranked: _Ranked, budget: int, counted: _Counted) -> _Body:
    """The artifact's own lines packed by their ranks into `budget`, each run of dropped
    lines replaced by a marker naming its line range."""
    counter = counted.counter
    lines, plan = ranked.lines, ranked.plan
    starts = counted.starts if counted.starts is not None else counter.token_starts(run.text)
    offsets = line_offsets(lines)
    request = PackRequest(
        positions=range(len(lines)),
        texts=lines,
        ranks=plan.priorities,
        costs=line_costs_from_starts(offsets, starts),
        total_lines=len(lines),
        short_forms=plan.short_forms,
        run_ends=repeat_runs(plan.templates) if plan.templates is not None else {},
        offsets=offsets,
        source_starts=starts,
    )
    packed = pack(request, budget, counted.tokens, counter, run.compressor.marker, run.handles)
    return _Body(packed.content, True, packed.tokens)
