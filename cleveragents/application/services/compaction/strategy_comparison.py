"""Side-by-side comparison of context strategies on the same messages.

`compare_context_strategies` runs each strategy on the same message set and reports, per
strategy: the tokens after, whether that fits the window (`context_window - reserve_tokens`),
structural validity (the providers' rules), recovery correctness per fact category (the facts
of the full transcript a resumed agent needs, found in the result; `compaction.recovery`) and
the latency. The strategies:

- ``none``: no compaction, the baseline;
- ``deterministic``: the product's compaction (`ContextCompactor`, forced), the default;
- ``observation-masking``: the more-recent candidate from "The Complexity Trap" (Lindenbauer et
  al., 2025): every turn is kept, but tool outputs older than the recent window are replaced by
  a one-line placeholder; the agent keeps its reasoning and actions, loses old observations.

The default strategy changes only by a documented decision (docs/context-compaction.md), after
recovery, validity, tokens and latency have been weighed together; this module only measures.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import accumulate
from typing import Any

from cleveragents.application.ports.events import EventSink
from cleveragents.application.ports.secret_scanner import SecretScanner
from cleveragents.application.ports.summarizer import Summarizer
from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.application.services.compaction.context_compactor import ContextCompactor
from cleveragents.application.services.compaction.message_tokens import message_tokens
from cleveragents.application.services.compaction.outcome import CompactionSettings
from cleveragents.application.services.compaction.recall import (
    FactCategory,
    RecoveryReport,
    presence,
    recovery_facts,
)
from cleveragents.domain.event import RecordedEvent
from cleveragents.domain.transcript import Message, ToolResult
from cleveragents.domain.transcript_rules import is_valid

MASK_MIN_CHARS = 200
"""Tool outputs shorter than this are kept: a placeholder would not save anything."""


class ContextStrategy(ABC):
    """A way to make a conversation fit: messages in, messages to send out."""

    name: str

    @abstractmethod
    def apply(
        self, messages: Sequence[Message], settings: CompactionSettings
    ) -> tuple[Message, ...]: ...


class NoCompaction(ContextStrategy):
    name = "none"

    def apply(
        self, messages: Sequence[Message], settings: CompactionSettings
    ) -> tuple[Message, ...]:
        return tuple(messages)


class DeterministicCompaction(ContextStrategy):
    """The product's compaction, forced, recording nothing (a comparison is a dry run: no
    event, and no tool output shrunk into the artifact store)."""

    name = "deterministic"

    def __init__(
        self,
        counter: TokenCounter,
        summarizer: Summarizer,
        secret_scanner: SecretScanner | None = None,
    ) -> None:
        self._compactor = ContextCompactor(
            counter, summarizer, DiscardedEvents(), secret_scanner=secret_scanner
        )

    def apply(
        self, messages: Sequence[Message], settings: CompactionSettings
    ) -> tuple[Message, ...]:
        return self._compactor.compact(messages, settings, force=True).messages


class ObservationMasking(ContextStrategy):
    """Tool outputs outside the most recent `keep_recent_tokens` become a placeholder that
    says how many tokens were omitted; everything else, and the structure, stays."""

    name = "observation-masking"

    def __init__(self, counter: TokenCounter) -> None:
        self._counter = counter

    def apply(
        self, messages: Sequence[Message], settings: CompactionSettings
    ) -> tuple[Message, ...]:
        costs = message_tokens(messages, self._counter)
        suffix = [*reversed([*accumulate(reversed(costs), initial=0)])]
        masked: list[Message] = []
        for index, message in enumerate(messages):
            recent = suffix[index] <= settings.keep_recent_tokens
            if recent or not message.tool_results:
                masked.append(message)
            else:
                masked.append(self._masked(message))
        return tuple(masked)

    def _masked(self, message: Message) -> Message:
        blocks = [
            self._placeholder(block)
            if isinstance(block, ToolResult) and len(block.content) >= MASK_MIN_CHARS
            else block
            for block in message.content
        ]
        return message.model_copy(update={"content": tuple(blocks)})

    def _placeholder(self, result: ToolResult) -> ToolResult:
        omitted = self._counter.count(result.content)
        placeholder = f"[tool output omitted (observation masking): {omitted} tokens]"
        return result.model_copy(update={"content": placeholder, "parts": None})


class DiscardedEvents(EventSink):
    """An event sink for dry runs: events are built and dropped."""

    def emit(self, kind: str, payload: dict[str, Any]) -> RecordedEvent:
        return RecordedEvent(id="dry-run", kind=kind, payload=payload, created_at=datetime.now(UTC))

    def recorded(self, kind: str | None = None, limit: int | None = None) -> list[RecordedEvent]:
        return []


@dataclass(frozen=True, slots=True)
class StrategyResult:
    strategy: str
    tokens_before: int
    tokens_after: int
    fits_window: bool
    valid: bool
    recovery: RecoveryReport
    latency_s: float

    def as_dict(self) -> dict[str, Any]:
        return {
            "strategy": self.strategy,
            "tokens_before": self.tokens_before,
            "tokens_after": self.tokens_after,
            "fits_window": self.fits_window,
            "valid": self.valid,
            "recovery": {
                category.value: {
                    "recovered": self.recovery[category].recovered,
                    "total": self.recovery[category].total,
                    "share": self.recovery[category].share,
                }
                for category in FactCategory
            },
            "latency_s": self.latency_s,
        }


def compare_context_strategies(
    messages: Sequence[Message],
    strategies: Sequence[ContextStrategy],
    settings: CompactionSettings,
    counter: TokenCounter,
    *,
    workspace: str | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> list[StrategyResult]:
    """Each strategy on the same `messages`, measured the same way, in the given order."""
    facts = recovery_facts(messages, workspace=workspace)
    before = sum(message_tokens(messages, counter))
    results = []
    for strategy in strategies:
        start = clock()
        out = strategy.apply(messages, settings)
        latency = clock() - start
        after = sum(message_tokens(out, counter))
        results.append(
            StrategyResult(
                strategy=strategy.name,
                tokens_before=before,
                tokens_after=after,
                fits_window=after <= settings.threshold,
                valid=is_valid(out),
                recovery=presence(facts, out),
                latency_s=latency,
            )
        )
    return results


class StrategyComparison:
    """The comparison with the product's strategies (container name `strategy_comparison`)."""

    def __init__(
        self,
        token_counter: TokenCounter,
        summarizer: Summarizer,
        secret_scanner: SecretScanner | None = None,
    ) -> None:
        self._counter = token_counter
        self._strategies: tuple[ContextStrategy, ...] = (
            NoCompaction(),
            DeterministicCompaction(token_counter, summarizer, secret_scanner),
            ObservationMasking(token_counter),
        )

    @property
    def strategies(self) -> tuple[str, ...]:
        return tuple(strategy.name for strategy in self._strategies)

    def compare(
        self,
        messages: Sequence[Message],
        settings: CompactionSettings,
        *,
        workspace: str | None = None,
    ) -> list[StrategyResult]:
        return compare_context_strategies(
            messages, self._strategies, settings, self._counter, workspace=workspace
        )
