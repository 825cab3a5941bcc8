"""`open_store` and `Store`: the database and artifact store, and the services that use them.

A store is the only thing in the API that opens a database. It is opened (and its schema
brought to head) on first use, not by `open_store`; `close` (or leaving the ``with`` block)
disposes of the connection. Each method is one call of a service; the services themselves are
there too (`projects`, `plans`, `spawner`, `artifacts`) for whatever the methods leave out.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from cleveragents.api.compression import stored_result
from cleveragents.api.formats import (
    ArtifactKindName,
    CompressionModeName,
    SecretHandlingName,
    artifact_kind,
    compression_mode,
    secret_handling,
)
from cleveragents.container import build_container
from cleveragents.domain.compression_modes import DEFAULT_COMPRESSION_MODE
from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.vocabulary import DEFAULT_ENCODING

if TYPE_CHECKING:
    from cleveragents.api.compression import CompressResult
    from cleveragents.application.services.artifact_store.artifact_store import (
        ArtifactStore,
        ImportResult,
    )
    from cleveragents.application.services.artifact_store.reading import ArtifactSlice
    from cleveragents.application.services.plans.child_plans import ChildPlanSpawner
    from cleveragents.application.services.plans.plan_service import PlanService, PlanStatusReport
    from cleveragents.application.services.projects.project_service import ProjectService
    from cleveragents.container import Container
    from cleveragents.domain.artifact import ArtifactKind, CompressionMode
    from cleveragents.domain.plan import Decision, Plan
    from cleveragents.domain.project import Project
    from cleveragents.domain.stored_artifact import ArtifactPreview, StoredArtifact

READ_BYTES = 1 << 20
"""The default bound of `Store.read_slice` and `Store.read_lines_slice`."""
SecretsChoice = SecretHandlingName  # a `SecretHandling` or its value, checked when called


class Store:
    """An open store; made by `open_store`. Use it in a ``with`` block, or call `close`."""

    def __init__(self, database_url: str | None, home: Path | None, encoding: str) -> None:
        self._database_url = database_url
        self._home = home
        self.encoding = encoding
        """The tokenizer encoding this store's services count with."""
        self._containers: dict[str, Container] = {}
        self._lock = threading.Lock()
        self._closed = False

    def container_for(self, encoding: str | None = None) -> Container:
        """The container of this store counting with `encoding` (default: the store's)."""
        wanted = encoding or self.encoding
        with self._lock:
            if self._closed:
                raise InvalidInputError("the store is closed")
            if wanted not in self._containers:
                self._containers[wanted] = build_container(
                    self._database_url, home=self._home, encoding=wanted
                )
            return self._containers[wanted]

    # -- the services ------------------------------------------------------------------------

    @property
    def projects(self) -> ProjectService:
        """Projects and their context policies."""
        service: ProjectService = self.container_for().project_service()
        return service

    @property
    def plans(self) -> PlanService:
        """Plans and the decisions recorded on them."""
        service: PlanService = self.container_for().plan_service()
        return service

    @property
    def spawner(self) -> ChildPlanSpawner:
        """Spawns child plans with a skeleton of their parent's context."""
        service: ChildPlanSpawner = self.container_for().child_plan_spawner()
        return service

    @property
    def artifacts(self) -> ArtifactStore:
        """The governed artifact store: imports, previews, reads, retention."""
        service: ArtifactStore = self.container_for().artifact_store()
        return service

    # -- projects and plans ------------------------------------------------------------------

    def create_project(self, name: str) -> Project:
        return self.projects.create(name)

    def create_plan(self, project: str, title: str) -> Plan:
        return self.plans.create(project, title)

    def decide(
        self,
        plan_id: str,
        content: str,
        *,
        relevance: float = 0.5,
        token_count: int | None = None,
        fragment_id: str | None = None,
    ) -> Decision:
        """Record a decision carrying one context fragment (its tokens counted when None)."""
        return self.plans.decide(
            plan_id,
            content,
            relevance=relevance,
            token_count=token_count,
            fragment_id=fragment_id,
        )

    def spawn_child(
        self, parent_id: str, title: str, *, skeleton_ratio: float | None = None
    ) -> Plan:
        """A child plan inheriting a skeleton of the parent's context (its
        `skeleton_metadata` says what was kept); the ratio is this one, else the parent's,
        the project's or 0.3."""
        return self.spawner.spawn_child(parent_id, title, skeleton_ratio)

    def plan_status(self, plan_id: str) -> PlanStatusReport:
        return self.plans.status(plan_id)

    # -- artifacts ---------------------------------------------------------------------------

    def import_output(
        self,
        output: bytes | str,
        name: str,
        *,
        project: str | None = None,
        secrets: SecretsChoice = "block",
    ) -> ImportResult:
        """Store a tool's output (held in memory) as ``tool-output/<name>``, scanned for
        credentials. Returns the result whatever the scan found: `blocked` True means nothing
        was stored (only an audit row; `notice` says which kinds, on which lines, never the
        value) and there is no `preview`; otherwise `artifact.id` and a bounded `preview` are
        what the model should see. ``secrets="redact"`` stores it with each credential
        replaced instead. The same bytes again reuse the stored artifact. A
        ``cleveragents:allow-secret`` marker in the output allows nothing: a tool can print it."""
        handling = secret_handling(secrets)
        data = output.encode("utf-8", "surrogatepass") if isinstance(output, str) else output
        return self.artifacts.import_output(data, name, project=project, secrets=handling)

    def import_file(
        self,
        path: str | os.PathLike[str],
        *,
        workspace: str | os.PathLike[str] | None = None,
        project: str | None = None,
        plan_id: str | None = None,
        secrets: SecretsChoice = "block",
    ) -> ImportResult:
        """Import a file inside `workspace` (default: the current directory), opened
        race-free beneath it. A credential blocks it (see `import_output`), or with
        ``secrets="redact"`` it is stored with each credential replaced, unless its line holds
        the ``cleveragents:allow-secret`` marker: trusted here, in a file of your own, only."""
        handling = secret_handling(secrets)
        root = os.fspath(workspace) if workspace is not None else os.getcwd()
        return self.artifacts.import_file(
            root, os.fspath(path), project=project, plan_id=plan_id, secrets=handling
        )

    def get(self, artifact_id: str) -> StoredArtifact:
        """The artifact's metadata; `artifact_id` is its id or ``sha256:<hex>``."""
        return self.artifacts.get(artifact_id)

    def list_artifacts(self, project: str | None = None) -> list[StoredArtifact]:
        return self.artifacts.list(project)

    def preview(self, artifact_id: str) -> ArtifactPreview:
        """Bounded head and tail, with the byte count, SHA-256 and media type."""
        return self.artifacts.preview(artifact_id)

    def read(self, artifact_id: str, offset: int = 0, length: int | None = None) -> bytes:
        """`length` bytes from `offset` (default: every byte to the end), held whole; `stream`
        gives them in bounded pieces, `read_slice` at most a bound with what remains."""
        return self.artifacts.read(artifact_id, offset, length)

    def stream(
        self, artifact_id: str, offset: int = 0, length: int | None = None
    ) -> Iterator[bytes]:
        """`read` in pieces of at most 1 MiB, for an artifact too large to hold."""
        return self.artifacts.stream(artifact_id, offset, length)

    def read_slice(
        self,
        artifact_id: str,
        offset: int = 0,
        length: int | None = None,
        *,
        limit: int = READ_BYTES,
    ) -> ArtifactSlice:
        """`read`, at most `limit` bytes of it: `data`, `offset`, `returned`, `total_bytes`,
        `remaining` (bytes after `data`), `next_offset` (None at the end) and `truncated`
        (the limit cut what was asked for)."""
        return self.artifacts.read_slice(artifact_id, offset, length, limit=limit)

    def read_lines(self, artifact_id: str, first: int, last: int | None = None) -> bytes:
        """Lines `first` to `last` (1-based, inclusive; default: to the end) exactly as
        stored: what a compression marker says it omitted."""
        return self.artifacts.read_lines(artifact_id, first, last)

    def stream_lines(
        self, artifact_id: str, first: int, last: int | None = None
    ) -> Iterator[bytes]:
        """`read_lines` in pieces of at most 1 MiB."""
        return self.artifacts.stream_lines(artifact_id, first, last)

    def read_lines_slice(
        self, artifact_id: str, first: int, last: int | None = None, *, limit: int = READ_BYTES
    ) -> ArtifactSlice:
        """`read_lines`, at most `limit` bytes of it, reported as `read_slice`."""
        return self.artifacts.read_lines_slice(artifact_id, first, last, limit=limit)

    def compress(
        self,
        artifact_id: str,
        budget: int,
        *,
        kind: ArtifactKind | ArtifactKindName | None = None,
        mode: CompressionMode | CompressionModeName = DEFAULT_COMPRESSION_MODE,
        task: str | None = None,
    ) -> CompressResult:
        """A stored artifact compressed to `budget` (as `kind`, else the kind told from its
        name and first lines); its markers name it and their line ranges (`read_lines` gives
        them back)."""
        service = self.container_for().artifact_compressor_service()
        chosen = compression_mode(mode)
        stored = self.get(artifact_id)
        outcome = service.compress_stored(
            stored.id, budget, task=task, mode=chosen, kind=artifact_kind(kind)
        )
        return stored_result(outcome, budget, chosen)

    # -- lifetime ----------------------------------------------------------------------------

    def close(self) -> None:
        """Dispose of the database connections (a store never used opened none)."""
        with self._lock:
            containers, self._containers = list(self._containers.values()), {}
            self._closed = True
        for container in containers:
            container.shutdown_resources()

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


def open_store(
    database_url: str | os.PathLike[str] | None = None,
    *,
    home: str | os.PathLike[str] | None = None,
    encoding: str = DEFAULT_ENCODING,
) -> Store:
    """The store: `database_url` a SQLAlchemy URL (a `str`, ``sqlite:///file.db``, or
    PostgreSQL's) or a SQLite file (an `os.PathLike`); None is ``$CLEVERAGENTS_DATABASE_URL``,
    else the file under the home. `home` (default ``$CLEVERAGENTS_HOME``, else
    ``~/.cleveragents``) holds that file and the artifacts' blobs. Nothing is opened until the
    store is first used."""
    if isinstance(database_url, os.PathLike):
        url: str | None = f"sqlite:///{Path(os.fspath(database_url)).absolute()}"
    else:
        url = database_url
    return Store(url, Path(os.fspath(home)) if home is not None else None, encoding)
