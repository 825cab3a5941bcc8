"""Benchmark: conversation compaction against langchain-core's ``trim_messages``.

Inputs: the largest corpus transcript (a real Claude Code session) and a generated
10,000-message transcript (that session's messages repeated, tool ids renamed per copy, so it
stays a valid conversation). On the same messages, in the same run:

- ours: ``ContextCompactor.compact`` forced, with the default policy (keep 20,000 recent
  tokens), the deterministic summarizer and the real tokenizer (token counting included);
- baseline: ``trim_messages(strategy="last", start_on="human", include_system=True,
  max_tokens=20,000)`` with a token counter that counts each message's content and tool calls
  with the same tiktoken encoding.

Time is the best of 3; peak memory is tracemalloc's peak during one separate call. Also
printed: tokens after, whether the result passes the providers' structural rules, and whether
the latest user request is still there (verbatim) — trimming keeps only what fits, compaction
also keeps a summary of the rest.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from benchmarks.report import Result, print_line, print_section
from benchmarks.timing import best, peak_bytes, repeat
from cleveragents.adapters.tokens.tiktoken_counter import load_encoding
from cleveragents.application.services.compaction.outcome import CompactionSettings
from cleveragents.container import build_container
from cleveragents.domain.policy import ContextPolicy
from cleveragents.domain.transcript import (
    Message,
    Role,
    TextBlock,
    ToolCall,
    ToolResult,
)
from cleveragents.domain.transcript_rules import is_valid

_REPO = Path(__file__).resolve().parent.parent
TRANSCRIPTS = _REPO.parent / "shared" / "corpus" / "transcripts"
GENERATED_MESSAGES = 10_000
REPEATS = 3


def largest_transcript() -> Path:
    files = sorted(TRANSCRIPTS.glob("*.jsonl"), key=lambda path: path.stat().st_size)
    if not files:
        raise FileNotFoundError(f"no transcripts in {TRANSCRIPTS}")
    return files[-1]


def _renamed(message: Message, suffix: str) -> Message:
    blocks: list[Any] = []
    for block in message.content:
        if isinstance(block, ToolCall):
            blocks.append(block.model_copy(update={"id": block.id + suffix}))
        elif isinstance(block, ToolResult):
            blocks.append(block.model_copy(update={"call_id": block.call_id + suffix}))
        else:
            blocks.append(block)
    return message.model_copy(update={"content": tuple(blocks)})


def generated(messages: Sequence[Message], count: int) -> list[Message]:
    """`count` messages: copies of the conversation (without its system messages), each copy's
    tool ids suffixed, cut at the last turn start before `count`."""
    body = [m for m in messages if m.role is not Role.SYSTEM]
    out: list[Message] = []
    copy = 0
    while len(out) < count:
        out.extend(_renamed(message, f"_r{copy}") for message in body)
        copy += 1
    cut = count
    while cut > 0 and not (out[cut].has_user_text and not out[cut].tool_results):
        cut -= 1
    return out[:cut] if cut else out[:count]


def _lc_messages(messages: Sequence[Message]) -> list[Any]:
    from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

    converted: list[Any] = []
    for message in messages:
        if message.role is Role.SYSTEM:
            converted.append(SystemMessage(content=message.text))
        elif message.role is Role.ASSISTANT:
            calls = [
                {"id": c.id, "name": c.name, "args": c.input, "type": "tool_call"}
                for c in message.tool_calls
            ]
            converted.append(AIMessage(content=message.text, tool_calls=calls))
        else:
            for result in message.tool_results:
                status = "error" if result.is_error else "success"
                converted.append(
                    ToolMessage(content=result.content, tool_call_id=result.call_id, status=status)
                )
            if message.text:
                converted.append(HumanMessage(content=message.text))
    return converted


def _lc_counter() -> Callable[[list[Any]], int]:
    encoding = load_encoding("cl100k_base")

    def count(messages: list[Any]) -> int:
        total = 0
        for message in messages:
            text = message.content if isinstance(message.content, str) else str(message.content)
            calls = getattr(message, "tool_calls", None)
            if calls:
                text += json.dumps(calls, sort_keys=True, separators=(",", ":"))
            total += len(encoding.encode(text, disallowed_special=()))
        return total

    return count


def _lc_valid(trimmed: list[Any]) -> bool:
    """The providers' rules on langchain messages, through our model."""
    from langchain_core.messages import AIMessage, SystemMessage, ToolMessage

    ours: list[Message] = []
    for message in trimmed:
        if isinstance(message, SystemMessage):
            ours.append(Message(role=Role.SYSTEM, content=(TextBlock(text=str(message.content)),)))
        elif isinstance(message, AIMessage):
            calls = tuple(
                ToolCall(id=c["id"] or "?", name=c["name"], input=c["args"])
                for c in message.tool_calls
            )
            ours.append(Message(role=Role.ASSISTANT, content=calls))
        elif isinstance(message, ToolMessage):
            result = ToolResult(call_id=message.tool_call_id, content=str(message.content))
            ours.append(Message(role=Role.USER, content=(result,)))
        else:
            ours.append(Message(role=Role.USER, content=(TextBlock(text=str(message.content)),)))
    return is_valid(ours)


