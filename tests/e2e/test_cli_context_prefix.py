"""`agents context prefix build` and `agents context prefix diff` through the CLI."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from tests.conftest import TEST_DATA
from tests.e2e.cli_runner import Result, run

PREFIX_DATA = TEST_DATA / "prefix"
YAML = str(PREFIX_DATA / "prefix.yaml")
TOML = str(PREFIX_DATA / "prefix.toml")
REORDERED = str(PREFIX_DATA / "prefix-reordered.yaml")
NEXT = str(PREFIX_DATA / "prefix-next.yaml")
VOLATILE = str(PREFIX_DATA / "volatile.yaml")
SECTIONS = ["core_rules", "project_instructions", "tools", "stable_facts", "professional_skills"]


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_build_json_has_the_text_and_its_fingerprints(
    capsys: pytest.CaptureFixture[str], home: Path
) -> None:
    result = run(capsys, "context", "prefix", "build", YAML, "--json")
    assert result.exit_code == 0, result.stderr
    report = result.json()
    assert list(report) == ["sha256", "bytes", "tokens", "encoding", "sections", "text"]
    text = report["text"]
    assert report["sha256"] == sha256(text.encode())
    assert report["bytes"] == len(text.encode())
    assert report["encoding"] == "cl100k_base"
    assert 100 < report["tokens"] < 1000
    assert [section["name"] for section in report["sections"]] == SECTIONS
    for section in report["sections"]:
        assert set(section) == {"name", "sha256", "bytes", "tokens"}
        assert len(section["sha256"]) == 64
        assert section["tokens"] > 0
    assert text.startswith("# Core rules\n\nYou are a careful software engineer")
    assert text.index("## edit_file") < text.index("## read_file") < text.index("## run_tests")


def test_yaml_toml_and_reordered_files_build_the_same_fingerprint(
    capsys: pytest.CaptureFixture[str], home: Path
) -> None:
    reports = [
        run(capsys, "context", "prefix", "build", path, "--json").json()
        for path in (YAML, TOML, REORDERED)
    ]
    assert len({report["sha256"] for report in reports}) == 1
    assert len({report["text"] for report in reports}) == 1


def test_build_prints_the_text_then_the_fingerprints(
    capsys: pytest.CaptureFixture[str], home: Path
) -> None:
    report = run(capsys, "context", "prefix", "build", YAML, "--json").json()
    result = run(capsys, "context", "prefix", "build", YAML)
    assert result.exit_code == 0, result.stderr
    text, _, fingerprints = result.stdout.partition("---\n")
    assert text == report["text"]
    lines = fingerprints.splitlines()
    assert lines[0] == (
        f"sha256 {report['sha256']}  {report['bytes']} bytes, {report['tokens']} tokens "
        "(cl100k_base)"
    )
    assert [line.split()[0] for line in lines[1:]] == SECTIONS
    assert "project_instructions" in lines[2]
    assert report["sections"][1]["sha256"] in lines[2]


def test_build_out_writes_the_exact_bytes(
    capsys: pytest.CaptureFixture[str], home: Path, tmp_path: Path
) -> None:
    out = tmp_path / "prefix.txt"
    result = run(capsys, "context", "prefix", "build", YAML, "--out", str(out))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("sha256 ")  # the text went to the file only
    assert sha256(out.read_bytes()) == result.stdout.split()[1]


def test_build_counts_with_another_encoding(capsys: pytest.CaptureFixture[str], home: Path) -> None:
    report = run(
        capsys, "context", "prefix", "build", YAML, "--json", "--encoding", "o200k_base"
    ).json()
    assert report["encoding"] == "o200k_base"


def test_diff_of_identical_prefixes(capsys: pytest.CaptureFixture[str], home: Path) -> None:
    result = run(capsys, "context", "prefix", "diff", YAML, TOML, "--json")
    assert result.exit_code == 0, result.stderr
    report = result.json()
    assert report["identical"] is True
    assert report["first_changed"] is None
    assert report["changed"] == []
    assert report["a"]["sha256"] == report["b"]["sha256"]
    text = run(capsys, "context", "prefix", "diff", YAML, REORDERED)
    assert text.exit_code == 0
    assert text.stdout.startswith(f"identical: sha256 {report['a']['sha256']}")


def test_diff_names_the_section_that_breaks_the_cache(
    capsys: pytest.CaptureFixture[str], home: Path
) -> None:
    result = run(capsys, "context", "prefix", "diff", YAML, NEXT, "--json")
    assert result.exit_code == 0, result.stderr  # a difference is not a failure
    report = result.json()
    assert report["identical"] is False
    assert report["first_changed"] == "stable_facts"
    assert report["changed"] == ["stable_facts"]
    assert (report["a"]["file"], report["b"]["file"]) == (YAML, NEXT)
    changes = {item["name"]: item["change"] for item in report["sections"]}
    assert changes == {
        "core_rules": "same",
        "project_instructions": "same",
        "tools": "same",
        "stable_facts": "changed",
        "professional_skills": "same",
    }
    built = run(capsys, "context", "prefix", "build", YAML, "--json").json()
    assert report["a"]["sha256"] == built["sha256"]
    assert built["text"].encode()[: report["common_prefix_bytes"]].endswith(b"- default_branch: ")

    text = run(capsys, "context", "prefix", "diff", YAML, NEXT)
    assert text.exit_code == 0
    assert text.stdout.splitlines()[:2] == [
        f"first change: stable_facts (the cache breaks there; the first "
        f"{report['common_prefix_bytes']} bytes are identical)",
        "changed: stable_facts",
    ]


def _refused(result: Result, *fragments: str) -> None:
    assert result.exit_code == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    assert "Traceback" not in result.stderr
    assert result.stdout == ""
    for fragment in fragments:
        assert fragment in lines[0]


def test_volatile_content_is_refused_naming_the_file_and_the_place(
    capsys: pytest.CaptureFixture[str], home: Path
) -> None:
    _refused(
        run(capsys, "context", "prefix", "build", VOLATILE),
        f"{VOLATILE}: stable_facts.release_date: a date ('2026-11-30') cannot be in a stable "
        "prefix: it changes and breaks the cache",
    )


@pytest.mark.parametrize(
    ("name", "text", "fragments"),
    [
        ("p.yaml", "core_rules: [unclosed\n", ("p.yaml: malformed YAML at line 2",)),
        ("p.toml", "core_rules = \n", ("p.toml: malformed TOML: Invalid value (at line 1",)),
        ("p.yaml", "colour: blue\n", ("p.yaml: colour: unknown key",)),
        ("p.json", "{}", ("p.json: unknown prefix file type",)),
        (
            "p.yaml",
            "stable_facts:\n  owner: {value: Ann, classification: external-business-data}\n",
            ("stable_facts.owner: external-business-data data may not go to the prompt-prefix",),
        ),
    ],
)
def test_bad_files_are_refused_in_one_line(
    capsys: pytest.CaptureFixture[str],
    home: Path,
    tmp_path: Path,
    name: str,
    text: str,
    fragments: tuple[str, ...],
) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    _refused(run(capsys, "context", "prefix", "build", str(path)), *fragments)


def test_a_missing_file_is_refused(
    capsys: pytest.CaptureFixture[str], home: Path, tmp_path: Path
) -> None:
    missing = str(tmp_path / "missing.yaml")
    _refused(run(capsys, "context", "prefix", "build", missing), f"file not found: {missing}")
    _refused(run(capsys, "context", "prefix", "diff", YAML, missing), f"file not found: {missing}")


def test_diff_names_the_bad_file(capsys: pytest.CaptureFixture[str], home: Path) -> None:
    _refused(
        run(capsys, "context", "prefix", "diff", YAML, VOLATILE),
        f"{VOLATILE}: stable_facts.release_date",
    )
    _refused(
        run(capsys, "context", "prefix", "diff", VOLATILE, YAML),
        f"{VOLATILE}: stable_facts.release_date",
    )


def test_a_prefix_built_for_a_project_is_listed_in_its_metrics(
    capsys: pytest.CaptureFixture[str], home: Path
) -> None:
    assert run(capsys, "project", "create", "shop").exit_code == 0
    assert run(capsys, "project", "create", "other").exit_code == 0
    built = run(capsys, "context", "prefix", "build", YAML, "--project", "shop", "--json")
    assert built.exit_code == 0, built.stderr
    shop = run(capsys, "metrics", "show", "--project", "shop", "--json").json()
    other = run(capsys, "metrics", "show", "--project", "other", "--json").json()
    assert shop["stable_prefix"]["fingerprints"] == [built.json()["sha256"]]
    assert other["stable_prefix"]["fingerprints"] == []
    unknown = run(capsys, "context", "prefix", "build", YAML, "--project", "nope")
    assert unknown.exit_code == 2
    assert "nope" in unknown.stderr
