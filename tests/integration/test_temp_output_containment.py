"""A temporary output is opened beneath the store's root on descriptors: the grant's folder (or
``temp/`` itself) replaced by a symlink to elsewhere is refused, never followed."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from cleveragents.adapters.blobs.filesystem_blob_storage import FilesystemBlobStorage
from cleveragents.adapters.workspace.contained_files import FdContainedFiles
from cleveragents.container import Container, build_container
from cleveragents.domain.errors import InvalidInputError, WorkspaceEscapeError
from tests.e2e.cli_runner import run


@pytest.fixture
def store_container(database_url: str, home: Path) -> Iterator[Container]:
    built = build_container(database_url, home=home)
    yield built
    built.store().dispose()


@pytest.fixture
def elsewhere(tmp_path: Path) -> Path:
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    (folder / "output").write_text("a private file outside the store\n")
    return folder


def _swap_for_symlink(directory: Path, target: Path) -> None:
    shutil.rmtree(directory)
    directory.symlink_to(target)


def test_the_location_names_the_output_beneath_the_stores_root(tmp_path: Path) -> None:
    blobs = FilesystemBlobStorage(tmp_path / "artifacts")
    path = blobs.temp_output_path("abc123")
    assert blobs.temp_output_location(path) == (str(tmp_path / "artifacts"), "temp/abc123/output")
    with pytest.raises(InvalidInputError, match="not a temporary output"):
        blobs.temp_output_location(str(tmp_path / "elsewhere" / "output"))


@pytest.mark.parametrize("swapped", ["grant folder", "temp folder"])
def test_a_folder_swapped_for_a_symlink_is_refused_on_descriptors(
    tmp_path: Path, elsewhere: Path, swapped: str
) -> None:
    blobs = FilesystemBlobStorage(tmp_path / "artifacts")
    path = Path(blobs.temp_output_path("abc123"))
    path.write_text("the tool's output\n")
    if swapped == "grant folder":
        _swap_for_symlink(path.parent, elsewhere)
    else:
        (elsewhere / "abc123").mkdir()
        (elsewhere / "abc123" / "output").write_text("outside\n")
        _swap_for_symlink(blobs.temp_dir, elsewhere)
    with pytest.raises(WorkspaceEscapeError, match="is a symbolic link"):
        FdContainedFiles().open_beneath(*blobs.temp_output_location(str(path)))


def test_discarding_a_swapped_grant_folder_removes_the_link_only(
    tmp_path: Path, elsewhere: Path
) -> None:
    blobs = FilesystemBlobStorage(tmp_path / "artifacts")
    path = Path(blobs.temp_output_path("abc123"))
    _swap_for_symlink(path.parent, elsewhere)
    blobs.discard_temp_output(str(path))
    assert not path.parent.is_symlink()
    assert (elsewhere / "output").read_text() == "a private file outside the store\n"


def test_importing_through_a_swapped_grant_folder_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], home: Path, elsewhere: Path
) -> None:
    created = run(capsys, "artifact", "temp-output", "--tool", "pytest", "--json")
    assert created.exit_code == 0, created.stderr
    grant = created.json()
    _swap_for_symlink(Path(grant["path"]).parent, elsewhere)
    result = run(capsys, "artifact", "import", "--ref", grant["reference"])
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert "symbolic link" in result.stderr
