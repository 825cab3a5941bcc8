"""A text made ready for smart mode's packer: its lines ranked, their token costs, its count.

The costs come from where the text's tokens start, encoded on worker threads while the calling
thread ranks the lines; when the text is the artifact itself, the raw count's token starts
serve and nothing is encoded again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cleveragents.application.services.artifact_compression.packing import (
    line_costs_from_starts,
)
from cleveragents.application.services.artifact_compression.segment_count import LineSource
from cleveragents.application.services.artifact_compression.split_counting import SplitCounter
from cleveragents.application.services.artifact_compression.strategy import (
    ArtifactStrategy,
    Priority,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms

PACKABLE_MIN_LINES = 3


@dataclass(frozen=True, slots=True)
class PreparedPacking:
    """A text ready to pack: its lines, their priorities and token costs, its exact count."""

    text: str
    lines: list[str]
    priorities: list[Priority]
    costs: dict[int, int]
    tokens: int
    source: LineSource | None  # the lines' located tokens, to count the packed text exactly


def prepare_packing(
    text: str,
    strategy: ArtifactStrategy,
    terms: TaskTerms,
    split: SplitCounter,
    known_starts: list[int] | None = None,
    one_worker_busy: bool = False,
) -> PreparedPacking | None:
    """`text` ready to pack; None when it has too few lines to pack.

    `known_starts` are the token starts of `text` when already known (they are used when
    its lines joined by newlines are `text` itself). `one_worker_busy`: one worker is busy
    with a longer task (the raw count), so only the first half is waited for to begin."""
    lines = text.splitlines()
    if len(lines) < PACKABLE_MIN_LINES:
        return None
    joined = "\n".join(lines) + "\n"
    starts: Callable[[], list[int]]
    if joined == text and known_starts is not None:
        starts = lambda: known_starts  # noqa: E731
    else:
        starts = split.token_starts_later(joined, queue_second=one_worker_busy)
    priorities = strategy.priorities(lines, terms)
    located = starts()
    costs = line_costs_from_starts(lines, located)
    tokens = len(located) if joined == text else split.count(text)
    # The heuristic fallback's "tokens" do not add up across cuts: it counts everything.
    source = LineSource.of(lines, located) if split.safe else None
    return PreparedPacking(text, lines, priorities, costs, tokens, source)
