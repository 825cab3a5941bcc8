"""Output that carries a generated credential beside the inline allow marker, as a tool could
print it, for the tests that check where the marker is trusted (a workspace file imported by
path) and where it is not (every other way text comes in)."""

from __future__ import annotations

from typing import Any

from cleveragents.application.ports.secret_scanner import ALLOW_MARKER
from tests.secret_recall_set import credentials

AWS = next(c for c in credentials() if c.name == "aws-access-key-id")
SECRET = AWS.secret
MARKED_LINE = f"{AWS.text}  # {ALLOW_MARKER}"
MARKED_OUTPUT = f"deploy: starting\n{MARKED_LINE}\ndeploy: done\n"


def marked_conversation() -> list[dict[str, Any]]:
    """OpenAI Chat Completions messages whose first request and tool result (folded into the
    summary by a forced compaction that keeps little) hold the marked line; the messages kept
    verbatim hold no credential."""
    call = {"name": "run", "arguments": '{"command":"deploy"}'}
    return [
        {"role": "user", "content": f"Deploy the service; the key to use:\n{MARKED_LINE}"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": "call_1", "type": "function", "function": call}],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": f"ERROR: failed\n{MARKED_OUTPUT}"},
        {"role": "assistant", "content": "The deploy failed; I will retry it."},
        {"role": "user", "content": "Now write the release notes. " + "Keep them short. " * 30},
        {"role": "assistant", "content": "Release notes written. " + "Done. " * 30},
    ]
