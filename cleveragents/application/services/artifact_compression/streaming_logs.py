"""Smart mode for logs too large to hold: one pass, memory bounded by the budget.

The head and the tail (ten lines each) are kept aside; important lines (errors, fatal lines,
tracebacks, warnings, lines naming the task) go to bounded buffers that keep the first and the
last such lines up to the budget each. Everything else is only counted. The candidates are then
packed like any other artifact's lines. Line classification reuses the log strategy's, applied
to batches of lines (a traceback that straddles two batches may lose its first line's context).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.application.services.artifact_compression.packing import Line
from cleveragents.application.services.artifact_compression.strategy import (
    ArtifactStrategy,
    Priority,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms

EDGE_LINES = 10
BATCH_LINES = 4096


@dataclass
class _FirstAndLast:
    """The first lines up to `limit` tokens and the last lines up to `limit` tokens."""

    limit: int
    first: list[Line] = field(default_factory=list)
    first_tokens: int = 0
    last: deque[tuple[Line, int]] = field(default_factory=deque)
    last_tokens: int = 0

    def add(self, line: Line, tokens: int) -> None:
        if self.first_tokens + tokens <= self.limit and not self.last:
            self.first.append(line)
            self.first_tokens += tokens
            return
        self.last.append((line, tokens))
        self.last_tokens += tokens
        while self.last and self.last_tokens > self.limit:
            _, dropped = self.last.popleft()
            self.last_tokens -= dropped

    def lines(self) -> Iterator[Line]:
        yield from self.first
        yield from (line for line, _ in self.last)


@dataclass(frozen=True, slots=True)
class LogCandidates:
    lines: list[Line]
    total_lines: int


def collect_log_candidates(
    raw_lines: Iterable[str],
    strategy: ArtifactStrategy,
    terms: TaskTerms,
    budget: int,
    counter: TokenCounter,
) -> LogCandidates:
    buffers = {
        Priority.CRITICAL: _FirstAndLast(budget),
        Priority.IMPORTANT: _FirstAndLast(budget),
    }
    head: list[Line] = []
    tail: deque[Line] = deque(maxlen=EDGE_LINES)
    total = 0
    for batch in _batches(raw_lines):
        priorities = strategy.priorities(batch, terms)
        for offset, (text, priority) in enumerate(zip(batch, priorities, strict=True)):
            position = total + offset
            if position < EDGE_LINES:
                head.append(Line(position, text, min(priority, Priority.USEFUL)))
                continue
            if priority in buffers:
                buffers[priority].add(Line(position, text, priority), counter.count(text))
            tail.append(Line(position, text, min(priority, Priority.USEFUL)))
        total += len(batch)

    by_position: dict[int, Line] = {}
    for buffer in buffers.values():
        by_position.update((line.position, line) for line in buffer.lines())
    for line in (*head, *tail):
        kept = by_position.get(line.position)
        if kept is None or line.priority < kept.priority:
            by_position[line.position] = line
    return LogCandidates([by_position[p] for p in sorted(by_position)], total)


def _batches(raw_lines: Iterable[str]) -> Iterator[list[str]]:
    batch: list[str] = []
    for raw in raw_lines:
        batch.append(raw.rstrip("\r\n"))
        if len(batch) == BATCH_LINES:
            yield batch
            batch = []
    if batch:
        yield batch
