"""The artifact store against in-memory fakes of its ports (tests/fakes.py, tests/fake_storage.py).

What docs/artifact-store.md promises of imports, reads, previews, retention and temporary
outputs, checked without a database, a disk or the real scanner. The adapters' own behaviour
(fsync, symlinks, concurrent processes) is tested against them in tests/integration.
"""

from __future__ import annotations

import hashlib
import io
from datetime import timedelta

import pytest

from cleveragents.application.ports.contained_files import ContainedFile
from cleveragents.application.ports.secret_scanner import fingerprint
from cleveragents.application.services.artifact_store.artifact_store import (
    ArtifactNotStoredError,
    ArtifactStore,
    ReferenceRefusedError,
    SecretHandling,
)
from cleveragents.application.services.artifact_store.results import NAME_LINE
from cleveragents.application.services.artifact_store.temp_outputs import REFERENCE_PREFIX
from cleveragents.application.services.plans.plan_service import PlanService
from cleveragents.application.services.projects.project_service import ProjectService
from cleveragents.domain.errors import (
    ArtifactNotFoundError,
    InvalidInputError,
    NotFoundError,
    PlanNotFoundError,
    ProjectNotFoundError,
    WorkspaceEscapeError,
)
from cleveragents.domain.policy import ContextPolicy, ContextPolicyChanges
from cleveragents.domain.secrets import SecretFinding, SecretKind
from cleveragents.domain.stored_artifact import ArtifactStatus, RetentionClass, StoredArtifact
from tests.fake_storage import FAKE_RULE, FakeBlobStorage, FakeContainedFiles, FakeSecretScanner
from tests.fakes import FakeStore, FakeTokenCounter, FakeUnitOfWorkFactory, FixedClock

WS = "/ws"
KEY = "FAKEKEY-" + "q8R3lyPL0aTL"  # the fake scanner's credential format, made up
GRACE = 3600.0


class World:
    """One store wired to fresh fakes, and the services that make its projects and plans."""

    def __init__(self, files: FakeContainedFiles | None = None) -> None:
        self.state = FakeStore()
        self.factory = FakeUnitOfWorkFactory(self.state)
        self.clock = FixedClock()
        self.files = files if files is not None else FakeContainedFiles()
        self.files.mkdir(WS)
        self.blobs = FakeBlobStorage(self.files, self.clock)
        self.scanner = FakeSecretScanner()
        self.projects = ProjectService(self.factory)
        self.plans = PlanService(self.factory, FakeTokenCounter(), FakeSecretScanner())
        self.store = ArtifactStore(
            self.factory, self.blobs, self.files, self.scanner, self.clock, "tester", GRACE
        )

    def put(self, path: str, data: bytes | str) -> str:
        self.files.write(f"{WS}/{path}", data.encode() if isinstance(data, str) else data)
        return path

    def imported(self, path: str, data: bytes | str, **options: object) -> StoredArtifact:
        self.put(path, data)
        result = self.store.import_file(WS, path, **options)  # type: ignore[arg-type]
        assert not result.blocked, result.notice
        return result.artifact

    def row(self, artifact_id: str) -> StoredArtifact:
        return self.state.state.artifacts[artifact_id]

    def later(self, **delta: float) -> None:
        self.clock.advance(timedelta(**delta))


@pytest.fixture
def world() -> World:
    return World()


# --- construction -----------------------------------------------------------------------------


def test_a_new_store_sweeps_the_staging_data_dead_importers_left() -> None:
    files = FakeContainedFiles()
    blobs = FakeBlobStorage(files, FixedClock())
    blobs.begin().write(b"half an import")  # never committed nor aborted
    ArtifactStore(FakeUnitOfWorkFactory(), blobs, files, FakeSecretScanner(), FixedClock(), "u")
    assert blobs.sweeps == 1
    assert blobs.staging == []


# --- imports ----------------------------------------------------------------------------------


def test_an_import_stores_a_content_addressed_blob_a_row_and_a_preview(world: World) -> None:
    data = b"".join(b"line %d: ok\n" % i for i in range(20))
    world.put("out/build.log", data)
    result = world.store.import_file(WS, "out/build.log")
    artifact = result.artifact
    digest = hashlib.sha256(data).hexdigest()
    assert artifact.status is ArtifactStatus.STORED
    assert artifact.sha256 == digest
    assert world.blobs.blobs == {digest: data}
    assert artifact.byte_count == len(data)
    assert artifact.workspace_path == "out/build.log"
    assert artifact.source == "workspace"
    assert artifact.media_type == "text/plain"
    assert (artifact.created_by, artifact.created_at) == ("tester", world.clock.now())
    assert world.row(artifact.id) == artifact  # committed
    assert world.blobs.staging == []
    assert result.notice == f"stored artifact {artifact.id}"
    assert result.preview is not None
    assert result.preview.head == data.decode()  # small: the whole output is the head
    assert (result.preview.tail, result.preview.omitted_bytes) == ("", 0)


