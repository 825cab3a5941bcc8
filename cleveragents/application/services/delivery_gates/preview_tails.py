"""Gate 3, a missing output tail: a preview that does not end with its output's end.

The end of an output is where failures and summaries are reported (``1 failed, 399
passed``), so a preview that lost it misleads the model. For a stored artifact the preview is
rebuilt as the store serves it and compared with one built from the blob's real last bytes
(the project's, or the plan's, `preview_tail_bytes` of them): the row's byte count is not
trusted, since a row tampered with moves the tail the store reads. A tail size of 0 would
show no tail at all: the policy refuses it, and should a policy hold one anyway it stops
delivery too. In flight, a preview's omission marker must be followed by a tail, and its range
must leave one (`shown_previews`).
"""

from __future__ import annotations

from cleveragents.application.ports.blob_storage import BlobStorage
from cleveragents.application.ports.secret_scanner import SecretScanner
from cleveragents.application.services.delivery_gates.shown_previews import ShownPreview
from cleveragents.application.services.delivery_gates.violations import StopCondition, Violation
from cleveragents.application.services.governance.previews import build_preview
from cleveragents.domain.stored_artifact import ArtifactPreview, StoredArtifact


def stored_tail_violations(
    artifact: StoredArtifact,
    shown: ArtifactPreview,
    blobs: BlobStorage,
    scanner: SecretScanner,
    *,
    head_limit: int,
    tail_limit: int,
) -> list[Violation]:
    """`shown` (the store's preview of `artifact`) against the blob's real end."""
    assert artifact.sha256 is not None
    subject = f"artifact {artifact.id}"
    size = blobs.size(artifact.sha256)
    if size != artifact.byte_count:
        return [
            Violation(
                StopCondition.MISSING_TAIL,
                subject,
                f"its row records {artifact.byte_count} bytes but its blob holds {size}: "
                "the preview's tail is not the output's end",
            )
        ]
    if size > head_limit and tail_limit == 0:
        return [
            Violation(
                StopCondition.MISSING_TAIL,
                subject,
                f"preview_tail_bytes is 0 in its policy: the preview shows no tail of its "
                f"{size} bytes (set it with agents project context set NAME "
                "--preview-tail-bytes N)",
            )
        ]
    with blobs.open(artifact.sha256) as handle:
        head = handle.read(head_limit)
        tail = b""
        if size > head_limit:
            handle.seek(max(size - tail_limit, head_limit))
            tail = handle.read(tail_limit)
    expected = build_preview(head, tail, size, scanner)
    if (shown.head, shown.tail) == (expected.head, expected.tail):
        return []
    return [
        Violation(
            StopCondition.MISSING_TAIL,
            subject,
            f"its preview's tail is not the last {min(tail_limit, size)} bytes of the output",
        )
    ]


def shown_tail_violations(previews: list[ShownPreview], subject: str) -> list[Violation]:
    """Previews in flight whose omission leaves no tail, or is followed by none."""
    violations = []
    for preview in previews:
        if not preview.omitted_bytes:
            continue
        reason = None
        if not preview.tail_follows:
            reason = "an omission marker claims a tail but none follows"
        elif (
            preview.byte_count is not None
            and preview.omitted_offset is not None
            and preview.omitted_offset + preview.omitted_bytes >= preview.byte_count
        ):
            reason = (
                f"its omission runs to the end of its {preview.byte_count} bytes: "
                "the preview shows no tail"
            )
        if reason is not None:
            violations.append(
                Violation(
                    StopCondition.MISSING_TAIL,
                    subject,
                    f"the preview of artifact {preview.artifact_id}: {reason}",
                )
            )
    return violations
