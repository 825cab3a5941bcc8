"""Killing the importer at any point leaves no torn blob and no row without its blob;
concurrent imports of one content from several processes store one blob."""

from __future__ import annotations

import hashlib
import multiprocessing
import random
import subprocess
import sys
import textwrap
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from cleveragents.container import artifacts_dir, build_container
from tests.fakes import FixedClock

CHILD = textwrap.dedent(
    """
    import os, signal, sys
    from pathlib import Path
    from cleveragents.container import artifacts_dir, build_container
    from cleveragents.adapters.persistence import artifact_repositories

    database_url, home, workspace, mode, point = sys.argv[1:6]
    point = int(point)
    container = build_container(database_url, home=Path(home))
    store = container.artifact_store()

    def die(*_args, **_kwargs):
        os.kill(os.getpid(), signal.SIGKILL)

    if mode == "before-row":
        artifact_repositories.SqlaArtifactRepository.add = die
    progress = None
    if mode == "bytes":
        def progress(done):
            if done >= point:
                die()
    store.import_file(workspace, "big.log", progress=progress)
    """
)


def _check_store(database_url: str, home: Path) -> None:
    blobs = artifacts_dir(home, database_url) / "blobs"
    on_disk = {p.parent.name + p.name: p for p in blobs.rglob("*") if p.is_file()}
    for digest, path in on_disk.items():
        assert hashlib.sha256(path.read_bytes()).hexdigest() == digest, "torn blob"
    engine = create_engine(database_url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(
                text("SELECT sha256 FROM artifacts WHERE status = 'stored'")
            ).scalars()
            for digest in rows:
                assert digest in on_disk, "a row points at a missing blob"
    finally:
        engine.dispose()


@pytest.mark.slow
def test_killing_the_importer_anywhere_leaves_a_consistent_store(
    tmp_path: Path, database_url: str, home: Path
) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    rng = random.Random(20261130)
    data = bytes(rng.getrandbits(8) for _ in range(256)) * (6 * 4096)  # 6 MiB, no secrets
    data = data.replace(b"\n", b" ")
    (workspace / "big.log").write_bytes(data)
    build_container(database_url, home=home).store().sessions  # noqa: B018 - migrate once

    points = [("bytes", rng.randrange(1, len(data))) for _ in range(6)]
    points += [("before-row", 0), ("bytes", 1 << 20)]
    for mode, point in points:
        child = subprocess.run(
            [
                sys.executable,
                "-c",
                CHILD,
                database_url,
                str(home),
                str(workspace),
                mode,
                str(point),
            ],
            capture_output=True,
            timeout=120,
            check=False,
        )
        assert child.returncode == -9, child.stderr.decode()[-2000:]
        _check_store(database_url, home)

    # The next start sweeps what the dead importers left in staging; cleanup removes a blob
    # whose row was never committed.
    container = build_container(database_url, home=home)
    # Cleanup leaves blobs younger than its grace period alone (an import may be about to
    # commit their row): look from two hours later.
    later = FixedClock(datetime.now(UTC) + timedelta(hours=2))
    with container.clock.override(later):
        store = container.artifact_store()
        assert list((artifacts_dir(home, database_url) / "staging").iterdir()) == []
        store.cleanup()
        blobs = artifacts_dir(home, database_url) / "blobs"
        assert [p for p in blobs.rglob("*") if p.is_file()] == []
        result = store.import_file(str(workspace), "big.log")
    assert result.artifact.sha256 == hashlib.sha256(data).hexdigest()
    _check_store(database_url, home)
    container.store().dispose()


def _import_same(database_url: str, home: str, workspace: str, name: str) -> None:
    container = build_container(database_url, home=Path(home))
    try:
        container.artifact_store().import_file(workspace, name)
    finally:
        container.store().dispose()


@pytest.mark.slow
def test_concurrent_imports_of_one_content_store_one_blob(
    tmp_path: Path, database_url: str, home: Path
) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    payload = b"".join(b"record %d ok\n" % i for i in range(200_000))
    names = [f"copy{i}.log" for i in range(4)]
    for name in names:
        (workspace / name).write_bytes(payload)
    build_container(database_url, home=home).store().sessions  # noqa: B018 - migrate once
    context = multiprocessing.get_context("spawn")
    processes = [
        context.Process(target=_import_same, args=(database_url, str(home), str(workspace), name))
        for name in names
    ]
    for process in processes:
        process.start()
    for process in processes:
        process.join(timeout=120)
    assert [p.exitcode for p in processes] == [0] * len(names)

    root = artifacts_dir(home, database_url)
    blobs = [p for p in (root / "blobs").rglob("*") if p.is_file()]
    assert len(blobs) == 1
    assert blobs[0].read_bytes() == payload
    container = build_container(database_url, home=home)
    rows = container.artifact_store().list()
    assert len(rows) == len(names)
    assert {row.sha256 for row in rows} == {hashlib.sha256(payload).hexdigest()}
    container.store().dispose()
