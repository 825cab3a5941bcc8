"""Smart mode's last step: keep the lines that matter most within an exact token budget.

Lines are taken by priority (then position), each one only if it still fits, and written back in
their original order; every run of dropped lines becomes one gap marker in the artifact's own
syntax, and a final marker says how many tokens were omitted. Token figures come from the real
tokenizer: each line is counted once, the assembled text is counted again, and while that is
over the budget the least important lines are dropped.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import NamedTuple

from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.application.services.artifact_compression.segment_count import (
    LineSource,
    count_packed,
)
from cleveragents.application.services.artifact_compression.strategy import Priority
from cleveragents.application.services.artifact_compression.truncation import (
    MARKERS,
    truncation_marker,
)


class Line(NamedTuple):
    """A candidate line: its position among all lines of the artifact, text, priority. (A
    named tuple: there is one per line, and a frozen dataclass takes longer to build.)"""

    position: int
    text: str
    priority: Priority


@dataclass(frozen=True, slots=True)
class Packed:
    content: str
    kept_lines: int
    tokens: int  # the real count of `content`


def pack_lines(
    lines: Sequence[Line],
    total_lines: int,
    budget: int,
    raw_tokens: int,
    counter: TokenCounter,
    gap_marker: Callable[[int], str],
    costs: dict[int, int] | None = None,
    source: LineSource | None = None,
) -> Packed:
    """The most important `lines` that fit in `budget` tokens with their markers.

    `lines` may be sparse (a streaming caller passes only its candidates); positions between
    them count as dropped lines for the gap markers. `total_lines` is the artifact's line count.
    `costs` (tokens per position) may be estimates: the assembled text is counted exactly —
    from `source` (the lines' located tokens) where it can be, by encoding the rest.
    """
    ordered = sorted(lines, key=lambda line: line.position)
    texts = {line.position: line.text for line in ordered}
    return pack_columns(
        [line.position for line in ordered],
        texts,
        [line.priority for line in ordered],
        total_lines,
        budget,
        raw_tokens,
        counter,
        gap_marker,
        costs,
        source,
    )


def pack_columns(
    positions: Sequence[int],
    texts: Mapping[int, str] | Sequence[str],
    priorities: Sequence[Priority],
    total_lines: int,
    budget: int,
    raw_tokens: int,
    counter: TokenCounter,
    gap_marker: Callable[[int], str],
    costs: dict[int, int] | None = None,
    source: LineSource | None = None,
) -> Packed:
    """`pack_lines` on columns: the candidates' positions in ascending order, the text at each
    position (a list when every line is a candidate) and the candidates' priorities. A text
    of a hundred thousand lines is packed without an object per line."""
    if costs is None:
        costs = {position: counter.count(texts[position] + "\n") for position in positions}
    gap_cost = counter.count(gap_marker(max(total_lines, 1)) + "\n")
    marker_cost = counter.count("\n" + truncation_marker(raw_tokens))
    order = _by_importance(positions, priorities)

    chosen: set[int] = set()
    gaps = 1 if total_lines else 0  # nothing chosen yet: the whole artifact is one gap
    estimate = marker_cost + gaps * gap_cost
    for position in order:
        # Choosing a line splits the gap around it into the parts left and right of it.
        left = position > 0 and position - 1 not in chosen
        right = position + 1 < total_lines and position + 1 not in chosen
        gap_change = int(left) + int(right) - 1
        cost = costs[position] + gap_change * gap_cost
        if estimate + cost <= budget:
            chosen.add(position)
            estimate += cost

    # The estimate counts lines separately; the assembled text can merge differently. Drop
    # the least important lines until the real count fits.
    rank = {position: index for index, position in enumerate(order)}
    dropping = sorted(chosen, key=rank.__getitem__)
    while True:
        content, layout = _render(chosen, texts, total_lines, raw_tokens, costs, gap_marker)
        if source is None:
            tokens = counter.count(content)
        else:  # read from where the source's tokens start, not encoded again
            tokens = count_packed(content, layout, source, counter)
        excess = tokens - budget
        if excess <= 0:
            return Packed(content, len(chosen), tokens)
        if not chosen:
            return _markers_only(raw_tokens, budget, counter)
        freed = 0
        while dropping and freed < excess:
            position = dropping.pop()
            chosen.discard(position)
            freed += costs[position]


def _render(
    chosen: set[int],
    texts: Mapping[int, str] | Sequence[str],
    total_lines: int,
    raw_tokens: int,
    costs: dict[int, int],
    gap_marker: Callable[[int], str],
) -> tuple[str, list[tuple[int, int]]]:
    """The packed text, and where each kept line starts in it: (position, character)."""
    parts: list[str] = []
    layout: list[tuple[int, int]] = []
    offset = 0
    previous = -1
    for position in sorted(chosen):
        if position - previous > 1:
            parts.append(gap_marker(position - previous - 1))
            offset += len(parts[-1]) + 1
        layout.append((position, offset))
        parts.append(texts[position])
        offset += len(parts[-1]) + 1
        previous = position
    if total_lines - previous > 1:
        parts.append(gap_marker(total_lines - previous - 1))
    kept_text = "\n".join(parts)
    # The omitted figure is the raw count minus the artifact's own kept lines (the gap markers
    # are not part of the artifact), by the lines' token counts.
    kept = sum(costs[position] for position in chosen)
    marker = truncation_marker(max(raw_tokens - kept, 0))
    return (f"{kept_text}\n{marker}" if kept_text else marker), layout


def _by_importance(positions: Sequence[int], priorities: Sequence[Priority]) -> list[int]:
    """Positions by priority first; within a priority, from both ends inwards (first, last,
    second, second-to-last, ...): the first error says where trouble began, the last one how
    it ended. `positions` are in ascending order."""
    by_priority: dict[Priority, list[int]] = {}
    for position, priority in zip(positions, priorities, strict=True):
        by_priority.setdefault(priority, []).append(position)
    ordered: list[int] = []
    for priority in sorted(by_priority):
        group = by_priority[priority]
        middle = (len(group) + 1) // 2
        # first, last, second, second-to-last, ...: the front half interleaved with the
        # back half reversed (the middle one last when the group is odd).
        front, back = group[:middle], group[middle:][::-1]
        for pair in zip(front, back, strict=False):  # front may have one more
            ordered.extend(pair)
        if len(front) > len(back):
            ordered.append(front[-1])
    return ordered


def line_costs_from_starts(lines: Sequence[str], starts: Sequence[int]) -> dict[int, int]:
    """Tokens per line: the tokens starting in it, from the byte offsets at which the tokens
    of the lines joined by (and ending with) "\n" start."""
    ends = accumulate(len(line.encode("utf-8", errors="surrogatepass")) + 1 for line in lines)
    costs: dict[int, int] = {}
    before = 0
    for position, end in enumerate(ends):
        upto = bisect_left(starts, end)
        costs[position] = max(upto - before, 1)
        before = upto
    return costs


def _markers_only(raw_tokens: int, budget: int, counter: TokenCounter) -> Packed:
    """No line fits: the longest marker that does, whole (never a number cut in two)."""
    for marker in MARKERS:
        content = marker(raw_tokens)
        tokens = counter.count(content)
        if tokens <= budget:
            return Packed(content, 0, tokens)
    return Packed("", 0, 0)
