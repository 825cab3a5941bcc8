"""`agents artifact import --secrets block|redact --allowlist FILE` through the CLI."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.cli_runner import run
from tests.secret_recall_set import credentials

NPM = next(c for c in credentials() if c.name == "npm-token")


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "env.log").write_text(f"starting\n{NPM.text}\ndone\n")
    return root


def test_block_is_the_default_and_prints_the_fingerprint(
    capsys: pytest.CaptureFixture[str], home: Path, workspace: Path
) -> None:
    result = run(capsys, "artifact", "import", "env.log", "--workspace", str(workspace), "--json")
    assert result.exit_code == 2
    data = result.json()
    assert data["status"] == "blocked"
    assert data["redacted"] is False
    [fingerprint] = data["fingerprints"]
    assert fingerprint.startswith("npm-token:")
    assert fingerprint in result.stderr
    assert "--secrets redact" in result.stderr
    assert NPM.secret not in result.stdout + result.stderr


def test_redact_stores_and_says_so_on_stderr(
    capsys: pytest.CaptureFixture[str], home: Path, workspace: Path
) -> None:
    result = run(
        capsys,
        "artifact",
        "import",
        "env.log",
        "--workspace",
        str(workspace),
        "--secrets",
        "redact",
    )
    assert result.exit_code == 0, result.stderr
    assert "NPM_TOKEN=[REDACTED:npm-token]" in result.stdout
    assert result.stderr.startswith("note: stored artifact ")
    assert "credentials redacted (npm-token) on line(s) 2" in result.stderr
    assert NPM.secret not in result.stdout + result.stderr
    listed = run(capsys, "artifact", "list", "--json").json()
    assert [(a["status"], a["findings"]) for a in listed] == [
        ("stored", [{"line": 2, "kind": "npm-token"}])
    ]


def test_the_allowlist_option_and_its_environment_variable(
    capsys: pytest.CaptureFixture[str],
    home: Path,
    workspace: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    blocked = run(
        capsys, "artifact", "import", "env.log", "--workspace", str(workspace), "--json"
    ).json()
    allow = tmp_path / "allow.toml"
    allow.write_text(f"fingerprints = {blocked['fingerprints']!r}\n".replace("'", '"'))
    args = ("artifact", "import", "env.log", "--workspace", str(workspace))
    assert run(capsys, *args, "--allowlist", str(allow)).exit_code == 0
    monkeypatch.setenv("CLEVERAGENTS_SECRETS_ALLOWLIST", str(allow))
    assert run(capsys, *args).exit_code == 0


@pytest.mark.parametrize(
    ("extra", "allowlist_text", "message"),
    [
        (["--secrets", "hide"], None, "expected block or redact, got 'hide'"),
        (["--allowlist", "{missing}"], None, "no allowlist file at"),
        (["--allowlist", "{allow}"], "fingerprints = [", "not a TOML allowlist"),
        (["--allowlist", "{allow}"], "[[rules]]\n", "needs kinds or paths"),
    ],
)
def test_bad_secret_options_are_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str],
    home: Path,
    workspace: Path,
    tmp_path: Path,
    extra: list[str],
    allowlist_text: str | None,
    message: str,
) -> None:
    allow = tmp_path / "allow.toml"
    if allowlist_text is not None:
        allow.write_text(allowlist_text)
    filled = [item.format(missing=tmp_path / "missing.toml", allow=allow) for item in extra]
    result = run(capsys, "artifact", "import", "env.log", "--workspace", str(workspace), *filled)
    assert result.exit_code == 2, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert message in result.stderr
    # Nothing was stored, not even an audit row: the import never started.
    assert run(capsys, "artifact", "list", "--json").json() == []
