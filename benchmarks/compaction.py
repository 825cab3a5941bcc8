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

Also measured:

- a generated single-turn session (one user prompt, then ~700 records of agent work: tool calls
  and results only), compacted the same way (a single turn has no earlier turn to fold);
- a tight window: the largest corpus session compacted with context_window 30,000,
  reserve_tokens 4,000, keep_recent_tokens 6,000, forced; whether the result fits in
  window - reserve (26,000 tokens, counted with the compactor's own counter);
- the peak resident memory of ``agents context compact FILE --force --json`` on generated Claude
  Code sessions (see `write_session`) of 50 MB and of just under the transcript size limit
  (256 MiB), against the file's size and a target of 3 GB; and a 1 GiB file refused before it
  is read.

``python -m benchmarks.compaction session OUT --megabytes N`` writes a generated session.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from benchmarks.report import Result, print_line, print_section
from benchmarks.timing import best, peak_bytes, repeat
from cleveragents.adapters.tokens.tiktoken_counter import load_encoding
from cleveragents.application.services.compaction.message_tokens import message_tokens
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
from cleveragents.domain.transcript_limits import MAX_TRANSCRIPT_BYTES
from cleveragents.domain.transcript_rules import is_valid

_REPO = Path(__file__).resolve().parent.parent
TRANSCRIPTS = _REPO.parent / "shared" / "corpus" / "transcripts"
GENERATED_MESSAGES = 10_000
SINGLE_TURN_RECORDS = 700
TIGHT = CompactionSettings(context_window=30_000, reserve_tokens=4_000, keep_recent_tokens=6_000)
CLI_SESSION_MEGABYTES = (50,)
CLI_PEAK_TARGET_BYTES = 3_000_000_000
"""The peak memory a transcript at the size limit may take (a few GB on a 24 GiB machine)."""
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


def _tight_window(label: str, messages: list[Message], workdir: Path) -> Result:
    """Compaction into a small window: does the result fit in window - reserve?"""
    container = build_container(f"sqlite:///{workdir / 'tight.db'}", home=workdir)
    start = time.perf_counter()
    outcome = container.context_compactor().compact(messages, TIGHT, force=True)
    elapsed = time.perf_counter() - start
    recounted = sum(message_tokens(outcome.messages, container.token_counter()))
    fits = outcome.status == "compacted" and max(outcome.tokens_after, recounted) <= TIGHT.threshold
    print_line(
        f"tight window ({label}): window {TIGHT.context_window:,}, reserve "
        f"{TIGHT.reserve_tokens:,}, keep recent {TIGHT.keep_recent_tokens:,}, forced: "
        f"{outcome.status} in {elapsed * 1000:.0f} ms, {outcome.tokens_before:,} -> "
        f"{outcome.tokens_after:,} tokens (recounted {recounted:,}); <= {TIGHT.threshold:,}: "
        f"{'yes' if fits else 'NO'}"
    )
    if outcome.reason:
        print_line(f"  reason: {outcome.reason}")
    return Result(
        name=f"tight-window compaction tokens after, {label}",
        measured=float(outcome.tokens_after),
        baseline=float(TIGHT.threshold),
        ratio=outcome.tokens_after / TIGHT.threshold,
        unit="tokens",
        target=f"compacted, <= {TIGHT.threshold:,}",
        met=fits,
        baseline_label="window - reserve",
        details={
            "status": outcome.status,
            "reason": outcome.reason,
            "tokens_before": outcome.tokens_before,
            "tokens_after": outcome.tokens_after,
            "tokens_after_recounted": recounted,
            "seconds": elapsed,
        },
    )


def _agents() -> list[str]:
    script = Path(sys.executable).with_name("agents")
    return [str(script)] if script.exists() else [sys.executable, "-m", "cleveragents.cli.main"]


def cli_peak_rss(transcript: Path, home: Path) -> tuple[int, int, float, str]:
    """``agents context compact FILE --force --json`` in a fresh process: its peak resident
    memory in bytes, exit code, seconds and the first line of its error output."""
    env = {**os.environ, "CLEVERAGENTS_HOME": str(home)}
    env.pop("CLEVERAGENTS_DATABASE_URL", None)
    env.pop("CLEVERAGENTS_MAX_TRANSCRIPT_BYTES", None)
    command = [*_agents(), "context", "compact", str(transcript), "--force", "--json"]
    with tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=errors)
        _, status, usage = os.wait4(process.pid, 0)
        elapsed = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        errors.seek(0)
        first_error = errors.read().decode(errors="replace").strip().partition("\n")[0]
    # ru_maxrss is in KiB on Linux, in bytes on macOS.
    peak = usage.ru_maxrss if sys.platform == "darwin" else usage.ru_maxrss * 1024
    return peak, process.returncode, elapsed, first_error