def test_an_import_without_a_project_goes_to_default_created_on_first_use(world: World) -> None:
    first = world.imported("a.log", "a\n")
    second = world.imported("b.log", "b\n")
    default = world.projects.get("default")
    assert first.project_id == second.project_id == default.id
    assert len(world.state.state.projects) == 1


def test_an_absolute_path_inside_the_workspace_is_recorded_relative(world: World) -> None:
    world.put("out/x.log", "x\n")
    result = world.store.import_file(WS, f"{WS}/out/x.log")
    assert result.artifact.workspace_path == "out/x.log"


def test_progress_gets_the_running_byte_count(world: World) -> None:
    data = b"z" * 100
    world.put("z.bin", data)
    seen: list[int] = []
    world.store.import_file(WS, "z.bin", progress=seen.append)
    assert seen[-1] == len(data)
    assert seen == sorted(seen)


def test_the_media_type_is_sniffed_from_content_and_name(world: World) -> None:
    assert world.imported("report.json", '{"ok": true}').media_type == "application/json"
    assert world.imported("run.log", '{"ok": true}').media_type == "text/plain"
    assert world.imported("blob", b"\x00\x01binary").media_type == "application/octet-stream"


def test_the_same_content_twice_is_two_rows_and_one_blob(world: World) -> None:
    first = world.imported("one.log", "same bytes\n")
    world.later(hours=2)
    second = world.imported("two.log", "same bytes\n")
    assert first.id != second.id
    assert first.sha256 == second.sha256
    assert list(world.blobs.blobs) == [first.sha256]
    # Reused, so marked recent: a cleanup now leaves it to the row just committed.
    assert first.sha256 is not None
    assert world.blobs.modified_at(first.sha256) == world.clock.now().timestamp()


def test_output_in_memory_is_stored_under_its_label_and_reused_per_project(
    world: World,
) -> None:
    world.projects.create("other")
    first = world.store.import_output(b"tool said this\n", "bash/call-1")
    again = world.store.import_output(b"tool said this\n", "bash/call-2")
    elsewhere = world.store.import_output(b"tool said this\n", "bash/call-3", project="other")
    assert first.artifact.workspace_path == "tool-output/bash/call-1"
    assert first.artifact.source == "tool-output:bash/call-1"
    assert again.artifact == first.artifact  # the stored one, not a second row
    assert again.preview == first.preview
    assert elsewhere.artifact.id != first.artifact.id
    assert len(world.state.state.artifacts) == 2


def test_a_label_too_long_for_the_source_is_refused(world: World) -> None:
    with pytest.raises(InvalidInputError):
        world.store.import_output(b"x", "l" * 1000)
    assert world.state.state.artifacts == {}


def test_a_credential_blocks_the_import_and_leaves_only_an_audit_row(world: World) -> None:
    world.put("env.log", f"HOME=/root\nTOKEN={KEY}\n")
    result = world.store.import_file(WS, "env.log")
    artifact = result.artifact
    assert result.blocked
    assert artifact.status is ArtifactStatus.BLOCKED
    assert artifact.sha256 is None  # not even a hash of the output
    assert artifact.findings == (SecretFinding(2, SecretKind.GENERIC_SECRET),)
    assert world.row(artifact.id) == artifact
    assert world.blobs.blobs == {}
    assert world.blobs.aborted == 1
    assert world.blobs.staging == []
    assert result.preview is None
    assert result.fingerprints == (fingerprint(FAKE_RULE, KEY.encode()),)
    assert "on line(s) 2" in result.notice
    assert result.fingerprints[0] in result.notice
    assert KEY not in result.notice


def test_a_credential_in_the_file_name_blocks_and_is_not_recorded(world: World) -> None:
    world.put(f"dump-{KEY}.log", "nothing secret here\n")
    result = world.store.import_file(WS, f"dump-{KEY}.log")
    assert result.blocked
    assert result.artifact.findings == (SecretFinding(NAME_LINE, SecretKind.GENERIC_SECRET),)
    assert result.artifact.workspace_path == f"dump-[REDACTED:{FAKE_RULE}].log"
    assert "in its file name" in result.notice
    assert KEY not in result.notice


