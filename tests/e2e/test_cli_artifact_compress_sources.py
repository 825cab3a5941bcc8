"""`agents artifact compress`: where the artifact comes from (a file inside the work directory,
relative or absolute, standard input, the store) and what is refused, through the CLI."""

from __future__ import annotations

import io
import json
import os
import re
from pathlib import Path

import pytest

from tests.e2e.cli_runner import Result, run
from tests.secret_samples import fake_aws_access_key_id

FIELDS = ["artifact_name", "raw_tokens", "compacted_tokens", "truncated", "content"]
SECRET = "OUTSIDE-SECRET-4c1d"
MARKER = re.compile(r"\[… lines? (\d+)(?:-(\d+))? of ([0-9A-Z]+)\]")


def _parsed(result: Result) -> dict[str, object]:
    data = json.loads(result.stdout)
    assert list(data) == FIELDS
    return data  # type: ignore[no-any-return]


def _one_line_error(result: Result, says: str) -> None:
    assert result.exit_code == 2
    assert says in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    root = tmp_path / "work"
    (root / "notes").mkdir(parents=True)
    (root / "notes" / "todo.txt").write_text("buy milk\nwrite the report\n")
    lines = [f"paragraph {i}: the quick brown fox jumps over the lazy dog" for i in range(300)]
    (root / "notes" / "long.txt").write_text("\n".join(lines) + "\n")
    (tmp_path / "outside.txt").write_text(f"{SECRET}\n")
    return root


def _compress(capsys: pytest.CaptureFixture[str], workdir: Path, *args: str) -> Result:
    return run(capsys, "artifact", "compress", *args, "--budget", "100", "--workdir", str(workdir))


def _stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data)))


# --- files ----------------------------------------------------------------------------------


def test_an_absolute_path_inside_the_workdir_is_compressed(
    capsys: pytest.CaptureFixture[str], workdir: Path
) -> None:
    path = str(workdir / "notes" / "todo.txt")
    result = _compress(capsys, workdir, path)
    assert result.exit_code == 0, result.stderr
    data = _parsed(result)
    assert data["artifact_name"] == path
    assert data["content"] == "buy milk\nwrite the report\n"


@pytest.mark.parametrize("name", ["hard", "link", "dir-link/outside.txt"])
def test_links_out_of_the_workdir_are_not_found(
    capsys: pytest.CaptureFixture[str], workdir: Path, name: str
) -> None:
    os.link(workdir.parent / "outside.txt", workdir / "hard")
    (workdir / "link").symlink_to(workdir.parent / "outside.txt")
    (workdir / "dir-link").symlink_to(workdir.parent)
    result = _compress(capsys, workdir, name)
    _one_line_error(result, f"error: artifact not found at {workdir.resolve()}/{name}")
    assert _parsed(result) == {
        "artifact_name": name,
        "raw_tokens": 0,
        "compacted_tokens": 0,
        "truncated": True,
        "content": f"[ERROR: artifact not found at {workdir.resolve()}/{name}]",
    }
    assert SECRET not in result.stdout + result.stderr


def test_an_absolute_path_outside_is_not_found(
    capsys: pytest.CaptureFixture[str], workdir: Path
) -> None:
    path = str(workdir.parent / "outside.txt")
    result = _compress(capsys, workdir, path)
    _one_line_error(result, f"artifact not found at {path}")
    assert SECRET not in result.stdout + result.stderr


def test_compressing_a_file_creates_no_database(
    capsys: pytest.CaptureFixture[str], workdir: Path, home: Path
) -> None:
    assert _compress(capsys, workdir, "notes/long.txt").exit_code == 0
    assert not (home / "cleveragents.db").exists()
    assert not (home / "artifacts").exists()  # the store was not even built


# --- standard input -------------------------------------------------------------------------


