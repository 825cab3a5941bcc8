"""`ArtifactCompressorService.compress` as the container builds it: the file is read through the
store's descriptor-based containment, so no swap race and no link reads a file from outside."""

from __future__ import annotations

import ctypes
import os
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from cleveragents.adapters.workspace.contained_files import FdContainedFiles
from cleveragents.application.services.artifact_compression.artifact_compressor import (
    ArtifactCompressorService,
)
from cleveragents.container import Container

SECRET = "OUTSIDE-SECRET-7f3a"
INSIDE = "inside the work directory\n"
ATTEMPTS = 2_000


@pytest.fixture
def service(container: Container) -> ArtifactCompressorService:
    built: ArtifactCompressorService = container.artifact_compressor_service()
    return built


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    root = tmp_path / "work"
    (root / "dir").mkdir(parents=True)
    (root / "dir" / "notes.txt").write_text(INSIDE)
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "notes.txt").write_text(f"{SECRET}\n")
    return root


def test_the_container_gives_the_compressor_the_stores_containment(
    container: Container, service: ArtifactCompressorService
) -> None:
    assert isinstance(container.contained_files(), FdContainedFiles)
    assert service._files is container.contained_files()  # one port, one adapter


def test_a_hard_link_to_a_file_outside_is_not_found(
    service: ArtifactCompressorService, workdir: Path
) -> None:
    os.link(workdir.parent / "outside" / "notes.txt", workdir / "linked.txt")
    outcome = service.compress("linked.txt", 100, workdir=str(workdir))
    assert outcome.error == f"artifact not found at {workdir.resolve()}/linked.txt"
    assert SECRET not in outcome.result.content


@pytest.fixture
def fast_thread_switching() -> Iterator[None]:
    previous = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(previous)


def test_a_directory_swapped_for_a_symlink_out_never_leaks_into_the_output(
    service: ArtifactCompressorService, workdir: Path, fast_thread_switching: None
) -> None:
    renameat2 = getattr(ctypes.CDLL(None, use_errno=True), "renameat2", None)
    if renameat2 is None:
        pytest.skip("renameat2 (Linux >= 3.15) swaps a directory and a symlink in one step")
    staged = workdir / ".staged"
    staged.symlink_to(workdir.parent / "outside")
    first, second = os.fsencode(workdir / "dir"), os.fsencode(staged)
    stop = threading.Event()

    def swap_until_stopped() -> None:
        while not stop.is_set():
            renameat2(-100, first, -100, second, 2)  # AT_FDCWD, RENAME_EXCHANGE

    swapper = threading.Thread(target=swap_until_stopped, daemon=True)
    outcomes = []
    swapper.start()
    try:
        for _ in range(ATTEMPTS):
            outcomes.append(service.compress("dir/notes.txt", 100, workdir=str(workdir)))
    finally:
        stop.set()
        swapper.join()
    leaks = [o for o in outcomes if SECRET in o.result.content]
    read = [o for o in outcomes if o.error is None]
    assert leaks == []
    assert all(o.result.content == INSIDE for o in read)
    assert read  # both states were met: the race was really run
    assert len(read) < ATTEMPTS