def _latest_request(messages: Sequence[Message]) -> str:
    for message in reversed(messages):
        if message.has_user_text and not message.tool_results and not message.is_summary:
            return message.text
    return ""


def _measure(label: str, messages: list[Message], workdir: Path) -> list[Result]:
    from langchain_core.messages import trim_messages

    database = workdir / f"{abs(hash(label)) % 10**8}.db"
    container = build_container(f"sqlite:///{database}", home=workdir)
    compactor = container.context_compactor()
    settings = CompactionSettings.from_policy(ContextPolicy())
    lc_messages = _lc_messages(messages)
    lc_count = _lc_counter()

    def ours() -> Any:
        return compactor.compact(messages, settings, force=True)

    def theirs() -> Any:
        return trim_messages(
            lc_messages,
            max_tokens=settings.keep_recent_tokens,
            token_counter=lc_count,
            strategy="last",
            start_on="human",
            include_system=True,
        )

    outcome = ours()  # also a warm-up
    trimmed = theirs()
    our_time = best(repeat(ours, REPEATS))
    their_time = best(repeat(theirs, REPEATS))
    our_peak, their_peak = peak_bytes(ours), peak_bytes(theirs)
    latest = _latest_request(messages)
    kept_by_us = latest in {m.text for m in outcome.messages} or (
        outcome.summary is not None and outcome.summary.latest_request == latest
    )
    kept_by_them = any(getattr(m, "content", None) == latest for m in trimmed)
    print_line(
        f"{label}: {len(messages):,} messages, {outcome.tokens_before:,} tokens; "
        f"compaction {outcome.status}"
    )
    print_line(
        f"  ours          {our_time * 1000:8.1f} ms  peak {our_peak / 1e6:6.1f} MB  "
        f"-> {outcome.tokens_after:,} tokens, {len(outcome.messages)} messages, "
        f"valid {is_valid(outcome.messages)}, latest request kept {kept_by_us}"
    )
    print_line(
        f"  trim_messages {their_time * 1000:8.1f} ms  peak {their_peak / 1e6:6.1f} MB  "
        f"-> {lc_count(trimmed):,} tokens, {len(trimmed)} messages, "
        f"valid {_lc_valid(trimmed)}, latest request kept {kept_by_them}"
    )
    details = {
        "messages": len(messages),
        "status": outcome.status,
        "tokens_before": outcome.tokens_before,
        "tokens_after": outcome.tokens_after,
        "peak_bytes": our_peak,
        "baseline_peak_bytes": their_peak,
    }
    return [
        Result(
            name=f"compaction time, {label}",
            measured=our_time,
            baseline=their_time,
            ratio=our_time / their_time,
            unit="s",
            target="reported",
            met=outcome.status == "compacted",
            baseline_label="trim_messages",
            details=details,
        ),
        Result(
            name=f"compaction peak memory, {label}",
            measured=our_peak / 1e6,
            baseline=their_peak / 1e6,
            ratio=our_peak / max(their_peak, 1),
            unit="MB",
            target="reported",
            met=outcome.status == "compacted",
            baseline_label="trim_messages",
            details=details,
        ),
    ]


def run() -> list[Result]:
    print_section(
        "conversation compaction vs langchain-core trim_messages (last, start_on human), "
        "default policy (keep 20,000 recent tokens), best of 3; peak = tracemalloc"
    )
    path = largest_transcript()
    container = build_container("sqlite://", home=Path(tempfile.gettempdir()))
    transcript = container.transcript_codec().read(path.read_text(encoding="utf-8"))
    messages = list(transcript.messages)
    results: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="cleveragents-bench-compaction-") as tmp:
        results += _measure(path.name[:40], messages, Path(tmp))
        results += _measure(
            f"generated {GENERATED_MESSAGES:,}", generated(messages, GENERATED_MESSAGES), Path(tmp)
        )
    return results
