"""Span redaction with a scanner that answers what each test needs: a finding without a span
takes its line, overlapping spans become one notice naming the more specific kind, and what a
second scan still finds takes its whole line."""

from __future__ import annotations

from cleveragents.application.ports.secret_scanner import SecretMatch, SecretScan, SecretScanner
from cleveragents.application.services.governance.text_redaction import redact_document
from cleveragents.domain.secrets import SecretFinding, SecretKind


class _Scan(SecretScan):
    def __init__(self, answers: dict[bytes, list[SecretMatch]]) -> None:
        self._answers = answers
        self._data = b""

    def feed(self, data: bytes) -> None:
        self._data += data

    def finish(self) -> list[SecretFinding]:
        return sorted({match.finding for match in self.finish_matches()})

    def finish_matches(self) -> list[SecretMatch]:
        return self._answers.get(self._data, [])


class ScriptedScanner(SecretScanner):
    """Answers each exact input with the matches it is given (none for any other)."""

    def __init__(self, answers: dict[bytes, list[SecretMatch]]) -> None:
        self._answers = answers

    @property
    def name(self) -> str:
        return "scripted"

    def start(self, *, honour_allow_markers: bool = False) -> SecretScan:
        return _Scan(self._answers)


def _match(line: int, kind: SecretKind, start: int = -1, end: int = -1) -> SecretMatch:
    return SecretMatch(line, kind, kind.value, f"{kind.value}:0", start, end)


def test_a_finding_without_a_span_takes_its_line_and_keeps_the_others() -> None:
    text = "one\ntwo holds it\nthree"
    scanner = ScriptedScanner({text.encode(): [_match(2, SecretKind.OTHER)]})
    redacted = redact_document(text, scanner)
    assert redacted.text == "one\n[REDACTED:other]\nthree"
    assert redacted.kinds == (SecretKind.OTHER,)


def test_overlapping_spans_are_one_notice_of_the_more_specific_kind() -> None:
    text = "key=ghp_value here"
    spans = [_match(1, SecretKind.GENERIC_SECRET, 4, 13), _match(1, SecretKind.GITHUB_TOKEN, 4, 13)]
    redacted = redact_document(text, ScriptedScanner({text.encode(): spans}))
    assert redacted.text == "key=[REDACTED:github-token] here"
    assert redacted.kinds == (SecretKind.GITHUB_TOKEN,)


def test_what_a_second_scan_still_finds_takes_its_whole_line() -> None:
    text = "a\nkey=value1 and more\nb"
    first = text.encode()
    after = b"a\nkey=[REDACTED:generic-secret] and more\nb"
    scanner = ScriptedScanner(
        {
            first: [_match(2, SecretKind.GENERIC_SECRET, 6, 12)],
            after: [_match(2, SecretKind.JWT)],
        }
    )
    redacted = redact_document(text, scanner)
    assert redacted.text == "a\n[REDACTED:jwt]\nb"
    assert redacted.kinds == (SecretKind.GENERIC_SECRET, SecretKind.JWT)


def test_a_text_without_findings_is_returned_as_it_is() -> None:
    text = "nothing to see\n"
    redacted = redact_document(text, ScriptedScanner({}))
    assert redacted.text is text
    assert redacted.kinds == ()
