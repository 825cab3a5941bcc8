"""A quoted credential longer than an assignment pattern takes (256 bytes) is found whole: a
long session token or service account token in `"token": "..."` is a credential like a short
one, and what is found does not depend on how the stream is cut."""

from __future__ import annotations

import json
import random
import string

import pytest

from cleveragents.adapters.secrets.assignment_classifiers import MAX_QUOTED_VALUE_BYTES
from cleveragents.adapters.secrets.pattern_scanner import WINDOW_BYTES, PatternSecretScanner
from cleveragents.application.services.governance.text_redaction import redact_document
from cleveragents.domain.secrets import SecretKind

_ALPHABET = string.ascii_letters + string.digits


def _value(length: int, seed: int = 5) -> str:
    rng = random.Random(seed)
    return "".join(rng.choice(_ALPHABET) for _ in range(length))


@pytest.mark.parametrize("name", ["token", "password", "client_secret", "api_key"])
@pytest.mark.parametrize("length", [255, 256, 257, 400, MAX_QUOTED_VALUE_BYTES])
def test_a_long_quoted_value_is_found_over_its_whole_span(name: str, length: int) -> None:
    value = _value(length)
    text = json.dumps({name: value}).encode()
    matches = PatternSecretScanner().match_bytes(text)
    start = text.index(value.encode())
    assert [(m.start, m.end) for m in matches] == [(start, start + length)]
    assert matches[0].kind is SecretKind.GENERIC_SECRET


def test_a_long_quoted_value_is_found_the_same_across_a_window_edge() -> None:
    value = _value(1000)
    line = json.dumps({"token": value}).encode()
    # The value straddles the first window's end.
    data = b"x" * (WINDOW_BYTES - 600) + b"\n" + line + b"\n" + b"y" * 1000
    whole = PatternSecretScanner().match_bytes(data)
    assert len(whole) == 1
    for cut in (1, WINDOW_BYTES - 300, WINDOW_BYTES, WINDOW_BYTES + 100, len(data) - 1):
        scan = PatternSecretScanner().start()
        scan.feed(data[:cut])
        scan.feed(data[cut:])
        assert scan.finish_matches() == whole


def test_a_long_quoted_value_is_redacted_whole() -> None:
    value = _value(600)
    text = json.dumps({"session": {"token": value}})
    redacted = redact_document(text, PatternSecretScanner()).text
    assert value[:8] not in redacted
    assert value[-8:] not in redacted
    assert json.loads(redacted) == {"session": {"token": "[REDACTED:generic-secret]"}}
