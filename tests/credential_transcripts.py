"""Transcripts with a credential planted in every place a compaction can hand back, in each
format: the system prompt, a recent message's text, a tool call's arguments and a tool
result kept verbatim, the same in a turn the compaction folds, thinking, a Claude Code
record's own fields, a request's other fields. The credentials are generated at run time
(`tests/secret_recall_set.py`), each one in one place, so a test can tell which survived.

A forced compaction with `KEEP_RECENT_TOKENS` folds the early turns and keeps the last one
verbatim (its system prompt too).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from cleveragents.domain.transcript import TranscriptFormat
from tests.secret_recall_set import Credential, credentials

KEEP_RECENT_TOKENS = 900
FILLER_TURNS = 4

# Each place gets its own kind of credential: one found by its shape in any text.
_KINDS = {
    "system": "github-classic",
    "request": "stripe-secret",
    "folded_call": "aws-access-key-id",
    "folded_result": "openai-project",
    "kept_text": "slack-bot-token",
    "kept_call": "anthropic",
    "kept_result": "private-key",
    "kept_thinking": "npm-token",
    "record": "huggingface-token",
    "dropped_record": "gitlab-token",
}
FOLDED = ("folded_call", "folded_result")
"""Places in the turns a forced compaction folds (their credentials never reach a summary)."""
DROPPED = ("dropped_record",)
"""Places no reader keeps (a Claude Code progress record): never written back at all."""

PLACES: dict[TranscriptFormat, tuple[str, ...]] = {
    TranscriptFormat.ANTHROPIC: (
        "system",
        "request",
        *FOLDED,
        "kept_text",
        "kept_call",
        "kept_result",
        "kept_thinking",
    ),
    TranscriptFormat.OPENAI: (
        "system",
        "request",
        *FOLDED,
        "kept_text",
        "kept_call",
        "kept_result",
    ),
    TranscriptFormat.OPENAI_RESPONSES: (
        "system",
        "request",
        *FOLDED,
        "kept_text",
        "kept_call",
        "kept_result",
        "kept_thinking",
    ),
    TranscriptFormat.CLAUDE_CODE: (
        *FOLDED,
        "kept_text",
        "kept_call",
        "kept_result",
        "kept_thinking",
        "record",
        *DROPPED,
    ),
}
SUFFIX = {
    TranscriptFormat.ANTHROPIC: ".json",
    TranscriptFormat.OPENAI: ".json",
    TranscriptFormat.OPENAI_RESPONSES: ".json",
    TranscriptFormat.CLAUDE_CODE: ".jsonl",
}


@dataclass(frozen=True)
class Planted:
    """A transcript document and the credential planted in each of its places."""

    format: TranscriptFormat
    document: Any
    credentials: dict[str, Credential]

    @property
    def text(self) -> str:
        if self.format is TranscriptFormat.CLAUDE_CODE:
            return "".join(json.dumps(record) + "\n" for record in self.document)
        return json.dumps(self.document, indent=2)

    def secrets(self, places: tuple[str, ...] | None = None) -> dict[str, str]:
        """The secret part of the credential in each of `places` (all by default)."""
        chosen = self.credentials if places is None else places
        return {place: self.credentials[place].secret for place in chosen}

    @property
    def verbatim(self) -> tuple[str, ...]:
        """The places a forced compaction returns as they are (kept credentials survive)."""
        return tuple(p for p in self.credentials if p not in FOLDED and p not in DROPPED)


def planted(transcript_format: TranscriptFormat, seed: int = 7) -> Planted:
    """The transcript of `transcript_format` with credentials generated from `seed`."""
    generated = {credential.name: credential for credential in credentials(seed)}
    chosen = {place: generated[_KINDS[place]] for place in PLACES[transcript_format]}
    builder = {
        TranscriptFormat.ANTHROPIC: _anthropic,
        TranscriptFormat.OPENAI: _openai,
        TranscriptFormat.OPENAI_RESPONSES: _openai_responses,
        TranscriptFormat.CLAUDE_CODE: _claude_code,
    }[transcript_format]
    return Planted(transcript_format, builder(chosen), chosen)


def _texts(found: dict[str, Credential]) -> dict[str, str]:
    return {place: credential.text for place, credential in found.items()}


def _filler(turn: int) -> tuple[str, str, str]:
    """A request, an edit command and its output for one ordinary turn."""
    return (
        f"Request {turn}: fix the failing test in tests/test_module_{turn}.py",
        f"pytest -q tests/test_module_{turn}.py",
        f"{turn} passed in 0.{turn}s\n" + "collected ok\n" * 60,
    )


def _anthropic(found: dict[str, Credential]) -> dict[str, Any]:
    c = _texts(found)

    def turn(
        request: str, call_id: str, command: str, output: str, thinking: str | None
    ) -> list[dict[str, Any]]:
        assistant: list[dict[str, Any]] = []
        if thinking is not None:
            assistant.append({"type": "thinking", "thinking": thinking, "signature": "c2ln"})
        assistant.append(
            {"type": "tool_use", "id": call_id, "name": "Bash", "input": {"command": command}}
        )
        return [
            {"role": "user", "content": request},
            {"role": "assistant", "content": assistant},
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": call_id,
                        "content": [{"type": "text", "text": output}],
                    }
                ],
            },
            {"role": "assistant", "content": [{"type": "text", "text": "Done."}]},
        ]

    messages = turn(
        "Deploy the api service",
        "toolu_first",
        f"{c['folded_call']} && ./deploy.sh",
        f"deploying\n{c['folded_result']}\ndone",
        None,
    )
    for index in range(FILLER_TURNS):
        request, command, output = _filler(index)
        messages += turn(request, f"toolu_{index:03d}", command, output, None)
    messages += turn(
        f"Now check the worker; the chat bot uses {c['kept_text']}",
        "toolu_last",
        f"{c['kept_call']} ./check.sh",
        f"checking\n{c['kept_result']}\nok",
        f"The registry login is {c['kept_thinking']} from the environment.",
    )
    return {
        "model": "claude-sonnet-4-5",
        "max_tokens": 1024,
        "metadata": {"note": c["request"]},
        "system": f"You deploy services. Log in to the registry with {c['system']}.",
        "messages": messages,
    }


def _openai(found: dict[str, Credential]) -> dict[str, Any]:
    c = _texts(found)

    def turn(request: str, call_id: str, command: str, output: str) -> list[dict[str, Any]]:
        # Spaced arguments: not the compact form, so the raw string rides along as written.
        arguments = json.dumps({"command": command}, indent=1)
        return [
            {"role": "user", "content": request},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": call_id,
                        "type": "function",
                        "function": {"name": "bash", "arguments": arguments},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": call_id, "content": output},
            {"role": "assistant", "content": "Done."},
        ]

    messages: list[dict[str, Any]] = [
        {"role": "system", "content": f"You deploy services. Registry login: {c['system']}"}
    ]
    messages += turn(
        "Deploy the api service",
        "call_first",
        f"{c['folded_call']} && ./deploy.sh",
        f"deploying\n{c['folded_result']}\ndone",
    )
    for index in range(FILLER_TURNS):
        request, command, output = _filler(index)
        messages += turn(request, f"call_{index:03d}", command, output)
    messages += turn(
        f"Now check the worker; the chat bot uses {c['kept_text']}",
        "call_last",
        f"{c['kept_call']} ./check.sh",
        f"checking\n{c['kept_result']}\nok",
    )
    return {"model": "gpt-4o", "user": c["request"], "messages": messages}


def _openai_responses(found: dict[str, Credential]) -> dict[str, Any]:
    c = _texts(found)

    def turn(
        request: str, call_id: str, command: str, output: str, thinking: str | None
    ) -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = [
            {"role": "user", "content": [{"type": "input_text", "text": request}]}
        ]
        if thinking is not None:
            items.append(
                {
                    "type": "reasoning",
                    "id": f"rs_{call_id}",
                    "summary": [{"type": "summary_text", "text": thinking}],
                    "encrypted_content": "ZW5jcnlwdGVk",
                }
            )
        items += [
            {
                "type": "function_call",
                "id": f"fc_{call_id}",
                "call_id": call_id,
                "name": "bash",
                "arguments": json.dumps({"command": command}, indent=1),
                "status": "completed",
            },
            {"type": "function_call_output", "call_id": call_id, "output": output},
            {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "Done.", "annotations": []}],
            },
        ]
        return items

    items = turn(
        "Deploy the api service",
        "call_first",
        f"{c['folded_call']} && ./deploy.sh",
        f"deploying\n{c['folded_result']}\ndone",
        None,
    )
    for index in range(FILLER_TURNS):
        request, command, output = _filler(index)
        items += turn(request, f"call_{index:03d}", command, output, None)
    items += turn(
        f"Now check the worker; the chat bot uses {c['kept_text']}",
        "call_last",
        f"{c['kept_call']} ./check.sh",
        f"checking\n{c['kept_result']}\nok",
        f"The registry login is {c['kept_thinking']} from the environment.",
    )
    return {
        "model": "gpt-5",
        "instructions": f"You deploy services. Registry login: {c['system']}",
        "input": items,
        "metadata": {"note": c["request"]},
        "store": False,
    }


def _claude_code(found: dict[str, Credential]) -> list[dict[str, Any]]:
    c = _texts(found)
    records: list[dict[str, Any]] = []

    def add(kind: str, message: dict[str, Any], **fields: Any) -> None:
        index = len(records)
        records.append(
            {
                "parentUuid": next((r["uuid"] for r in reversed(records) if "uuid" in r), None),
                "isSidechain": False,
                "userType": "external",
                "cwd": "/srv/app",
                "sessionId": "5e55-0000",
                "version": "2.1.39",
                "type": kind,
                "message": message,
                "uuid": f"00000000-0000-4000-8000-{index:012d}",
                "timestamp": f"2026-03-01T10:{index // 60:02d}:{index % 60:02d}.000Z",
                **fields,
            }
        )

    def turn(
        request: str,
        call_id: str,
        command: str,
        output: str,
        thinking: str | None,
        record_output: str | None = None,
    ) -> None:
        message_id = f"msg_{call_id}"
        add("user", {"role": "user", "content": request})
        if thinking is not None:
            add(
                "assistant",
                {
                    "id": message_id,
                    "role": "assistant",
                    "model": "claude-sonnet-4-5",
                    "content": [{"type": "thinking", "thinking": thinking, "signature": "c2ln"}],
                },
            )
        add(
            "assistant",
            {
                "id": message_id,
                "role": "assistant",
                "model": "claude-sonnet-4-5",
                "content": [
                    {
                        "type": "tool_use",
                        "id": call_id,
                        "name": "Bash",
                        "input": {"command": command},
                    }
                ],
            },
        )
        add(
            "user",
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": call_id, "content": output}],
            },
            toolUseResult={"stdout": record_output or output, "stderr": "", "interrupted": False},
        )
        add(
            "assistant",
            {
                "id": f"msg_{call_id}_end",
                "role": "assistant",
                "model": "claude-sonnet-4-5",
                "content": [{"type": "text", "text": "Done."}],
            },
        )

    turn(
        "Deploy the api service",
        "toolu_first",
        f"{c['folded_call']} && ./deploy.sh",
        f"deploying\n{c['folded_result']}\ndone",
        None,
    )
    records.append({"type": "progress", "data": {"output": c["dropped_record"]}})
    for index in range(FILLER_TURNS):
        request, command, output = _filler(index)
        turn(request, f"toolu_{index:03d}", command, output, None)
    turn(
        f"Now check the worker; the chat bot uses {c['kept_text']}",
        "toolu_last",
        f"{c['kept_call']} ./check.sh",
        f"checking\n{c['kept_result']}\nok",
        f"The registry login is {c['kept_thinking']} from the environment.",
        record_output=f"checking\n{c['record']}\nok",
    )
    return records