def test_redact_mode_stores_the_output_with_each_credential_replaced(world: World) -> None:
    world.put("env.log", f"HOME=/root\nTOKEN={KEY}\nend\n")
    result = world.store.import_file(WS, "env.log", secrets=SecretHandling.REDACT)
    redacted = f"HOME=/root\nTOKEN=[REDACTED:{FAKE_RULE}]\nend\n".encode()
    artifact = result.artifact
    assert result.redacted
    assert not result.blocked
    assert artifact.status is ArtifactStatus.STORED
    assert artifact.sha256 == hashlib.sha256(redacted).hexdigest()
    assert artifact.byte_count == len(redacted)
    assert artifact.findings == (SecretFinding(2, SecretKind.GENERIC_SECRET),)
    assert world.blobs.blobs == {artifact.sha256: redacted}
    assert world.store.read(artifact.id) == redacted
    assert result.preview is not None
    assert KEY not in result.preview.head
    assert "with credentials redacted" in result.notice


class _RewrittenOnSeek(io.BytesIO):
    """A file another process rewrites between the scan and the redacted second read."""

    def __init__(self, data: bytes, rewritten: bytes) -> None:
        super().__init__(data)
        self._rewritten: bytes | None = rewritten

    def seek(self, offset: int, whence: int = 0) -> int:
        if offset == 0 and self._rewritten is not None:
            super().seek(0)
            self.truncate()
            self.write(self._rewritten)
            self._rewritten = None
        return super().seek(offset, whence)


class _Unseekable(io.BytesIO):
    def seekable(self) -> bool:
        return False


class _HandingOut(FakeContainedFiles):
    """Files whose `name` opens as `handle`: a file that is not a plain snapshot of bytes."""

    def __init__(self, name: str, handle: io.BytesIO) -> None:
        super().__init__()
        self.write(f"{WS}/{name}", handle.getvalue())
        self._name, self._handle = name, handle

    def open_beneath(self, root: str, path: str) -> ContainedFile:
        if path != self._name:
            return super().open_beneath(root, path)
        return ContainedFile(self._handle, path, len(self._handle.getvalue()))


def test_redact_mode_blocks_an_output_that_changed_before_the_second_read() -> None:
    scanned = f"TOKEN={KEY}\n".encode()
    world = World(_HandingOut("env.log", _RewrittenOnSeek(scanned, b"new, never scanned\n")))
    result = world.store.import_file(WS, "env.log", secrets=SecretHandling.REDACT)
    assert result.blocked
    assert world.blobs.blobs == {}
    assert world.blobs.staging == []


def test_redact_mode_blocks_an_output_that_cannot_be_read_twice() -> None:
    world = World(_HandingOut("pipe.log", _Unseekable(f"TOKEN={KEY}\n".encode())))
    result = world.store.import_file(WS, "pipe.log", secrets=SecretHandling.REDACT)
    assert result.blocked
    assert world.blobs.blobs == {}


def test_redact_mode_also_redacts_a_credential_in_the_name(world: World) -> None:
    world.put(f"dump-{KEY}.log", "clean\n")
    result = world.store.import_file(WS, f"dump-{KEY}.log", secrets=SecretHandling.REDACT)
    assert not result.blocked
    assert result.artifact.workspace_path == f"dump-[REDACTED:{FAKE_RULE}].log"
    assert world.store.read(result.artifact.id) == b"clean\n"


def test_the_workspace_allowlist_lets_an_allowed_credential_through(world: World) -> None:
    allowed = fingerprint(FAKE_RULE, KEY.encode())
    world.put(".cleveragents/secrets-allow.toml", f'fingerprints = ["{allowed}"]\n')
    world.put("fixture.txt", f"key = {KEY}\n")
    result = world.store.import_file(WS, "fixture.txt")
    assert not result.blocked
    assert result.artifact.findings == ()
    assert world.store.read(result.artifact.id) == f"key = {KEY}\n".encode()
    # Previews withhold what a scanner flags, allowed or not: nothing flagged reaches a model.
    assert result.preview is not None
    assert KEY not in result.preview.head
    assert result.preview.withheld_lines == 1


def test_a_named_allowlist_must_exist(world: World) -> None:
    world.put("env.log", "clean\n")
    with pytest.raises(InvalidInputError, match=r"no allowlist file at /ws/allow\.toml"):
        world.store.import_file(WS, "env.log", allowlist=f"{WS}/allow.toml")
    assert world.state.state.artifacts == {}


