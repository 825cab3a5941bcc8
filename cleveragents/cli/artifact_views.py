"""How the store's commands show an artifact and a preview, in JSON and as text."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cleveragents.domain.stored_artifact import ArtifactPreview, StoredArtifact


def artifact_view(artifact: StoredArtifact) -> dict[str, Any]:
    return {
        "id": artifact.id,
        "project_id": artifact.project_id,
        "plan_id": artifact.plan_id,
        "status": artifact.status.value,
        "workspace_path": artifact.workspace_path,
        "byte_count": artifact.byte_count,
        "sha256": artifact.sha256,
        "media_type": artifact.media_type,
        "retention_class": artifact.retention_class.value,
        "source": artifact.source,
        "created_by": artifact.created_by,
        "created_at": artifact.created_at.isoformat(),
        "expired_at": None if artifact.expired_at is None else artifact.expired_at.isoformat(),
        "findings": [{"line": f.line, "kind": f.kind.value} for f in artifact.findings],
    }


def preview_view(shown: ArtifactPreview) -> dict[str, Any]:
    return shown.model_dump()


def render_preview(shown: ArtifactPreview) -> str:
    lines = [
        f"artifact {shown.artifact_id}: {shown.workspace_path} ({shown.media_type}, "
        f"{shown.byte_count} bytes, sha256 {shown.sha256})",
        shown.head,
    ]
    if shown.omitted_bytes:
        lines.append(
            f"[... {shown.omitted_bytes} bytes omitted: agents artifact read "
            f"{shown.artifact_id} --offset {shown.omitted_offset} --length "
            f"{shown.omitted_bytes} ...]"
        )
    if shown.tail:
        lines.append(shown.tail)
    if shown.withheld_lines:
        lines.append(f"[{shown.withheld_lines} line(s) withheld as possible credentials]")
    return "\n".join(lines)
