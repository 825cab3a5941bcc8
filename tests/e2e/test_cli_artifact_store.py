"""`agents artifact import|temp-output|list|show|preview|cleanup` through the CLI."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.e2e.cli_runner import Result, run
from tests.secret_samples import fake_aws_access_key_id


def _ok(result: Result) -> Result:
    assert result.exit_code == 0, result.stderr
    return result


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    lines = [f"test_{i} PASSED" for i in range(3000)] + ["FAILED test_checkout - boom"]
    (root / "pytest.log").write_text("\n".join(lines) + "\n")
    return root


def test_import_list_show_preview(
    capsys: pytest.CaptureFixture[str], home: Path, workspace: Path
) -> None:
    imported = _ok(
        run(capsys, "artifact", "import", "pytest.log", "--workspace", str(workspace), "--json")
    ).json()
    assert imported["status"] == "stored"
    artifact = imported["artifact"]
    preview = imported["preview"]
    assert artifact["workspace_path"] == "pytest.log"
    assert preview["tail"].endswith("FAILED test_checkout - boom\n")
    assert preview["omitted_bytes"] > 0

    human = _ok(run(capsys, "artifact", "import", "pytest.log", "--workspace", str(workspace)))
    assert "FAILED test_checkout - boom" in human.stdout
    # The omission names the command that reads exactly what was left out.
    hint = re.search(
        r"\[\.\.\. (\d+) bytes omitted: (agents artifact read .+) \.\.\.\]", human.stdout
    )
    assert hint is not None
    command = hint.group(2).split()[1:]
    assert command[-4:] == ["--offset", str(preview["omitted_offset"]), "--length", hint.group(1)]
    original = (workspace / "pytest.log").read_bytes()
    offset, length = preview["omitted_offset"], preview["omitted_bytes"]
    assert original[:offset].decode() == preview["head"]
    assert original[offset + length :].decode() == preview["tail"]

    listed = _ok(run(capsys, "artifact", "list", "--json")).json()
    assert listed[0]["id"] == artifact["id"]
    assert len(listed) == 2
    shown = _ok(run(capsys, "artifact", "show", artifact["id"], "--json")).json()
    assert shown == artifact
    assert _ok(run(capsys, "artifact", "preview", artifact["id"], "--json")).json() == preview
    assert "sha256" in _ok(run(capsys, "artifact", "preview", artifact["id"])).stdout
    assert "stored" in _ok(run(capsys, "artifact", "list")).stdout


def test_blocked_import_exits_2_and_shows_no_secret(
    capsys: pytest.CaptureFixture[str], home: Path, workspace: Path
) -> None:
    key = fake_aws_access_key_id()
    (workspace / "env.txt").write_text(f"ok\nAWS_ACCESS_KEY_ID={key}\n")
    result = run(capsys, "artifact", "import", "env.txt", "--workspace", str(workspace), "--json")
    assert result.exit_code == 2
    assert key not in result.stdout + result.stderr
    data = json.loads(result.stdout)
    assert data["status"] == "blocked"
    assert data["preview"] is None
    assert data["artifact"]["findings"] == [{"line": 2, "kind": "aws-access-key-id"}]
    assert result.stderr.startswith("error: blocked: env.txt")
    blocked = _ok(run(capsys, "artifact", "list", "--status", "blocked", "--json")).json()
    assert [a["sha256"] for a in blocked] == [None]


def test_temp_output_round_trip(capsys: pytest.CaptureFixture[str], home: Path) -> None:
    grant = _ok(run(capsys, "artifact", "temp-output", "--tool", "pytest", "--json")).json()
    Path(grant["path"]).write_text("1 passed\n")
    imported = _ok(run(capsys, "artifact", "import", "--ref", grant["reference"], "--json"))
    assert imported.json()["artifact"]["source"] == "temp-output:pytest"
    again = run(capsys, "artifact", "import", "--ref", grant["reference"])
    assert again.exit_code == 2
    assert "reference refused" in again.stderr


def test_temp_output_reference_from_stdin(
    capsys: pytest.CaptureFixture[str], home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    grant = _ok(run(capsys, "artifact", "temp-output", "--tool", "make", "--json")).json()
    Path(grant["path"]).write_text("built\n")
    monkeypatch.setattr("sys.stdin", io.StringIO(grant["reference"] + "\n"))
    imported = _ok(run(capsys, "artifact", "import", "--ref", "-", "--json")).json()
    assert imported["artifact"]["source"] == "temp-output:make"


def test_bad_inputs(
    capsys: pytest.CaptureFixture[str], home: Path, workspace: Path, tmp_path: Path
) -> None:
    (tmp_path / "outside.txt").write_text("x")
    for args, message in [
        (["import", "../outside.txt", "--workspace", str(workspace)], ".."),
        (["import", "missing.log", "--workspace", str(workspace)], "not found"),
        (["import"], "exactly one of PATH or --ref"),
        (["show", "not-an-id"], "malformed artifact id"),
        (["show", "01HX3Z8Q9V6W2Y4K5M7N8P0R1S"], "unknown artifact"),
        (["list", "--status", "weird"], "unknown status"),
        (
            ["import", "pytest.log", "--workspace", str(workspace), "--project", "nope"],
            "unknown project",
        ),
    ]:
        result = run(capsys, "artifact", *args)
        assert result.exit_code == 2, (args, result.stderr)
        assert len(result.stderr.strip().splitlines()) == 1
        assert message in result.stderr, (args, result.stderr)


def test_cleanup_dry_run_and_retention_options(
    capsys: pytest.CaptureFixture[str], home: Path, workspace: Path
) -> None:
    _ok(run(capsys, "project", "create", "p"))
    _ok(
        run(
            capsys,
            "project",
            "context",
            "set",
            "p",
            "--retention-bytes",
            "100",
            "--preview-head-bytes",
            "64",
            "--preview-tail-bytes",
            "64",
        )
    )
    imported = _ok(
        run(
            capsys,
            "artifact",
            "import",
            "pytest.log",
            "--workspace",
            str(workspace),
            "--project",
            "p",
            "--json",
        )
    ).json()
    assert len(imported["preview"]["head"]) <= 64
    dry = _ok(run(capsys, "artifact", "cleanup", "--dry-run", "--json")).json()
    assert [a["id"] for a in dry["expired"]] == [imported["artifact"]["id"]]
    assert dry["dry_run"] is True
    done = _ok(run(capsys, "artifact", "cleanup", "--json")).json()
    assert [a["id"] for a in done["expired"]] == [imported["artifact"]["id"]]
    # The blob was published seconds ago: it stays for the grace period (a concurrent
    # import may reuse it), and a later cleanup frees it.
    assert done["freed_bytes"] == 0
    shown = _ok(run(capsys, "artifact", "show", imported["artifact"]["id"], "--json")).json()
    assert shown["status"] == "expired"
    assert shown["sha256"] == imported["artifact"]["sha256"]
    preview = run(capsys, "artifact", "preview", imported["artifact"]["id"])
    assert preview.exit_code == 2
    assert "only its audit row remains" in preview.stderr


def test_hold_keeps_an_artifact_through_cleanup(
    capsys: pytest.CaptureFixture[str], home: Path, workspace: Path
) -> None:
    _ok(run(capsys, "project", "create", "p"))
    _ok(run(capsys, "project", "context", "set", "p", "--retention-bytes", "100"))
    imported = _ok(
        run(
            capsys,
            "artifact",
            "import",
            "pytest.log",
            "--workspace",
            str(workspace),
            "--project",
            "p",
            "--json",
        )
    ).json()
    artifact_id = imported["artifact"]["id"]
    held = _ok(run(capsys, "artifact", "hold", artifact_id, "--json")).json()
    assert held["retention_class"] == "hold"
    assert _ok(run(capsys, "artifact", "cleanup", "--json")).json()["expired"] == []
    _ok(run(capsys, "artifact", "hold", artifact_id, "--release"))
    expired = _ok(run(capsys, "artifact", "cleanup", "--json")).json()["expired"]
    assert [a["id"] for a in expired] == [artifact_id]


def test_an_artifact_is_found_by_its_content_hash(
    capsys: pytest.CaptureFixture[str], home: Path, workspace: Path
) -> None:
    imported = _ok(
        run(capsys, "artifact", "import", "pytest.log", "--workspace", str(workspace), "--json")
    ).json()
    reference = f"sha256:{imported['artifact']['sha256']}"
    shown = _ok(run(capsys, "artifact", "show", reference, "--json")).json()
    assert shown["id"] == imported["artifact"]["id"]
    data = _ok(run(capsys, "artifact", "read", reference, "--length", "14")).stdout
    assert data == "test_0 PASSED\n"
    for bad, says in (
        ("sha256:zz", "not a SHA-256 reference"),
        ("sha256:" + "0" * 64, "no stored"),
    ):
        refused = run(capsys, "artifact", "read", bad)
        assert refused.exit_code == 2
        assert says in refused.stderr
        assert len(refused.stderr.strip().splitlines()) == 1