def test_a_dash_compresses_standard_input(
    capsys: pytest.CaptureFixture[str], workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _stdin(monkeypatch, "caf\u00e9 ok\n".encode() + b"bad \xff byte\n")
    result = _compress(capsys, workdir, "-")
    assert result.exit_code == 0, result.stderr
    data = _parsed(result)
    assert data["artifact_name"] == "-"
    assert data["content"] == "caf\u00e9 ok\nbad \ufffd byte\n"
    assert data["truncated"] is False


def test_binary_standard_input_gets_the_binary_response(
    capsys: pytest.CaptureFixture[str], workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _stdin(monkeypatch, b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    result = _compress(capsys, workdir, "-")
    _one_line_error(result, "error: standard input is a binary file, not text")
    assert _parsed(result) == {
        "artifact_name": "-",
        "raw_tokens": 0,
        "compacted_tokens": 0,
        "truncated": True,
        "content": "[ERROR: artifact is binary, not compressed: standard input]",
    }
    (workdir / "blob.bin").write_bytes(b"\x00binary")
    as_file = _parsed(_compress(capsys, workdir, "blob.bin"))
    assert as_file["content"] == f"[ERROR: artifact is binary, not compressed: {workdir}/blob.bin]"


def test_standard_input_over_the_limit_is_refused(
    capsys: pytest.CaptureFixture[str], workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLEVERAGENTS_MAX_TRANSCRIPT_BYTES", "10")
    _stdin(monkeypatch, b"x" * 11)
    result = _compress(capsys, workdir, "-")
    _one_line_error(result, "standard input is more than 10 bytes")
    assert result.stdout == ""
    _stdin(monkeypatch, b"x" * 10)
    assert _compress(capsys, workdir, "-").exit_code == 0


# --- the store ------------------------------------------------------------------------------


def _import(capsys: pytest.CaptureFixture[str], workdir: Path, path: str) -> dict[str, object]:
    result = run(capsys, "artifact", "import", path, "--workspace", str(workdir), "--json")
    assert result.exit_code == 0, result.stderr
    artifact: dict[str, object] = result.json()["artifact"]
    return artifact


def test_a_stored_artifact_is_compressed_by_id_or_content(
    capsys: pytest.CaptureFixture[str], workdir: Path, home: Path
) -> None:
    artifact = _import(capsys, workdir, "notes/todo.txt")
    for reference in (str(artifact["id"]), f"sha256:{artifact['sha256']}"):
        result = run(capsys, "artifact", "compress", "--artifact", reference, "--budget", "50")
        assert result.exit_code == 0, result.stderr
        data = _parsed(result)
        assert data["artifact_name"] == "notes/todo.txt"
        assert data["content"] == "buy milk\nwrite the report\n"


def test_an_unknown_stored_artifact_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], home: Path
) -> None:
    result = run(
        capsys, "artifact", "compress", "--artifact", "01J00000000000000000000000", "--budget", "9"
    )
    _one_line_error(result, "unknown artifact")
    assert result.stdout == ""


def test_store_imports_the_file_and_the_omitted_lines_read_back(
    capsys: pytest.CaptureFixture[str], workdir: Path, home: Path
) -> None:
    result = _compress(capsys, workdir, "notes/long.txt", "--store", "--mode", "smart")
    assert result.exit_code == 0, result.stderr
    content = str(_parsed(result)["content"])
    [stored] = run(capsys, "artifact", "list", "--json").json()
    assert stored["workspace_path"] == "notes/long.txt"
    markers = list(MARKER.finditer(content))
    assert markers, content
    original = (workdir / "notes" / "long.txt").read_bytes().splitlines(keepends=True)
    for marker in markers:
        first, last, artifact_id = int(marker[1]), int(marker[2] or marker[1]), marker[3]
        assert artifact_id == stored["id"]
        lines = run(capsys, "artifact", "read", artifact_id, "--lines", f"{first}-{last}")
        assert lines.stdout.encode() == b"".join(original[first - 1 : last])


def test_store_follows_the_global_database_option(
    capsys: pytest.CaptureFixture[str], workdir: Path, home: Path, tmp_path: Path
) -> None:
    database = tmp_path / "elsewhere.db"
    result = run(
        capsys,
        "--db",
        f"sqlite:///{database}",
        "artifact",
        "compress",
        "notes/todo.txt",
        "--store",
        "--budget",
        "50",
        "--workdir",
        str(workdir),
    )
    assert result.exit_code == 0, result.stderr
    assert database.exists()
    assert not (home / "cleveragents.db").exists()


# --- which source: exactly one, and only options that apply ----------------------------------


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["notes/todo.txt", "--artifact", "01J00000000000000000000000"], "not both"),
        ([], "give ARTIFACT_PATH (a file, or - for standard input) or --artifact ID"),
        (["--artifact", "01J00000000000000000000000", "--store"], "already stored"),
        (["-", "--store"], "--store imports a file"),
    ],
)
def test_the_source_is_exactly_one(
    capsys: pytest.CaptureFixture[str], workdir: Path, home: Path, args: list[str], says: str
) -> None:
    result = _compress(capsys, workdir, *args)
    _one_line_error(result, says)
    assert result.stdout == ""


def test_workdir_does_not_apply_to_a_stored_artifact(
    capsys: pytest.CaptureFixture[str], workdir: Path, home: Path
) -> None:
    result = _compress(capsys, workdir, "--artifact", "01J00000000000000000000000")
    _one_line_error(result, "--workdir applies to ARTIFACT_PATH, not to --artifact")


def test_a_file_the_store_blocks_is_compressed_unstored_with_a_warning(
    capsys: pytest.CaptureFixture[str], workdir: Path, home: Path
) -> None:
    key = fake_aws_access_key_id()
    (workdir / "deploy.txt").write_text(f"deploying\nAWS_ACCESS_KEY_ID={key}\ndone\n")
    result = _compress(capsys, workdir, "deploy.txt", "--store")
    assert result.exit_code == 0, result.stderr
    assert result.stderr.startswith("warning: not stored: blocked: deploy.txt")
    assert len(result.stderr.strip().splitlines()) == 1
    assert key not in result.stdout + result.stderr
    [blocked] = run(capsys, "artifact", "list", "--json").json()
    assert blocked["status"] == "blocked"
    refused = run(capsys, "artifact", "compress", "--artifact", blocked["id"], "--budget", "50")
    _one_line_error(refused, "only its audit row remains")
    assert key not in refused.stdout + refused.stderr