def _cli_memory(workdir: Path) -> list[Result]:
    results: list[Result] = []
    # The largest generated session that stays under the limit (a step is well under 2 MiB).
    sizes = [megabytes * 1_000_000 for megabytes in CLI_SESSION_MEGABYTES]
    sizes.append(MAX_TRANSCRIPT_BYTES - (2 << 20))
    for target in sizes:
        path = workdir / f"generated-{target}.jsonl"
        size = write_session(path, target)
        peak, code, elapsed, error = cli_peak_rss(path, workdir / "home")
        path.unlink()
        label = f"{size / 1e6:.0f} MB" if target != sizes[-1] else "just under the limit"
        print_line(
            f"agents context compact --force on a generated {size / 1e6:.0f} MB session: "
            f"peak RSS {peak / 1e6:,.0f} MB ({peak / size:.1f}x the file), {elapsed:.1f} s, "
            f"exit {code}{'' if code == 0 else ': ' + error}"
        )
        limit_row = target == sizes[-1]
        results.append(
            Result(
                name=f"compact CLI peak RSS, generated session {label}",
                measured=peak / 1e6,
                baseline=(CLI_PEAK_TARGET_BYTES if limit_row else size) / 1e6,
                ratio=peak / (CLI_PEAK_TARGET_BYTES if limit_row else size),
                unit="MB",
                target=f"<= {CLI_PEAK_TARGET_BYTES / 1e9:g} GB" if limit_row else "reported",
                met=code == 0 and (peak <= CLI_PEAK_TARGET_BYTES or not limit_row),
                baseline_label="target" if limit_row else "file size",
                details={"bytes": size, "peak_rss_bytes": peak, "seconds": elapsed, "exit": code},
            )
        )
    sparse = workdir / "huge.jsonl"
    with sparse.open("wb") as file:
        file.truncate(1 << 30)
    peak, code, elapsed, error = cli_peak_rss(sparse, workdir / "home")
    print_line(
        f"a 1 GiB file: exit {code} in {elapsed:.1f} s, peak RSS {peak / 1e6:,.0f} MB: {error}"
    )
    return results


def run() -> list[Result]:
    print_section(
        "conversation compaction vs langchain-core trim_messages (last, start_on human), "
        "default policy (keep 20,000 recent tokens), best of 3; peak = tracemalloc"
    )
    path = largest_transcript()
    container = build_container("sqlite://", home=Path(tempfile.gettempdir()))
    codec = container.transcript_codec()
    messages = list(codec.read(path.read_text(encoding="utf-8")).messages)
    single_turn = list(codec.read(single_turn_session(SINGLE_TURN_RECORDS)).messages)
    results: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="cleveragents-bench-compaction-") as tmp:
        results += _measure(path.name[:40], messages, Path(tmp))
        results += _measure(
            f"generated {GENERATED_MESSAGES:,}", generated(messages, GENERATED_MESSAGES), Path(tmp)
        )
        results += _measure(
            f"generated single turn, {SINGLE_TURN_RECORDS} records", single_turn, Path(tmp)
        )
        results.append(_tight_window(path.name[:40], messages, Path(tmp)))
        results += _cli_memory(Path(tmp))
    return results


