"""Bad input: one clear line on stderr, exit 2, nothing written, no traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.cli_runner import Result, run

UNKNOWN_PLAN = "01HX3Z8Q9V6W2Y4K5M7N8P0R1S"


def _refused(result: Result, *fragments: str) -> None:
    assert result.exit_code == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    assert "Traceback" not in result.stderr
    assert result.stdout == ""
    for fragment in fragments:
        assert fragment in lines[0]


@pytest.fixture
def plan_id(capsys: pytest.CaptureFixture[str], home: Path) -> str:
    assert run(capsys, "project", "create", "p").exit_code == 0
    created = run(capsys, "plan", "create", "--project", "p", "--title", "t")
    assert created.exit_code == 0
    return created.stdout.strip()


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("1.5", "within [0.0, 1.0], got 1.5"),
        ("-0.1", "within [0.0, 1.0]"),
        ("nan", "within [0.0, 1.0]"),
        ("inf", "within [0.0, 1.0]"),
        ("abc", "Invalid value for '--skeleton-ratio'"),
    ],
)
def test_bad_skeleton_ratio_writes_nothing(
    capsys: pytest.CaptureFixture[str], home: Path, value: str, message: str
) -> None:
    assert run(capsys, "project", "create", "p").exit_code == 0
    _refused(run(capsys, "project", "context", "set", "p", "--skeleton-ratio", value), message)
    shown = run(capsys, "project", "context", "show", "p", "--json").json()
    assert shown["policy"]["skeleton_ratio"] == {"value": 0.3, "source": "default"}


def test_a_bad_ratio_does_not_even_create_the_database(
    capsys: pytest.CaptureFixture[str], home: Path
) -> None:
    _refused(run(capsys, "project", "context", "set", "p", "--skeleton-ratio", "1.5"))
    assert not (home / "cleveragents.db").exists()


def test_incoherent_policy_is_refused(capsys: pytest.CaptureFixture[str], home: Path) -> None:
    assert run(capsys, "project", "create", "p").exit_code == 0
    _refused(
        run(
            capsys,
            *("project", "context", "set", "p", "--context-window", "8000"),
            *("--reserve-tokens", "9000"),
        ),
        "reserve_tokens (9000) must be less than context_window (8000)",
    )
    _refused(run(capsys, "project", "context", "set", "p", "--context-window", "0"))
    _refused(run(capsys, "project", "context", "set", "p"), "give at least one of")


def test_unknown_project(capsys: pytest.CaptureFixture[str], home: Path) -> None:
    _refused(run(capsys, "project", "context", "show", "nope"), "unknown project 'nope'")
    _refused(run(capsys, "plan", "create", "--project", "nope", "--title", "t"), "unknown project")
    _refused(run(capsys, "plan", "list", "--project", "nope"), "unknown project")


def test_duplicate_and_invalid_project_names(
    capsys: pytest.CaptureFixture[str], home: Path
) -> None:
    assert run(capsys, "project", "create", "p").exit_code == 0
    _refused(run(capsys, "project", "create", "p"), "already exists")
    _refused(run(capsys, "project", "create", "has space"), "invalid name")


def test_unknown_and_malformed_plan_ids(capsys: pytest.CaptureFixture[str], plan_id: str) -> None:
    _refused(run(capsys, "plan", "status", UNKNOWN_PLAN), f"unknown plan {UNKNOWN_PLAN}")
    _refused(run(capsys, "plan", "status", "not-a-ulid"), "malformed plan id 'not-a-ulid'")
    _refused(run(capsys, "plan", "spawn", UNKNOWN_PLAN, "--title", "c"), "unknown plan")
    _refused(run(capsys, "plan", "decide", "xyz", "--content", "c"), "malformed plan id")
    assert run(capsys, "plan", "list", "--json").json()[0]["id"] == plan_id
    assert len(run(capsys, "plan", "list", "--json").json()) == 1


def test_bad_decisions_write_nothing(
    capsys: pytest.CaptureFixture[str], plan_id: str, tmp_path: Path
) -> None:
    _refused(
        run(capsys, "plan", "decide", plan_id, "--file", str(tmp_path / "missing.txt")),
        "file not found",
    )
    _refused(run(capsys, "plan", "decide", plan_id), "exactly one of --content")
    both = tmp_path / "both.txt"
    both.write_text("x")
    _refused(
        run(capsys, "plan", "decide", plan_id, "--content", "x", "--file", str(both)),
        "exactly one of",
    )
    _refused(
        run(capsys, "plan", "decide", plan_id, "--content", "x", "--relevance", "2"), "relevance"
    )
    _refused(run(capsys, "plan", "decide", plan_id, "--content", "x", "--tokens", "-1"))
    _refused(run(capsys, "plan", "decide", plan_id, "--content", "x", "--fragment-id", " "))
    binary = tmp_path / "blob.bin"
    binary.write_bytes(b"\xff\xfe\x00")
    _refused(run(capsys, "plan", "decide", plan_id, "--file", str(binary)), "not UTF-8")
    assert run(capsys, "plan", "status", plan_id, "--json").json()["decisions"] == 0

    assert (
        run(capsys, "plan", "decide", plan_id, "--content", "x", "--fragment-id", "f").exit_code
        == 0
    )
    _refused(
        run(capsys, "plan", "decide", plan_id, "--content", "y", "--fragment-id", "f"),
        "already has a context fragment 'f'",
    )
    assert run(capsys, "plan", "status", plan_id, "--json").json()["decisions"] == 1


@pytest.mark.parametrize("tokens", ["99999999999999999999999", str(2**63), "1000000000001"])
def test_a_token_count_past_the_bound_is_refused(
    capsys: pytest.CaptureFixture[str], plan_id: str, tokens: str
) -> None:
    _refused(
        run(capsys, "plan", "decide", plan_id, "--content", "x", "--tokens", tokens),
        "a decision's token count must be within [0, 1,000,000,000,000]",
    )
    assert run(capsys, "plan", "status", plan_id, "--json").json()["decisions"] == 0
    assert run(capsys, "plan", "decide", plan_id, "--content", "x", "--tokens", "10").exit_code == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("project", "context", "set", "p", "--context-window", "9" * 30), "context_window"),
        (("project", "context", "set", "p", "--retention-days", "9" * 30), "retention_days"),
        (("project", "context", "set", "p", "--retention-bytes", "9" * 30), "retention_bytes"),
    ],
)
def test_policy_figures_past_what_the_store_holds_are_refused(
    capsys: pytest.CaptureFixture[str], home: Path, args: tuple[str, ...], message: str
) -> None:
    assert run(capsys, "project", "create", "p").exit_code == 0
    _refused(run(capsys, *args), message)


_BIG_INTEGER = "7" * 4301  # one digit past what Python reads


@pytest.mark.parametrize("command", ["validate", "compact"])
@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            f'[{{"role": "user", "content": "hi", "n": {_BIG_INTEGER}}}]',
            "transcript: an integer has more than 4,300 digits",
        ),
        (
            '{"type": "user", "uuid": "u", "message": {"role": "user", "content": "x"}}\n'
            f'{{"type": "user", "n": {_BIG_INTEGER}}}\n',
            "transcript line 2: an integer has more than 4,300 digits",
        ),
        ('[{"role": "user", "content": "hi", "n": NaN}]', "NaN is not a JSON number"),
        ('[{"role": "user", "content": "hi", "n": 1e400}]', "1e400 is too large for a float"),
    ],
)
def test_json_numbers_python_cannot_read_are_refused(
    capsys: pytest.CaptureFixture[str],
    home: Path,
    tmp_path: Path,
    command: str,
    content: str,
    message: str,
) -> None:
    path = tmp_path / "t.json"
    path.write_text(content)
    out = tmp_path / "out.json"
    extra = ("--out", str(out)) if command == "compact" else ()
    _refused(run(capsys, "context", command, str(path), *extra), message)
    assert not out.exists()


def test_bad_spawn_ratio_creates_no_child(capsys: pytest.CaptureFixture[str], plan_id: str) -> None:
    _refused(run(capsys, "plan", "spawn", plan_id, "--title", "c", "--skeleton-ratio", "1.5"))
    _refused(run(capsys, "plan", "spawn", plan_id, "--title", "c", "--skeleton-ratio", "abc"))
    _refused(run(capsys, "plan", "context", "set", plan_id, "--skeleton-ratio", "-1"))
    assert len(run(capsys, "plan", "list", "--json").json()) == 1


def test_tokens_count_bad_input(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    _refused(run(capsys, "tokens", "count", str(tmp_path / "missing")), "file not found")
    _refused(run(capsys, "tokens", "count", str(tmp_path)), "is a directory")
    sample = tmp_path / "s.txt"
    sample.write_text("x")
    _refused(
        run(capsys, "tokens", "count", str(sample), "--encoding", "gpt9"),
        "unknown encoding 'gpt9'",
    )


def test_usage_errors_are_one_line(capsys: pytest.CaptureFixture[str], home: Path) -> None:
    _refused(run(capsys, "plan", "create", "--project", "p"), "title")
    _refused(run(capsys, "project", "frobnicate"), "No such command 'frobnicate'")
    _refused(run(capsys, "--db", "not a url", "project", "list"), "invalid database URL")


def _failed_operationally(result: Result, fragment: str) -> None:
    assert result.exit_code == 1, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert fragment in lines[0]


def test_an_unreachable_database_is_an_operational_failure(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    url = f"sqlite:///{blocker / 'db.sqlite'}"
    _failed_operationally(run(capsys, "--db", url, "project", "list"), "cannot open the database")
    _failed_operationally(run(capsys, "--db", url, "db", "upgrade"), "cannot open the database")


def test_a_database_from_a_newer_version_is_left_alone(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import sqlite3

    path = tmp_path / "newer.db"
    url = f"sqlite:///{path}"
    assert run(capsys, "--db", url, "db", "upgrade").exit_code == 0
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '9999_future'")
    _failed_operationally(
        run(capsys, "--db", url, "project", "list"), "schema revision '9999_future'"
    )
    with sqlite3.connect(path) as connection:
        assert connection.execute("SELECT version_num FROM alembic_version").fetchall() == [
            ("9999_future",)
        ]
