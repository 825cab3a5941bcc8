"""Gate 2, a credential in what a model is shown: a preview, a compaction summary, content in
flight.

Everything is scanned with the store's own scanner and without any allowlist: the allowlist
lets a known credential be stored, never shown (the preview rule is absolute). A violation
names the kinds and lines, never the value.
"""

from __future__ import annotations

from cleveragents.application.ports.secret_scanner import SecretScanner
from cleveragents.application.services.delivery_gates.violations import StopCondition, Violation
from cleveragents.domain.secrets import SecretFinding
from cleveragents.domain.stored_artifact import ArtifactPreview


def text_secrets(
    text: str, subject: str, scanner: SecretScanner, *, where: str = ""
) -> list[Violation]:
    """One violation for `text` when the scanner finds credentials in it (`where` says which
    part of `subject` the text is, e.g. ``its tail``)."""
    findings = scanner.scan_text(text)
    if not findings:
        return []
    return [Violation(StopCondition.SECRET, subject, _found(findings, where))]


def preview_secrets(preview: ArtifactPreview, scanner: SecretScanner) -> list[Violation]:
    """The parts of a preview a model reads: the header's path and media type, the head and
    the tail. Each is scanned apart, as each is cut apart (a line number then means something)."""
    subject = f"artifact {preview.artifact_id}"
    violations: list[Violation] = []
    for where, text in (
        ("its preview's path", preview.workspace_path),
        ("its preview's media type", preview.media_type),
        ("its preview's head", preview.head),
        ("its preview's tail", preview.tail),
    ):
        violations += text_secrets(text, subject, scanner, where=where)
    return violations


def _found(findings: list[SecretFinding], where: str) -> str:
    kinds = sorted({finding.kind.value for finding in findings})
    lines = ", ".join(str(line) for line in sorted({finding.line for finding in findings}))
    place = f" in {where}" if where else ""
    return f"a credential ({', '.join(kinds)}){place} on line(s) {lines}"
