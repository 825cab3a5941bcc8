"""A temporary output leaves nothing in the store once its reference is spent: a refused import
(a symlink, a hard link, a FIFO, a folder, a device, nothing written) removes its folder like a
stored one, and never what a planted link points to; `agents artifact cleanup` removes the
folders a killed import left (no pending grant refers to them) once they are older than the
grace period, and never a pending grant's."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from cleveragents.container import Container, artifacts_dir, build_container
from tests.e2e.cli_runner import run
from tests.fakes import FixedClock

HANG_TIMEOUT = 120
LATER = timedelta(hours=2)  # past the one-hour grace period


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    path = tmp_path / "outside.txt"
    path.write_text("a private file outside the store\n")
    return path


def _grant(capsys: pytest.CaptureFixture[str]) -> tuple[str, Path]:
    created = run(capsys, "artifact", "temp-output", "--tool", "pytest", "--json")
    assert created.exit_code == 0, created.stderr
    grant = created.json()
    return grant["reference"], Path(grant["path"])


def _symlink(output: Path, outside: Path) -> None:
    output.symlink_to(outside)


def _hard_link(output: Path, outside: Path) -> None:
    os.link(outside, output)


def _fifo(output: Path, _outside: Path) -> None:
    os.mkfifo(output)


def _folder(output: Path, outside: Path) -> None:
    output.mkdir()
    (output / "link").symlink_to(outside)
    (output / "file").write_text("inside\n")


def _device(output: Path, _outside: Path) -> None:
    os.mknod(output, stat.S_IFCHR | 0o600, os.makedev(1, 3))


def _nothing(_output: Path, _outside: Path) -> None:
    pass


REFUSALS: dict[str, Callable[[Path, Path], None]] = {
    "symlink": _symlink,
    "hard link": _hard_link,
    "fifo": _fifo,
    "folder": _folder,
    "device": _device,
    "nothing written": _nothing,
}


@pytest.mark.parametrize("kind", list(REFUSALS))
def test_a_refused_reference_leaves_no_folder_and_no_second_name_for_an_outside_file(
    capsys: pytest.CaptureFixture[str], home: Path, outside: Path, kind: str
) -> None:
    if kind == "device" and os.geteuid() != 0:
        pytest.skip("mknod needs root")
    reference, output = _grant(capsys)
    REFUSALS[kind](output, outside)
    result = run(capsys, "artifact", "import", "--ref", reference)
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert not output.parent.exists()
    assert not output.parent.is_symlink()
    assert os.listdir(output.parent.parent) == []  # temp/ is empty again
    assert outside.read_text() == "a private file outside the store\n"
    assert outside.stat().st_nlink == 1  # a hard link's second name is gone
    again = run(capsys, "artifact", "import", "--ref", reference)
    assert "refused: unknown, already used or expired" in again.stderr  # spent all the same


def test_a_stored_reference_leaves_no_folder_either(
    capsys: pytest.CaptureFixture[str], home: Path
) -> None:
    reference, output = _grant(capsys)
    output.write_text("collected 3 items\n3 passed\n")
    result = run(capsys, "artifact", "import", "--ref", reference, "--json")
    assert result.exit_code == 0, result.stderr
    assert result.json()["status"] == "stored"
    assert not output.parent.exists()


def test_a_temp_folder_swapped_for_a_symlink_is_never_followed_to_remove_anything(
    capsys: pytest.CaptureFixture[str], home: Path, tmp_path: Path
) -> None:
    reference, output = _grant(capsys)
    output.write_text("the tool's output\n")
    temp = output.parent.parent
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / output.parent.name).mkdir(parents=True)
    (elsewhere / output.parent.name / "output").write_text("not the store's\n")
    os.rename(temp, tmp_path / "moved-temp")
    temp.symlink_to(elsewhere)
    result = run(capsys, "artifact", "import", "--ref", reference)
    assert result.exit_code == 2
    assert "symbolic link" in result.stderr
    assert (elsewhere / output.parent.name / "output").read_text() == "not the store's\n"


def test_a_reference_read_from_stdin_is_bounded(
    capsys: pytest.CaptureFixture[str], home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO("x" * 10_000_000))
    result = run(capsys, "artifact", "import", "--ref", "-")
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        "error: Invalid value for --ref: the reference on standard input is longer than "
        "1024 characters"
    ]


# -- cleanup: the folders a killed import left ----------------------------------------------------

KILLED_IMPORT = textwrap.dedent(
    """
    import os, signal, sys
    from pathlib import Path
    from cleveragents.application.services.artifact_store import importing
    from cleveragents.container import build_container

    database_url, home, reference = sys.argv[1:4]
    store = build_container(database_url, home=Path(home)).artifact_store()

    def killed(*_args, **_kwargs):
        os.kill(os.getpid(), signal.SIGKILL)  # after the claim, before the folder goes

    importing.ArtifactImporter.ingest = killed
    store.import_temp_output(reference)
    """
)


@pytest.fixture
def container(database_url: str, home: Path) -> Iterator[Container]:
    built = build_container(database_url, home=home)
    yield built
    built.store().dispose()


def _killed_import(database_url: str, home: Path, reference: str) -> None:
    child = subprocess.run(
        [sys.executable, "-c", KILLED_IMPORT, database_url, str(home), reference],
        capture_output=True,
        timeout=HANG_TIMEOUT,
        check=False,
    )
    assert child.returncode == -9, child.stderr.decode()[-2000:]


def test_cleanup_removes_the_folders_killed_imports_left_and_keeps_pending_ones(
    container: Container, database_url: str, home: Path
) -> None:
    store = container.artifact_store()
    spent = store.create_temp_output("pytest")
    Path(spent.path).write_text("3 passed\n")
    _killed_import(database_url, home, spent.reference)
    assert Path(spent.path).exists()  # the claim was made, the import never finished
    pending = store.create_temp_output("pytest")
    Path(pending.path).write_text("still being written\n")
    temp = artifacts_dir(home, database_url) / "temp"
    no_row = temp / "0123456789abcdef"  # a folder whose grant row was never committed
    no_row.mkdir()
    not_ours = temp / "notes"
    not_ours.mkdir()

    # Within the grace period nothing goes: a folder is made just before its grant's row.
    assert store.cleanup().orphan_temp_outputs == 0
    assert Path(spent.path).exists()
    assert no_row.exists()

    later = build_container(database_url, home=home)
    with later.clock.override(FixedClock(container.clock().now() + LATER)):
        dry = later.artifact_store().cleanup(dry_run=True)
        assert dry.orphan_temp_outputs == 2
        assert Path(spent.path).exists()
        assert no_row.exists()
        report = later.artifact_store().cleanup()
    later.store().dispose()
    assert report.orphan_temp_outputs == 2
    assert not Path(spent.path).parent.exists()
    assert not no_row.exists()
    assert Path(pending.path).read_text() == "still being written\n"
    assert not_ours.exists()


def test_cleanup_reports_orphan_temporary_outputs_on_the_cli(
    capsys: pytest.CaptureFixture[str], home: Path
) -> None:
    run(capsys, "artifact", "cleanup")  # creates the store
    orphan = home / "artifacts" / "temp" / "fedcba9876543210"
    orphan.mkdir(parents=True)
    hours_ago = orphan.stat().st_mtime - LATER.total_seconds()
    os.utime(orphan, (hours_ago, hours_ago))
    result = run(capsys, "artifact", "cleanup", "--json")
    assert result.exit_code == 0, result.stderr
    assert result.json()["orphan_temp_outputs"] == 1
    assert not orphan.exists()
    text = run(capsys, "artifact", "cleanup")
    assert text.stdout.strip().endswith("0 orphan temporary output(s)")
