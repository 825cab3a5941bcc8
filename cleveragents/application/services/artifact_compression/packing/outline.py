"""An outline: the lines that matter most, together, under one marker.

The packer writes a marker for every run of dropped lines. At a tight budget those markers can
cost as much as the lines between them: a source file's declaration names at a twentieth of
its size are one line in every thirty, and each gap's marker (``# … lines 50-110``) costs
about what a name does, so half the budget would go to markers. An outline drops them: the
kept lines, in file order, follow one marker that says every other line is omitted and names
the artifact's whole line range, which reads every line back (`Handles`). A final line says
how many of the artifact's tokens are not in the content, as the packer's does.

Lines are taken by rank, as the packer takes them: once a line does not fit, smaller ones of
its rank still may, no line of a worse rank does. Costs come from the artifact's token starts;
the assembled text is counted exactly, and while it is over the budget the last lines taken
are given back.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import (
    Handles,
    OutlineRule,
)
from cleveragents.application.services.artifact_compression.truncation import truncation_marker


@dataclass(frozen=True, slots=True)
class Outline:
    """An outline's text, its exact count, and how many of the lines it is for it holds."""

    content: str
    tokens: int
    kept_best: int


@dataclass(frozen=True, slots=True)
class OutlineInput:
    """The artifact's lines, their ranks and costs (tokens of the line and its newline), and
    its token count."""

    lines: Sequence[str]
    ranks: Sequence[int]
    costs: Sequence[int]
    raw_tokens: int


def outline(
    given: OutlineInput,
    rule: OutlineRule,
    budget: int,
    counter: TokenCounter,
    marker: Callable[[str], str],
    handles: Handles,
) -> Outline | None:
    """The outline of `given` within `budget`, or None when not one line of it fits."""
    best = [index for index, rank in enumerate(given.ranks) if rank <= rule.rank]
    if not best:
        return None

    def header(kept: int) -> str:
        span = handles.lines(1, len(given.lines))
        return marker(
            f"outline: {kept} of {len(best)} {rule.noun} in file order, "
            f"every other line omitted: {span}"
        )

    trailer = "\n" + truncation_marker(given.raw_tokens)
    fixed = counter.count(header(len(best)) + "\n") + counter.count(trailer)
    taken = _taken_by_rank(given, budget - fixed)
    best_set = set(best)
    while taken:
        kept = sorted(taken)
        kept_best = sum(1 for index in kept if index in best_set)
        body = "\n".join(given.lines[index] for index in kept)
        content = f"{header(kept_best)}\n{body}{trailer}"
        tokens = counter.count(content)
        if tokens <= budget:
            return Outline(content, tokens, kept_best)
        # Over by a token or two (a join merged differently than the lines' starts said):
        # give back the last lines taken until their estimated cost covers the excess.
        excess = tokens - budget
        while taken and excess > 0:
            excess -= given.costs[taken.pop()]
    return None


def _taken_by_rank(given: OutlineInput, room: int) -> list[int]:
    """Line indices in the order taken: by rank, then position; once a line does not fit, the
    rest of its rank may still, no worse rank does."""
    order = sorted(range(len(given.lines)), key=lambda index: (given.ranks[index], index))
    taken: list[int] = []
    used = 0
    stop_after: int | None = None
    for index in order:
        rank = given.ranks[index]
        if stop_after is not None and rank > stop_after:
            break
        cost = given.costs[index]
        if used + cost <= room:
            taken.append(index)
            used += cost
        elif stop_after is None:
            stop_after = rank
    return taken