# -- generated Claude Code sessions --------------------------------------------------------------
#
# Shaped like the corpus sessions: a session-start header (a file-history snapshot, hook
# progress), a user prompt, then the agent's work. Claude Code writes one record per content
# block of an assistant API message (each repeating the message id and usage), a user record
# per tool result (the result again in ``toolUseResult``, often with more: a Read's whole file,
# an Edit's original file) and progress records between them (hooks, streamed Bash output).
# Everything is drawn from a seeded generator: the same arguments give the same bytes.

SESSION_ID = "0f3c2a9e-7b41-4d2e-9c55-3a1e8b6d2f10"
SESSION_CWD = "/home/USER/projects/storefront"
_VERSION = "2.1.39"
_START = datetime(2026, 2, 11, 20, 31, 53, tzinfo=UTC)

_IDENTIFIERS = (
    "order", "cart", "invoice", "customer", "session", "payment", "refund", "catalog",
    "inventory", "shipment", "discount", "tax", "price", "account", "token", "webhook",
    "report", "queue", "worker", "cache", "config", "logger", "metrics", "schema",
)  # fmt: skip
_MODULES = ("api", "models", "services", "workers", "billing", "search", "auth", "admin")
_SENTENCES = (
    "Let me look at how the {a} module handles the {b} before changing it.",
    "The failing test expects the {a} total to include the {b}; I'll check the fixture.",
    "That confirms it: {a} is computed before {b} is applied, so the order matters.",
    "Now I'll update the {a} service so that the {b} is validated first.",
    "The migration adds a nullable {a}_{b} column; existing rows keep working.",
    "All {a} tests pass. Next, the {b} endpoint needs the same guard.",
)
_PROMPTS = (
    "Add partial refunds to the billing service: an order can be refunded item by item, the "
    "refunded amount is never more than what was paid, and the invoice shows each refund.",
    "The checkout test suite is flaky since the cache change; find out why and fix it.",
    "Rename the inventory `reserve` API to `hold`, keeping the old name as a deprecated alias.",
)


