"""A text with two spans and a whole line to redact, and a redactor fed it in pieces, for the unit
and property tests of stream redaction."""

from __future__ import annotations

import itertools

from cleveragents.application.ports.secret_scanner import SecretMatch
from cleveragents.application.services.governance.output_redaction import OutputRedactor
from cleveragents.domain.secrets import SecretKind

TEXT = b"one\nkey=AAAA1111 and key=BBBB2222\nthree LINE-SECRET here\nfour\n"
FIRST = SecretMatch(2, SecretKind.GENERIC_SECRET, "token", "token:" + "1" * 16, 8, 16)
SECOND = SecretMatch(2, SecretKind.GENERIC_SECRET, "token", "token:" + "2" * 16, 25, 33)
WHOLE_LINE = SecretMatch(3, SecretKind.OTHER, "other", "other:" + "3" * 16)
REDACTED = b"one\nkey=[REDACTED:token] and key=[REDACTED:token]\n[REDACTED:other]\nfour\n"


def redact_cut_at(data: bytes, matches: list[SecretMatch], cuts: list[int]) -> bytes:
    redactor = OutputRedactor(matches)
    edges = [0, *sorted({c % (len(data) + 1) for c in cuts}), len(data)]
    return b"".join(redactor.feed(data[a:b]) for a, b in itertools.pairwise(edges))
