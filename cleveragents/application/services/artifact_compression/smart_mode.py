"""Smart mode: the budget filled by value at any ratio.

The type's own fit when it has one (JSON, which must still parse), with what its rendering
revealed redacted; else the artifact's own lines, ranked by the type (structure first, then
what matters for the type and the task, then context) and packed into the budget by
`packing`, each run of dropped lines replaced by a marker naming its line range; or, when the
kind allows it and the markers would cost what its most important lines do (a source file's
declaration names at a twentieth of it), an outline of those lines under one marker."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.application.services.artifact_compression.compression_run import (
    CompressedBody,
    CompressionRun,
)
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import (
    FittedText,
    KindCompressor,
    LinePlan,
)
from cleveragents.application.services.artifact_compression.packing.outline import (
    OutlineInput,
    outline,
)
from cleveragents.application.services.artifact_compression.packing.packer import pack
from cleveragents.application.services.artifact_compression.packing.request import (
    PackRequest,
    line_costs_from_starts,
    line_offsets,
    repeat_runs,
)
from cleveragents.application.services.artifact_compression.raw_counts import RawCount
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms

PACKABLE_MIN_LINES = 3
"""Fewer lines than this are cut like Tier 3: there is nothing to choose between."""
REFIT_MARGIN = 8
"""Tokens a fit is given back below the budget when its redacted rendering overflowed."""


@dataclass(frozen=True, slots=True)
class _Ranked:
    """The artifact's lines (without the final newline's empty one) and their ranks."""

    lines: list[str]
    plan: LinePlan


def smart(run: CompressionRun, budget: int, counted: RawCount) -> CompressedBody | None:
    """The type's own fit when it has one and it fits; else the lines packed by rank. None
    for a text too short to pack (fewer than `PACKABLE_MIN_LINES` lines): cut it like Tier 3."""
    found = _fit_redacted(run, budget, counted.counter)
    if found is not None and found[0].tokens <= budget:
        fitted, scanned = found
        # Every omission the fit makes leaves a marker with an ellipsis; a document that
        # only changed its layout (compacted to fit) lost nothing.
        omitted = fitted.text.count("…") > run.text.count("…")
        return CompressedBody(fitted.text, omitted, fitted.tokens, scanned=scanned)
    ranked = _ranked_lines(run.text, run.compressor, run.terms)
    if ranked is None:
        return None
    return _packed_by_rank(run, ranked, budget, counted)


def _ranked_lines(text: str, compressor: KindCompressor, terms: TaskTerms) -> _Ranked | None:
    """The lines smart mode packs, ranked; None for texts too short to pack."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the final newline ends the last line; it starts no other
    if len(lines) < PACKABLE_MIN_LINES:
        return None
    return _Ranked(lines, compressor.line_plan([line.removesuffix("\r") for line in lines], terms))


def _fit_redacted(
    run: CompressionRun, budget: int, counter: TokenCounter
) -> tuple[FittedText, bool] | None:
    """The type's own fit, with the credentials its rendering revealed redacted: a JSON
    string written with escapes (``AKIA\\u0051...``) is decoded when the document is
    rendered again, and only then recognisable. When the placeholders make it longer than
    the budget, it is fitted again to a smaller one. With it: whether the scan found the fit
    clean (True), so that the text need not be scanned again."""
    room = budget
    for _ in range(3):
        fitted = run.compressor.fit(run.text, run.terms, room, counter, run.handles)
        if fitted is None:
            return None
        clean = run.redact(fitted.text)
        if clean == fitted.text:
            return fitted, True
        tokens = counter.count(clean)
        if tokens <= budget:
            return FittedText(clean, tokens), False
        room -= tokens - budget + REFIT_MARGIN
        if room < 1:
            return None
    return None


def _packed_by_rank(
    run: CompressionRun, ranked: _Ranked, budget: int, counted: RawCount
) -> CompressedBody:
    """The artifact's own lines packed by their ranks into `budget`, each run of dropped
    lines replaced by a marker naming its line range."""
    counter = counted.counter
    lines, plan = ranked.lines, ranked.plan
    starts = counted.starts if counted.starts is not None else counter.token_starts(run.text)
    offsets = line_offsets(lines)
    costs = line_costs_from_starts(offsets, starts)
    request = PackRequest(
        positions=range(len(lines)),
        texts=lines,
        ranks=plan.priorities,
        costs=costs,
        total_lines=len(lines),
        short_forms=plan.short_forms,
        run_ends=repeat_runs(plan.templates) if plan.templates is not None else {},
        offsets=offsets,
        source_starts=starts,
    )
    packed = pack(request, budget, counted.tokens, counter, run.compressor.marker, run.handles)
    outlined = _outline_if_it_keeps_more(run, ranked, costs, packed.content, budget, counted)
    if outlined is not None:
        return outlined
    summary = _summary_needed(plan, lines, packed.content, budget, counter, run.compressor)
    if summary is not None:
        room = budget - counter.count(summary + "\n")
        for _ in range(3):  # the join may count a token more than its parts
            shorter = pack(
                request, room, counted.tokens, counter, run.compressor.marker, run.handles
            )
            content = f"{summary}\n{shorter.content}"
            tokens = counter.count(content)
            if tokens <= budget:
                return CompressedBody(content, True, tokens)
            room -= tokens - budget
    return CompressedBody(packed.content, True, packed.tokens)


OUTLINE_GAIN = 1.25
"""An outline replaces the packed lines only when it holds a quarter more of the lines it is
for: a marker per gap says where each kept line is, which an outline's one marker does not."""


def _outline_if_it_keeps_more(
    run: CompressionRun,
    ranked: _Ranked,
    costs: list[int],
    packed: str,
    budget: int,
    counted: RawCount,
) -> CompressedBody | None:
    """The outline of the lines the kind's rule names, when the packed lines lost one of
    them and the outline holds `OUTLINE_GAIN` times as many (the markers between them cost
    what lines do)."""
    rule = run.compressor.outline
    if rule is None:
        return None
    lines, ranks = ranked.lines, ranked.plan.priorities
    best = [index for index, rank in enumerate(ranks) if rank <= rule.rank]
    # Counted by text, with repeats: the same `def convert(` begins many methods.
    in_packed = Counter(packed.split("\n"))
    packed_best = sum(
        min(n, in_packed[text]) for text, n in Counter(lines[i] for i in best).items()
    )
    if packed_best == len(best):
        return None
    given = OutlineInput(lines, ranks, costs, counted.tokens)
    made = outline(given, rule, budget, counted.counter, run.compressor.marker, run.handles)
    if made is None or made.kept_best < max(packed_best * OUTLINE_GAIN, packed_best + 1):
        return None
    return CompressedBody(made.content, True, made.tokens)


SUMMARY_ROOM = 6
"""Tokens a summary leaves the packed lines at least (the shortest marker of what they omit)."""


def _summary_needed(
    plan: LinePlan,
    lines: list[str],
    packed: str,
    budget: int,
    counter: TokenCounter,
    compressor: KindCompressor,
) -> str | None:
    """The plan's first summary that fits with room for the marker of what is omitted, when
    the packed lines lost a line it stands for (a diff's file the packed lines no longer
    name). It is written as one marker in the compressor's syntax (``[… diff: ...]``): a
    reader, or a tool putting the original back together, tells it from the artifact's own
    lines."""
    if plan.summaries is None:
        return None
    kept = set(packed.split("\n"))
    if all(lines[position] in kept for position in plan.summarized):
        return None
    for summary in plan.summaries():
        marked = compressor.marker(summary)
        if counter.count(marked) + SUMMARY_ROOM <= budget:
            return marked
    return None