class _Session:
    """State of one generated session: its clock, its record chain, its ids."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.parent: str | None = None
        self.clock = _START
        self.messages = 0
        self.calls = 0
        self.lines = self._line_pool()

    # - text ------------------------------------------------------------------------------------

    def _line_pool(self) -> list[str]:
        """A few thousand lines of the kinds tool output is made of: source, logs, git, paths.
        Some hold non-ASCII text (box drawing, arrows, an occasional emoji) as real ones do."""
        rng = self.rng
        pool: list[str] = []
        for _ in range(3000):
            a, b = rng.choice(_IDENTIFIERS), rng.choice(_IDENTIFIERS)
            module = rng.choice(_MODULES)
            kind = rng.randrange(10)
            if kind < 4:
                indent = " " * rng.choice((0, 4, 8, 12))
                pool.append(
                    rng.choice(
                        (
                            f"{indent}def {a}_{b}(self, {a}: {a.title()}) -> {b.title()}:",
                            f"{indent}return self._{a}.{b}({a}_id=request.{a}_id)",
                            f"{indent}if {a}.{b} is None:",
                            f'{indent}raise {a.title()}Error(f"no {b} for {{{a}.id}}")',
                            f"{indent}{a}_{b} = {{k: v for k, v in {a}.items() if v}}",
                            f"{indent}# The {b} of a {a} is fixed once it is paid.",
                        )
                    )
                )
            elif kind < 6:
                pool.append(
                    f"tests/{module}/test_{a}.py::test_{b}_{rng.randrange(99)} "
                    f"{rng.choice(('PASSED', 'PASSED', 'PASSED', 'FAILED', 'SKIPPED'))}"
                    f" [{rng.randrange(101):3d}%]"
                )
            elif kind < 7:
                emoji = rng.random() < 0.05
                pool.append(
                    f"{rng.getrandbits(28):07x} {'🐛 ' if emoji else ''}"
                    f"{rng.choice(('fix', 'feat', 'chore', 'refactor'))}({module}): "
                    f"{a} {b} handling"
                )
            elif kind < 8:
                pool.append(f"{SESSION_CWD}/src/{module}/{a}_{b}.py")
            elif kind < 9:
                pool.append(f"└─ src/{module}/{a}.py:{rng.randrange(1, 900)}: {b} is deprecated")
            else:
                pool.append(
                    f"{self.clock.date()} INFO {module}.{a}: {b} took {rng.randrange(1, 2000)} ms"
                )
        return pool

    def text(self, lines: int) -> str:
        return "\n".join(self.rng.choices(self.lines, k=lines))

    def output_lines(self) -> int:
        """How many lines a tool result has: mostly a few, some a screenful, now and then a
        whole file or a long log (the corpus's largest results are ~75 KB)."""
        draw = self.rng.random()
        if draw < 0.55:
            return self.rng.randrange(1, 12)
        if draw < 0.88:
            return self.rng.randrange(12, 150)
        if draw < 0.985:
            return self.rng.randrange(150, 700)
        return self.rng.randrange(700, 1600)

    def sentence(self) -> str:
        return self.rng.choice(_SENTENCES).format(
            a=self.rng.choice(_IDENTIFIERS), b=self.rng.choice(_IDENTIFIERS)
        )

    # - records ---------------------------------------------------------------------------------

    def _uuid(self) -> str:
        return str(uuid.UUID(int=self.rng.getrandbits(128), version=4))

    def _tick(self) -> str:
        self.clock += timedelta(milliseconds=self.rng.randrange(20, 4000))
        return self.clock.isoformat(timespec="milliseconds").replace("+00:00", "Z")

    def record(self, kind: str, **fields: Any) -> dict[str, Any]:
        record = {
            "parentUuid": self.parent,
            "isSidechain": False,
            "userType": "external",
            "cwd": SESSION_CWD,
            "sessionId": SESSION_ID,
            "version": _VERSION,
            "gitBranch": "main",
            "type": kind,
            **fields,
            "uuid": self._uuid(),
            "timestamp": self._tick(),
        }
        self.parent = record["uuid"]
        return record

    def header(self) -> list[dict[str, Any]]:
        snapshot_id = self._uuid()
        records: list[dict[str, Any]] = [
            {
                "type": "file-history-snapshot",
                "messageId": snapshot_id,
                "snapshot": {
                    "messageId": snapshot_id,
                    "trackedFileBackups": {},
                    "timestamp": self._tick(),
                },
                "isSnapshotUpdate": False,
            }
        ]
        for command in ("~/.claude/hooks/notify.sh start", "bd prime"):
            records.append(self.hook("SessionStart", command))
        return records

    def hook(self, event: str, command: str, tool_use_id: str | None = None) -> dict[str, Any]:
        parent_id = tool_use_id or self._uuid()
        return self.record(
            "progress",
            data={
                "type": "hook_progress",
                "hookEvent": event,
                "hookName": f"{event}:{'startup' if event == 'SessionStart' else 'Bash'}",
                "command": command,
            },
            parentToolUseID=parent_id,
            toolUseID=parent_id,
        )

    def prompt(self, text: str) -> dict[str, Any]:
        return self.record(
            "user",
            message={"role": "user", "content": text},
            permissionMode="bypassPermissions",
        )

    def assistant(self, blocks: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """One record per block, as Claude Code writes a streamed API message."""
        self.messages += 1
        message_id = f"msg_{self.rng.getrandbits(96):024x}"
        usage = {
            "input_tokens": self.rng.randrange(1, 8),
            "cache_creation_input_tokens": self.rng.randrange(0, 9000),
            "cache_read_input_tokens": self.rng.randrange(10_000, 160_000),
            "output_tokens": self.rng.randrange(10, 900),
            "service_tier": "standard",
        }
        return [
            self.record(
                "assistant",
                message={
                    "model": "claude-opus-4-6",
                    "id": message_id,
                    "type": "message",
                    "role": "assistant",
                    "content": [block],
                    "stop_reason": None,
                    "stop_sequence": None,
                    "usage": usage,
                },
                requestId=f"req_{self.rng.getrandbits(96):024x}",
            )
            for block in blocks
        ]

    def call(self) -> tuple[dict[str, Any], str, Any]:
        """A tool call, its result's content and its ``toolUseResult``."""
        self.calls += 1
        call_id = f"toolu_{self.rng.getrandbits(120):030x}"
        a, b = self.rng.choice(_IDENTIFIERS), self.rng.choice(_IDENTIFIERS)
        path = f"{SESSION_CWD}/src/{self.rng.choice(_MODULES)}/{a}_{b}.py"
        kind = self.rng.choices(("Bash", "Read", "Edit", "Grep"), weights=(45, 30, 20, 5))[0]
        body = self.text(self.output_lines())
        if kind == "Bash":
            command = f"cd {SESSION_CWD} && python -m pytest tests/{a} -q -k {b}"
            tool_input: dict[str, Any] = {"command": command, "description": f"Run {a} tests"}
            extra: Any = {"stdout": body, "stderr": "", "interrupted": False, "isImage": False}
            content = body
        elif kind == "Read":
            tool_input = {"file_path": path}
            lines = body.split("\n")
            content = "\n".join(f"{n:6d}→{line}" for n, line in enumerate(lines, start=1))
            extra = {
                "type": "text",
                "file": {
                    "filePath": path,
                    "content": body,
                    "numLines": len(lines),
                    "startLine": 1,
                    "totalLines": len(lines),
                },
            }
        elif kind == "Edit":
            old, new = self.text(self.rng.randrange(1, 12)), self.text(self.rng.randrange(1, 16))
            tool_input = {"file_path": path, "old_string": old, "new_string": new}
            content = f"The file {path} has been updated successfully."
            extra = {
                "filePath": path,
                "oldString": old,
                "newString": new,
                "originalFile": body,
                "replaceAll": False,
            }
        else:
            tool_input = {"pattern": f"{a}_{b}", "path": SESSION_CWD}
            files = [line for line in body.split("\n") if line.startswith("/")] or [path]
            content = "\n".join(files)
            extra = {"mode": "files_with_matches", "filenames": files, "numFiles": len(files)}
        block = {
            "type": "tool_use",
            "id": call_id,
            "name": kind,
            "input": tool_input,
            "caller": {"type": "direct"},
        }
        return block, content, extra

    def result(self, block: dict[str, Any], content: str, extra: Any, source: str) -> Any:
        return self.record(
            "user",
            message={
                "role": "user",
                "content": [
                    {
                        "tool_use_id": block["id"],
                        "type": "tool_result",
                        "content": content,
                        "is_error": False,
                    }
                ],
            },
            toolUseResult=extra,
            sourceToolAssistantUUID=source,
        )

    def bash_progress(self, block: dict[str, Any], content: str) -> list[dict[str, Any]]:
        """Streamed output of a Bash call: each record repeats the output so far."""
        lines = content.split("\n")
        steps = min(self.rng.randrange(0, 5), len(lines))
        records = []
        for step in range(1, steps + 1):
            shown = "\n".join(lines[: len(lines) * step // (steps + 1)][-40:])
            records.append(
                self.record(
                    "progress",
                    data={
                        "type": "bash_progress",
                        "output": shown,
                        "fullOutput": shown,
                        "elapsedTimeSeconds": step * 2,
                        "totalLines": len(lines),
                        "timeoutMs": 120000,
                    },
                    toolUseID=f"bash-progress-{step - 1}",
                    parentToolUseID=block["id"],
                )
            )
        return records

    def step(self, *, progress: bool, thinking: bool) -> list[dict[str, Any]]:
        """One API message of agent work (some thinking or text, then one to three tool calls)
        and the records that follow it: progress, then each call's result."""
        blocks: list[dict[str, Any]] = []
        if thinking and self.rng.random() < 0.2:
            thought = " ".join(self.sentence() for _ in range(self.rng.randrange(2, 8)))
            blocks.append({"type": "thinking", "thinking": thought, "signature": "REDACTED"})
        if thinking and self.rng.random() < 0.5:
            blocks.append({"type": "text", "text": self.sentence()})
        calls = [self.call() for _ in range(self.rng.choices((1, 2, 3), weights=(80, 15, 5))[0])]
        records = self.assistant([*blocks, *(block for block, _, _ in calls)])
        for (block, content, extra), call_record in zip(calls, records[len(blocks) :], strict=True):
            if progress:
                records.append(self.hook("PreToolUse", "~/.claude/hooks/guard.sh", block["id"]))
                if block["name"] == "Bash":
                    records += self.bash_progress(block, content)
            records.append(self.result(block, content, extra, call_record["uuid"]))
            if progress:
                records.append(self.hook("PostToolUse", "~/.claude/hooks/log.sh", block["id"]))
        return records


def _line(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"


def session_records(
    *, seed: int = 0, prompt_every: int | None = None, progress: bool = True
) -> Iterator[list[dict[str, Any]]]:
    """An endless generated session, one step at a time (a step ends with every call answered):
    first the header and the prompt, then agent work; with `prompt_every`, a closing answer and
    a new prompt after about that many tool calls."""
    session = _Session(seed)
    yield [*session.header(), session.prompt(_PROMPTS[0])]
    since_prompt = 0
    while True:
        records = session.step(progress=progress, thinking=progress)
        since_prompt += sum(1 for record in records if "toolUseResult" in record)
        if prompt_every is not None and since_prompt >= prompt_every:
            since_prompt = 0
            records += session.assistant([{"type": "text", "text": session.sentence()}])
            records.append(session.prompt(session.rng.choice(_PROMPTS)))
        yield records


def write_session(path: Path, size_bytes: int, *, seed: int = 0, prompt_every: int = 150) -> int:
    """Write a generated session of at least `size_bytes` (it ends after a whole step) to
    `path`, streaming (nothing like the file is held in memory); its size in bytes."""
    written = 0
    with path.open("w", encoding="utf-8", newline="\n") as out:
        for records in session_records(seed=seed, prompt_every=prompt_every):
            for record in records:
                line = _line(record)
                out.write(line)
                written += len(line.encode("utf-8"))
            if written >= size_bytes:
                return written
    raise AssertionError("unreachable: the generated session is endless")  # pragma: no cover


def single_turn_session(records: int, *, seed: int = 0) -> str:
    """One user prompt followed by about `records` records of agent work: assistant tool calls
    and their results only (no progress, thinking or text), ending with every call answered."""
    lines: list[str] = []
    for step in session_records(seed=seed, progress=False):
        lines.extend(_line(record) for record in step if record["type"] in ("user", "assistant"))
        if len(lines) >= records + 1:
            break
    return "".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.compaction",
        description="Write a generated Claude Code session (to measure large transcripts).",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    session = commands.add_parser("session", help="write a generated multi-turn session")
    session.add_argument("out", type=Path, help="the JSONL file to write")
    session.add_argument("--megabytes", type=float, required=True, help="its size (10^6 bytes)")
    session.add_argument("--seed", type=int, default=0)
    session.add_argument(
        "--prompt-every", type=int, default=150, help="tool calls between user prompts"
    )
    args = parser.parse_args(argv)
    size = write_session(
        args.out, int(args.megabytes * 1_000_000), seed=args.seed, prompt_every=args.prompt_every
    )
    print(f"{args.out}: {size:,} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
