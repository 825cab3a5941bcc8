"""Gate 1, workspace escape: a path recorded or referenced as an artifact's that lies outside
its workspace.

The store records an artifact's path relative to its workspace, built from the components the
import actually opened (`FdContainedFiles`), so a well-formed path is relative, has no ``..``
and no empty or NUL component. Anything else was not written by an import: a tampered row, or
a reference a tool or a model made up. The check is lexical, on purpose: the workspace's files
may have changed since, and a path that never was inside must not become acceptable because
a symlink now makes it resolve inside. Backslashes count as separators too (a Windows path,
``..\\..\\x``, must not pass as one odd component).
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable
from pathlib import PurePosixPath

from cleveragents.application.services.delivery_gates.violations import StopCondition, Violation
from cleveragents.domain.stored_artifact import StoredArtifact


def escape_reason(path: str, workspace: str | None = None) -> str | None:
    """Why `path` lies outside the workspace, or None when it stays inside.

    Without `workspace` the path must be workspace-relative. With it, an absolute path is
    accepted when it lies under `workspace` (compared component by component after
    normalisation, so ``/x/ws-evil`` is not under ``/x/ws``)."""
    if "\x00" in path:
        return f"path {path!r} contains a NUL byte"
    if not path.strip():
        return "the path is empty"
    unified = path.replace("\\", "/")
    if _is_absolute(unified):
        if workspace is None:
            return f"path {path!r} is absolute: a recorded path is relative to its workspace"
        root = PurePosixPath(posixpath.normpath(workspace.replace("\\", "/")))
        resolved = PurePosixPath(posixpath.normpath(unified))
        if resolved != root and root not in resolved.parents:
            return f"path {path!r} is outside the workspace {workspace}"
        return None
    if ".." in unified.split("/"):
        normalised = posixpath.normpath(unified)
        if normalised == ".." or normalised.startswith("../"):
            return f"path {path!r} normalises to {normalised!r}, outside the workspace"
        return f"path {path!r} contains '..'"
    return None


def _is_absolute(path: str) -> bool:
    # A drive letter (C:/x) is as absolute as /x; a UNC path (//host/share) starts with '/'.
    return path.startswith("/") or (len(path) > 1 and path[1] == ":" and path[0].isalpha())


def artifact_escapes(artifacts: Iterable[StoredArtifact]) -> list[Violation]:
    """Every artifact row, whatever its status: an audit row with an escaping path is as
    wrong as a stored one."""
    violations = []
    for artifact in artifacts:
        reason = escape_reason(artifact.workspace_path)
        if reason is not None:
            violations.append(
                Violation(StopCondition.WORKSPACE_ESCAPE, f"artifact {artifact.id}", reason)
            )
    return violations
