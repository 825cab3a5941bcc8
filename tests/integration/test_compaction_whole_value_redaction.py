"""What a compaction summary copies out of a conversation loses each credential whole: the
values a word-by-word redaction got wrong (``=``, ``:``, ``/``, ``+``, a quote, base64 padding,
longer than a pattern takes), in commands, tool arguments and tool results, from one scan."""

from __future__ import annotations

import base64
import json
import random

import pytest

from cleveragents.adapters.secrets.pattern_scanner import PatternSecretScanner
from cleveragents.application.ports.secret_scanner import SecretScan, SecretScanner
from cleveragents.application.services.compaction.summary.redaction import (
    Redactions,
    redact_messages,
    redact_texts,
)
from cleveragents.domain.transcript import Message, Role, TextBlock, ToolCall, ToolResult
from tests.secret_recall_set import ALNUM, HEX_UPPER, random_key

SCANNER = PatternSecretScanner()
RNG = random.Random(20261207)
VALUES = {
    "atlassian token with = inside": "ATATT3xFfGF0"
    + random_key(RNG, ALNUM + "-_", 171)
    + "="
    + random_key(RNG, HEX_UPPER, 8),
    "password after its own =": "pre=" + random_key(RNG, ALNUM + "#", 12),
    "colon": random_key(RNG, ALNUM, 9) + ":" + random_key(RNG, ALNUM, 9),
    "slash and plus": random_key(RNG, ALNUM + "/+", 28),
    "base64 padding": base64.b64encode(RNG.randbytes(16)).decode(),
    "a quote inside": random_key(RNG, ALNUM, 10) + "'" + random_key(RNG, ALNUM, 6),
    "longer than a pattern takes": random_key(RNG, ALNUM, 400),
}


@pytest.mark.parametrize("name", sorted(VALUES))
def test_a_command_keeps_its_words_and_loses_the_whole_value(name: str) -> None:
    value = VALUES[name]
    redactions = Redactions()
    command = f"PASSWORD={value} ./deploy.sh --region eu-west-1"
    [redacted] = redact_texts([command], SCANNER, redactions)
    assert value not in redacted
    assert value[-6:] not in redacted
    assert redacted.startswith("PASSWORD=[REDACTED:")
    assert redacted.endswith("] ./deploy.sh --region eu-west-1")
    assert redactions.count == 1


@pytest.mark.parametrize("name", sorted(VALUES))
def test_tool_arguments_and_results_lose_the_whole_value(name: str) -> None:
    value = VALUES[name]
    messages = [
        Message(
            role=Role.ASSISTANT,
            content=(
                TextBlock(text="Deploying now."),
                ToolCall(id="c1", name="Bash", input={"command": f"export API_KEY={value}"}),
            ),
        ),
        Message(
            role=Role.USER,
            content=(ToolResult(call_id="c1", content=f"db:\n  password: {value}\n  port: 5432"),),
        ),
    ]
    redactions = Redactions()
    redacted = redact_messages(messages, SCANNER, redactions)
    dumped = json.dumps([message.model_dump(mode="json") for message in redacted])
    assert value not in dumped
    assert value[-6:] not in dumped
    assert redactions.count == 2
    call = redacted[0].content[1]
    assert isinstance(call, ToolCall)
    assert call.input["command"].startswith("export API_KEY=[REDACTED:")
    result = redacted[1].content[0]
    assert isinstance(result, ToolResult)
    assert result.content.startswith("db:\n  password: [REDACTED:")
    assert result.content.endswith("]\n  port: 5432")


def test_a_private_key_split_across_blocks_goes_whole_and_stops_at_its_message() -> None:
    body = base64.b64encode(RNG.randbytes(900)).decode()
    rows = [body[i : i + 64] for i in range(0, len(body), 64)]
    kind = "EC PRIVATE" + " KEY"
    first = "\n".join([f"here is the key: -----BEGIN {kind}-----", *rows[:5]])
    second = "\n".join([*rows[5:], f"-----END {kind}-----", "thanks"])
    after = "Sure: I will not store it anywhere"
    texts = [first, second, after]
    redacted = redact_texts(texts, SCANNER, Redactions(), groups=[0, 0, 1])
    joined = "\n".join(redacted)
    assert not any(row in joined for row in rows)
    assert redacted[0].startswith("here is the key: [REDACTED:private-key]")
    assert redacted[1].endswith("\nthanks")
    assert redacted[2] == after


class CountingScanner(SecretScanner):
    """The real scanner, counting the scans it starts."""

    def __init__(self) -> None:
        self.scans = 0

    @property
    def name(self) -> str:
        return SCANNER.name

    def start(self, *, honour_allow_markers: bool = False) -> SecretScan:
        self.scans += 1
        return SCANNER.start(honour_allow_markers=honour_allow_markers)


def test_many_texts_with_many_credentials_cost_two_scans() -> None:
    texts = [f"step {i}: PASSWORD={VALUES['colon']}{i} ok" for i in range(300)]
    scanner = CountingScanner()
    redactions = Redactions()
    redacted = redact_texts(texts, scanner, redactions)
    assert scanner.scans == 2
    assert redactions.count == 300
    assert all(VALUES["colon"] not in text for text in redacted)