def test_a_named_allowlist_applies_to_output_held_in_memory(world: World) -> None:
    allowed = fingerprint(FAKE_RULE, KEY.encode())
    world.files.write("/etc/allow.toml", f'fingerprints = ["{allowed}"]\n'.encode())
    blocked = world.store.import_output(f"{KEY}\n".encode(), "t/1")
    allowed_result = world.store.import_output(
        f"{KEY}\n".encode(), "t/2", allowlist="/etc/allow.toml"
    )
    assert blocked.blocked
    assert not allowed_result.blocked


def test_an_import_names_an_existing_project_or_plan(world: World) -> None:
    world.projects.create("checkout")
    world.projects.create("billing")
    plan = world.plans.create("checkout", "fix the build")
    by_project = world.imported("a.log", "a\n", project="checkout")
    by_plan = world.imported("b.log", "b\n", plan_id=plan.id)
    assert by_project.project_id == by_plan.project_id == world.projects.get("checkout").id
    assert by_plan.plan_id == plan.id
    world.put("c.log", "c\n")
    with pytest.raises(ProjectNotFoundError):
        world.store.import_file(WS, "c.log", project="nobody")
    with pytest.raises(InvalidInputError, match="belongs to project 'checkout'"):
        world.store.import_file(WS, "c.log", project="billing", plan_id=plan.id)
    with pytest.raises(PlanNotFoundError):
        world.store.import_file(WS, "c.log", plan_id="01J00000000000000000000000")
    assert len(world.state.state.artifacts) == 2
    assert len(world.blobs.blobs) == 2


def test_paths_outside_the_workspace_and_missing_files_are_refused(world: World) -> None:
    world.files.write("/etc/passwd", b"root:x:0:0\n")
    with pytest.raises(WorkspaceEscapeError):
        world.store.import_file(WS, "../etc/passwd")
    with pytest.raises(WorkspaceEscapeError):
        world.store.import_file(WS, "/etc/passwd")
    with pytest.raises(ArtifactNotFoundError):
        world.store.import_file(WS, "missing.log")
    assert world.state.state.artifacts == {}


