"""The blob location belongs to the store: the same database finds the same blobs whether its URL
came from --db or from CLEVERAGENTS_DATABASE_URL, and from another home (a stand-in for another
machine) it reads them from object storage, or from the folder the database recorded, or says
in one line where they should be."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from tests.e2e.cli_runner import Result, run
from tests.s3_buckets import S3Bucket, bucket_fixture, s3_store_fixture  # noqa: F401

OUTPUT = "first line of the tool output\nsecond line\nthird line\n"


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "ws"
    folder.mkdir()
    (folder / "tool.log").write_text(OUTPUT)
    monkeypatch.chdir(folder)
    return folder


@pytest.fixture
def shared_url(tmp_path: Path) -> str:
    """A database outside every home, as a server database would be."""
    (tmp_path / "server").mkdir()
    return f"sqlite:///{tmp_path / 'server' / 'shared.db'}"


def _use_home(monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    monkeypatch.setenv("CLEVERAGENTS_HOME", str(home))


def _import(capsys: pytest.CaptureFixture[str], *db: str) -> str:
    result = run(capsys, *db, "artifact", "import", "tool.log", "--json")
    assert result.exit_code == 0, result.stderr
    artifact_id: str = result.json()["artifact"]["id"]
    return artifact_id


def _read(capsys: pytest.CaptureFixture[str], artifact_id: str, *db: str) -> Result:
    return run(capsys, *db, "artifact", "read", artifact_id)


def _with_settings_table(url: str) -> None:
    """The table of migration 0007, made here if the migrations do not make it yet (made by
    them, this does nothing): the record is then read and written as in a deployment."""
    engine = create_engine(url)
    try:
        with engine.begin() as connection:
            connection.execute(
                text(
                    "CREATE TABLE IF NOT EXISTS store_settings "
                    "(name VARCHAR(100) NOT NULL, value TEXT NOT NULL, "
                    "CONSTRAINT pk_store_settings PRIMARY KEY (name))"
                )
            )
    finally:
        engine.dispose()


def _recorded(url: str) -> str | None:
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            value = connection.execute(
                text("SELECT value FROM store_settings WHERE name = 'blob_store'")
            ).scalar()
    finally:
        engine.dispose()
    return None if value is None else str(value)


def test_the_same_url_from_db_and_from_the_environment_reads_the_same_artifact(
    capsys: pytest.CaptureFixture[str],
    home: Path,
    workspace: Path,
    shared_url: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    by_option = _import(capsys, "--db", shared_url)
    monkeypatch.setenv("CLEVERAGENTS_DATABASE_URL", shared_url)
    read = _read(capsys, by_option)
    assert read.exit_code == 0, read.stderr
    assert read.stdout == OUTPUT
    # And the other way round: imported through the environment, read with --db.
    (workspace / "tool.log").write_text("another output\n")
    by_environment = _import(capsys)
    monkeypatch.delenv("CLEVERAGENTS_DATABASE_URL")
    assert _read(capsys, by_environment, "--db", shared_url).stdout == "another output\n"
    # One folder for the shared database, apart from the home's own database's.
    assert not (home / "artifacts" / "blobs").exists()
    [folder] = (home / "artifacts" / "databases").iterdir()
    assert len([p for p in (folder / "blobs").rglob("*") if p.is_file()]) == 2


def test_the_homes_own_database_keeps_its_blobs_in_home_artifacts(
    capsys: pytest.CaptureFixture[str], home: Path, workspace: Path
) -> None:
    artifact_id = _import(capsys)
    blobs = [p for p in (home / "artifacts" / "blobs").rglob("*") if p.is_file()]
    assert [p.read_text() for p in blobs] == [OUTPUT]
    assert _read(capsys, artifact_id).stdout == OUTPUT


def test_another_home_reads_the_blob_from_object_storage(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    workspace: Path,
    shared_url: str,
    s3_store: S3Bucket,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _use_home(monkeypatch, tmp_path / "machine-a")
    artifact_id = _import(capsys, "--db", shared_url)
    assert len(s3_store.keys("store/blobs/")) == 1
    _use_home(monkeypatch, tmp_path / "machine-b")
    monkeypatch.setenv("CLEVERAGENTS_DATABASE_URL", shared_url)
    read = _read(capsys, artifact_id)
    assert read.exit_code == 0, read.stderr
    assert read.stdout == OUTPUT
    assert not (tmp_path / "machine-b" / "artifacts" / "blobs").exists()


def test_the_cli_flow_on_object_storage(
    capsys: pytest.CaptureFixture[str],
    home: Path,
    workspace: Path,
    shared_url: str,
    s3_store: S3Bucket,
) -> None:
    db = ("--db", shared_url)
    artifact_id = _import(capsys, *db)
    preview = run(capsys, *db, "artifact", "preview", artifact_id, "--json")
    assert preview.exit_code == 0, preview.stderr
    assert preview.json()["head"] == OUTPUT
    ranged = run(capsys, *db, "artifact", "read", artifact_id, "--offset", "6", "--length", "4")
    assert ranged.stdout == "line"
    lines = run(capsys, *db, "artifact", "read", artifact_id, "--lines", "2-3")
    assert lines.stdout == "second line\nthird line\n"
    listed = run(capsys, *db, "artifact", "list", "--json")
    assert [a["id"] for a in listed.json()] == [artifact_id]
    cleanup = run(capsys, *db, "artifact", "cleanup", "--json")
    assert cleanup.exit_code == 0, cleanup.stderr
    assert len(s3_store.keys("store/blobs/")) == 1  # referred to: kept


def test_a_trusted_tools_output_is_written_locally_and_uploaded_on_import(
    capsys: pytest.CaptureFixture[str],
    home: Path,
    workspace: Path,
    shared_url: str,
    s3_store: S3Bucket,
) -> None:
    db = ("--db", shared_url)
    created = run(capsys, *db, "artifact", "temp-output", "--tool", "pytest", "--json")
    assert created.exit_code == 0, created.stderr
    grant = created.json()
    output = Path(grant["path"])
    assert output.is_relative_to(home / "artifacts")  # a local file: the tool writes a path
    output.write_text(OUTPUT)
    imported = run(capsys, *db, "artifact", "import", "--ref", grant["reference"], "--json")
    assert imported.exit_code == 0, imported.stderr
    [key] = s3_store.keys("store/blobs/")
    assert s3_store.body(key) == OUTPUT.encode()
    assert not output.exists()  # discarded once imported


def test_another_home_reads_the_folder_the_database_recorded(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    workspace: Path,
    shared_url: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _use_home(monkeypatch, tmp_path / "machine-a")
    assert run(capsys, "--db", shared_url, "db", "upgrade").exit_code == 0
    _with_settings_table(shared_url)
    artifact_id = _import(capsys, "--db", shared_url)
    recorded = _recorded(shared_url)
    assert recorded is not None
    assert recorded.startswith(str(tmp_path / "machine-a" / "artifacts" / "databases"))
    _use_home(monkeypatch, tmp_path / "machine-b")
    assert _read(capsys, artifact_id, "--db", shared_url).stdout == OUTPUT
    # Machine A's folder is not mounted here: one line naming where the blob should be.
    shutil.move(tmp_path / "machine-a", tmp_path / "unmounted")
    result = _read(capsys, artifact_id, "--db", shared_url)
    assert result.exit_code == 1
    [line] = result.stderr.strip().splitlines()
    assert line.startswith(f"error: blob {_digest(OUTPUT)} should be at {recorded}/blobs/")
    assert f"the blob store {recorded}, recorded in the database" in line
    assert "is not on this machine" in line
    # The row is still listed; an import here would split the store, so it is refused.
    listed = run(capsys, "--db", shared_url, "artifact", "list", "--json")
    assert [a["id"] for a in listed.json()] == [artifact_id]
    refused = run(capsys, "--db", shared_url, "artifact", "import", "tool.log")
    assert refused.exit_code == 1
    assert "is not on this machine" in refused.stderr
    here = [p for p in (tmp_path / "machine-b").rglob("*") if p.is_file() and "blobs" in p.parts]
    assert here == []


def test_object_storage_recorded_at_first_use_serves_later_processes_without_the_setting(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    workspace: Path,
    shared_url: str,
    s3_store: S3Bucket,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert run(capsys, "--db", shared_url, "db", "upgrade").exit_code == 0
    _with_settings_table(shared_url)
    artifact_id = _import(capsys, "--db", shared_url)
    assert _recorded(shared_url) == s3_store.url() + "/"
    monkeypatch.delenv("CLEVERAGENTS_BLOB_STORE")  # the endpoint is still this machine's
    _use_home(monkeypatch, tmp_path / "machine-b")
    assert _read(capsys, artifact_id, "--db", shared_url).stdout == OUTPUT


def test_the_homes_database_records_its_folder_relative_so_a_moved_home_keeps_it(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    workspace: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _use_home(monkeypatch, tmp_path / "old-home")
    monkeypatch.delenv("CLEVERAGENTS_DATABASE_URL", raising=False)
    assert run(capsys, "db", "upgrade").exit_code == 0
    _with_settings_table(f"sqlite:///{tmp_path / 'old-home' / 'cleveragents.db'}")
    artifact_id = _import(capsys)
    assert _recorded(f"sqlite:///{tmp_path / 'old-home' / 'cleveragents.db'}") == "artifacts"
    shutil.move(tmp_path / "old-home", tmp_path / "new-home")
    _use_home(monkeypatch, tmp_path / "new-home")
    assert _read(capsys, artifact_id).stdout == OUTPUT


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        ("CLEVERAGENTS_BLOB_STORE", "gs://bucket/x", "is not a blob store"),
        ("CLEVERAGENTS_BLOB_STORE", "s3://", "names no bucket"),
        ("CLEVERAGENTS_BLOB_GRACE_SECONDS", "an hour", "is not a number of seconds"),
        ("CLEVERAGENTS_BLOB_GRACE_SECONDS", "-5", "is not a number of seconds"),
    ],
)
def test_a_bad_blob_store_setting_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str],
    home: Path,
    workspace: Path,
    monkeypatch: pytest.MonkeyPatch,
    variable: str,
    value: str,
    message: str,
) -> None:
    monkeypatch.setenv(variable, value)
    result = run(capsys, "artifact", "import", "tool.log")
    assert result.exit_code == 2
    [line] = result.stderr.strip().splitlines()
    assert line.startswith(f"error: {variable}=")
    assert message in line
    monkeypatch.delenv(variable)
    assert run(capsys, "artifact", "list", "--json").json() == []  # nothing was stored


def test_a_configured_folder_that_does_not_exist_is_one_line(
    capsys: pytest.CaptureFixture[str],
    home: Path,
    workspace: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CLEVERAGENTS_BLOB_STORE", str(tmp_path / "no" / "such"))
    result = run(capsys, "artifact", "import", "tool.log")
    assert result.exit_code == 1
    [line] = result.stderr.strip().splitlines()
    assert line == (
        f"error: the blob store folder {tmp_path / 'no' / 'such'} "
        "(CLEVERAGENTS_BLOB_STORE) does not exist"
    )
    assert not (tmp_path / "no").exists()


def _digest(content: str) -> str:
    import hashlib

    return hashlib.sha256(content.encode()).hexdigest()
