"""One compression's state, shared by its tiers: the raw text counted, a tier's result, and
smart mode's ranked lines (`smart_mode` ranks them)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import (
    Handles,
    KindCompressor,
    LinePlan,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms


@dataclass(frozen=True, slots=True)
class _Counted:
    """The raw text counted: by which counter (the heuristic after a tokenizer failure, with
    the warning that says so), how many tokens, and where they start when asked for."""

    counter: TokenCounter
    preamble: str
    tokens: int
    starts: list[int] | None


@dataclass(frozen=True, slots=True)
class _Body:
    content: str
    truncated: bool
    tokens: int  # the real count of `content`


@dataclass(frozen=True, slots=True)
class _Ranked:
    """The artifact's lines (without the final newline's empty one) and their ranks."""

    lines: list[str]
    plan: LinePlan


@dataclass(frozen=True, slots=True)
class _Run:
    """One compression's input: the text, its kind's compressor, the task, the markers'
    handles and the mode."""

    text: str
    compressor: KindCompressor
    terms: TaskTerms
    handles: Handles
    smart: bool
    redact: Callable[[str], str]  # credentials out of a text that was rewritten (JSON)