def test_an_interrupted_import_aborts_its_staging_and_commits_nothing(world: World) -> None:
    world.put("big.log", "x" * 100)

    def interrupt(_read: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        world.store.import_file(WS, "big.log", progress=interrupt)
    assert world.blobs.staging == []
    assert world.blobs.aborted == 1
    assert world.blobs.blobs == {}
    assert world.state.state.artifacts == {}


# --- reading ----------------------------------------------------------------------------------

LINES = b"alpha\r\nbeta\n\ngamma\r\nlast, no newline"


def test_read_gives_bytes_from_an_offset(world: World) -> None:
    artifact = world.imported("out.log", LINES)
    assert world.store.read(artifact.id) == LINES
    assert world.store.read(artifact.id, offset=7, length=4) == b"beta"
    assert world.store.read(artifact.id, offset=len(LINES) + 5) == b""
    with pytest.raises(InvalidInputError):
        world.store.read(artifact.id, offset=-1)
    with pytest.raises(InvalidInputError):
        world.store.read(artifact.id, length=-1)


def test_lines_come_back_byte_for_byte_with_their_endings(world: World) -> None:
    artifact = world.imported("out.log", LINES)
    assert world.store.read_lines(artifact.id, 1, 1) == b"alpha\r\n"
    assert world.store.read_lines(artifact.id, 2, 3) == b"beta\n\n"
    assert world.store.read_lines(artifact.id, 4, 99) == b"gamma\r\nlast, no newline"
    assert world.store.read_lines(artifact.id, 6, 9) == b""  # starts after the last line
    whole = world.store.read_lines(artifact.id, 1, 2) + world.store.read_lines(artifact.id, 3, 5)
    assert whole == LINES


@pytest.mark.parametrize(("first", "last"), [(0, 3), (9, 2), (-1, 1), (True, 2)])
def test_a_line_range_that_is_not_one_is_refused_when_asked(
    world: World, first: int, last: int
) -> None:
    artifact = world.imported("out.log", LINES)
    with pytest.raises(InvalidInputError, match="a line range is FIRST-LAST"):
        world.store.stream_lines(artifact.id, first, last)  # the call raises, not iteration


def test_stream_lines_checks_the_artifact_before_the_first_piece(world: World) -> None:
    with pytest.raises(NotFoundError):
        world.store.stream_lines("01J00000000000000000000000", 1, 1)


def test_an_artifact_is_found_by_id_or_by_content(world: World) -> None:
    artifact = world.imported("out.log", LINES)
    assert world.store.get(artifact.id) == artifact
    assert world.store.get(artifact.id.lower()) == artifact  # ids are canonicalised
    assert world.store.get(f"sha256:{artifact.sha256}") == artifact
    assert world.store.read_lines(f"sha256:{artifact.sha256}", 2, 2) == b"beta\n"
    with pytest.raises(InvalidInputError, match="is not a SHA-256 reference"):
        world.store.get("sha256:ABC")
    with pytest.raises(NotFoundError, match="no stored artifact has SHA-256"):
        world.store.get("sha256:" + "0" * 64)
    with pytest.raises(NotFoundError, match="unknown artifact"):
        world.store.get("01J00000000000000000000000")
    with pytest.raises(InvalidInputError):
        world.store.get("not-an-id")


def test_a_blocked_artifact_has_a_row_and_no_bytes(world: World) -> None:
    world.put("env.log", f"TOKEN={KEY}\n")
    blocked = world.store.import_file(WS, "env.log").artifact
    assert world.store.get(blocked.id) == blocked
    for fetch in (
        lambda: world.store.preview(blocked.id),
        lambda: world.store.read(blocked.id),
        lambda: world.store.read_lines(blocked.id, 1, 1),
    ):
        with pytest.raises(ArtifactNotStoredError, match="is blocked: only its audit row"):
            fetch()


def test_list_filters_by_project_and_status_oldest_first(world: World) -> None:
    world.projects.create("checkout")
    first = world.imported("a.log", "a\n", project="checkout")
    world.later(seconds=1)
    second = world.imported("b.log", "b\n", project="checkout")
    world.later(seconds=1)
    other = world.imported("c.log", "c\n")
    world.put("env.log", f"TOKEN={KEY}\n")
    blocked = world.store.import_file(WS, "env.log", project="checkout").artifact
    assert world.store.list(project="checkout") == [first, second, blocked]
    assert world.store.list(status=ArtifactStatus.BLOCKED) == [blocked]
    assert world.store.list() == [first, second, other, blocked]
    with pytest.raises(ProjectNotFoundError):
        world.store.list(project="nobody")


# --- previews ---------------------------------------------------------------------------------


def _small_previews(world: World, project: str, head: int, tail: int) -> None:
    changes = ContextPolicyChanges(preview_head_bytes=head, preview_tail_bytes=tail)
    world.projects.set_context(project, changes)


def test_a_preview_is_the_head_and_the_tail_the_policy_sizes(world: World) -> None:
    world.projects.create("p")
    _small_previews(world, "p", 10, 6)
    data = b"0123456789" + b"-" * 80 + b"the end\n"
    result = world.store.import_file(WS, world.put("out.log", data), project="p")
    preview = result.preview
    assert preview is not None
    assert (preview.head, preview.tail) == ("0123456789", "e end\n")
    assert preview.omitted_bytes == len(data) - 16
    assert preview.omitted_offset == 10
    assert (preview.byte_count, preview.sha256) == (len(data), result.artifact.sha256)
    assert world.store.preview(result.artifact.id) == preview  # read back, the same


def test_a_later_preview_follows_the_current_policy(world: World) -> None:
    world.projects.create("p")
    data = b"a" * 50 + b"b" * 50
    artifact = world.imported("out.log", data, project="p")
    assert world.store.preview(artifact.id).head == data.decode()  # default 4096: all of it
    _small_previews(world, "p", 5, 5)
    later = world.store.preview(artifact.id)
    assert (later.head, later.tail, later.omitted_bytes) == ("aaaaa", "bbbbb", 90)


def test_a_plans_policy_overrides_its_projects_for_previews(world: World) -> None:
    world.projects.create("p")
    _small_previews(world, "p", 40, 40)
    plan = world.plans.create("p", "narrow")
    with world.factory() as uow:
        uow.plans.save_policy(plan.id, ContextPolicy(preview_head_bytes=3, preview_tail_bytes=3))
        uow.commit()
    data = b"abc" + b"." * 100 + b"xyz"
    result = world.store.import_file(WS, world.put("out.log", data), plan_id=plan.id)
    assert result.preview is not None
    assert (result.preview.head, result.preview.tail) == ("abc", "xyz")
    assert world.store.preview(result.artifact.id) == result.preview


def test_a_preview_shows_control_characters_without_obeying_them(world: World) -> None:
    result = world.store.import_file(WS, world.put("c.log", b"red \x1b[31mFAIL\n"))
    assert result.preview is not None
    assert result.preview.head == "red \u241b[31mFAIL\n"
    assert world.store.read(result.artifact.id) == b"red \x1b[31mFAIL\n"  # bytes unchanged


# --- retention and cleanup --------------------------------------------------------------------


def test_cleanup_expires_by_age_and_keeps_the_audit_row(world: World) -> None:
    world.projects.create("p")
    world.projects.set_context("p", ContextPolicyChanges(artifact_retention_days=1))
    old = world.imported("old.log", "old output\n", project="p")
    world.later(days=2)
    new = world.imported("new.log", "new output\n", project="p")
    report = world.store.cleanup()
    assert [a.id for a in report.expired] == [old.id]
    expired = world.row(old.id)
    assert expired.status is ArtifactStatus.EXPIRED
    assert expired.expired_at == world.clock.now()
    assert (expired.sha256, expired.byte_count, expired.created_by) == (
        old.sha256,
        old.byte_count,
        old.created_by,
    )
    assert report.freed_bytes == old.byte_count  # its blob is two days old: past the grace
    assert report.orphan_blobs == 0  # the expired artifact's blob is not counted as one
    assert list(world.blobs.blobs) == [new.sha256]
    assert world.row(new.id).status is ArtifactStatus.STORED
    with pytest.raises(ArtifactNotStoredError, match="is expired: only its audit row remains"):
        world.store.preview(old.id)


def test_an_artifact_on_hold_outlives_the_retention(world: World) -> None:
    world.projects.create("p")
    world.projects.set_context("p", ContextPolicyChanges(artifact_retention_days=1))
    held = world.imported("evidence.log", "evidence\n", project="p")
    assert world.store.set_retention(held.id, RetentionClass.HOLD).retention_class is (
        RetentionClass.HOLD
    )
    world.later(days=30)
    assert world.store.cleanup().expired == ()
    assert world.row(held.id).status is ArtifactStatus.STORED
    world.store.set_retention(held.id, RetentionClass.STANDARD)
    assert [a.id for a in world.store.cleanup().expired] == [held.id]


def test_cleanup_by_bytes_expires_the_oldest_and_the_grace_keeps_recent_blobs(
    world: World,
) -> None:
    # The docs' three nightly runs of 1000, 2000 and 3000 bytes, in a project keeping 4000.
    world.projects.create("nightly")
    runs = []
    for n in (1, 2, 3):
        runs.append(world.imported(f"run{n}.log", str(n) * (n * 1000), project="nightly"))
        world.later(seconds=1)
    world.projects.set_context("nightly", ContextPolicyChanges(artifact_retention_bytes=4000))
    preview = world.store.cleanup(dry_run=True)
    report = world.store.cleanup()
    assert [a.id for a in report.expired] == [runs[0].id, runs[1].id]
    assert (report.freed_bytes, report.orphan_blobs) == (0, 0)  # published seconds ago
    assert [a.id for a in preview.expired] == [a.id for a in report.expired]
    assert len(world.blobs.blobs) == 3
    world.later(hours=2)
    after = world.store.cleanup()
    assert after.expired == ()
    assert (after.freed_bytes, after.orphan_blobs) == (3000, 2)
    assert list(world.blobs.blobs) == [runs[2].sha256]


def test_the_byte_total_counts_a_shared_blob_once(world: World) -> None:
    world.projects.create("p")
    world.projects.set_context("p", ContextPolicyChanges(artifact_retention_bytes=2000))
    world.imported("a.log", "a" * 1000, project="p")
    world.later(seconds=1)
    world.imported("again.log", "a" * 1000, project="p")  # the same blob: 1000 bytes on disk
    world.later(seconds=1)
    world.imported("b.log", "b" * 1000, project="p")
    assert world.store.cleanup().expired == ()


def test_a_dry_run_reports_and_changes_nothing(world: World) -> None:
    world.projects.create("p")
    world.projects.set_context("p", ContextPolicyChanges(artifact_retention_days=1))
    old = world.imported("old.log", "old\n", project="p")
    world.store.create_temp_output("pytest")
    world.later(days=2)
    rows, blobs = dict(world.state.state.artifacts), dict(world.blobs.blobs)
    grants = dict(world.state.state.temp_outputs)
    report = world.store.cleanup(dry_run=True)
    assert report.dry_run
    assert [a.id for a in report.expired] == [old.id]
    assert (report.freed_bytes, report.stale_temp_outputs) == (4, 1)
    assert world.state.state.artifacts == rows
    assert world.blobs.blobs == blobs
    assert world.state.state.temp_outputs == grants


def test_cleanup_removes_old_orphan_blobs_and_leaves_recent_ones(world: World) -> None:
    def orphan(data: bytes) -> str:  # an importer that died between publishing and its row
        writer = world.blobs.begin()
        writer.write(data)
        digest = hashlib.sha256(data).hexdigest()
        writer.commit(digest)
        return digest

    old = orphan(b"old orphan")
    world.later(hours=2)
    recent = orphan(b"recent orphan")
    kept = world.imported("kept.log", "kept\n")
    world.later(minutes=30)
    report = world.store.cleanup()
    assert (report.orphan_blobs, report.freed_bytes) == (1, len(b"old orphan"))
    assert old not in world.blobs.blobs
    assert {recent, kept.sha256} <= set(world.blobs.blobs)


class _ReusedDuringCleanup(FakeBlobStorage):
    """An import elsewhere reuses a blob while a cleanup is deciding about it."""

    def size(self, sha256: str) -> int:
        self.publish(sha256, self.blobs[sha256])  # reused now: recent again
        return super().size(sha256)


def test_a_blob_reused_while_cleanup_runs_is_left_alone() -> None:
    files, clock = FakeContainedFiles(), FixedClock()
    blobs = _ReusedDuringCleanup(files, clock)
    store = ArtifactStore(FakeUnitOfWorkFactory(), blobs, files, FakeSecretScanner(), clock, "u")
    writer = blobs.begin()
    writer.write(b"orphan")
    digest = hashlib.sha256(b"orphan").hexdigest()
    writer.commit(digest)
    clock.advance(timedelta(hours=2))
    store.cleanup()
    assert digest in blobs.blobs


def test_cleanup_removes_temporary_outputs_whose_grant_expired_unused(world: World) -> None:
    stale = world.store.create_temp_output("pytest")
    world.files.write(stale.path, b"never imported\n")
    used = world.store.create_temp_output("make")
    world.files.write(used.path, b"imported\n")
    world.store.import_temp_output(used.reference)
    world.later(hours=25)
    report = world.store.cleanup()
    assert report.stale_temp_outputs == 1
    assert world.state.state.temp_outputs.keys() == {_selector(used.reference)}
    assert stale.path not in world.files.files
    assert stale.path not in world.blobs.temp_paths


# --- temporary outputs ------------------------------------------------------------------------

REFUSED = "temporary-output reference refused: unknown, already used or expired"


def _selector(reference: str) -> str:
    return reference.removeprefix(REFERENCE_PREFIX).partition(".")[0]


def test_a_grant_is_a_private_path_and_a_reference_whose_verifier_is_not_kept(
    world: World,
) -> None:
    grant = world.store.create_temp_output("pytest")
    selector, _, verifier = grant.reference.removeprefix(REFERENCE_PREFIX).partition(".")
    assert grant.reference.startswith(REFERENCE_PREFIX)
    assert len(selector) == 16
    assert int(selector, 16) >= 0
    assert len(verifier) >= 43  # 256 random bits, URL-safe base64
    assert grant.expires_at == world.clock.now() + timedelta(hours=24)
    assert grant.path in world.blobs.temp_paths
    record = world.state.state.temp_outputs[selector][0]
    assert record.verifier_sha256 == hashlib.sha256(verifier.encode()).hexdigest()
    assert verifier not in repr(record)
    other = world.store.create_temp_output("pytest")
    assert other.reference != grant.reference
    assert other.path != grant.path


@pytest.mark.parametrize("tool", ["", "   ", "t" * 101, "py\0test"])
def test_a_tool_name_must_be_short_and_plain(world: World, tool: str) -> None:
    with pytest.raises(InvalidInputError):
        world.store.create_temp_output(tool)
    assert world.state.state.temp_outputs == {}


def test_a_temporary_output_is_imported_once_and_then_removed(world: World) -> None:
    grant = world.store.create_temp_output("pytest")
    world.files.write(grant.path, b"1 failed, 399 passed\n")
    result = world.store.import_temp_output(grant.reference)
    assert result.artifact.workspace_path == "temp-output/pytest"
    assert result.artifact.source == "temp-output:pytest"
    assert world.store.read(result.artifact.id) == b"1 failed, 399 passed\n"
    assert grant.path not in world.files.files
    assert world.state.state.temp_outputs[_selector(grant.reference)][0].used_at is not None
    with pytest.raises(ReferenceRefusedError, match=REFUSED):
        world.store.import_temp_output(grant.reference)


def test_forged_and_expired_references_get_one_answer(world: World) -> None:
    grant = world.store.create_temp_output("pytest")
    world.files.write(grant.path, b"output\n")
    selector = _selector(grant.reference)
    forged = [
        "nonsense",
        REFERENCE_PREFIX,
        f"{REFERENCE_PREFIX}{selector}",
        f"{REFERENCE_PREFIX}{selector}.wrong-verifier",
        f"{REFERENCE_PREFIX}{'0' * 16}.{grant.reference.partition('.')[2]}",
        grant.reference.removeprefix(REFERENCE_PREFIX),
    ]
    for reference in forged:
        with pytest.raises(ReferenceRefusedError) as refused:
            world.store.import_temp_output(reference)
        assert str(refused.value) == REFUSED
    world.later(hours=24)
    with pytest.raises(ReferenceRefusedError, match=REFUSED):
        world.store.import_temp_output(grant.reference)
    assert world.state.state.artifacts == {}


def test_a_tool_that_wrote_nothing_spends_its_reference(world: World) -> None:
    grant = world.store.create_temp_output("pytest")
    with pytest.raises(InvalidInputError, match="the tool 'pytest' wrote nothing"):
        world.store.import_temp_output(grant.reference)
    world.files.write(grant.path, b"too late\n")
    with pytest.raises(ReferenceRefusedError):
        world.store.import_temp_output(grant.reference)


def test_a_wrong_project_does_not_spend_the_reference(world: World) -> None:
    grant = world.store.create_temp_output("pytest")
    world.files.write(grant.path, b"output\n")
    with pytest.raises(ProjectNotFoundError):
        world.store.import_temp_output(grant.reference, project="nobody")
    with pytest.raises(InvalidInputError, match="no allowlist file"):
        world.store.import_temp_output(grant.reference, allowlist=f"{WS}/allow.toml")
    assert not world.store.import_temp_output(grant.reference).blocked


def test_a_blocked_temporary_output_is_removed_and_its_reference_spent(world: World) -> None:
    grant = world.store.create_temp_output("env")
    world.files.write(grant.path, f"TOKEN={KEY}\n".encode())
    result = world.store.import_temp_output(grant.reference)
    assert result.blocked
    assert grant.path not in world.files.files
    assert world.blobs.blobs == {}
    with pytest.raises(ReferenceRefusedError):
        world.store.import_temp_output(grant.reference)


def test_a_temporary_output_can_be_redacted(world: World) -> None:
    grant = world.store.create_temp_output("env")
    world.files.write(grant.path, f"TOKEN={KEY}\n".encode())
    result = world.store.import_temp_output(grant.reference, secrets=SecretHandling.REDACT)
    assert result.redacted
    assert world.store.read(result.artifact.id) == f"TOKEN=[REDACTED:{FAKE_RULE}]\n".encode()


# --- the fakes keep their ports' contracts ----------------------------------------------------


def test_the_fake_scanner_finds_a_credential_split_across_chunks() -> None:
    scan = FakeSecretScanner().start()
    data = f"first line\nsecret {KEY} here\n".encode()
    cut = data.index(b"KEY") + 2
    scan.feed(data[:cut])
    scan.feed(data[cut:])
    [match] = scan.finish_matches()
    assert (match.line, data[match.start : match.end]) == (2, KEY.encode())


def test_the_fake_blob_storage_names_a_blob_by_its_content_only() -> None:
    blobs = FakeBlobStorage(FakeContainedFiles(), FixedClock())
    writer = blobs.begin()
    writer.write(b"bytes")
    with pytest.raises(ValueError, match="is not the SHA-256"):
        writer.commit("0" * 64)
    assert blobs.blobs == {}


def test_a_claim_in_a_unit_of_work_left_uncommitted_is_lost(world: World) -> None:
    grant = world.store.create_temp_output("pytest")
    selector = _selector(grant.reference)
    with world.factory() as uow:
        assert uow.temp_outputs.mark_used(selector, world.clock.now())
        assert not uow.temp_outputs.mark_used(selector, world.clock.now())  # at most one wins
    assert world.state.state.temp_outputs[selector][0].used_at is None
